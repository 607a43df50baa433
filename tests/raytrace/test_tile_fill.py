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
