"""The shortest-path grid kernels on the GPU (sssp_demo/grid_forms.py): every algorithm against
scipy's dijkstra on every graph family (random graphs with zero weights, parallel edges,
self-loops and unreachable vertices; a single vertex; the seed DAG; the road, R-MAT and Delaunay
stand-ins), through `sssp(..., backend="cuda")` and `gq plan --backend cuda`.

The whole file should take one to two minutes on an H200 (tools/gpu-suite.sh gives it 150 s).
Run with ``-s``: each case prints one line (graph, algorithm, kernel shape, rounds, relaxations,
GPU milliseconds, differences), so a failure can be diagnosed from the log alone.
"""

from __future__ import annotations

import time

import numpy as np
import pytest
from scipy.sparse.csgraph import dijkstra
from test_sssp_algorithms import random_graph

from sssp_demo import generators
from sssp_demo.grid_forms import (
    GRID_ALGORITHMS,
    DeviceGraph,
    OverBudget,
    kernel_shape,
    run_cuda,
)
from sssp_demo.reference import check_distances
from sssp_demo.sssp import SsspStats, as_csr, davidson_delta, sssp

pytestmark = pytest.mark.gpu


def run_and_check(g, source, algorithm, what, limit=np.inf, **kw):
    import cupy

    indptr, idx, w, n = as_csr(g)
    dg = DeviceGraph.upload(indptr, idx, w, n)
    kw.setdefault("d", max(1, dg.max_degree))
    kw.setdefault("delta", davidson_delta(float(w.mean()) if w.size else 0.0, dg.mean_degree))
    start, end = cupy.cuda.Event(), cupy.cuda.Event()
    start.record()
    dist, pred, stats = run_cuda(dg, source, algorithm, limit=limit, **kw)
    end.record()
    end.synchronize()
    ms = cupy.cuda.get_elapsed_time(start, end)
    dist, pred = dist.get(), pred.get()
    ref = dijkstra(g, indices=source, limit=limit)
    differ = int((dist != ref).sum())
    shape = kernel_shape(algorithm)
    print(f"\n[sssp-gpu] {what}: n={n:,} m={dg.m:,} {algorithm} source={source} blocks={shape['blocks']}x"
          f"{shape['threads_per_block']} regs={shape['registers']} local={shape['local_bytes']}B "
          f"rounds={stats['rounds']:,} relax={stats['relaxations']:,} impr={stats['improvements']:,} "
          f"heap={stats['heap_updates']:,} gpu_ms={ms:.3f} differ={differ}", flush=True)
    if differ:
        bad = np.flatnonzero(dist != ref)[:5]
        shown = ", ".join(f"v{v}: gpu {dist[v]!r} scipy {ref[v]!r}" for v in bad)
        pytest.fail(f"{differ} distances differ, e.g. {shown}")
    if np.isinf(limit):
        problems = check_distances(g, source, dist, pred)
        assert not problems, problems
    return stats


# (threads in the block, seed, d, keys): the big case once, it drains 20,000 ExtractMins.
HEAP_CASES = ([(w, s, d, k) for w in (32, 256) for s in range(3) for d, k in ((1, 20), (4, 200), (16, 1000))]
              + [(256, 0, 256, 20_000)])


@pytest.mark.parametrize("width, seed, d, n_keys", HEAP_CASES)
def test_block_heap_on_the_gpu(width, seed, d, n_keys):
    """parBucketHeap's block form on one CUDA block equals the reference heap, before parDijkstra
    relies on it."""
    from test_bucket_heap import random_program

    from sssp_demo.grid_forms import run_block_heap_cuda

    rng = np.random.default_rng(seed * 1000 + d)
    prog, expected = random_program(rng, n_keys, d, steps=600, p_delete=0.1, integer_prios=seed % 2 == 0)
    started = time.perf_counter()
    got = run_block_heap_cuda(prog, n_keys, d, width)
    wrong = [i for i, (a, b) in enumerate(zip(got, expected)) if a != b]
    print(f"\n[sssp-gpu] block heap width={width} d={d} keys={n_keys}: {len(prog.types)} operations, "
          f"{time.perf_counter() - started:.3f} s, {len(wrong)} wrong", flush=True)
    assert not wrong, f"first wrong ExtractMin #{wrong[0]}: got {got[wrong[0]]}, want {expected[wrong[0]]}"


# (threads a block, seed, d, keys): heaps of 4 to 7 levels, so 4 to 7 blocks.
LEVEL_HEAP_CASES = [(w, s, d, k) for w in (32, 256) for s in range(2) for d, k in ((1, 300), (4, 200), (16, 1000))]


@pytest.mark.parametrize("width, seed, d, n_keys", LEVEL_HEAP_CASES)
def test_level_heap_on_the_gpu(width, seed, d, n_keys):
    """parBucketHeap with one CUDA block a level (sssp/level_bucket_heap.h: requests through
    device memory, signal buffers emptied while the levels above go on) equals the reference heap."""
    from test_bucket_heap import random_program

    from sssp_demo.grid_forms import run_block_heap_cuda

    rng = np.random.default_rng(seed * 1000 + d + 7)
    prog, expected = random_program(rng, n_keys, d, steps=600, p_delete=0.1, integer_prios=seed % 2 == 0)
    started = time.perf_counter()
    got = run_block_heap_cuda(prog, n_keys, d, width, per_level=True)
    wrong = [i for i, (a, b) in enumerate(zip(got, expected)) if a != b]
    print(f"\n[sssp-gpu] level heap width={width} d={d} keys={n_keys}: {len(prog.types)} operations, "
          f"{time.perf_counter() - started:.3f} s, {len(wrong)} wrong", flush=True)
    assert not wrong, f"first wrong ExtractMin #{wrong[0]}: got {got[wrong[0]]}, want {expected[wrong[0]]}"


@pytest.mark.parametrize("algorithm", GRID_ALGORITHMS)
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("n, m", [(1, 0), (2, 1), (50, 200), (300, 3000), (1000, 4000), (20_000, 400_000)])
def test_random_graphs(algorithm, seed, n, m):
    g = random_graph(seed, n, m, zero_frac=0.3 if seed % 2 else 0.0)
    run_and_check(g, seed % n, algorithm, f"random seed={seed} zeros={'30%' if seed % 2 else 'none'}")


@pytest.mark.parametrize("algorithm", ["near-far", "bellman-ford"])
@pytest.mark.parametrize("own_cap", [1, 5, 1024])
@pytest.mark.parametrize("graph", ["random", "maze"])
def test_local_rounds_in_own_lists(algorithm, own_cap, graph):
    """Block 0's local rounds keep their frontiers in shared memory (own lists, 1,024 items)
    and spill past them into the device lists: own_cap 1 and 5 spill nearly every round. The maze
    (a tree of corridors, thousands of small rounds) is what they are for."""
    from sssp_demo import maps

    if graph == "maze":
        g, _ = maps.grid_graph(maps.generate_maze(513, 2), dtype=np.float64)
    else:
        g = random_graph(7, 20_000, 100_000, zero_frac=0.3)
    stats = run_and_check(g, 0, algorithm, f"{graph} own_cap={own_cap}", own_cap=own_cap)
    if graph == "maze":
        assert stats["rounds"] > 2048


@pytest.mark.parametrize("algorithm", GRID_ALGORITHMS)
def test_without_local_rounds(algorithm):
    """local_passes=0 (tools/gpu_round_probe.py's comparison): every round over the whole grid."""
    from sssp_demo import maps

    g, _ = maps.grid_graph(maps.generate_maze(129, 1), dtype=np.float64)
    run_and_check(g, 0, algorithm, "maze 129 without local rounds", local_passes=0)


@pytest.mark.parametrize("algorithm", ["near-far", "bellman-ford"])
@pytest.mark.parametrize("block", [256, 512])
@pytest.mark.parametrize("local_passes", [1, 2, 4])
def test_block_widths_and_local_passes(algorithm, block, local_passes):
    """Near-Far and Bellman-Ford at both block widths (one block of 512 an SM by default, or two
    of 256) and every local round size up to LOCAL_PASSES: 4 passes of 512 one-lane items are
    2,048, past the own lists' 1,024, so block 0's first round spills."""
    from sssp_demo import maps

    g, _ = maps.grid_graph(maps.generate_maze(257, 3), dtype=np.float64)
    run_and_check(g, 0, algorithm, f"maze 257 block={block} passes={local_passes}", block=block,
                  local_passes=local_passes)
    road = random_graph(11, 5_000, 9_000, zero_frac=0.3)  # mean degree under 4: one lane an item
    run_and_check(road, 0, algorithm, f"sparse block={block} passes={local_passes}", block=block,
                  local_passes=local_passes)


@pytest.mark.parametrize("weights, message", [
    ([1.0, -2.0], "negative edge weight -2.0"),
    ([np.nan, 1.0], "edge weights must be finite"),
    ([1.0, np.inf], "edge weights must be finite"),
])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_bad_weights_are_caught_on_the_gpu(weights, message, dtype):
    """The GPU path checks the weights after their upload (not on the host): the same errors."""
    import scipy.sparse as sp

    from queues_cuda.errors import GQError
    from sssp_demo.sssp import route_search, sssp

    g = sp.csr_matrix((np.array(weights, dtype), ([0, 1], [1, 2])), shape=(3, 3))
    with pytest.raises(GQError, match=message):
        sssp(g, 0, algorithm="near-far", backend="cuda")
    with pytest.raises(GQError, match=message):
        route_search(g, 0, 2, backend="cuda")


def test_route_search_brings_back_what_a_planner_needs():
    """route_search on the GPU: the goal's distance and int32 predecessors whose walk from the
    goal is a shortest route; the copy back is labelled so in the timing line."""
    from sssp_demo import maps
    from sssp_demo.sssp import SsspStats, route_search

    cost_map = maps.generate_maze(301, 4)
    g, _ = maps.grid_graph(cost_map)
    ref = dijkstra(g, indices=0)
    target = int(np.flatnonzero(np.isfinite(ref))[-1])
    stats = SsspStats()
    cost, pred = route_search(g, 0, target, algorithm="near-far", backend="cuda", stats=stats)
    assert cost == ref[target] and pred.dtype == np.int32
    route = maps.route_from_predecessors(pred, 0, target)
    assert route[0] == 0 and route[-1] == target
    walked = sum(g[u, v] for u, v in zip(route, route[1:]))
    assert np.isclose(walked, ref[target])
    assert "copy out" in stats.phases("cuda") and "the predecessors and the goal's distance" in stats.phases("cuda")


def test_large_arrays_are_page_locked_for_their_copies():
    """to_device and from_device lock host arrays of at least PINNED_FROM_BYTES for the copy;
    memory that is locked already (pinned, or locked by an outer copy) is copied as it is; and a
    graph that large goes through sssp() to scipy's distances."""
    import cupy
    import cupyx

    from sssp_demo.grid_forms import (
        PINNED_FROM_BYTES,
        _PageLocked,
        from_device,
        to_device,
    )

    a = np.arange(PINNED_FROM_BYTES // 4 + 7, dtype=np.int32)
    d = to_device(a)
    assert bool(cupy.array_equal(d, cupy.asarray(a)))
    pinned = cupyx.empty_pinned(a.shape, a.dtype)
    pinned[...] = a
    assert np.array_equal(to_device(pinned).get(), a)
    with _PageLocked(a):
        assert np.array_equal(to_device(a).get(), a)
    for out in (np.empty_like(a), cupyx.empty_pinned(a.shape, a.dtype)):
        from_device(d, out)
        assert np.array_equal(out, a)
    g = random_graph(3, 200_000, 1_200_000, zero_frac=0.1)
    assert g.data.nbytes >= PINNED_FROM_BYTES and g.indices.nbytes >= PINNED_FROM_BYTES
    dist, pred = sssp(g, indices=0, algorithm="near-far", backend="cuda")
    assert np.array_equal(dist, dijkstra(g, indices=0))
    assert not check_distances(g, 0, dist, pred)


@pytest.mark.parametrize("algorithm", GRID_ALGORITHMS)
@pytest.mark.parametrize("delta", [None, 1e-3, 1e9])
def test_non_integer_weights_bit_for_bit(algorithm, delta):
    """Float weights: every algorithm forms the same float64 sums as scipy, so the distances are
    equal bit for bit, not merely close (Near-Far with tiny and huge Delta too)."""
    g = random_graph(11, 5000, 80_000, zero_frac=0.05)
    g.data *= 1.37
    kw = {} if delta is None else {"delta": delta}
    run_and_check(g, 0, algorithm, f"float weights delta={delta}", **kw)


@pytest.mark.parametrize("algorithm", GRID_ALGORITHMS)
@pytest.mark.parametrize("d", [1, 3, 64])
def test_batch_sizes(algorithm, d):
    g = random_graph(7, 3000, 60_000, zero_frac=0.1)
    run_and_check(g, 0, algorithm, f"random d={d}", d=d)


FAMILIES = {
    "seed-dag-small": lambda: generators.seed_dag(3000, 300_000, 1),
    "seed-dag-30k": lambda: generators.seed_dag(30_000, 3_000_000, 2),
    "road-300x300": lambda: generators.road_like(300, 300, 3),
    "rmat-14": lambda: generators.rmat(14, 16, 4),
    "rmat-12-symmetric": lambda: generators.rmat(12, 8, 5, symmetric=True),
    "delaunay-50k": lambda: generators.delaunay(50_000, 6),
}


@pytest.fixture(scope="module")
def families():
    return {}


@pytest.mark.parametrize("family", list(FAMILIES))
@pytest.mark.parametrize("algorithm", GRID_ALGORITHMS)
def test_graph_families(families, family, algorithm):
    if family not in families:
        families[family] = FAMILIES[family]()
    g = families[family]
    stats = run_and_check(g, 0, algorithm, family)
    if family.startswith("seed-dag") and algorithm in ("pardijkstra", "pardijkstra-sliced"):
        # pardijkstra-sliced settles u + 1 with u (its follower, sssp/slice_dijkstra.h)
        rounds = g.shape[0] if algorithm == "pardijkstra" else (g.shape[0] + 1) // 2
        assert stats["rounds"] == rounds and stats["relaxations"] == g.nnz


@pytest.mark.parametrize("algorithm", GRID_ALGORITHMS)
def test_limit(algorithm):
    g = random_graph(3, 2000, 20_000, zero_frac=0.1)
    run_and_check(g, 0, algorithm, "random limit=15", limit=15.0)


@pytest.mark.parametrize("algorithm", GRID_ALGORITHMS)
def test_sssp_api_several_sources_and_cupy_input(algorithm):
    import cupyx.scipy.sparse as csp

    g = random_graph(9, 500, 5000, zero_frac=0.1)
    stats = SsspStats()
    dist, pred = sssp(g, indices=[0, 7, 499], algorithm=algorithm, backend="cuda", stats=stats)
    assert np.array_equal(dist, dijkstra(g, indices=[0, 7, 499]))
    for row, source in enumerate((0, 7, 499)):
        assert not check_distances(g, source, dist[row], pred[row])
    canonical = g.copy()
    canonical.sum_duplicates()  # a CuPy matrix is built from a canonical one
    dist_cupy = sssp(csp.csr_matrix(canonical), indices=3, algorithm=algorithm, backend="cuda",
                     return_predecessors=False)
    assert np.array_equal(dist_cupy, dijkstra(canonical, indices=3))
    print(f"\n[sssp-gpu] api {algorithm}: {stats}", flush=True)


def test_auto_backend_takes_the_gpu():
    from sssp_demo.sssp import resolve_backend

    assert resolve_backend("pardijkstra", "auto") == "cuda"
    assert resolve_backend("scipy", "auto") == "cpu"


def test_time_budget_stops_the_kernel():
    """A run past its budget stops itself at a round boundary (every block leaves the barrier
    loop together) and says so; the next run on the same GPU is unaffected."""
    g = generators.seed_dag(30_000, 3_000_000, 1)
    indptr, idx, w, n = as_csr(g)
    dg = DeviceGraph.upload(indptr, idx, w, n)
    started = time.perf_counter()
    with pytest.raises(OverBudget):
        run_cuda(dg, 0, "bellman-ford", budget_s=1e-4)
    print(f"\n[sssp-gpu] budget stop after {time.perf_counter() - started:.3f} s wall", flush=True)
    dist, _, _ = run_cuda(dg, 0, "pardijkstra", d=4096)
    assert np.array_equal(dist.get(), np.arange(n, dtype=float))


@pytest.mark.parametrize("form,cluster_blocks", [("grid", None), ("cluster", None), ("cluster", 8)])
def test_sliced_forms(form, cluster_blocks):
    """pardijkstra-sliced's two GPU forms, each forced, the cluster at its default size (16 blocks
    on an H200) and at the portable 8: rows in any order (its layout groups edges by slice, not by
    row order), a limit, the seed DAG's closed form, the offset table in device memory where it
    does not fit in shared memory, and a budget stop that every block takes in the same round; the
    follower on (two vertices a round on the seed DAG and a chain) and off."""
    import scipy.sparse as sp
    from test_grid_forms import shuffled_rows

    from sssp_demo.grid_forms import CLUSTER_BLOCKS, _run_sliced, sliced_shape

    blocks = cluster_blocks or CLUSTER_BLOCKS

    def run(g, source=0, limit=np.inf, budget_s=None, follow=True):
        dg = DeviceGraph.upload(*as_csr(g))
        dist, pred, stats = _run_sliced(dg, source, limit, budget_s, 1, form=form, cluster_blocks=cluster_blocks,
                                        follow=follow)
        return dist.get(), pred.get(), stats

    g = shuffled_rows(random_graph(8, 3000, 60_000, zero_frac=0.2), 8)
    assert not g.has_sorted_indices
    for limit in (np.inf, 12.0):
        for follow in (True, False):
            dist, pred, _ = run(g, 5, limit, follow=follow)
            assert np.array_equal(dist, dijkstra(g, indices=5, limit=limit))
    assert not check_distances(g, 5, *run(g, 5)[:2])
    dag = generators.seed_dag(30_000, 3_000_000, 1)
    dist, pred, stats = run(dag)
    assert np.array_equal(dist, np.arange(30_000, dtype=float)) and np.array_equal(pred[1:], np.arange(29_999))
    assert stats["rounds"] == 15_000 and stats["relaxations"] == 3_000_000
    dist, _, stats = run(dag, follow=False)
    assert np.array_equal(dist, np.arange(30_000, dtype=float)) and stats["rounds"] == 30_000
    with pytest.raises(OverBudget):
        run(dag, budget_s=1e-5)
    big = 200_000  # its offset table (n + 1 words a block) no longer fits beside the slice
    assert not sliced_shape(big, form, blocks)[2]
    chain = sp.csr_matrix((np.ones(big - 1), np.arange(1, big), np.r_[np.arange(big), big - 1]), shape=(big, big))
    dist, _, stats = run(chain)
    assert np.array_equal(dist, np.arange(big, dtype=float)) and stats["rounds"] == big // 2
    print(f"\n[sssp-gpu] sliced {form}: {sliced_shape(big, form, blocks)[0]} blocks, all cases exact", flush=True)


def test_sliced_refuses_what_does_not_fit():
    """A graph whose slices fit neither form is refused with a message, before any launch."""
    import cupy
    import scipy.sparse as sp

    from queues_cuda.errors import GQError
    from sssp_demo.grid_forms import SLICED_STATIC_SHARED, sliced_form, sliced_shape

    attrs = cupy.cuda.Device().attributes
    most = (attrs["MaxSharedMemoryPerBlockOptin"] - SLICED_STATIC_SHARED) // 8 * attrs["MultiProcessorCount"]
    sliced_shape(most)  # the largest graph still fits the grid form
    assert sliced_form(most) == "grid" and sliced_form(30_000) == "cluster"
    assert sliced_form(30_000, 100_000_000) == "cluster" and sliced_form(30_000, 300_000_000) == "grid"
    room = most + 1
    chain = sp.csr_matrix((np.ones(room - 1), np.arange(1, room), np.r_[np.arange(room), room - 1]),
                          shape=(room, room))
    with pytest.raises(GQError, match="do not fit"):
        sssp(chain, algorithm="pardijkstra-sliced", backend="cuda")
    print(f"\n[sssp-gpu] sliced: {room:,} vertices refused", flush=True)


def test_plan_maze_on_the_gpu(tmp_path, capsys):
    from gq import cli

    costs = {}
    for algorithm, backend in (("pardijkstra", "cuda"), ("pardijkstra-batched", "cuda"), ("near-far", "cuda"),
                               ("scipy", "cpu")):
        with pytest.raises(SystemExit) as exc:
            cli.run(["plan", "--generate", "maze", "--size", "257", "--seed", "4", "-o",
                     str(tmp_path / f"{algorithm}.png"), "--algorithm", algorithm, "--backend", backend])
        out = capsys.readouterr()
        assert exc.value.code == 0, out.err
        print(f"\n[sssp-gpu] plan {algorithm} {backend}: {out.out.strip()}", flush=True)
        costs[algorithm] = float(out.out.split("cost ")[1].split()[0])
        assert f"backend {backend}" in out.out
    assert len(set(costs.values())) == 1, costs


def test_seed_dag_rounds_record(tmp_path):
    """The per-round benchmark of parDijkstra (sssp_demo.bench.seed_dag_rounds) on a small seed
    DAG: exact distances, one row per graph, its JSON record written."""
    import json

    from sssp_demo.bench import seed_dag_rounds

    result = seed_dag_rounds(edges=(20_000,), vertices=2000, repeats=1, warmup=1, out_dir=tmp_path)
    row, = result["rows"]
    assert row["exact"] and row["rounds"] == 2000 and row["us_per_round"] > 0
    assert json.loads((tmp_path / "seed-dag-rounds.json").read_text())["rows"][0]["edges"] == 20_000
