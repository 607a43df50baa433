// host/fifo_search.cpp — the search of linearizability.py, specialised to the strict bounded FIFO
// model (fifo_model.py) and compiled: the same Wing–Gong search with Lowe's memoisation, the same
// two reductions (state-preserving operations placed at once; restarts that keep proven dead
// ends; attempts alternating between priority order and just-in-time order) and the same hints
// (priority order, dead-end test and prerequisites of fifo_model.fifo_hints). It exists for
// speed only: GPU histories of a thousand fully concurrent operations need tens of millions of
// steps. tests/queues_cuda/test_fifo_search.py checks that both engines agree.
//
// The second half of the file is a different decision procedure for the same model, the slot
// search (see its comment), which settles the wide histories this search cannot; gq_fifo_search
// lets the two take turns. tests/queues_cuda/test_fifo_slots.py checks it against this search.
//
// Memo keys are 128-bit fingerprints: a Zobrist hash of the set of placed operations, and a hash
// of the queue contents in which each value is mixed with its absolute enqueue position (which
// (set, contents) determine). A fingerprint collision could only skip a live configuration, so it
// could turn a linearizable verdict into "not linearizable", never the reverse; at 2^-128 per pair
// it is not a practical concern.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <tuple>
#include <cstdint>
#include <random>
#include <unordered_set>
#include <vector>

namespace {

enum Kind : uint8_t { kEnqOk = 0, kEnqFull = 1, kDeqOk = 2, kDeqEmpty = 3 };

// The memo grows by one entry a step; past this many (about 2 GB) the search answers "unknown"
// rather than let the operating system kill it (seen: 24 GB after 25 minutes).
constexpr size_t kMaxStates = 30'000'000;

struct Key {
  uint64_t a, b;
  bool operator==(const Key& o) const { return a == o.a && b == o.b; }
};
struct KeyHash {
  size_t operator()(const Key& k) const { return (size_t)(k.a ^ (k.b * 0x9E3779B97F4A7C15ull)); }
};

uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

struct Search {
  int64_t n;
  const uint8_t* kind;
  const int64_t* vid;
  const int64_t* end;
  int64_t cap;  // < 0: unbounded
  const int64_t* dq_call;  // per value id: call of the dequeue that returned it (or "never")
  std::vector<int64_t> nxt, prv;
  std::vector<uint64_t> zob;
  // Queue contents: buf[head .. size) in order; a value's buffer index is its enqueue position.
  std::vector<int64_t> buf;
  int64_t head = 0;
  std::vector<int64_t> pos_of;  // per value id: buffer index while queued, else -1
  uint64_t set_hash = 0, state_hash = 0;

  int64_t len() const { return (int64_t)buf.size() - head; }
  // Contribution of value v at enqueue position p to the contents hash.
  static uint64_t entry_hash(int64_t v, int64_t p) { return mix((uint64_t)v * 0x100000001B3ull ^ (uint64_t)p); }

  void lift(int64_t i) {
    for (int64_t node : {2 * i, 2 * i + 1}) {
      int64_t p = prv[node], q = nxt[node];
      nxt[p] = q;
      if (q != -1) prv[q] = p;
    }
  }
  void unlift(int64_t i) {
    for (int64_t node : {2 * i + 1, 2 * i}) {
      int64_t p = prv[node], q = nxt[node];
      nxt[p] = node;
      if (q != -1) prv[q] = node;
    }
  }
  bool legal(int64_t i) const {
    switch (kind[i]) {
      case kEnqOk: return cap < 0 || len() < cap;
      case kEnqFull: return cap >= 0 && len() == cap;
      case kDeqOk: return len() > 0 && buf[head] == vid[i];
      default: return len() == 0;
    }
  }
  bool preserving(int64_t i) const { return kind[i] == kEnqFull || kind[i] == kDeqEmpty; }
  void apply(int64_t i) {
    set_hash ^= zob[i];
    if (kind[i] == kEnqOk) {
      const int64_t p = (int64_t)buf.size();
      buf.push_back(vid[i]);
      pos_of[vid[i]] = p;
      state_hash += entry_hash(vid[i], p);
    } else if (kind[i] == kDeqOk) {
      state_hash -= entry_hash(buf[head], head);
      pos_of[buf[head]] = -1;
      ++head;
    }
  }
  void undo(int64_t i) {
    set_hash ^= zob[i];
    if (kind[i] == kEnqOk) {
      const int64_t p = (int64_t)buf.size() - 1;
      state_hash -= entry_hash(buf[p], p);
      pos_of[buf[p]] = -1;
      buf.pop_back();
    } else if (kind[i] == kDeqOk) {
      --head;
      pos_of[buf[head]] = head;
      state_hash += entry_hash(buf[head], head);
    }
  }
  // fifo_model.fifo_hints' dead_end: a dequeue that needs values gone before it returns, while
  // the dequeue of one of them is only called after that return.
  mutable std::vector<int64_t> ahead;  // scratch: ahead[k] = latest dequeue call among buf[head .. head+k)
  bool dead_end(const std::vector<int64_t>& found) const {
    if (len() == 0) return false;
    int64_t latest = -1;
    ahead.clear();
    for (int64_t p = head; p < (int64_t)buf.size(); ++p) {
      ahead.push_back(latest);
      latest = std::max(latest, dq_call[buf[p]]);
    }
    for (int64_t j : found) {
      if (kind[j] == kEnqOk || kind[j] == kEnqFull) continue;
      int64_t must_go_first = latest;
      if (kind[j] == kDeqOk && pos_of[vid[j]] >= head) must_go_first = ahead[(size_t)(pos_of[vid[j]] - head)];
      if (must_go_first > end[j]) return true;
    }
    return false;
  }
};

}  // namespace

extern "C" {

// Returns 1 linearizable, 0 not, -1 out of time or memo room. kind: 0 enqueue ok, 1 enqueue FULL, 2 dequeue
// of a value, 3 dequeue EMPTY; vid: dense id of the value (ids without an enqueue never match);
// rank: search order (lower first); dq_call: per value id. Outputs the steps taken, and for a
// non-linearizable history the longest prefix placed and the candidates where it got stuck.
int gq_fifo_search_wgl(int64_t n, const uint8_t* kind, const int64_t* vid, const int64_t* call, const int64_t* end,
                       int64_t cap, int64_t n_values, const int64_t* rank, const int64_t* dq_call, double timeout_s,
                       int64_t* steps_out, int64_t* prefix_out, int64_t* prefix_len, int64_t* window_out,
                       int64_t* window_len) {
  using clock = std::chrono::steady_clock;
  const auto deadline = clock::now() + std::chrono::duration<double>(timeout_s);
  *steps_out = 0;
  *prefix_len = 0;
  *window_len = 0;
  if (n == 0) return 1;

  Search s{n, kind, vid, end, cap, dq_call, {}, {}, {}, {}, 0, std::vector<int64_t>((size_t)n_values + 1, -1)};
  std::mt19937_64 zrng(0x5EEDull);
  s.zob.resize((size_t)n);
  for (auto& z : s.zob) z = zrng();
  // Event order, fixed for every restart.
  std::vector<int64_t> order((size_t)(2 * n));
  for (int64_t k = 0; k < 2 * n; ++k) order[(size_t)k] = k;
  std::sort(order.begin(), order.end(), [&](int64_t x, int64_t y) {
    const int64_t tx = x % 2 ? end[x / 2] : call[x / 2], ty = y % 2 ? end[y / 2] : call[y / 2];
    return tx < ty;
  });
  std::vector<int64_t> enq_of((size_t)n_values + 1, -1);  // per value id: its successful enqueue
  for (int64_t i = 0; i < n; ++i)
    if (kind[i] == kEnqOk) enq_of[(size_t)vid[i]] = i;
  std::vector<int64_t> ordinal((size_t)n);  // position of each op in the priority order
  {
    std::vector<int64_t> by_rank((size_t)n);
    for (int64_t i = 0; i < n; ++i) by_rank[(size_t)i] = i;
    std::stable_sort(by_rank.begin(), by_rank.end(), [&](int64_t x, int64_t y) { return rank[x] < rank[y]; });
    for (int64_t k = 0; k < n; ++k) ordinal[(size_t)by_rank[(size_t)k]] = k;
  }

  std::unordered_set<Key, KeyHash> dead;
  std::vector<int64_t> best_prefix, best_window, placed;
  int64_t steps = 0, budget = 1 << 16;
  for (int attempt = 0;; ++attempt, budget *= 2) {
    // Fresh event list and queue for this attempt.
    s.nxt.assign((size_t)(2 * n + 1), -1);
    s.prv.assign((size_t)(2 * n + 1), -1);
    int64_t last = 2 * n;
    for (int64_t node : order) {
      s.nxt[(size_t)last] = node;
      s.prv[(size_t)node] = last;
      last = node;
    }
    s.nxt[(size_t)last] = -1;
    s.buf.clear();
    s.head = 0;
    std::fill(s.pos_of.begin(), s.pos_of.end(), -1);
    s.set_hash = s.state_hash = 0;
    placed.clear();
    // Odd attempts order just in time; from the third on, the priority order is shuffled within a
    // window that widens each time (as in linearizability.py).
    const bool jit = attempt % 2 == 1;
    std::vector<double> key_of((size_t)n);
    std::mt19937_64 jrng((uint64_t)attempt);
    const double width = attempt >= 2 ? 4.0 * std::ldexp(1.0, std::min(attempt / 2 - 1, 60)) : 0.0;
    std::uniform_real_distribution<double> u(0.0, width);
    for (int64_t i = 0; i < n; ++i) key_of[(size_t)i] = (double)ordinal[(size_t)i] + (attempt >= 2 ? u(jrng) : 0.0);
    std::vector<char> needed((size_t)n, 0);

    // Frames on one stack: candidates live in `cands`, frame f owns [begin_f, end_f).
    struct Frame { size_t begin, end, next; int64_t op; size_t wbegin, wend; };
    std::vector<int64_t> cands, windows;
    std::vector<uint64_t> path_keys_a, path_keys_b;
    std::vector<Frame> frames;
    std::vector<int64_t> found;
    auto push_frame = [&](int64_t op) {
      found.clear();
      int64_t node = s.nxt[(size_t)(2 * n)];
      for (; node != -1 && node % 2 == 0; node = s.nxt[(size_t)node]) found.push_back(node / 2);
      const int64_t urgent = node == -1 ? -1 : node / 2;  // the operation whose return comes first
      const size_t wb = windows.size();
      windows.insert(windows.end(), found.begin(), found.end());
      const size_t b = cands.size();
      bool alone = false;
      for (int64_t i : found)
        if (s.preserving(i) && s.legal(i)) {
          cands.push_back(i);
          alone = true;
          break;
        }
      if (!alone && !s.dead_end(found)) {
        if (!jit) {
          std::sort(found.begin(), found.end(), [&](int64_t x, int64_t y) { return key_of[(size_t)x] < key_of[(size_t)y]; });
        } else {
          // The operation whose return comes first, then what lets it take effect, then the rest.
          for (int64_t j : found) {
            bool need = false;
            if (urgent >= 0 && kind[urgent] == kEnqFull) need = kind[j] == kEnqOk;
            else if (urgent >= 0) {
              need = kind[j] == kDeqOk && s.len() > 0 && vid[j] == s.buf[(size_t)s.head];
              if (kind[urgent] == kDeqOk && s.pos_of[(size_t)vid[urgent]] < 0 && enq_of[(size_t)vid[urgent]] == j) need = true;
            }
            needed[(size_t)j] = need;
          }
          auto order_key = [&](int64_t x) { return std::make_tuple(x != urgent, !needed[(size_t)x], key_of[(size_t)x]); };
          std::sort(found.begin(), found.end(), [&](int64_t x, int64_t y) { return order_key(x) < order_key(y); });
        }
        cands.insert(cands.end(), found.begin(), found.end());
      }
      frames.push_back(Frame{b, cands.size(), b, op, wb, windows.size()});
    };
    push_frame(-1);
    int outcome = -2;  // -2 running, -1 budget, 0 dead, 1 done
    while (!frames.empty()) {
      ++steps;
      if (steps - *steps_out > budget || ((steps & 4095) == 0 && clock::now() > deadline) ||
          dead.size() > kMaxStates) {
        outcome = -1;
        break;
      }
      Frame& f = frames.back();
      bool advanced = false;
      while (f.next < f.end) {
        const int64_t i = cands[f.next++];
        if (!s.legal(i)) continue;
        s.apply(i);
        const Key key{s.set_hash, s.state_hash};
        if (dead.count(key)) {
          s.undo(i);
          continue;
        }
        dead.insert(key);
        path_keys_a.push_back(key.a);
        path_keys_b.push_back(key.b);
        s.lift(i);
        placed.push_back(i);
        if ((int64_t)placed.size() == n) return *steps_out = steps, 1;
        if (placed.size() > best_prefix.size()) {
          best_prefix = placed;
          best_window.clear();
        }
        push_frame(i);
        advanced = true;
        break;
      }
      if (advanced) continue;
      Frame done = frames.back();
      if (placed.size() == best_prefix.size() && best_window.empty())
        best_window.assign(windows.begin() + (long)done.wbegin, windows.begin() + (long)done.wend);
      frames.pop_back();
      cands.resize(done.begin);
      windows.resize(done.wbegin);
      if (done.op >= 0) {
        path_keys_a.pop_back();
        path_keys_b.pop_back();
        placed.pop_back();
        s.unlift(done.op);
        s.undo(done.op);
      }
    }
    if (outcome == -2) outcome = 0;
    if (outcome == -1)  // unsettled configurations on the abandoned path are not dead ends
      for (size_t k = 0; k < path_keys_a.size(); ++k) dead.erase(Key{path_keys_a[k], path_keys_b[k]});
    *steps_out = steps;
    if (outcome == 0) {
      *prefix_len = (int64_t)best_prefix.size();
      std::copy(best_prefix.begin(), best_prefix.end(), prefix_out);
      *window_len = (int64_t)best_window.size();
      std::copy(best_window.begin(), best_window.end(), window_out);
      return 0;
    }
    if (clock::now() > deadline || dead.size() > kMaxStates) return -1;
  }
}

}  // extern "C"

// ---------------------------------------------------------------------------------------------
// The slot search: a second decision procedure for the same question, built for wide histories
// (hundreds of fully overlapping operations, many FULL and EMPTY answers) where the search above
// drowns in orders of enqueues it cannot tell apart.
//
// It rests on four facts about a bounded FIFO queue with distinct values:
//  1. Linearization points may be pushed right until they meet a return: every linearization can
//     be rearranged so that all points sit just before some return event, keeping their order.
//     So time is the sequence of returns: "point r" is the instant just before the r-th return,
//     and an operation may take effect at point r iff it was called before that return and returns
//     at it or later (pf <= r <= rr below).
//  2. Which value an enqueue put in the queue need not be decided when it takes effect. The search
//     creates anonymous slots (an enqueue took effect at point r, value to be named); a dequeue of
//     v takes the oldest slot and names it v, which needs v's enqueue to be pending at the slot's
//     point. A slot left in the queue must still be named by some value whose enqueue was pending
//     at its point, and every enqueue that has returned must own a slot; the check below keeps that
//     possible (a bipartite matching between slots and values, intervals on a line). Values whose
//     enqueues are interchangeable in every respect no longer multiply the search.
//  3. A FULL or EMPTY answer changes nothing: it only needs the size to be C (resp. 0) at some
//     point in its interval. Whenever the size touches C at point r, every pending FULL answer is
//     satisfied at once; so which FULL answers are satisfied is fixed by the last point where the
//     size touched C (likewise 0 for EMPTY), and the state only needs those two numbers.
//  4. Of two values that may both be dequeued now, one whose enqueue and dequeue both return no
//     later than the other's is at least as good to dequeue first (swap their roles in any
//     continuation); so only the Pareto-minimal candidates are tried.
// The state is then (point, classes of the queued slots, set of dequeued values, the two touch
// points), memoised as in Lowe's search; the pruning check is a necessary condition only, and a
// "linearizable" answer is replayed against the sequential model before it is returned.
namespace slots {

constexpr int64_t kInf = INT64_MAX / 4;

struct Item {
  int64_t v, lo, hi, lo2, hi2;
  bool mand;
};

struct Act {
  int64_t type;  // 0 enqueue (new slot), 1 dequeue (arg: the dequeue op), 2 advance past point r
  int64_t r, arg;
};

struct Engine {
  int64_t n = 0, cap = kInf, V = 0;
  const uint8_t* kind = nullptr;
  const int64_t* vid = nullptr;
  std::vector<int64_t> ret, pf, rr;     // per point: returning op; per op: first and last point
  std::vector<int64_t> eop, dop;        // per value: its successful enqueue, its dequeue (-1: none)
  std::vector<int64_t> tau, drr;        // per value: pf and rr of its dequeue (kInf: never dequeued)
  std::vector<int64_t> cls;             // per point: slot class (same admissibility for all values)
  std::vector<int64_t> m_pf, f_pf;      // sorted first points of EMPTY / FULL answers
  std::vector<uint64_t> zob;            // per value
  // State.
  std::vector<int64_t> q_pt;            // slot points, oldest first from q_head
  size_t q_head = 0;
  std::vector<char> done;               // per value: dequeued
  uint64_t q_hash = 0, done_hash = 0;
  int64_t created = 0;
  // Scratch for the check.
  std::vector<Item> items;
  std::vector<int64_t> sp, order_a, order_b, ptau, pmin, heap;
  std::vector<std::pair<int64_t, int64_t>> ev;
  std::vector<std::pair<int64_t, int64_t>> m_ops, f_ops;  // (pf, rr) of EMPTY / FULL answers, sorted

  int64_t qsize() const { return (int64_t)(q_pt.size() - q_head); }
  static uint64_t slot_hash(int64_t c, int64_t pos) { return mix((uint64_t)c * 0x100000001B3ull ^ ((uint64_t)pos << 1)); }

  void push_slot(int64_t r) {
    q_pt.push_back(r);
    q_hash += slot_hash(cls[(size_t)r], created);
    ++created;
  }
  void pop_slot_back() {
    --created;
    q_hash -= slot_hash(cls[(size_t)q_pt.back()], created);
    q_pt.pop_back();
  }
  void dequeue(int64_t v) {  // the oldest slot becomes v's
    const int64_t pos = created - qsize();
    q_hash -= slot_hash(cls[(size_t)q_pt[q_head]], pos);
    ++q_head;
    done[(size_t)v] = 1;
    done_hash ^= zob[(size_t)v];
  }
  void undequeue(int64_t v) {
    --q_head;
    const int64_t pos = created - qsize();
    q_hash += slot_hash(cls[(size_t)q_pt[q_head]], pos);
    done[(size_t)v] = 0;
    done_hash ^= zob[(size_t)v];
  }

  // A necessary condition for the state at point r to have a continuation: the queued slots can
  // be named. Values in W (enqueue called by point r, not dequeued) are the candidates; those
  // whose enqueue returned by `mand_limit` must own a slot now. A value dequeued before a value
  // that owns a slot was enqueued before it (FIFO), so it owns an earlier slot: u precedes v when
  // u's dequeue returns before v's is called, or v is never dequeued. That tightens each value's
  // window of slot positions [lo, hi] (release times and deadlines pushed along the precedences);
  // then two interval matchings by earliest deadline (every slot named; every value that must own
  // a slot owns one) are exact for the windows, and by Mendelsohn-Dulmage both together are.
  // The earliest return among answers in `ops` (pairs (pf, rr) sorted) pending at point r and
  // called after point `last` (so not yet satisfied); kInf when none.
  static int64_t urgent(const std::vector<std::pair<int64_t, int64_t>>& ops, int64_t last, int64_t r) {
    auto b = std::upper_bound(ops.begin(), ops.end(), std::make_pair(last, kInf));
    auto e = std::upper_bound(ops.begin(), ops.end(), std::make_pair(r, kInf));
    int64_t best = kInf;
    for (auto it = b; it < e; ++it)
      if (it->second >= r) best = std::min(best, it->second);
    return best;
  }

  bool can_fill(int64_t r, int64_t by) {
    if (cap >= kInf) return false;
    int64_t size = 0;
    ev.clear();
    for (int64_t v = 0; v < V; ++v) {
      if (done[(size_t)v]) continue;
      const int64_t e = eop[(size_t)v];
      if (pf[(size_t)e] <= r) ++size;
      else if (pf[(size_t)e] <= by) ev.push_back({pf[(size_t)e], +1});
      if (drr[(size_t)v] < r) --size;  // cannot happen in a live state; kept for safety
      else if (drr[(size_t)v] < by) ev.push_back({drr[(size_t)v] + 1, -1});
    }
    if (size >= cap) return true;
    std::sort(ev.begin(), ev.end());
    for (size_t k = 0; k < ev.size();) {
      const int64_t t = ev[k].first;
      for (; k < ev.size() && ev[k].first == t; ++k) size += ev[k].second;
      if (size >= cap) return true;
    }
    return false;
  }

  bool feasible(int64_t r, int64_t mand_limit, int64_t l0, int64_t lC) {
    const int64_t q = qsize();
    sp.assign(q_pt.begin() + (long)q_head, q_pt.end());
    items.clear();
    int64_t T = -1;  // latest dequeue call (kInf: never) among values that must own a slot
    for (int64_t v = 0; v < V; ++v) {
      if (done[(size_t)v]) continue;
      const int64_t e = eop[(size_t)v];
      if (pf[(size_t)e] > r) continue;
      Item it{v, 0, 0, 0, 0, false};
      it.lo = std::lower_bound(sp.begin(), sp.end(), pf[(size_t)e]) - sp.begin();
      it.mand = rr[(size_t)e] <= mand_limit;
      it.hi = it.mand ? (std::upper_bound(sp.begin(), sp.end(), rr[(size_t)e]) - sp.begin()) - 1 : q - 1;
      if (it.mand) T = std::max(T, tau[(size_t)v]);
      items.push_back(it);
    }
    if (T >= 0) {
      for (auto& it : items)
        if (!it.mand && dop[(size_t)it.v] >= 0 && drr[(size_t)it.v] < T) it.mand = true;
      for (int64_t v = 0; v < V; ++v)  // must already be queued, yet not even called
        if (!done[(size_t)v] && dop[(size_t)v] >= 0 && drr[(size_t)v] < T && pf[(size_t)eop[(size_t)v]] > r) return false;
    }
    const size_t m = items.size();
    // Deadlines: a value must sit before every value that must own a slot and follows it.
    order_a.clear();
    for (size_t k = 0; k < m; ++k)
      if (items[k].mand) order_a.push_back((int64_t)k);
    if ((int64_t)order_a.size() > q) return false;
    std::sort(order_a.begin(), order_a.end(), [&](int64_t x, int64_t y) { return tau[(size_t)items[(size_t)x].v] > tau[(size_t)items[(size_t)y].v]; });
    ptau.clear();
    pmin.clear();
    for (int64_t k : order_a) {
      Item& it = items[(size_t)k];
      const int64_t x = drr[(size_t)it.v];
      const size_t cnt = (size_t)(std::partition_point(ptau.begin(), ptau.end(), [x](int64_t t) { return t > x; }) - ptau.begin());
      it.hi2 = cnt ? std::min(it.hi, pmin[cnt - 1] - 1) : it.hi;
      ptau.push_back(tau[(size_t)it.v]);
      pmin.push_back(pmin.empty() ? it.hi2 : std::min(pmin.back(), it.hi2));
    }
    for (auto& it : items)
      if (!it.mand) it.hi2 = it.hi;
    // Release times: a value placed in a slot comes after every queued value that precedes it.
    order_a.resize(m);
    order_b.clear();
    for (size_t k = 0; k < m; ++k) {
      order_a[k] = (int64_t)k;
      if (dop[(size_t)items[k].v] >= 0) order_b.push_back((int64_t)k);
    }
    std::sort(order_a.begin(), order_a.end(), [&](int64_t x, int64_t y) { return tau[(size_t)items[(size_t)x].v] < tau[(size_t)items[(size_t)y].v]; });
    std::sort(order_b.begin(), order_b.end(), [&](int64_t x, int64_t y) { return drr[(size_t)items[(size_t)x].v] < drr[(size_t)items[(size_t)y].v]; });
    int64_t floor = 0;
    for (size_t j = 0, kk = 0; kk < order_a.size(); ++kk) {
      const int64_t k = order_a[kk];
      Item& it = items[(size_t)k];
      while (j < order_b.size() && drr[(size_t)items[(size_t)order_b[j]].v] < tau[(size_t)it.v]) {
        floor = std::max(floor, items[(size_t)order_b[j]].lo2 + 1);
        ++j;
      }
      it.lo2 = std::max(it.lo, floor);
    }
    for (auto& it : items)
      if (it.mand && it.lo2 > it.hi2) return false;
    // Every slot named (earliest deadline first over all usable windows).
    order_a.clear();
    for (size_t k = 0; k < m; ++k)
      if (items[k].lo2 <= items[k].hi2) order_a.push_back((int64_t)k);
    std::sort(order_a.begin(), order_a.end(), [&](int64_t x, int64_t y) { return items[(size_t)x].lo2 < items[(size_t)y].lo2; });
    auto cmp = [](int64_t a, int64_t b) { return a > b; };  // min-heap of deadlines
    auto all_named = [&](int64_t latest_tau) {  // only by values dequeued from `latest_tau` on
      heap.clear();
      size_t j = 0;
      for (int64_t p = 0; p < q; ++p) {
        while (j < order_a.size() && items[(size_t)order_a[j]].lo2 <= p) {
          if (tau[(size_t)items[(size_t)order_a[j]].v] <= latest_tau) {
            heap.push_back(items[(size_t)order_a[j]].hi2);
            std::push_heap(heap.begin(), heap.end(), cmp);
          }
          ++j;
        }
        while (!heap.empty() && heap.front() < p) {
          std::pop_heap(heap.begin(), heap.end(), cmp);
          heap.pop_back();
        }
        if (heap.empty()) return false;
        std::pop_heap(heap.begin(), heap.end(), cmp);
        heap.pop_back();
      }
      return true;
    };
    if (!all_named(kInf)) return false;
    // An EMPTY answer still waiting (called after the last point where the size was 0) needs the
    // queue empty again by its return: every slot queued now must by then be dequeued, so named by
    // a value whose dequeue is called by then.
    const int64_t empty_by = urgent(m_ops, l0, r);
    if (empty_by < kInf) {
      for (auto& it : items)
        if (it.mand && tau[(size_t)it.v] > empty_by) return false;
      if (!all_named(empty_by)) return false;
    }
    // A FULL answer still waiting needs C values queued at some point by its return. At point t
    // the queue holds at most the values not yet dequeued whose enqueues are called by t, less
    // those whose dequeues return before t.
    const int64_t full_by = urgent(f_ops, lC, r);
    if (full_by < kInf && !can_fill(r, full_by)) return false;
    // Every value that must own a slot owns one.
    heap.clear();
    size_t placed = 0, mcount = 0;
    size_t j = 0;
    for (size_t k = 0; k < order_a.size(); ++k) mcount += items[(size_t)order_a[k]].mand;
    for (int64_t p = 0; p < q; ++p) {
      while (j < order_a.size() && items[(size_t)order_a[j]].lo2 <= p) {
        if (items[(size_t)order_a[j]].mand) {
          heap.push_back(items[(size_t)order_a[j]].hi2);
          std::push_heap(heap.begin(), heap.end(), cmp);
        }
        ++j;
      }
      if (!heap.empty()) {
        if (heap.front() < p) return false;
        std::pop_heap(heap.begin(), heap.end(), cmp);
        heap.pop_back();
        ++placed;
      }
    }
    return placed == mcount;
  }
};

}  // namespace slots

namespace slots {

enum Setup { kReady, kRefuted, kNotApplicable };

// Refutations that need no search, each by a few operations (Henzinger et al.'s bad patterns for
// queues, and counting for FULL answers); the search would find each of them too, but only on
// reaching the place, after exploring every way to get there. The counter-example: `lead` (a
// legal sequence of some of the operations) and `stuck` (the operations that cannot follow).
bool bad_pattern(int64_t n, const uint8_t* kind, const int64_t* call, const int64_t* end, int64_t cap,
                 const std::vector<int64_t>& eop, const std::vector<int64_t>& dop, std::vector<int64_t>& lead,
                 std::vector<int64_t>& stuck) {
  const int64_t V = (int64_t)eop.size();
  auto cE = [&](int64_t v) { return call[eop[(size_t)v]]; };
  auto eE = [&](int64_t v) { return end[eop[(size_t)v]]; };
  // A value dequeued before its enqueue was called.
  for (int64_t v = 0; v < V; ++v)
    if (dop[(size_t)v] >= 0 && end[dop[(size_t)v]] < cE(v)) {
      stuck = {dop[(size_t)v], eop[(size_t)v]};
      return true;
    }
  std::vector<int64_t> by_eE((size_t)V), by_cE((size_t)V);
  for (int64_t v = 0; v < V; ++v) by_eE[(size_t)v] = by_cE[(size_t)v] = v;
  std::sort(by_eE.begin(), by_eE.end(), [&](int64_t x, int64_t y) { return eE(x) < eE(y); });
  std::sort(by_cE.begin(), by_cE.end(), [&](int64_t x, int64_t y) { return cE(x) < cE(y); });
  // u enqueued before v (in real time) yet v dequeued before u, or u never dequeued at all: for
  // each v, the value enqueued before it whose dequeue is called latest (never: latest of all).
  {
    int64_t arg = -1;
    size_t k = 0;
    auto dq_call = [&](int64_t u) { return dop[(size_t)u] >= 0 ? call[dop[(size_t)u]] : INT64_MAX; };
    for (int64_t v : by_cE) {
      while (k < by_eE.size() && eE(by_eE[k]) < cE(v)) {
        if (arg < 0 || dq_call(by_eE[k]) > dq_call(arg)) arg = by_eE[k];
        ++k;
      }
      if (arg < 0 || dop[(size_t)v] < 0) continue;
      if (dop[(size_t)arg] < 0 || dq_call(arg) > end[dop[(size_t)v]]) {
        lead = {eop[(size_t)arg], eop[(size_t)v]};  // queue: arg, v; then v cannot come out first
        stuck = {dop[(size_t)v]};
        if (dop[(size_t)arg] >= 0) stuck.push_back(dop[(size_t)arg]);
        return true;
      }
    }
  }
  std::vector<int64_t> order((size_t)n);
  for (int64_t i = 0; i < n; ++i) order[(size_t)i] = i;
  std::sort(order.begin(), order.end(), [&](int64_t x, int64_t y) { return call[x] < call[y]; });
  // An EMPTY answer while some value was certainly queued: enqueue returned before it was called,
  // dequeue called after it returned (or never).
  {
    int64_t arg = -1;
    size_t k = 0;
    auto dq_call = [&](int64_t u) { return dop[(size_t)u] >= 0 ? call[dop[(size_t)u]] : INT64_MAX; };
    for (int64_t i : order) {
      if (kind[i] != kDeqEmpty) continue;
      while (k < by_eE.size() && eE(by_eE[k]) < call[i]) {
        if (arg < 0 || dq_call(by_eE[k]) > dq_call(arg)) arg = by_eE[k];
        ++k;
      }
      if (arg >= 0 && dq_call(arg) > end[i]) {
        lead = {eop[(size_t)arg]};  // queued before the answer was called, still there after it
        stuck = {i};
        if (dop[(size_t)arg] >= 0) stuck.push_back(dop[(size_t)arg]);
        return true;
      }
    }
  }
  // A FULL answer when fewer than C values can have been queued: enqueues called before it
  // returned, less dequeues that returned before it was called.
  if (cap >= 0) {
    std::vector<int64_t> enq_calls, deq_ends;
    for (int64_t i = 0; i < n; ++i) {
      if (kind[i] == kEnqOk) enq_calls.push_back(call[i]);
      if (kind[i] == kDeqOk) deq_ends.push_back(end[i]);
    }
    std::sort(enq_calls.begin(), enq_calls.end());
    std::sort(deq_ends.begin(), deq_ends.end());
    for (int64_t i = 0; i < n; ++i) {
      if (kind[i] != kEnqFull) continue;
      const int64_t most = (std::lower_bound(enq_calls.begin(), enq_calls.end(), end[i]) - enq_calls.begin()) -
                           (std::lower_bound(deq_ends.begin(), deq_ends.end(), call[i]) - deq_ends.begin());
      if (most < cap) {
        stuck = {i};
        return true;
      }
    }
  } else {
    for (int64_t i = 0; i < n; ++i)
      if (kind[i] == kEnqFull) {  // an unbounded queue is never full
        stuck = {i};
        return true;
      }
  }
  return false;
}

// Points, windows and values of the history. A dequeue of a value no enqueue put in, a second
// dequeue of one value, or a bad pattern refutes the history outright (`lead`, `stuck`: the
// counter-example).
Setup prepare(Engine& g, int64_t n, const uint8_t* kind, const int64_t* vid, const int64_t* call, const int64_t* end,
              int64_t cap, int64_t n_values, std::vector<int64_t>& lead, std::vector<int64_t>& stuck) {
  g.n = n;
  g.kind = kind;
  g.vid = vid;
  g.cap = cap < 0 ? kInf : cap;
  g.V = n_values;
  g.ret.resize((size_t)n);
  for (int64_t i = 0; i < n; ++i) g.ret[(size_t)i] = i;
  std::sort(g.ret.begin(), g.ret.end(), [&](int64_t x, int64_t y) { return end[x] < end[y]; });
  std::vector<int64_t> ends((size_t)n);
  g.pf.resize((size_t)n);
  g.rr.resize((size_t)n);
  for (int64_t r = 0; r < n; ++r) {
    ends[(size_t)r] = end[g.ret[(size_t)r]];
    g.rr[(size_t)g.ret[(size_t)r]] = r;
  }
  for (int64_t i = 0; i < n; ++i) g.pf[(size_t)i] = std::lower_bound(ends.begin(), ends.end(), call[i]) - ends.begin();
  g.eop.assign((size_t)n_values, -1);
  g.dop.assign((size_t)n_values, -1);
  for (int64_t i = 0; i < n; ++i) {
    if (kind[i] != kEnqOk) continue;
    if (vid[i] < 0 || vid[i] >= n_values || g.eop[(size_t)vid[i]] >= 0) return kNotApplicable;
    g.eop[(size_t)vid[i]] = i;
  }
  for (int64_t v = 0; v < n_values; ++v)
    if (g.eop[(size_t)v] < 0) return kNotApplicable;
  for (int64_t i = 0; i < n; ++i) {
    if (kind[i] != kDeqOk) continue;
    if (vid[i] < 0 || vid[i] >= n_values) {  // a value no successful enqueue put in
      stuck = {i};
      return kRefuted;
    }
    if (g.dop[(size_t)vid[i]] >= 0) {  // a value dequeued twice
      lead = {g.eop[(size_t)vid[i]], g.dop[(size_t)vid[i]]};
      stuck = {i};
      return kRefuted;
    }
    g.dop[(size_t)vid[i]] = i;
  }
  if (bad_pattern(n, kind, call, end, cap, g.eop, g.dop, lead, stuck)) return kRefuted;
  g.tau.assign((size_t)n_values, kInf);
  g.drr.assign((size_t)n_values, kInf);
  for (int64_t v = 0; v < n_values; ++v)
    if (g.dop[(size_t)v] >= 0) {
      g.tau[(size_t)v] = g.pf[(size_t)g.dop[(size_t)v]];
      g.drr[(size_t)v] = g.rr[(size_t)g.dop[(size_t)v]];
    }
  // Two points are in one slot class when no successful enqueue starts or stops being pending
  // between them: a slot at either is admissible for exactly the same values.
  std::vector<char> mark((size_t)n + 1, 0);
  for (int64_t v = 0; v < n_values; ++v) {
    const int64_t e = g.eop[(size_t)v];
    mark[(size_t)g.pf[(size_t)e]] = 1;
    mark[(size_t)g.rr[(size_t)e] + 1] = 1;
  }
  g.cls.resize((size_t)n);
  int64_t c = 0;
  for (int64_t r = 0; r < n; ++r) {
    if (r > 0 && mark[(size_t)r]) ++c;
    g.cls[(size_t)r] = c;
  }
  for (int64_t i = 0; i < n; ++i) {
    if (kind[i] == kDeqEmpty) g.m_pf.push_back(g.pf[(size_t)i]);
    if (kind[i] == kEnqFull) g.f_pf.push_back(g.pf[(size_t)i]);
  }
  for (int64_t i = 0; i < n; ++i) {
    if (kind[i] == kDeqEmpty) g.m_ops.push_back({g.pf[(size_t)i], g.rr[(size_t)i]});
    if (kind[i] == kEnqFull) g.f_ops.push_back({g.pf[(size_t)i], g.rr[(size_t)i]});
  }
  std::sort(g.m_ops.begin(), g.m_ops.end());
  std::sort(g.f_ops.begin(), g.f_ops.end());
  std::sort(g.m_pf.begin(), g.m_pf.end());
  std::sort(g.f_pf.begin(), g.f_pf.end());
  std::mt19937_64 zrng(0x5107ull);
  g.zob.resize((size_t)n_values);
  for (auto& z : g.zob) z = zrng();
  g.done.assign((size_t)n_values, 0);
  return kReady;
}

// Turns a path of actions into an order of operations: slots get their values (dequeued ones
// from their dequeues, the rest by an earliest-deadline matching), FULL and EMPTY answers go where
// the size touches C or 0 while they are pending. `complete`: the path is a whole linearization,
// and the order is replayed against the sequential model (true only if it passes). Otherwise the
// order is the longest prefix it can name, for a counter-example.
bool order_of(const Engine& g, const std::vector<Act>& path, int64_t upto, bool complete, std::vector<int64_t>& out) {
  const int64_t n = g.n;
  std::vector<int64_t> slot_pt, slot_val, queue;
  size_t head = 0;
  for (const Act& a : path) {
    if (a.type == 0) {
      queue.push_back((int64_t)slot_pt.size());
      slot_pt.push_back(a.r);
      slot_val.push_back(-1);
    } else if (a.type == 1) {
      if (head >= queue.size()) return false;
      slot_val[(size_t)queue[head++]] = g.vid[a.arg];
    }
  }
  std::vector<char> named((size_t)g.V, 0);
  for (int64_t v : slot_val)
    if (v >= 0) named[(size_t)v] = 1;
  {  // the slots still queued: earliest enqueue return first among admissible values
    std::vector<int64_t> cand;
    for (int64_t v = 0; v < g.V; ++v)
      if (!named[(size_t)v] && g.pf[(size_t)g.eop[(size_t)v]] <= upto) cand.push_back(v);
    std::sort(cand.begin(), cand.end(), [&](int64_t x, int64_t y) { return g.pf[(size_t)g.eop[(size_t)x]] < g.pf[(size_t)g.eop[(size_t)y]]; });
    std::vector<std::pair<int64_t, int64_t>> hp;  // (-rr of the enqueue, value) as a max-heap
    size_t k = 0;
    for (size_t s = head; s < queue.size(); ++s) {
      const int64_t p = slot_pt[(size_t)queue[s]];
      while (k < cand.size() && g.pf[(size_t)g.eop[(size_t)cand[k]]] <= p) {
        hp.push_back({-g.rr[(size_t)g.eop[(size_t)cand[k]]], cand[k]});
        std::push_heap(hp.begin(), hp.end());
        ++k;
      }
      while (!hp.empty() && -hp.front().first < p) {
        std::pop_heap(hp.begin(), hp.end());
        hp.pop_back();
      }
      if (hp.empty()) {
        if (complete) return false;
        continue;
      }
      slot_val[(size_t)queue[s]] = hp.front().second;
      std::pop_heap(hp.begin(), hp.end());
      hp.pop_back();
    }
  }
  // Replay the path, placing answers that leave the queue unchanged as soon as the size allows.
  std::vector<int64_t> at((size_t)n, -1);
  std::vector<int64_t> fulls, empties;  // called, not yet placed
  std::vector<int64_t> by_pf((size_t)n);
  for (int64_t i = 0; i < n; ++i) by_pf[(size_t)i] = i;
  std::sort(by_pf.begin(), by_pf.end(), [&](int64_t x, int64_t y) { return g.pf[(size_t)x] < g.pf[(size_t)y]; });
  size_t called = 0;
  int64_t r = 0, size = 0, next_slot = 0;
  out.clear();
  auto place = [&](int64_t i) {
    at[(size_t)i] = r;
    out.push_back(i);
  };
  auto touch = [&]() {
    while (called < by_pf.size() && g.pf[(size_t)by_pf[called]] <= r) {
      const int64_t i = by_pf[called++];
      if (g.kind[i] == kEnqFull) fulls.push_back(i);
      if (g.kind[i] == kDeqEmpty) empties.push_back(i);
    }
    std::vector<int64_t>* list = size == g.cap ? &fulls : size == 0 ? &empties : nullptr;
    if (!list) return;
    std::vector<int64_t> keep;
    for (int64_t i : *list)
      if (g.rr[(size_t)i] >= r) place(i);
      else keep.push_back(i);
    list->swap(keep);
  };
  touch();
  for (const Act& a : path) {
    if (a.type == 0) {
      const int64_t v = slot_val[(size_t)next_slot++];
      if (v >= 0) place(g.eop[(size_t)v]);
      ++size;
    } else if (a.type == 1) {
      place(a.arg);
      --size;
    } else {
      ++r;
    }
    touch();
  }
  if (!complete) return true;
  // The replay: every operation once, inside its interval, legal in the sequential model.
  if ((int64_t)out.size() != n) return false;
  std::vector<char> seen((size_t)n, 0);
  std::vector<int64_t> model;
  size_t mhead = 0;
  for (int64_t i : out) {
    if (seen[(size_t)i] || at[(size_t)i] < g.pf[(size_t)i] || at[(size_t)i] > g.rr[(size_t)i]) return false;
    seen[(size_t)i] = 1;
    const int64_t len = (int64_t)(model.size() - mhead);
    switch (g.kind[i]) {
      case kEnqOk:
        if (len >= g.cap) return false;
        model.push_back(g.vid[i]);
        break;
      case kEnqFull:
        if (len != g.cap) return false;
        break;
      case kDeqOk:
        if (len == 0 || model[mhead] != g.vid[i]) return false;
        ++mhead;
        break;
      default:
        if (len != 0) return false;
    }
  }
  return true;
}

// The depth-first search, restarted with another order of trying the actions when a step budget
// runs out (budgets double, so the total stays within twice the last attempt): attempt 0 is lazy
// (advance, then dequeue, then enqueue), the next ones eager to enqueue or to dequeue, later ones
// shuffled. Configurations fully explored stay in the memo across attempts (they are dead ends
// whatever the order); those on the abandoned path are dropped. Returns 1 (with the witness
// order), 0 (with the deepest point reached and the path there), -1 out of time or memo room, -2
// a witness failed its replay (a bug).
int search(Engine& g, double timeout_s, size_t max_states, int64_t& steps, std::vector<int64_t>& witness,
           std::vector<Act>& best_path, int64_t& best_r) {
  using clock = std::chrono::steady_clock;
  const auto deadline = clock::now() + std::chrono::duration<double>(timeout_s);
  const int64_t n = g.n;
  struct Node {
    int64_t r, l0, lC;
    size_t abegin, aend, next;
    Act how;
    Key key;
  };
  std::vector<int64_t> acts;  // -1 advance, -2 enqueue, d >= 0 dequeue op d
  std::vector<Node> stack;
  std::vector<Act> path;
  std::unordered_set<Key, KeyHash> seen;
  std::vector<std::tuple<int64_t, int64_t, int64_t>> cands;
  auto canon = [](const std::vector<int64_t>& pfs, int64_t l) {
    return (uint64_t)(std::upper_bound(pfs.begin(), pfs.end(), l) - pfs.begin());
  };
  auto key_of = [&](int64_t r, int64_t l0, int64_t lC) {
    return Key{mix(g.q_hash ^ mix((uint64_t)r)), mix(g.done_hash ^ mix((canon(g.m_pf, l0) << 32) ^ canon(g.f_pf, lC) ^ 0xABCDull))};
  };
  int mode = 0;
  std::mt19937_64 rng(1);
  // Every action that may follow; the order only steers the search.
  auto generate = [&](Node& nd) {
    nd.abegin = nd.next = acts.size();
    acts.push_back(-1);
    if (g.qsize() > 0) {
      const int64_t hp = g.q_pt[g.q_head];
      cands.clear();
      for (int64_t v = 0; v < g.V; ++v) {
        const int64_t d = g.dop[(size_t)v], e = g.eop[(size_t)v];
        if (d < 0 || g.done[(size_t)v] || g.pf[(size_t)d] > nd.r || g.rr[(size_t)d] < nd.r) continue;
        if (g.pf[(size_t)e] > hp || g.rr[(size_t)e] < hp) continue;
        cands.emplace_back(g.rr[(size_t)e], g.rr[(size_t)d], d);
      }
      std::sort(cands.begin(), cands.end());
      int64_t best = kInf;
      for (auto& [re, rd, d] : cands)
        if (rd < best) {  // Pareto-minimal (fact 4)
          acts.push_back(d);
          best = rd;
        }
    }
    if (g.qsize() < g.cap) acts.push_back(-2);
    nd.aend = acts.size();
    const auto first = acts.begin() + (long)nd.abegin;
    const bool enq = acts.back() == -2;
    switch (mode) {
      case 0: break;                                        // advance, dequeues, enqueue
      case 1:                                               // enqueue, advance, dequeues
        if (enq) std::rotate(first, acts.end() - 1, acts.end());
        break;
      case 2: std::rotate(first, first + 1, acts.end()); break;  // dequeues, enqueue, advance
      case 3: std::reverse(first, acts.end()); break;            // enqueue, dequeues reversed, advance
      default: std::shuffle(first, acts.end(), rng);
    }
  };
  auto undo = [&](const Act& how) {
    if (how.type == 0) g.pop_slot_back();
    else if (how.type == 1) g.undequeue(g.vid[how.arg]);
  };
  best_r = 0;
  best_path.clear();
  const int64_t lC0 = g.cap == 0 ? 0 : -1;
  const Key root = key_of(0, 0, lC0);
  if (!g.feasible(0, -1, 0, lC0)) return 0;
  int64_t budget = 1 << 15;
  for (int attempt = 0;; ++attempt, budget *= 2) {
    mode = attempt < 4 ? attempt : 4;
    rng.seed((uint64_t)attempt);
    const int64_t stop = steps + budget;
    seen.insert(root);
    stack.push_back(Node{0, 0, lC0, 0, 0, 0, Act{-1, 0, 0}, root});
    generate(stack.back());
    bool out_of_budget = false;
    while (!stack.empty()) {
      ++steps;
      if (((steps & 1023) == 0 && clock::now() > deadline) || seen.size() > max_states || steps > stop) {
        out_of_budget = true;
        break;
      }
      Node& nd = stack.back();
      if (nd.next == nd.aend) {  // settled: a dead end whatever the order
        const Node gone = nd;
        stack.pop_back();
        acts.resize(gone.abegin);
        if (gone.how.type >= 0) {
          undo(gone.how);
          path.pop_back();
        }
        continue;
      }
      const int64_t a = acts[nd.next++];
      int64_t r = nd.r, l0 = nd.l0, lC = nd.lC;
      Act how{};
      if (a == -1) {
        const int64_t x = g.ret[(size_t)r];
        if (g.kind[x] == kDeqOk && !g.done[(size_t)g.vid[x]]) continue;
        if (g.kind[x] == kEnqFull && lC < g.pf[(size_t)x]) continue;
        if (g.kind[x] == kDeqEmpty && l0 < g.pf[(size_t)x]) continue;
        if (!g.feasible(r, r, l0, lC)) continue;
        how = Act{2, r, 0};
        if (r + 1 == n) {
          path.push_back(how);
          if (!order_of(g, path, n, true, witness)) return -2;
          return 1;
        }
        ++r;
        if (g.qsize() == 0) l0 = r;
        if (g.qsize() == g.cap) lC = r;
      } else if (a == -2) {
        g.push_slot(r);
        how = Act{0, r, 0};
        if (g.qsize() == g.cap) lC = r;
      } else {
        g.dequeue(g.vid[a]);
        how = Act{1, r, a};
        if (g.qsize() == 0) l0 = r;
      }
      const Key key = key_of(r, l0, lC);
      if (!seen.insert(key).second || !g.feasible(r, r - 1, l0, lC)) {
        undo(how);
        continue;
      }
      path.push_back(how);
      if (r > best_r) {
        best_r = r;
        best_path = path;
      }
      stack.push_back(Node{r, l0, lC, 0, 0, 0, how, key});
      generate(stack.back());
    }
    if (!out_of_budget) return 0;
    // Unsettled configurations on the abandoned path are not dead ends: forget them, and undo.
    while (!stack.empty()) {
      const Node gone = stack.back();
      stack.pop_back();
      seen.erase(gone.key);
      if (gone.how.type >= 0) {
        undo(gone.how);
        path.pop_back();
      }
    }
    acts.clear();
    if (clock::now() > deadline || seen.size() > max_states) return -1;
  }
}

}  // namespace slots

extern "C" {

// The slot search alone. Returns 1 linearizable (order_out: a witness, n operations in order),
// 0 not (order_out: the longest prefix it could name; window_out: the operations pending at the
// deepest point reached, the one whose return could not be met first), -1 out of time or memo
// room, -2 a witness failed its replay (a bug), -3 not applicable (values not distinct).
int gq_fifo_slots(int64_t n, const uint8_t* kind, const int64_t* vid, const int64_t* call, const int64_t* end,
                  int64_t cap, int64_t n_values, double timeout_s, int64_t max_states, int64_t* steps_out,
                  int64_t* order_out, int64_t* order_len, int64_t* window_out, int64_t* window_len) {
  *steps_out = 0;
  *order_len = 0;
  *window_len = 0;
  if (n == 0) return 1;
  slots::Engine g;
  std::vector<int64_t> lead, stuck;
  const slots::Setup setup = slots::prepare(g, n, kind, vid, call, end, cap, n_values, lead, stuck);
  if (setup == slots::kNotApplicable) return -3;
  if (setup == slots::kRefuted) {
    std::copy(lead.begin(), lead.end(), order_out);
    *order_len = (int64_t)lead.size();
    std::copy(stuck.begin(), stuck.end(), window_out);
    *window_len = (int64_t)stuck.size();
    return 0;
  }
  std::vector<int64_t> order;
  std::vector<slots::Act> best_path;
  int64_t best_r = 0, steps = 0;
  const int code = slots::search(g, timeout_s, max_states > 0 ? (size_t)max_states : kMaxStates, steps, order, best_path, best_r);
  *steps_out = steps;
  if (code == 1) {
    std::copy(order.begin(), order.end(), order_out);
    *order_len = (int64_t)order.size();
  }
  if (code == 0) {
    slots::order_of(g, best_path, best_r, false, order);
    std::copy(order.begin(), order.end(), order_out);
    *order_len = (int64_t)order.size();
    std::vector<char> placed((size_t)n, 0);
    for (int64_t i : order) placed[(size_t)i] = 1;
    const int64_t stuck = g.ret[(size_t)best_r];
    std::vector<int64_t> window{stuck};
    std::vector<int64_t> pending;
    for (int64_t i = 0; i < n; ++i)
      if (i != stuck && !placed[(size_t)i] && g.pf[(size_t)i] <= best_r && g.rr[(size_t)i] >= best_r) pending.push_back(i);
    std::sort(pending.begin(), pending.end(), [&](int64_t x, int64_t y) { return call[x] < call[y]; });
    window.insert(window.end(), pending.begin(), pending.end());
    std::copy(window.begin(), window.end(), window_out);
    *window_len = (int64_t)window.size();
  }
  return code;
}

}  // extern "C"

extern "C" {

// The checker's entry point (fifo_checker.py). Both searches are exact but strong on different
// shapes: the slot search on wide histories (hundreds of overlapping operations, where the search
// above drowns in interchangeable enqueue orders), the search above on narrow ones and on tiny
// capacities, whose memo stays small (where the slot search may enumerate every timing of its
// slots). So they take turns, each from scratch, with slices of the time that double every round
// (1/128 of it first): whichever answers first decides, within about four times what the faster
// of the two needs on its own.
int gq_fifo_search(int64_t n, const uint8_t* kind, const int64_t* vid, const int64_t* call, const int64_t* end,
                   int64_t cap, int64_t n_values, const int64_t* rank, const int64_t* dq_call, double timeout_s,
                   int64_t* steps_out, int64_t* prefix_out, int64_t* prefix_len, int64_t* window_out,
                   int64_t* window_len) {
  using clock = std::chrono::steady_clock;
  const auto deadline = clock::now() + std::chrono::duration<double>(timeout_s);
  double slice = timeout_s / 128;
  int64_t total = 0;
  int code = -1;
  bool slots_apply = true;
  for (int turn = 0;; ++turn) {
    const double left = std::chrono::duration<double>(deadline - clock::now()).count();
    if (left <= 0) break;
    const double t = std::min(left, slice);
    int64_t steps = 0;
    if (turn % 2 == 0 && slots_apply) {
      code = gq_fifo_slots(n, kind, vid, call, end, cap, n_values, t, 0, &steps, prefix_out, prefix_len,
                           window_out, window_len);
      if (code < -1) slots_apply = false;  // not applicable (or a witness failing its replay): the other decides
    } else if (turn % 2 == 1) {
      code = gq_fifo_search_wgl(n, kind, vid, call, end, cap, n_values, rank, dq_call, slots_apply ? t : left, &steps,
                                prefix_out, prefix_len, window_out, window_len);
      slice *= 2;
    }
    total += steps;
    if (code == 0 || code == 1) break;
  }
  *steps_out = total;
  return code == 0 || code == 1 ? code : -1;
}

}  // extern "C"
