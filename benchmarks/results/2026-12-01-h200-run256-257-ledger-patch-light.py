"""A lighter ticket ledger than ledger_patch.py (probe only): each aq ticket's holder adds one word
when it is done with the ticket, so nothing is added between a ticket and its slot's reads.
Word: bits 0-3 claim holders, 4-7 blind holders, 8 consumed, 9 burnt an empty slot, 10 marked a
value unsafe, 11 found the slot ahead, 12 enqueue installed, 13 an enqueue drew it and moved on,
14 a dequeue CAS lost, 15 the dequeue's first look found a value of its cycle.
usage: python3 ledger_patch2.py TREE"""
import sys
from pathlib import Path

scq = Path(sys.argv[1]) / "queues_cuda/include/gq/scq_ring.cuh"
s = scq.read_text()


def sub(old, new, count=1):
    global s
    assert s.count(old) == count, (old, s.count(old))
    s = s.replace(old, new)


sub("namespace gq {\n\nstruct ScqRing {", """extern "C" {
__device__ uint32_t* gq_ledger;
__device__ unsigned long long gq_ledger_mask;
__device__ const unsigned long long* gq_ledger_ring;
}

namespace gq {

struct ScqRing {""")
sub("  GQ_HD static uint64_t words(uint64_t n) { return hot_round_up(kEntries + 2 * n); }", """  GQ_HD static uint64_t words(uint64_t n) { return hot_round_up(kEntries + 2 * n); }
  __device__ void ladd(uint64_t t, uint32_t add) const {
    if ((const unsigned long long*)base == gq_ledger_ring) atomicAdd(gq_ledger + (t & gq_ledger_mask), add);
  }""")
sub("""        if (seen == e) {
          if ((int64_t)load<mo::seq_cst>(threshold()) != threshold_max()) store<mo::seq_cst>(threshold(), (uint64_t)threshold_max());
          return true;""", """        if (seen == e) {
          if ((int64_t)load<mo::seq_cst>(threshold()) != threshold_max()) store<mo::seq_cst>(threshold(), (uint64_t)threshold_max());
          ladd(t, 1u << 12);
          return true;""")
sub("""      stat.add(kStatRetries);
      if (!spin.step(err, kSiteScqEnqueue, t)) return false;""", """      ladd(t, 1u << 13);
      stat.add(kStatRetries);
      if (!spin.step(err, kSiteScqEnqueue, t)) return false;""")
sub("""      const uint64_t j = h % (2 * n);
      const uint64_t c = cycle_of_ticket(h);
      uint64_t e = load<mo::seq_cst>(entry(j));""", """      const uint64_t j = h % (2 * n);
      const uint64_t c = cycle_of_ticket(h);
      uint64_t e = load<mo::seq_cst>(entry(j));
      uint32_t lw = (blind_now ? 16u : 1u) | ((cycle_of_word(e) == c && !is_bot(index_of(e))) ? 1u << 15 : 0u);""")
sub("""          fetch_or<mo::seq_cst>(entry(j), kBotC);  // CONSUME: index := ⊥c, cycle and safe kept
          return""", """          fetch_or<mo::seq_cst>(entry(j), kBotC);  // CONSUME: index := ⊥c, cycle and safe kept
          ladd(h, lw | 1u << 8);
          return""")
sub("if (!mod_less<kCycleBits>(ec, c)) break;", "if (!mod_less<kCycleBits>(ec, c)) { lw |= 1u << 11; break; }")
sub("""        const uint64_t seen = cas<mo::seq_cst>(entry(j), e, want);
        if (seen == e) break;
        e = seen;""", """        const uint64_t seen = cas<mo::seq_cst>(entry(j), e, want);
        if (seen == e) { lw |= is_bot(index_of(e)) ? 1u << 9 : 1u << 10; break; }
        lw |= 1u << 14;
        e = seen;""")
sub("""      const uint64_t t = load<mo::seq_cst>(tail());
      if ((int64_t)(t - (h + 1)) <= 0) {""", """      ladd(h, lw);
      const uint64_t t = load<mo::seq_cst>(tail());
      if ((int64_t)(t - (h + 1)) <= 0) {""")
scq.write_text(s)
print("ledger (light) patched", scq)
