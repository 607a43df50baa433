"""The tile queues built filled (rt/tile_queues.h seeded_word) hold each tile's own blocks, every
block of the image once, in block order: rt::TileGrid::tile_block against the tile of each
block's top-left pixel, worked out here from the pixel."""

import numpy as np
import pytest

from queues_cuda.queues import QUEUES
from raytrace.build import cpu_library
from raytrace.render import BLOCK_H, BLOCK_W, RenderOptions, screen_blocks, tile_capacity


def _expected(width: int, height: int, tx: int, ty: int) -> tuple[np.ndarray, np.ndarray]:
    """Every block, grouped by tile in tile order, in block order within a tile; and each
    tile's count."""
    across = -(-width // BLOCK_W)
    b = np.arange(screen_blocks(RenderOptions(width=width, height=height, spp=1)), dtype=np.int64)
    x0, y0 = b % across * BLOCK_W, b // across * BLOCK_H
    tile = (y0 * ty // height) * tx + x0 * tx // width
    order = np.lexsort((b, tile))
    return b[order], np.bincount(tile, minlength=tx * ty)


@pytest.mark.parametrize("width,height,tiles", [
    (40, 24, (1, 1)), (40, 24, (3, 2)), (40, 24, (8, 8)), (40, 24, (40, 1)),
    (1920, 1080, (2, 2)), (1920, 1080, (4, 4)), (33, 7, (5, 3)), (1, 1, (1, 1)), (97, 61, (7, 11)),
])
def test_tile_order_is_each_tiles_blocks_in_block_order(width, height, tiles):
    lib = cpu_library(QUEUES["glfq"].kind_id)
    want, counts = _expected(width, height, *tiles)
    out = np.zeros(len(want), np.uint32)
    n = lib.rt_tile_order(width, height, tiles[0], tiles[1], out.ctypes.data)
    assert n == len(want)
    np.testing.assert_array_equal(out, want)
    assert counts.max() <= tile_capacity(RenderOptions(width=width, height=height, spp=1, tiles=tiles))


@pytest.mark.gpu
@pytest.mark.parametrize("queue", list(QUEUES))
@pytest.mark.parametrize("width,height,tiles,threads", [(192, 108, (3, 2), 4096), (40, 24, (8, 8), 1024)])
def test_gpu_tile_queues_are_built_as_on_the_cpu(queue, width, height, tiles, threads):
    """rt_tiles_init's words (and, where it builds the queues filled, the masks) equal the CPU
    build's, so the GPU's filled queues are the state the CPU test holds against real enqueues."""
    import cupy

    from raytrace.build import cuda_module

    kind = QUEUES[queue]
    mod = cuda_module(kind.kind_id)
    opts = RenderOptions(width=width, height=height, spp=1, tiles=tiles)
    blocks = screen_blocks(opts)
    out = cupy.zeros(5, cupy.uint64)
    mod.get_function("rt_tile_layout")((1,), (1,), (np.uint64(tile_capacity(opts)), np.uint64(threads),
                                                    np.uint32(opts.spp), np.uint32(2), out))
    users, stride, _, filled, capacity = (int(x) for x in out.get())
    assert filled == (queue in ("glfq", "gwfq", "sfq"))
    lib = cpu_library(kind.kind_id)
    # The capacity rule is the CPU build's for the same workers (warps here, threads there).
    assert capacity == lib.rt_tile_capacity(tile_capacity(opts), opts.spp, 2, (threads + 31) // 32)
    words = stride * tiles[0] * tiles[1]
    got, got_masks = cupy.zeros(words, cupy.uint64), cupy.zeros(blocks, cupy.uint32)
    u32, u64 = np.uint32, np.uint64
    mod.get_function("rt_tiles_init")(((min(words, threads) + 255) // 256,), (256,),
                                      (got, u64(stride), u64(capacity), u64(users), u32(width), u32(height),
                                       u32(tiles[0]), u32(tiles[1]), got_masks))
    assert lib.rt_queue_words(capacity, users) == stride
    want, want_masks = np.zeros(words, np.uint64), np.zeros(blocks, np.uint32)
    lib.rt_tile_queue_words(width, height, tiles[0], tiles[1], stride, capacity, users, want.ctypes.data,
                            want_masks.ctypes.data)
    np.testing.assert_array_equal(got.get(), want)
    np.testing.assert_array_equal(got_masks.get(), want_masks)
