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

// The same 8x4 blocks as units of work (the tile renderer's ray packets, rt/tile_queues.h). Block
// b is band b / blocks_across, group b % blocks_across; its lane j is row j / kBlockW, column
// j % kBlockW of the block, which is the lane blocked_pixel gives for a whole block. Lanes that
// fall outside the image (the last band's and group's) belong to no pixel.
struct ScreenBlocks {
  uint32_t width, height;

  GQ_HD GQ_INLINE uint32_t across() const { return (width + kBlockW - 1) / kBlockW; }
  GQ_HD GQ_INLINE uint32_t count() const { return across() * ((height + kBlockH - 1) / kBlockH); }
  GQ_HD GQ_INLINE uint32_t x0(uint32_t b) const { return b % across() * kBlockW; }
  GQ_HD GQ_INLINE uint32_t y0(uint32_t b) const { return b / across() * kBlockH; }
  // The block's top-left pixel: the one that decides its tile.
  GQ_HD GQ_INLINE uint32_t first_pixel(uint32_t b) const { return y0(b) * width + x0(b); }
  GQ_HD GQ_INLINE uint32_t pixel(uint32_t b, uint32_t lane) const { return pixel_at(first_pixel(b), lane); }
  // The same from the block's first pixel (no division: the tile renderer's per-pixel step).
  GQ_HD GQ_INLINE uint32_t pixel_at(uint32_t first, uint32_t lane) const {
    return first + lane / kBlockW * width + lane % kBlockW;
  }
  // The lanes that hold a pixel of the image.
  GQ_HD GQ_INLINE uint32_t lanes(uint32_t b) const {
    const uint32_t cols = width - x0(b) < kBlockW ? width - x0(b) : kBlockW;
    const uint32_t rows = height - y0(b) < kBlockH ? height - y0(b) : kBlockH;
    const uint32_t row = (1u << cols) - 1u;
    uint32_t m = 0;
    for (uint32_t r = 0; r < rows; ++r) m |= row << (r * kBlockW);
    return m;
  }
};

}  // namespace rt
