"""Maps for `gq plan`: image costs, generated mazes and terrain, the grid graph, routes, drawing.

Shortest paths here come from scipy.sparse.csgraph.dijkstra, the reference every planner is
checked against; the maps module only has to give it the right graph and read its answer back.
"""

import math

import numpy as np
import pytest
from PIL import Image
from scipy.sparse.csgraph import connected_components, dijkstra

from queues_cuda.errors import GQError
from sssp_demo import maps
from sssp_demo.maps import (
    MAP_GENERATORS,
    MapError,
    corner_points,
    draw_route,
    generate_maze,
    generate_terrain,
    grid_graph,
    load_map,
    parse_point,
    route_cost_and_length,
    route_from_predecessors,
)

INF = np.inf
SQRT2 = math.sqrt(2.0)


def save(tmp_path, array, name="map.png"):
    """Write a uint8 array as PNG: [H, W] greyscale, [H, W, 3] RGB, [H, W, 4] RGBA."""
    path = tmp_path / name
    Image.fromarray(np.asarray(array)).save(path)
    return path


def expected_cost(luminance_8bit):
    """The documented mapping, written out once more: below 26 of 255 a wall, else 1 + 9 (1 - L)."""
    return INF if luminance_8bit < 26 else 1.0 + 9.0 * (1.0 - luminance_8bit / 255.0)


# ----------------------------------------------------------------------------------------------
# load_map


def test_load_map_thresholds_and_mapping(tmp_path):
    values = np.array([[0, 1, 25, 26, 27], [64, 128, 200, 254, 255]], dtype=np.uint8)
    cost = load_map(save(tmp_path, values))
    assert cost.dtype == np.float32 and cost.shape == (2, 5)
    want = np.array([[expected_cost(v) for v in row] for row in values])
    np.testing.assert_allclose(cost, want, rtol=1e-6)
    assert cost[1, 4] == 1.0  # white is the cheapest
    assert cost[0, 3] == pytest.approx(1 + 9 * 229 / 255)  # darkest passable grey, about 9.08
    passable = cost[np.isfinite(cost)]
    assert (np.diff(passable) < 0).all()  # brighter (left to right here) is always cheaper


@pytest.mark.parametrize("rgb, luminance", [
    ((255, 0, 0), 76),      # ITU-R 601-2: 0.299 R + 0.587 G + 0.114 B
    ((0, 255, 0), 150),
    ((0, 0, 255), 29),
    ((0, 0, 200), 22),      # a dark blue is a wall
    ((255, 255, 255), 255),
])
def test_load_map_colour_uses_luma(tmp_path, rgb, luminance):
    rgb_image = np.full((2, 3, 3), 255, dtype=np.uint8)
    rgb_image[0] = rgb  # a white row below, so a colour that is a wall still leaves a map
    cost = load_map(save(tmp_path, rgb_image))
    np.testing.assert_allclose(cost[0], expected_cost(luminance), rtol=1e-6)
    assert (cost[1] == 1.0).all()


def test_load_map_transparent_is_open_floor(tmp_path):
    rgba = np.zeros((2, 3, 4), dtype=np.uint8)
    rgba[0, 0] = (0, 0, 0, 255)        # opaque black: a wall
    rgba[0, 1] = (0, 0, 0, 0)          # fully transparent black: white floor
    rgba[0, 2] = (0, 0, 0, 128)        # half-transparent black over white: mid grey
    rgba[1] = (255, 255, 255, 255)
    cost = load_map(save(tmp_path, rgba))
    assert np.isinf(cost[0, 0])
    assert cost[0, 1] == 1.0
    assert 5.0 < cost[0, 2] < 6.0
    assert (cost[1] == 1.0).all()


def test_load_map_16_bit_keeps_precision(tmp_path):
    # 0.1 of full scale is 6553.5: 6553 is a wall, 6554 is not, which 8 bits could not tell.
    values = np.array([[6553, 6554, 32768, 65535]], dtype=np.uint16)
    path = tmp_path / "deep.png"
    Image.fromarray(values).save(path)
    cost = load_map(path)
    assert np.isinf(cost[0, 0])
    np.testing.assert_allclose(cost[0, 1:], 1 + 9 * (1 - values[0, 1:] / 65535.0), rtol=1e-6)


def test_load_map_largest_side_allowed_is_read(tmp_path):
    path = save(tmp_path, np.full((1, maps.MAX_MAP_SIDE), 255, dtype=np.uint8))
    assert load_map(path).shape == (1, maps.MAX_MAP_SIDE)


def write_bytes(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data)
    return path


def truncated_png(tmp_path):
    full = save(tmp_path, np.random.default_rng(0).integers(0, 255, (64, 64), dtype=np.uint8), "full.png")
    return write_bytes(tmp_path, "cut.png", full.read_bytes()[:100])


@pytest.mark.parametrize("make, message", [
    (lambda t: t / "missing.png", "missing.png: no such file"),
    (lambda t: t, "is a folder, expected an image file"),
    (lambda t: write_bytes(t, "empty.png", b""), "empty.png: the file is empty (0 bytes)"),
    (lambda t: write_bytes(t, "notes.png", b"walls are dark\n"), "notes.png: cannot read it as an image"),
    (truncated_png, "cut.png: cannot read it as an image"),
    (lambda t: save(t, np.full((2, maps.MAX_MAP_SIDE + 1), 255, dtype=np.uint8), "wide.png"),
     "wide.png: the image is 16385x2 pixels; a map may be at most 16384 pixels on a side"),
    (lambda t: save(t, np.full((3, 3), 25, dtype=np.uint8), "dark.png"),
     "dark.png: every pixel is a wall (darker than 26 of 255)"),
])
def test_load_map_errors(tmp_path, make, message):
    with pytest.raises(MapError) as info:
        load_map(make(tmp_path))
    text = str(info.value)
    assert message in text
    assert "\n" not in text
    assert isinstance(info.value, GQError)


def test_load_map_image_without_pixels(tmp_path, monkeypatch):
    # No image format Pillow writes can hold zero pixels, so stand in for a reader that returns one.
    path = write_bytes(tmp_path, "flat.png", b"not read")
    monkeypatch.setattr(Image, "open", lambda p: Image.new("L", (0, 7)))
    with pytest.raises(MapError, match=r"flat.png: the image is empty \(0x7 pixels\)"):
        load_map(path)


def test_load_map_restores_pillow_limit(tmp_path):
    before = Image.MAX_IMAGE_PIXELS
    load_map(save(tmp_path, np.full((2, 2), 255, dtype=np.uint8)))
    with pytest.raises(MapError):
        load_map(tmp_path / "missing.png")
    assert Image.MAX_IMAGE_PIXELS == before


# ----------------------------------------------------------------------------------------------
# Generated maps


def passable_components(cost):
    graph, passable = grid_graph(cost)
    sub = graph[passable.ravel()][:, passable.ravel()]
    return connected_components(sub, directed=False)[0], sub


@pytest.mark.parametrize("size", [4, 5, 9, 32, 65])
@pytest.mark.parametrize("seed", [0, 7])
def test_maze_is_perfect(size, seed):
    cost = generate_maze(size, seed)
    assert cost.shape == (size, size) and cost.dtype == np.float32
    assert set(np.unique(cost).tolist()) == {1.0, INF}
    m = (size + 1) // 2
    assert np.isfinite(cost[::2, ::2]).all()           # every cell is open
    assert np.isinf(cost[1::2, 1::2]).all()            # odd-odd pixels are always walls
    assert np.count_nonzero(np.isfinite(cost)) == 2 * m * m - 1  # m^2 cells, m^2 - 1 passages
    components, sub = passable_components(cost)
    assert components == 1
    assert sub.nnz == 2 * (sub.shape[0] - 1)  # connected with V - 1 edges: a tree, no loops


def test_maze_is_deterministic_per_seed():
    np.testing.assert_array_equal(generate_maze(41, 3), generate_maze(41, 3))
    assert not np.array_equal(generate_maze(41, 3), generate_maze(41, 4))


@pytest.mark.parametrize("size", [16, 100])
def test_terrain_costs_walls_and_connectivity(size):
    cost = generate_terrain(size, 5)
    assert cost.shape == (size, size) and cost.dtype == np.float32
    finite = cost[np.isfinite(cost)]
    assert finite.min() >= 1.0 and finite.max() <= 9.0
    assert finite.max() - finite.min() > 4.0          # hills and valleys, not a flat plain
    walls = np.count_nonzero(np.isinf(cost)) / cost.size
    assert 0.0 < walls < 0.15                          # a few lakes
    assert np.isposinf(cost[~np.isfinite(cost)]).all()
    assert passable_components(cost)[0] == 1          # islands are flooded


def test_terrain_is_deterministic_and_smooth():
    a = generate_terrain(96, 11)
    np.testing.assert_array_equal(a, generate_terrain(96, 11))
    assert not np.array_equal(a, generate_terrain(96, 12))
    both = np.isfinite(a[:, 1:]) & np.isfinite(a[:, :-1])
    steps = np.abs(a[:, 1:][both] - a[:, :-1][both])
    assert np.median(steps) < 0.5                      # neighbours cost nearly the same


@pytest.mark.parametrize("name", sorted(MAP_GENERATORS))
@pytest.mark.parametrize("size, seed, message", [
    (3, 0, "--size must be between 4 and 16384, got 3"),
    (16385, 0, "--size must be between 4 and 16384, got 16385"),
    (8.0, 0, "--size must be between 4 and 16384, got 8.0"),
    (8, -1, "--seed must be a non-negative integer, got -1"),
])
def test_generator_arguments(name, size, seed, message):
    with pytest.raises(MapError, match=message):
        MAP_GENERATORS[name](size, seed)


def test_generators_registry():
    assert MAP_GENERATORS == {"maze": generate_maze, "terrain": generate_terrain}


@pytest.mark.parametrize("size, far", [(8, 6), (9, 8)])
def test_corner_points_of_a_maze(size, far):
    assert corner_points(generate_maze(size, 1)) == ((0, 0), (far, far))


# ----------------------------------------------------------------------------------------------
# grid_graph


def reference_edges(cost):
    """Edge list by the definition, one pixel at a time: {(a, b): weight}."""
    h, w = cost.shape
    ok = lambda y, x: 0 <= y < h and 0 <= x < w and np.isfinite(cost[y, x])  # noqa: E731
    edges = {}
    for y in range(h):
        for x in range(w):
            if not ok(y, x):
                continue
            for dy in (-1, 0, 1):
                for dx in (-1, 0, 1):
                    if (dy or dx) and ok(y + dy, x + dx) and (not (dy and dx) or (ok(y + dy, x) and ok(y, x + dx))):
                        step = SQRT2 if dy and dx else 1.0
                        edges[(y * w + x, (y + dy) * w + x + dx)] = (cost[y, x] + cost[y + dy, x + dx]) / 2 * step
    return edges


def as_edges(graph):
    coo = graph.tocoo()
    return {(int(a), int(b)): float(v) for a, b, v in zip(coo.row, coo.col, coo.data)}


def test_grid_graph_open_3x3_by_hand():
    graph, passable = grid_graph(np.ones((3, 3), dtype=np.float32))
    assert graph.shape == (9, 9) and passable.all()
    # corners see 3 neighbours, edge middles 5, the centre 8
    assert np.diff(graph.indptr).tolist() == [3, 5, 3, 5, 8, 5, 3, 5, 3]
    assert graph.nnz == 40
    assert graph[4, 0] == pytest.approx(SQRT2) and graph[4, 1] == 1.0 and graph[0, 8] == 0
    assert graph.indices.dtype == np.int32 and graph.indptr.dtype == np.int32
    assert graph.data.dtype == np.float32


@pytest.mark.parametrize("cost, edges", [
    # a wall below-left: the diagonal (0,0)-(1,1) would cut its corner
    ([[1, 1], [INF, 1]], {(0, 1): 1.0, (1, 0): 1.0, (1, 3): 1.0, (3, 1): 1.0}),
    # two walls touching at a corner: no slipping between them
    ([[1, INF], [INF, 1]], {}),
    # costs average over the two pixels, times the step length
    ([[1, 3]], {(0, 1): 2.0, (1, 0): 2.0}),
    ([[1, 2], [3, 4]], {(0, 1): 1.5, (1, 0): 1.5, (0, 2): 2.0, (2, 0): 2.0, (1, 3): 3.0, (3, 1): 3.0,
                        (2, 3): 3.5, (3, 2): 3.5, (0, 3): 2.5 * SQRT2, (3, 0): 2.5 * SQRT2,
                        (1, 2): 2.5 * SQRT2, (2, 1): 2.5 * SQRT2}),
])
def test_grid_graph_small_cases(cost, edges):
    graph, passable = grid_graph(np.array(cost, dtype=np.float32))
    got = as_edges(graph)
    assert got.keys() == edges.keys()
    for key, weight in edges.items():
        assert got[key] == pytest.approx(weight, rel=1e-6)
    np.testing.assert_array_equal(passable, np.isfinite(np.array(cost)))


@pytest.mark.parametrize("seed", range(4))
def test_grid_graph_matches_definition(seed):
    rng = np.random.default_rng(seed)
    h, w = rng.integers(1, 12, 2)
    cost = rng.uniform(1, 10, (h, w)).astype(np.float32)
    cost[rng.random((h, w)) < 0.3] = INF
    graph, passable = grid_graph(cost)
    want = reference_edges(cost)
    got = as_edges(graph)
    assert got.keys() == want.keys()
    for key in want:
        assert got[key] == pytest.approx(want[key], rel=1e-6)
    assert graph.has_sorted_indices
    assert all((np.diff(graph.indices[graph.indptr[i]:graph.indptr[i + 1]]) > 0).all() for i in range(h * w))
    walls = np.flatnonzero(~passable.ravel())
    assert (np.diff(graph.indptr)[walls] == 0).all()   # walls are isolated vertices


def test_grid_graph_is_symmetric_and_bands_agree(monkeypatch):
    cost = generate_terrain(48, 2)
    graph, _ = grid_graph(cost)
    assert abs(graph - graph.T).max() == 0
    monkeypatch.setattr(maps, "_BAND_CELLS", 100)  # many bands, some not a whole number of rows
    banded, _ = grid_graph(cost)
    assert (graph != banded).nnz == 0
    np.testing.assert_array_equal(graph.indptr, banded.indptr)


def test_grid_graph_float64_weights():
    graph, _ = grid_graph(np.array([[1.0, 2.0], [3.0, 4.0]]), dtype=np.float64)
    assert graph.data.dtype == np.float64
    assert graph[0, 3] == 2.5 * SQRT2


@pytest.mark.parametrize("cost, message", [
    (np.ones(4), "expected a non-empty \\[H, W\\] array"),
    (np.ones((0, 3)), "expected a non-empty \\[H, W\\] array"),
    (np.ones((2, 2), dtype=np.int32), "expected floats"),
    (np.array([[1.0, np.nan]]), "positive and finite, or \\+inf"),
    (np.array([[1.0, -np.inf]]), "positive and finite, or \\+inf"),
    (np.array([[1.0, 0.0]]), "positive and finite, or \\+inf"),
])
def test_grid_graph_rejects_bad_costs(cost, message):
    with pytest.raises(ValueError, match=message):
        grid_graph(cost)


# ----------------------------------------------------------------------------------------------
# Points


@pytest.mark.parametrize("text, point", [("10,20", (10, 20)), (" 3 , 4 ", (3, 4)), ("0,0", (0, 0)),
                                         ("99,49", (99, 49))])
def test_parse_point(text, point):
    assert parse_point(text, "--start", (50, 100)) == point


@pytest.mark.parametrize("text, option, message", [
    ("10", "--start", "--start: expected X,Y (two integers, column then row, e.g. 10,20), got '10'"),
    ("a,b", "--goal", "--goal: expected X,Y"),
    ("1.5,2", "--start", "--start: expected X,Y"),
    ("1,2,3", "--start", "--start: expected X,Y"),
    ("", "--goal", "--goal: expected X,Y"),
    ("100,5", "--goal", "--goal 100,5 is outside the map: x must be in 0..99 and y in 0..49 (the map is 100x50)"),
    ("5,50", "--start", "--start 5,50 is outside the map"),
    ("-1,0", "--start", "--start -1,0 is outside the map"),
    ("1,0", "--start", "--start 1,0 is on a wall"),
])
def test_parse_point_errors(text, option, message):
    passable = np.ones((50, 100), dtype=bool)
    passable[0, 1] = False
    with pytest.raises(MapError) as info:
        parse_point(text, option, (50, 100), passable)
    assert str(info.value).startswith(message)


# ----------------------------------------------------------------------------------------------
# Routes


def plan(cost, start, goal):
    """Reference planning: scipy's Dijkstra on grid_graph, then the route read back."""
    graph, _ = grid_graph(cost)
    width = cost.shape[1]
    s, g = start[1] * width + start[0], goal[1] * width + goal[0]
    dist, pred = dijkstra(graph, indices=s, return_predecessors=True)
    return graph, dist[g], route_from_predecessors(pred, s, g, width=width)


@pytest.mark.parametrize("make", [lambda: generate_terrain(40, 4), lambda: generate_maze(31, 9)])
def test_route_matches_dijkstra(make):
    cost = make()
    start, goal = corner_points(cost)
    graph, distance, route = plan(cost, start, goal)
    w = cost.shape[1]
    assert route[0] == start[1] * w + start[0] and route[-1] == goal[1] * w + goal[0]
    assert all(graph[a, b] > 0 for a, b in zip(route, route[1:]))  # every step is an edge
    total, length = route_cost_and_length(cost, route)
    assert total == pytest.approx(distance, rel=1e-6)
    assert total == pytest.approx(sum(float(graph[a, b]) for a, b in zip(route, route[1:])), rel=1e-6)
    assert length >= math.hypot(goal[0] - start[0], goal[1] - start[1]) - 1e-9
    if np.all(cost[np.isfinite(cost)] == 1.0):
        assert total == pytest.approx(length)  # unit costs: cost is length


def test_route_start_is_goal():
    pred = np.full(6, -9999, dtype=np.int32)
    assert route_from_predecessors(pred, 4, 4) == [4]
    assert route_cost_and_length(np.ones((2, 3), dtype=np.float32), [4]) == (0.0, 0.0)


def test_route_unreachable_goal():
    cost = np.ones((3, 5), dtype=np.float32)
    cost[:, 2] = INF
    graph, _ = grid_graph(cost)
    _, pred = dijkstra(graph, indices=0, return_predecessors=True)
    with pytest.raises(MapError, match="no route from 0,0 to 4,2: walls cut the goal off from the start"):
        route_from_predecessors(pred, 0, 14, width=5)
    with pytest.raises(MapError, match="no route from vertex 0 to vertex 14"):
        route_from_predecessors(pred[None, :], 0, 14)


def test_route_cost_and_length_by_hand():
    cost = np.array([[1, 3, 1], [1, 1, 5]], dtype=np.float32)
    # (0,0) -> (1,0) -> (2,0) -> (2,1): orthogonal steps of 2, 2, 3
    assert route_cost_and_length(cost, [0, 1, 2, 5]) == pytest.approx((7.0, 3.0))
    # (0,0) -> (1,1) diagonal, then (2,1)
    assert route_cost_and_length(cost, [0, 4, 5]) == pytest.approx((SQRT2 + 3.0, SQRT2 + 1.0))


@pytest.mark.parametrize("route, message", [
    ([3, 5], "distinct 8-neighbours"),          # a jump: (0,1) -> (2,1)
    ([1, 1], "distinct 8-neighbours"),          # standing still
    ([2, 3], "distinct 8-neighbours"),          # (2,0) -> (0,1) wraps around a row
    ([3, 1], "cuts a wall's corner"),           # (0,1) -> (1,0) past the wall at (0,0)
    ([4, 0], "crosses a wall"),
    ([9], "vertex ids must be in 0..5"),
])
def test_route_cost_and_length_rejects_non_routes(route, message):
    cost = np.array([[INF, 1, 1], [1, 1, 1]], dtype=np.float32)
    with pytest.raises(ValueError, match=message):
        route_cost_and_length(cost, route)


# ----------------------------------------------------------------------------------------------
# Drawing


def test_draw_route_writes_the_map_and_route(tmp_path):
    cost = generate_terrain(48, 1)
    cost[20, 0:10] = INF
    start, goal = (0, 0), (47, 47)
    cost[0, 0] = cost[47, 47] = 1.0
    _, _, route = plan(cost, start, goal)
    path = tmp_path / "route.png"
    path.write_bytes(b"old")  # replaced whole
    assert draw_route(cost, route, path) == path
    with Image.open(path) as image:
        assert image.format == "PNG" and image.mode == "RGB" and image.size == (48, 48)
        rgb = np.asarray(image)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["route.png"]  # no temporary file left
    middle = route[len(route) // 2]
    assert tuple(rgb[middle // 48, middle % 48]) == maps.ROUTE_RGB
    assert tuple(rgb[0, 0]) == maps.START_RGB and tuple(rgb[47, 47]) == maps.GOAL_RGB
    drawn = np.zeros((48, 48), dtype=bool)
    for v in route:
        drawn[v // 48, v % 48] = True
    assert (rgb[20, 4:10][~drawn[20, 4:10]] == 0).all()  # walls black
    # Away from the route and the markers the map is grey, at the luminance load_map reads
    # back as the same cost (8-bit rounding aside).
    far = ~drawn
    far[:4, :4] = far[-4:, -4:] = False
    assert (rgb[far][:, 0] == rgb[far][:, 1]).all() and (rgb[far][:, 1] == rgb[far][:, 2]).all()
    back = maps.cost_from_luminance(rgb[:, :, 0] / 255.0)
    np.testing.assert_array_equal(np.isinf(back[far]), np.isinf(cost[far]))
    finite = far & np.isfinite(cost)
    np.testing.assert_allclose(back[finite], cost[finite], atol=9 / 255)


def test_draw_route_is_two_pixels_wide_on_large_maps(tmp_path):
    cost = np.ones((512, 520), dtype=np.float32)
    route = [300 * 520 + x for x in range(100, 200)]
    rgb = np.asarray(Image.open(draw_route(cost, route, tmp_path / "wide.png")))
    assert rgb.shape == (512, 520, 3)
    assert tuple(rgb[301, 150]) == maps.ROUTE_RGB and tuple(rgb[302, 150]) == (255, 255, 255)


def test_draw_route_rejects_foreign_ids(tmp_path):
    with pytest.raises(ValueError, match="vertex ids must be in 0..3"):
        draw_route(np.ones((2, 2), dtype=np.float32), [0, 4], tmp_path / "x.png")
    assert not (tmp_path / "x.png").exists()
