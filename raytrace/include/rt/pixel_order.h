// rt/pixel_order.h — the order in which the renderers hand out primary rays: 8x4 screen blocks.
//
// Consecutive work items go to consecutive lanes of a warp. In row order a warp's 32 primary
// rays span a 32x1 strip of the image; in 8x4 blocks they span a compact square-ish patch, whose
// rays enter fewer distinct nodes of the triangle hierarchy, so the warp's lanes stay together
// longer (the coherence argument of Aila and Laine, HPG 2009; counted on terrain1m by
// tools/mesh_trace_counts.py). Only the order changes: each pixel's arithmetic is its own.
//
// Item i maps to a pixel by a bijection of [0, width * height): the image is cut into bands of
// kBlockH rows (the last band may be shorter), each band into groups of kBlockW columns (the last
// group may be narrower), a group's pixels row by row, groups left to right, bands top to bottom.
#pragma once
#include "vec.h"

namespace rt {

constexpr uint32_t kBlockW = 8, kBlockH = 4;  // kBlockW * kBlockH = one warp

GQ_HD GQ_INLINE uint32_t blocked_pixel(uint32_t i, uint32_t width, uint32_t height) {
  const uint32_t band = i / (width * kBlockH);
  const uint32_t rows = height - band * kBlockH < kBlockH ? height - band * kBlockH : kBlockH;
  const uint32_t j = i - band * width * kBlockH;  // item within the band
  const uint32_t group = j / (kBlockW * rows);
  const uint32_t cols = width - group * kBlockW < kBlockW ? width - group * kBlockW : kBlockW;
  const uint32_t r = j - group * kBlockW * rows;  // item within the group
  return (band * kBlockH + r / cols) * width + group * kBlockW + r % cols;
}

}  // namespace rt
