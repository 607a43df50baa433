// host/sah_build.cpp — the binned SAH build of the triangle hierarchy (Wald, "On fast
// Construction of SAH-based Bounding Volume Hierarchies", IEEE RT 2007), on the host, writing
// rt/mesh_bvh.h's node layout.
//
// Top-down: a node's triangles are binned by box centre into kBins slabs along each axis, and the
// split plane with the least surface-area cost (traversal 1, triangle 1) wins; a range becomes a
// leaf when that is cheaper and it holds at most leaf_max triangles. Ranges whose centres all
// coincide, and every range below depth kMedianDepth, are cut at the object median instead, so
// the tree stays within the traversal stack. Deterministic: no threads, stable partitions.
#include <rt/mesh_bvh.h>

#include <algorithm>
#include <vector>

namespace {

constexpr int kBins = 16;
constexpr int kMedianDepth = 36;  // median cuts from here on: depth <= 36 + log2(2^27) < kMeshStack

struct Box {
  float lo[3] = {3.0e38f, 3.0e38f, 3.0e38f}, hi[3] = {-3.0e38f, -3.0e38f, -3.0e38f};
  void grow(const float* l, const float* h) {
    for (int a = 0; a < 3; ++a) {
      lo[a] = std::min(lo[a], l[a]);
      hi[a] = std::max(hi[a], h[a]);
    }
  }
  void grow(const Box& b) { grow(b.lo, b.hi); }
  double area() const {
    if (lo[0] > hi[0]) return 0.0;
    const double x = hi[0] - lo[0], y = hi[1] - lo[1], z = hi[2] - lo[2];
    return 2.0 * (x * y + y * z + z * x);
  }
};

struct Builder {
  const float* tris;
  uint32_t leaf_max;
  std::vector<Box> boxes;
  std::vector<float> centre;  // 3 per triangle
  std::vector<uint32_t> order;
  std::vector<float> nodes;
  uint32_t depth = 0;

  uint32_t new_node() {
    nodes.resize(nodes.size() + rt::kMeshNodeFloats, 0.0f);
    return (uint32_t)(nodes.size() / rt::kMeshNodeFloats - 1);
  }

  Box bounds(uint32_t b, uint32_t e) const {
    Box box;
    for (uint32_t k = b; k < e; ++k) box.grow(boxes[order[k]]);
    return box;
  }

  // Where to cut [b, e): returns the cut index, or b when a leaf is cheaper (and allowed).
  uint32_t split(uint32_t b, uint32_t e, const Box& box, uint32_t level) {
    const uint32_t n = e - b;
    float clo[3] = {3.0e38f, 3.0e38f, 3.0e38f}, chi[3] = {-3.0e38f, -3.0e38f, -3.0e38f};
    for (uint32_t k = b; k < e; ++k)
      for (int a = 0; a < 3; ++a) {
        clo[a] = std::min(clo[a], centre[3 * order[k] + a]);
        chi[a] = std::max(chi[a], centre[3 * order[k] + a]);
      }
    int best_axis = -1, best_bin = 0;
    double best_cost = 3.0e300;
    if (level < kMedianDepth) {
      for (int a = 0; a < 3; ++a) {
        const float extent = chi[a] - clo[a];
        if (!(extent > 0.0f)) continue;
        Box bin_box[kBins];
        uint32_t count[kBins] = {};
        const float scale = kBins / extent;
        for (uint32_t k = b; k < e; ++k) {
          const uint32_t t = order[k];
          const int bin = std::min(kBins - 1, (int)((centre[3 * t + a] - clo[a]) * scale));
          bin_box[bin].grow(boxes[t]);
          ++count[bin];
        }
        double right_area[kBins];
        uint32_t right_count[kBins];
        Box acc;
        uint32_t c = 0;
        for (int i = kBins - 1; i > 0; --i) {
          acc.grow(bin_box[i]);
          c += count[i];
          right_area[i] = acc.area();
          right_count[i] = c;
        }
        Box left;
        uint32_t lc = 0;
        for (int i = 1; i < kBins; ++i) {  // cut between bin i - 1 and bin i
          left.grow(bin_box[i - 1]);
          lc += count[i - 1];
          if (lc == 0 || right_count[i] == 0) continue;
          const double cost = left.area() * lc + right_area[i] * right_count[i];
          if (cost < best_cost) {
            best_cost = cost;
            best_axis = a;
            best_bin = i;
          }
        }
      }
    }
    const double area = box.area();
    const double leaf_cost = (double)n;
    if (n <= leaf_max && (best_axis < 0 || leaf_cost <= 1.0 + best_cost / (area > 0.0 ? area : 1.0))) return b;
    if (best_axis < 0) {  // coincident centres, or deep: the object median along the widest axis
      int a = 0;
      for (int k = 1; k < 3; ++k)
        if (chi[k] - clo[k] > chi[a] - clo[a]) a = k;
      const uint32_t mid = b + n / 2;
      std::stable_sort(order.begin() + b, order.begin() + e, [&](uint32_t x, uint32_t y) {
        return centre[3 * x + a] < centre[3 * y + a];
      });
      return mid;
    }
    const float scale = kBins / (chi[best_axis] - clo[best_axis]);
    const auto mid = std::stable_partition(order.begin() + b, order.begin() + e, [&](uint32_t t) {
      return std::min(kBins - 1, (int)((centre[3 * t + best_axis] - clo[best_axis]) * scale)) < best_bin;
    });
    return (uint32_t)(mid - order.begin());
  }

  // The ref of a child holding [b, e).
  uint32_t child(uint32_t b, uint32_t e, const Box& box, uint32_t level) {
    const uint32_t cut = split(b, e, box, level);
    if (cut == b) return rt::mesh_leaf_ref(b, e - b);
    return node(b, cut, e, level);
  }

  // An inner node over [b, cut) and [cut, e).
  uint32_t node(uint32_t b, uint32_t cut, uint32_t e, uint32_t level) {
    depth = std::max(depth, level);
    const uint32_t me = new_node();
    const uint32_t ranges[2][2] = {{b, cut}, {cut, e}};
    for (int c = 0; c < 2; ++c) {
      const Box box = bounds(ranges[c][0], ranges[c][1]);
      const uint32_t ref = child(ranges[c][0], ranges[c][1], box, level + 1);
      float* n = &nodes[(size_t)me * rt::kMeshNodeFloats];  // after the recursion: nodes may move
      for (int a = 0; a < 3; ++a) {
        n[6 * c + a] = box.lo[a];
        n[6 * c + 3 + a] = box.hi[a];
      }
      n[12 + c] = bits(ref);
    }
    return me;
  }

  static float bits(uint32_t u) {
    union { uint32_t u; float f; } b;
    b.u = u;
    return b.f;
  }
};

}  // namespace

extern "C" {

// Build over n >= 1 triangles. Writes at most max(n, 1) nodes and the leaf order `perm` (perm[j]
// = the input row of leaf-order row j). Returns the node count; *depth the deepest inner level.
uint32_t rt_sah_build(const float* tris, uint32_t n, uint32_t leaf_max, float* nodes_out, uint32_t* perm,
                      uint32_t* depth) {
  Builder bld;
  bld.tris = tris;
  bld.leaf_max = leaf_max;
  bld.boxes.resize(n);
  bld.centre.resize(3 * (size_t)n);
  bld.order.resize(n);
  for (uint32_t t = 0; t < n; ++t) {
    rt::tri_box(tris + (size_t)t * rt::kTriFloats, bld.boxes[t].lo, bld.boxes[t].hi);
    for (int a = 0; a < 3; ++a) bld.centre[3 * t + a] = (bld.boxes[t].lo[a] + bld.boxes[t].hi[a]) * 0.5f;
    bld.order[t] = t;
  }
  const Box all = bld.bounds(0, n);
  const uint32_t cut = n < 2 ? n : bld.split(0, n, all, 0);
  if (cut == 0 || cut == n) {  // the whole mesh is one leaf: a root with it and an empty child
    bld.new_node();
    float* r = bld.nodes.data();
    for (int a = 0; a < 3; ++a) {
      r[a] = all.lo[a];
      r[3 + a] = all.hi[a];
    }
    r[12] = Builder::bits(rt::mesh_leaf_ref(0, n));
    r[13] = Builder::bits(rt::mesh_leaf_ref(0, 0));
  } else {
    bld.node(0, cut, n, 0);
  }
  std::copy(bld.nodes.begin(), bld.nodes.end(), nodes_out);
  std::copy(bld.order.begin(), bld.order.end(), perm);
  *depth = bld.depth;
  return (uint32_t)(bld.nodes.size() / rt::kMeshNodeFloats);
}

}  // extern "C"
