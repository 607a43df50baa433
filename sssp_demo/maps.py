"""Maps for `gq plan`: cost grids from images or generators, their grid graph, and drawn routes.

A map is a cost grid: float32 [H, W], one value per pixel, the price of standing on it. Finite
costs are at least 1; ``inf`` marks a wall. The planner asks for the cheapest 8-connected route
between two pixels; everything here is the map side of that question (the shortest-path
algorithms live in their own modules and read only the graph built by `grid_graph`).

From an image ("dark pixels are walls, brightness is cost"), see `load_map`:

- luminance ``L`` in [0, 1] of full scale (ITU-R 601-2 luma, as Pillow's ``convert("L")``);
- ``L < 0.1`` (8-bit: below 26 of 255) is a wall, cost ``inf``;
- otherwise cost ``1 + 9 * (1 - L)``: white costs 1, darker greys cost more, the darkest
  passable grey (26 of 255) costs about 9.08. Brighter is always cheaper.

`draw_route` draws passable pixels with the inverse of that mapping, so a drawn map loads back as
the same costs (to 8-bit rounding; costs above 9.08 come back as 9.08). Both generators keep
their costs in [1, 9], inside that range.

Coordinates are pixels, ``x`` the column and ``y`` the row, from the top-left corner as in an
image viewer; the vertex id of pixel (x, y) is ``y * W + x``.
"""

from __future__ import annotations

import math
import os
import re
from pathlib import Path

import numpy as np
import scipy.sparse

from queues_cuda.errors import GQError

# Pixels with luminance below this fraction of full scale are walls (8-bit: 0..25 of 255).
WALL_LUMINANCE = 0.1
# Cost of a white pixel and how much a pixel's darkness adds on top: cost = 1 + 9 * (1 - L).
MIN_COST = 1.0
DARKNESS_COST = 9.0
# Largest map side, for images and generators alike: 16384^2 cells is 1 GiB of float32 costs
# and up to 2.147 G directed edges, just inside grid_graph's int32 indices.
MAX_MAP_SIDE = 16384
# Smallest generated map: a 2 x 2 cell maze.
MIN_GENERATED_SIDE = 4

# The 8 neighbour offsets (dy, dx), in increasing order of the neighbour's vertex id, so each
# row of the CSR matrix comes out with sorted column indices.
_NEIGHBOURS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
# grid_graph fills the matrix in bands of about this many cells to bound its temporaries
# (per cell: 8 flags, 8 int32 ids, 8 float64 weights and the picks, ~170 bytes: ~90 MB a band).
_BAND_CELLS = 1 << 19


class MapError(GQError):
    """A map, a point on it or a route on it is not what the planner needs."""


# ----------------------------------------------------------------------------------------------
# Maps from images


def load_map(path: str | os.PathLike) -> np.ndarray:
    """Read an image (PNG or anything Pillow reads) as a cost grid, float32 [H, W].

    Dark pixels are walls, brightness is cost, and brighter is cheaper:

    - luminance ``L`` in [0, 1] of full scale: ITU-R 601-2 luma of RGB (Pillow's
      ``convert("L")``), 16-bit greyscale read at full 16-bit precision;
    - ``L < 0.1`` (8-bit: a value below 26 of 255) is a wall, cost ``inf``;
    - every other pixel costs ``1 + 9 * (1 - L)``: white 1, mid grey 5.5, the darkest passable
      grey (26 of 255) about 9.08; the limit 10 is never reached because black is a wall.

    Transparent pixels are laid over white first, so a transparent background is open floor. Of
    an animated image only the first frame counts. Raises MapError for a missing, empty or
    unreadable file, an image with no pixels or more than 16384 on a side, and a map that is all
    walls.
    """
    path = Path(path)
    # Pillow is needed only for images; importing it here keeps `gq` start-up light.
    from PIL import Image

    if not path.exists():
        raise MapError(f"{path}: no such file")
    if path.is_dir():
        raise MapError(f"{path}: is a folder, expected an image file (PNG or any format Pillow reads)")
    if path.stat().st_size == 0:
        raise MapError(f"{path}: the file is empty (0 bytes), expected an image (PNG or any format Pillow reads)")
    # Pillow's own decompression-bomb guard refuses images well below our 16384-a-side limit;
    # the side check below replaces it (opening reads only the header, so the check comes before
    # any pixel is decoded). Not thread-safe, like the Pillow global it sets.
    saved_limit = Image.MAX_IMAGE_PIXELS
    Image.MAX_IMAGE_PIXELS = None
    try:
        with Image.open(path) as image:
            width, height = image.size
            if width == 0 or height == 0:
                raise MapError(f"{path}: the image is empty ({width}x{height} pixels)")
            if width > MAX_MAP_SIDE or height > MAX_MAP_SIDE:
                raise MapError(f"{path}: the image is {width}x{height} pixels; a map may be at most "
                               f"{MAX_MAP_SIDE} pixels on a side")
            codes, full_scale = _pixel_codes(image)
    except MapError:
        raise
    except Exception as e:  # Pillow reports bad files through many types (OSError, ValueError, SyntaxError...)
        reason = " ".join(str(e).split()) or type(e).__name__
        raise MapError(f"{path}: cannot read it as an image ({reason})") from None
    finally:
        Image.MAX_IMAGE_PIXELS = saved_limit
    # A table of every code's cost: exact float64 arithmetic, and no float64 copy of the image
    # (a 16384^2 map needs only its 1 GiB of float32 costs).
    cost = cost_from_luminance(np.arange(full_scale + 1) / full_scale)[codes]
    if not np.isfinite(cost).any():
        raise MapError(f"{path}: every pixel is a wall (darker than 26 of 255); walls are near-black, "
                       "open floor is lighter")
    return cost


def cost_from_luminance(luminance: np.ndarray) -> np.ndarray:
    """Luminance in [0, 1] -> cost grid float32: ``inf`` below 0.1, else ``1 + 9 * (1 - L)``."""
    lum = np.asarray(luminance, dtype=np.float64)
    return np.where(lum < WALL_LUMINANCE, np.inf, MIN_COST + DARKNESS_COST * (1.0 - lum)).astype(np.float32)


def _pixel_codes(image) -> tuple[np.ndarray, int]:
    """A Pillow image -> (luminance codes [H, W], full scale): 8-bit (255) or 16-bit (65535)."""
    from PIL import Image

    if image.mode in ("I;16", "I;16B", "I;16L", "I;16N", "I"):
        # 16-bit greyscale (PNG opens it as "I" or "I;16"); convert("L") would clip, not scale.
        return np.clip(np.asarray(image), 0, 65535).astype(np.uint16), 65535
    if "A" in image.getbands() or "a" in image.getbands() or "transparency" in image.info:
        rgba = image.convert("RGBA")
        white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        image = Image.alpha_composite(white, rgba)
    return np.asarray(image.convert("L")), 255


# ----------------------------------------------------------------------------------------------
# Generated maps


def generate_maze(size: int, seed: int) -> np.ndarray:
    """A perfect maze, size x size: corridors cost 1, walls are ``inf``; the same per seed.

    Cells sit at even coordinates (2i, 2j) of a ceil(size/2)-square lattice; the pixel between
    two neighbouring cells is a wall unless the maze opens it, and pixels at two odd coordinates
    are always walls (the image edge is the outer wall; with an even size the last row and
    column are walls too). The opened passages form a spanning tree of the lattice, so every
    corridor pixel reaches every other by exactly one simple path: m^2 cells and m^2 - 1 passages,
    2 m^2 - 1 passable pixels for m = ceil(size/2).

    The tree is randomized Kruskal's (Kruskal 1956: the minimum spanning tree under distinct
    random edge weights), computed with Boruvka's algorithm because its rounds vectorise: about 1 s for size
    4096 in numpy, with no Python loop over cells.
    """
    _check_size(size)
    m = (size + 1) // 2
    cost = np.full((size, size), np.inf, dtype=np.float32)
    cost[0:2 * m:2, 0:2 * m:2] = MIN_COST
    passages = _random_spanning_tree(m, np.random.default_rng(_check_seed(seed)))
    # Lattice edge e < m(m-1) joins (r, c)-(r, c+1); edge m(m-1) + k joins (r, c)-(r+1, c) with
    # k = r*m + c (the numbering of _random_spanning_tree). The wall pixel between them opens.
    across = m * (m - 1)
    h = passages[passages < across]
    v = passages[passages >= across] - across
    cost[2 * (h // (m - 1)), 2 * (h % (m - 1)) + 1] = MIN_COST
    cost[2 * (v // m) + 1, 2 * (v % m)] = MIN_COST
    return cost


def _random_spanning_tree(m: int, rng: np.random.Generator) -> np.ndarray:
    """Edge ids of the minimum spanning tree of the m x m lattice under random distinct weights.

    Lattice edges are numbered m(m-1) "across" edges (r, c)-(r, c+1), id r*(m-1) + c, then
    m(m-1) "down" edges (r, c)-(r+1, c), id m(m-1) + r*m + c. Boruvka (1926): every component
    picks its cheapest outgoing edge, the picks merge components (each round at least halves
    their number), and the picks are exactly the MST's edges when weights are distinct. Weights
    are a random 31-bit key with the edge id in the low bits, so they are distinct and the
    minimum names its edge.
    """
    across = m * (m - 1)
    n_edges = 2 * across
    if n_edges == 0:
        return np.zeros(0, dtype=np.int64)
    ids = np.arange(m * m, dtype=np.int32).reshape(m, m)
    a = np.concatenate([ids[:, :-1].ravel(), ids[:-1, :].ravel()])  # current component of each end
    b = np.concatenate([ids[:, 1:].ravel(), ids[1:, :].ravel()])
    id_bits = int(n_edges - 1).bit_length()
    key = (rng.integers(0, 1 << 31, n_edges, dtype=np.int64) << id_bits) | np.arange(n_edges, dtype=np.int64)
    id_mask = (1 << id_bits) - 1
    component = np.arange(m * m, dtype=np.int32)  # lattice vertex -> its component this round
    n_components = m * m
    picked = []
    while n_components > 1:
        cheapest = np.full(n_components, np.iinfo(np.int64).max, dtype=np.int64)
        np.minimum.at(cheapest, a, key)
        np.minimum.at(cheapest, b, key)
        edge = cheapest & id_mask
        # Each component points to the component across its cheapest edge. Two components that
        # picked the same edge point at each other; the smaller becomes the root of the merge.
        is_down = edge >= across
        k = np.where(is_down, edge - across, edge)
        u = np.where(is_down, k, (k // (m - 1)) * m + k % (m - 1))
        v = np.where(is_down, u + m, u + 1)
        c = np.arange(n_components, dtype=np.int32)
        cu, cv = component[u], component[v]
        parent = np.where(cu == c, cv, cu)
        mutual = (parent[parent] == c) & (c < parent)
        parent[mutual] = c[mutual]
        picked.append(edge[parent != c])  # one edge per non-root: each tree edge once
        while True:  # pointer jumping: every component points at its root
            grand = parent[parent]
            if np.array_equal(grand, parent):
                break
            parent = grand
        roots = parent == c
        relabel = (np.cumsum(roots, dtype=np.int32) - 1)[parent]
        n_components = int(np.count_nonzero(roots))
        component = relabel[component]
        a, b = relabel[a], relabel[b]
        outgoing = a != b
        a, b, key = a[outgoing], b[outgoing], key[outgoing]
    return np.concatenate(picked)


def generate_terrain(size: int, seed: int) -> np.ndarray:
    """Rolling terrain, size x size: fractal value noise as height, costs in [1, 9], a few lakes.

    Height is 6 octaves of value noise (random values on a lattice of 4, 8, ... 128 cells a side,
    smoothstep-interpolated, each octave half the amplitude of the one before), scaled to [0, 1].
    The lowest 4 % of the ground is water (walls, ``inf``); the rest costs ``1 + 8 * h`` with h
    rescaled to [0, 1] over dry land, so valleys beside the lakes are cheap and peaks cost 9.
    Dry land cut off by water (islands) is flooded too, so every passable pixel reaches every
    other. Costs stay within what `load_map` can read back from a drawn map.
    """
    _check_size(size)
    rng = np.random.default_rng(_check_seed(seed))
    height = np.zeros((size, size), dtype=np.float32)
    amplitude = 1.0
    for octave in range(6):
        cells = 4 << octave
        lattice = rng.random((cells + 1, cells + 1), dtype=np.float32)
        height += amplitude * _value_noise(lattice, size)
        amplitude *= 0.5
    height -= height.min()
    height /= max(float(height.max()), 1e-12)
    sea_level = float(np.quantile(height, 0.04))
    dry = height > sea_level
    dry = _largest_region(dry)
    land = (height - sea_level) / max(1.0 - sea_level, 1e-12)
    cost = np.where(dry, MIN_COST + 8.0 * np.clip(land, 0.0, 1.0), np.inf)
    return cost.astype(np.float32)


def _value_noise(lattice: np.ndarray, size: int) -> np.ndarray:
    """Interpolate a (g+1) x (g+1) lattice of values over size x size pixels (smoothstep)."""
    g = lattice.shape[0] - 1
    t = np.linspace(0.0, g, size, dtype=np.float64)
    i0 = np.minimum(t.astype(np.int64), g - 1)
    f = t - i0
    s = (f * f * (3.0 - 2.0 * f)).astype(np.float32)  # smoothstep: no creases at lattice lines
    rows = lattice[i0] * (1 - s)[:, None] + lattice[i0 + 1] * s[:, None]  # [size, g+1]
    return rows[:, i0] * (1 - s)[None, :] + rows[:, i0 + 1] * s[None, :]


def _largest_region(passable: np.ndarray) -> np.ndarray:
    """Keep the largest 4-connected region of passable pixels (with no corner cutting, the grid
    graph's components are exactly the 4-connected regions)."""
    from scipy import ndimage

    labels, n = ndimage.label(passable)
    if n <= 1:
        return passable
    sizes = np.bincount(labels.ravel())
    sizes[0] = 0
    return labels == int(np.argmax(sizes))


def _check_size(size) -> int:
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)) \
            or not MIN_GENERATED_SIDE <= size <= MAX_MAP_SIDE:
        raise MapError(f"--size must be between {MIN_GENERATED_SIDE} and {MAX_MAP_SIDE}, got {size!r}")
    return int(size)


def _check_seed(seed) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise MapError(f"--seed must be a non-negative integer, got {seed!r}")
    return int(seed)


# The maps `gq plan --generate NAME` can make: NAME -> f(size, seed) -> cost grid.
MAP_GENERATORS = {"maze": generate_maze, "terrain": generate_terrain}


# ----------------------------------------------------------------------------------------------
# The grid graph


def grid_graph(cost: np.ndarray, dtype=np.float32) -> tuple[scipy.sparse.csr_matrix, np.ndarray]:
    """The 8-connected grid graph of a cost grid: (CSR adjacency [N, N], passable mask [H, W]).

    Vertex ``y * W + x`` is pixel (x, y), N = H * W; walls stay in as isolated vertices so ids
    need no remapping. Every passable pixel has a directed edge to each passable neighbour among
    its 8, of weight ``(cost[a] + cost[b]) / 2 * step`` with step 1 orthogonally and sqrt(2)
    diagonally: the cost of walking from centre to centre, half on each pixel. A diagonal step is
    there only if both orthogonal pixels it passes between are passable: no cutting corners of
    walls, and no slipping between two walls that touch at a corner. The graph is symmetric.

    Rows come out with sorted column indices. Weights are computed in float64 and stored as
    ``dtype`` (float32 by default: what the GPU planners read); indices and indptr are int32
    while the edge count fits, which it does up to 16384 a side (an open 16384^2 map has
    2,147,287,044 directed edges, just under 2^31), else int64. Memory:
    8 bytes per directed edge with float32 weights plus 4 per vertex: a 4096 x 4096 open map has
    134 M edges, 1.14 GB in all. The matrix is filled in bands of about 0.5 M cells, so the build
    peaks near 1.4 GB for that map (measured with tracemalloc), and takes 1-3 s on 2 cores.
    """
    cost = _check_cost(cost)
    height, width = cost.shape
    n = height * width
    passable = np.isfinite(cost)
    # One pixel of wall around the map, so every neighbour lookup is a plain slice.
    open_ = np.pad(passable, 1, constant_values=False)
    priced = np.pad(cost.astype(np.float64), 1, constant_values=np.inf)

    def edge_exists(y0: int, y1: int, dy: int, dx: int) -> np.ndarray:
        """[y1 - y0, W] flags: does pixel (x, y) have its edge towards (x + dx, y + dy)?"""
        here = open_[1 + y0:1 + y1, 1:1 + width]
        there = open_[1 + y0 + dy:1 + y1 + dy, 1 + dx:1 + width + dx]
        ok = here & there
        if dy and dx:  # the two pixels the diagonal passes between
            ok &= open_[1 + y0 + dy:1 + y1 + dy, 1:1 + width]
            ok &= open_[1 + y0:1 + y1, 1 + dx:1 + width + dx]
        return ok

    degree = np.zeros((height, width), dtype=np.uint8)
    for dy, dx in _NEIGHBOURS:
        degree += edge_exists(0, height, dy, dx)
    n_edges = int(degree.sum(dtype=np.int64))
    index_dtype = np.int32 if max(n_edges, n) <= np.iinfo(np.int32).max else np.int64
    indptr = np.zeros(n + 1, dtype=index_dtype)
    np.cumsum(degree.ravel(), dtype=index_dtype, out=indptr[1:])
    del degree
    indices = np.empty(n_edges, dtype=index_dtype)
    data = np.empty(n_edges, dtype=dtype)

    offsets = np.array([dy * width + dx for dy, dx in _NEIGHBOURS], dtype=index_dtype)
    half_step = np.array([0.5 * (math.sqrt(2.0) if dy and dx else 1.0) for dy, dx in _NEIGHBOURS])
    band = max(1, _BAND_CELLS // width)
    for y0 in range(0, height, band):
        y1 = min(height, y0 + band)
        # [rows, W, 8]: the neighbour order is the id order, so a boolean pick keeps rows sorted.
        exists = np.stack([edge_exists(y0, y1, dy, dx) for dy, dx in _NEIGHBOURS], axis=-1)
        ids = np.arange(y0 * width, y1 * width, dtype=index_dtype).reshape(y1 - y0, width, 1)
        weight = np.stack([priced[1 + y0 + dy:1 + y1 + dy, 1 + dx:1 + width + dx] for dy, dx in _NEIGHBOURS],
                          axis=-1)
        weight += priced[1 + y0:1 + y1, 1:1 + width, None]  # inf beside walls: never picked
        weight *= half_step
        lo, hi = int(indptr[y0 * width]), int(indptr[y1 * width])
        indices[lo:hi] = (ids + offsets)[exists]
        data[lo:hi] = weight[exists]
    graph = scipy.sparse.csr_matrix((data, indices, indptr), shape=(n, n), copy=False)
    graph.has_sorted_indices = True  # by construction; spares scipy a check over every row
    return graph, passable


def _check_cost(cost) -> np.ndarray:
    """A cost grid as float32 [H, W]; ValueError (a bug upstream, not user input) if it is not one."""
    cost = np.asarray(cost)
    if cost.ndim != 2 or cost.shape[0] == 0 or cost.shape[1] == 0:
        raise ValueError(f"cost grid: expected a non-empty [H, W] array, got shape {cost.shape}")
    if not np.issubdtype(cost.dtype, np.floating):
        raise ValueError(f"cost grid: expected floats (inf for walls), got {cost.dtype}")
    cost = cost.astype(np.float32, copy=False)
    finite = np.isfinite(cost)
    bad = ~finite & ~(cost == np.inf)
    if bad.any() or (cost[finite] <= 0).any():
        raise ValueError("cost grid: every cost must be positive and finite, or +inf for a wall "
                         "(found NaN, -inf or a cost <= 0)")
    return cost


# ----------------------------------------------------------------------------------------------
# Points and routes


def parse_point(text: str, option: str, shape: tuple[int, int],
                passable: np.ndarray | None = None) -> tuple[int, int]:
    """``"10,20"`` -> (x, y) = (10, 20): column 10, row 20 of a map of ``shape`` (H, W).

    ``option`` names the flag in errors (``--start``, ``--goal``); with ``passable`` (the mask
    from `grid_graph`, or ``np.isfinite(cost)``) a point on a wall is an error too.
    """
    match = re.fullmatch(r"\s*([+-]?\d+)\s*,\s*([+-]?\d+)\s*", str(text))
    if match is None:
        raise MapError(f"{option}: expected X,Y (two integers, column then row, e.g. 10,20), got {text!r}")
    x, y = int(match.group(1)), int(match.group(2))
    height, width = shape
    if not (0 <= x < width and 0 <= y < height):
        raise MapError(f"{option} {x},{y} is outside the map: x must be in 0..{width - 1} and y in "
                       f"0..{height - 1} (the map is {width}x{height})")
    if passable is not None and not passable[y, x]:
        raise MapError(f"{option} {x},{y} is on a wall; pick a passable pixel (walls are darker than 26 of 255)")
    return x, y


def corner_points(cost: np.ndarray) -> tuple[tuple[int, int], tuple[int, int]]:
    """The passable pixels nearest the top-left and the bottom-right corner (least and greatest
    x + y), as (x, y) each: a natural start and goal on a generated map. Ties go to the upper
    pixel at the top-left and to the lower pixel at the bottom-right."""
    ys, xs = np.nonzero(np.isfinite(cost))  # row-major order: upper pixels first
    if ys.size == 0:
        raise MapError("the map has no passable pixel")
    diagonal = ys.astype(np.int64) + xs
    first = int(np.argmin(diagonal))
    last = int(np.flatnonzero(diagonal == diagonal.max())[-1])
    return (int(xs[first]), int(ys[first])), (int(xs[last]), int(ys[last]))


def route_from_predecessors(pred: np.ndarray, start_id: int, goal_id: int,
                            width: int | None = None) -> list[int]:
    """Walk a predecessor array back from goal to start: the route's vertex ids, start first.

    ``pred`` is scipy.sparse.csgraph's (``return_predecessors=True`` from ``start_id``): the
    vertex before each one on its shortest path, -9999 where there is none. An unreachable goal
    is a MapError "no route from ... to ..."; with ``width`` it names the points as x,y.
    """
    pred = np.asarray(pred)
    if pred.ndim == 2 and pred.shape[0] == 1:
        pred = pred[0]
    if pred.ndim != 1:
        raise ValueError(f"route_from_predecessors: expected a 1-D predecessor array, got shape {pred.shape}")
    n = pred.shape[0]
    for name, v in (("start_id", start_id), ("goal_id", goal_id)):
        if not 0 <= v < n:
            raise ValueError(f"route_from_predecessors: {name} {v} is not a vertex (0..{n - 1})")
    if not np.issubdtype(pred.dtype, np.integer):
        raise ValueError(f"route_from_predecessors: expected integer predecessors, got {pred.dtype}")
    steps = memoryview(np.ascontiguousarray(pred))  # indexing yields Python ints: a fast walk
    route = [int(goal_id)]
    node = int(goal_id)
    while node != start_id:
        node = steps[node]
        if node < 0:
            raise MapError(f"no route from {_name(start_id, width)} to {_name(goal_id, width)}: "
                           "walls cut the goal off from the start")
        route.append(node)
        if len(route) > n:
            raise ValueError("route_from_predecessors: the predecessors form a cycle")
    route.reverse()
    return route


def _name(vertex: int, width: int | None) -> str:
    return f"vertex {vertex}" if width is None else f"{vertex % width},{vertex // width}"


def route_cost_and_length(cost: np.ndarray, route) -> tuple[float, float]:
    """(cost, Euclidean length in pixels) of a route of vertex ids, in float64.

    The cost is the sum of `grid_graph`'s edge weights along the route, so it equals the
    distance a shortest-path solver reports (to float32 rounding of the stored weights); the
    length counts 1 per orthogonal and sqrt(2) per diagonal step. A route of one pixel costs 0.
    ValueError if a step is not an edge of the grid graph.
    """
    cost = _check_cost(cost)
    height, width = cost.shape
    ids = _route_ids(route, height * width)
    y, x = np.divmod(ids, width)
    if not np.isfinite(cost[y, x]).all():
        raise ValueError("route_cost_and_length: the route crosses a wall")
    dy, dx = np.diff(y), np.diff(x)
    if ((np.abs(dy) > 1) | (np.abs(dx) > 1) | ((dy == 0) & (dx == 0))).any():
        raise ValueError("route_cost_and_length: consecutive route pixels must be distinct 8-neighbours")
    diagonal = (dy != 0) & (dx != 0)
    passable = np.isfinite(cost)
    y0, x0 = y[:-1], x[:-1]
    if (diagonal & ~(passable[y0 + dy, x0] & passable[y0, x0 + dx])).any():
        raise ValueError("route_cost_and_length: the route cuts a wall's corner")
    step = np.where(diagonal, math.sqrt(2.0), 1.0)
    c = cost[y, x].astype(np.float64)
    return float(np.sum((c[:-1] + c[1:]) * 0.5 * step)), float(np.sum(step))


def _route_ids(route, n: int) -> np.ndarray:
    ids = np.asarray(route, dtype=np.int64).ravel()
    if ids.size == 0:
        raise ValueError("route: expected at least one vertex id")
    if ids.min() < 0 or ids.max() >= n:
        raise ValueError(f"route: vertex ids must be in 0..{n - 1}")
    return ids


# ----------------------------------------------------------------------------------------------
# Drawing

# Colours of the drawing, 8-bit RGB: the route, the start and the goal.
ROUTE_RGB = (255, 32, 32)
START_RGB = (0, 200, 60)
GOAL_RGB = (40, 110, 255)


def draw_route(cost: np.ndarray, route, path: str | os.PathLike) -> Path:
    """Write the map with the route over it as an RGB PNG, atomically. Returns the path.

    The map is grey: walls black, passable pixels at the luminance `load_map` reads as their
    cost (white = 1, clamped to the darkest passable grey, 26 of 255), so the drawing of a map
    without its route loads back as the same map. The route is red, 1 px wide (2 px on maps of
    512 px or more a side); the start is a green disc and the goal a blue one (radius about
    1/128 of the shorter side, at least 2 px).
    """
    cost = _check_cost(cost)
    height, width = cost.shape
    ids = _route_ids(route, height * width)
    # Inverse of cost_from_luminance, rounded to 8 bits.
    luminance = 1.0 - (cost.astype(np.float64) - MIN_COST) / DARKNESS_COST
    grey = np.floor(np.clip(luminance, 26 / 255, 1.0) * 255.0 + 0.5).astype(np.uint8)
    grey[~np.isfinite(cost)] = 0
    rgb = np.repeat(grey[:, :, None], 3, axis=2)

    y, x = np.divmod(ids, width)
    thick = 2 if max(height, width) >= 512 else 1
    for oy in range(thick):
        for ox in range(thick):
            rgb[np.minimum(y + oy, height - 1), np.minimum(x + ox, width - 1)] = ROUTE_RGB
    radius = max(2, min(height, width) // 128)
    for (cx, cy), colour in (((x[0], y[0]), START_RGB), ((x[-1], y[-1]), GOAL_RGB)):
        y_lo, y_hi = max(0, cy - radius), min(height, cy + radius + 1)
        x_lo, x_hi = max(0, cx - radius), min(width, cx + radius + 1)
        yy, xx = np.ogrid[y_lo:y_hi, x_lo:x_hi]
        disc = (yy - cy) ** 2 + (xx - cx) ** 2 <= radius * radius
        rgb[y_lo:y_hi, x_lo:x_hi][disc] = colour

    # The renderer's PNG writer: temporary file beside the target, then os.replace.
    from raytrace.image import write_png

    return write_png(path, rgb)
