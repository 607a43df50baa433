// host/fifo_search.cpp — the search of linearizability.py, specialised to the strict bounded FIFO
// model (fifo_model.py) and compiled: the same Wing–Gong search with Lowe's memoisation, the same
// two reductions (state-preserving operations placed at once; restarts that keep proven dead
// ends; attempts alternating between priority order and just-in-time order) and the same hints
// (priority order, dead-end test and prerequisites of fifo_model.fifo_hints). It exists for
// speed only: GPU histories of a thousand fully concurrent operations need tens of millions of
// steps. tests/queues_cuda/test_fifo_search.py checks that both engines agree.
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
int gq_fifo_search(int64_t n, const uint8_t* kind, const int64_t* vid, const int64_t* call, const int64_t* end,
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
    std::vector<int64_t> cands, windows, path_keys_a, path_keys_b;
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
