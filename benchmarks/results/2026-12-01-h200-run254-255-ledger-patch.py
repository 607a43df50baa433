"""Patch the tree in place with a ticket ledger on G-LFQ's aq (probe only, never committed):
every aq ticket's word records who held it and what they did. usage: python3 ledger_patch.py TREE"""
import sys
from pathlib import Path

scq = Path(sys.argv[1]) / "queues_cuda/include/gq/scq_ring.cuh"
s = scq.read_text()


def sub(old, new, count=1):
    global s
    assert s.count(old) == count, (old, s.count(old))
    s = s.replace(old, new)


sub("namespace gq {\n\nstruct ScqRing {", """// Ledger word of ticket t (probe): bits 0-3 claim holders, 4-7 blind holders, 8 consumed, 9 burnt an
// empty slot, 10 marked a value unsafe, 11 found the slot ahead, 12 enqueue installed, 13 enqueue drew
// the ticket, 14 a dequeue CAS lost, 15 the dequeue's first look found a value of its cycle.
extern "C" {
__device__ uint32_t* gq_ledger;
__device__ unsigned long long gq_ledger_mask;
__device__ const unsigned long long* gq_ledger_ring;
}

namespace gq {

struct ScqRing {""")
sub("  GQ_HD static uint64_t words(uint64_t n) { return hot_round_up(kEntries + 2 * n); }", """  GQ_HD static uint64_t words(uint64_t n) { return hot_round_up(kEntries + 2 * n); }
  __device__ void lmark(uint64_t t, uint32_t bits) const {
    if ((const unsigned long long*)base == gq_ledger_ring) atomicOr(gq_ledger + (t & gq_ledger_mask), bits);
  }
  __device__ void lcount(uint64_t t, uint32_t add) const {
    if ((const unsigned long long*)base == gq_ledger_ring) atomicAdd(gq_ledger + (t & gq_ledger_mask), add);
  }""")
sub("""      const uint64_t t = wave_faa<mo::seq_cst>(tail());
      const uint64_t j = t % (2 * n);""", """      const uint64_t t = wave_faa<mo::seq_cst>(tail());
      lmark(t, 1u << 13);
      const uint64_t j = t % (2 * n);""")
sub("""        if (seen == e) {
          if ((int64_t)load<mo::seq_cst>(threshold())""", """        if (seen == e) {
          lmark(t, 1u << 12);
          if ((int64_t)load<mo::seq_cst>(threshold())""")
sub("""      const uint64_t j = h % (2 * n);
      const uint64_t c = cycle_of_ticket(h);
      uint64_t e = load<mo::seq_cst>(entry(j));""", """      lcount(h, blind_now ? 16u : 1u);
      const uint64_t j = h % (2 * n);
      const uint64_t c = cycle_of_ticket(h);
      uint64_t e = load<mo::seq_cst>(entry(j));
      if (cycle_of_word(e) == c && !is_bot(index_of(e))) lmark(h, 1u << 15);""")
sub("""          fetch_or<mo::seq_cst>(entry(j), kBotC);  // CONSUME: index := ⊥c, cycle and safe kept
          return""", """          fetch_or<mo::seq_cst>(entry(j), kBotC);  // CONSUME: index := ⊥c, cycle and safe kept
          lmark(h, 1u << 8);
          return""")
sub("if (!mod_less<kCycleBits>(ec, c)) break;", "if (!mod_less<kCycleBits>(ec, c)) { lmark(h, 1u << 11); break; }")
sub("""        const uint64_t seen = cas<mo::seq_cst>(entry(j), e, want);
        if (seen == e) break;
        e = seen;""", """        const uint64_t seen = cas<mo::seq_cst>(entry(j), e, want);
        if (seen == e) { lmark(h, is_bot(index_of(e)) ? 1u << 9 : 1u << 10); break; }
        lmark(h, 1u << 14);
        e = seen;""")
scq.write_text(s)
print("ledger patched", scq)
