"""The queue BFS (SFQ) against compaction in probe trees (runs/bfs_variants.py), graphs made once.
  python3 runs/bfs_probe.py gen GRAPHDIR
  python3 runs/bfs_probe.py time TREE LABEL GRAPHDIR OUT.jsonl [blocks_per_sm]"""
import importlib.util, json, sys, time
from pathlib import Path
import numpy as np

HERE = Path(__file__).resolve().parent


def gen(gdir: Path):
    import concurrent.futures as cf, multiprocessing
    sys.path.insert(0, str(HERE.parent / "tools"))
    import gpu_bfs_bench as gbb
    gdir.mkdir(parents=True, exist_ok=True)
    names = sys.argv[3].split(",") if len(sys.argv) > 3 else list(gbb.GRAPHS)
    ctx = multiprocessing.get_context("spawn")
    with cf.ProcessPoolExecutor(max_workers=len(names), mp_context=ctx) as pool:
        for item in pool.map(gbb.make_graph, names):
            np.savez(gdir / f"{item['name']}.npz", indptr=item["indptr"], indices=item["indices"], n=item["n"],
                     source=item["source"], ref=item["ref"])
            print("made", item["name"], item["n"], flush=True)


def time_tree(tree: Path, label: str, gdir: Path, out: Path, per_sm: int):
    spec = importlib.util.spec_from_file_location("gbb", tree / "tools" / "gpu_bfs_bench.py")
    gbb = importlib.util.module_from_spec(spec); spec.loader.exec_module(gbb)
    import sssp_demo
    assert Path(sssp_demo.__file__).resolve().is_relative_to(tree.resolve()), sssp_demo.__file__
    started = time.perf_counter()
    for f in sorted(gdir.glob("*.npz")):
        z = np.load(f)
        item = {"indptr": z["indptr"], "indices": z["indices"], "n": int(z["n"]), "source": int(z["source"]),
                "ref": z["ref"]}
        print(f"{label} {f.stem} {per_sm}/SM", flush=True)
        rows = gbb.measure(item, (("queue", "sfq"), ("compaction", None)), started, 2.0, per_sm)
        with open(out, "a") as fh:
            for r in rows:
                fh.write(json.dumps({"tree": label, "graph": f.stem, **r}) + "\n")


def timeline(tree: Path, label: str, gdir: Path, out: Path, per_sm: int = 2):
    """The timeline trees (runs/bfs_timeline.py): per level, when the last working warp had its
    item, had expanded, had flushed, and when the next level began, after the leader's start."""
    import cupy
    sys.path.insert(0, str(tree))
    from sssp_demo import bfs as B
    assert Path(B.__file__).resolve().is_relative_to(tree.resolve()), B.__file__
    L = 16384
    for f in sorted(gdir.glob("*.npz")):
        z = np.load(f)
        dg = B.DeviceGraph.upload(z["indptr"], z["indices"], int(z["n"]))
        sizes = np.bincount(z["ref"][z["ref"] >= 0])
        for algorithm in ("queue", "compaction"):
            run = B.CudaBfs(dg, algorithm, "sfq", budget_s=2.0, blocks_per_sm=per_sm)
            run.stats = cupy.zeros(8 + 8 * L, cupy.uint64)
            res = []
            for rep in range(4):
                depth, parent, stats = run.run(int(z["source"]))
                tl = run.stats.get()[8:].reshape(L, 8).astype(np.int64)
                ok = bool(np.array_equal(depth.get(), z["ref"]))
                lv = min(stats["levels"], L - 1)
                s0 = tl[:lv + 1, 0]
                d = {k: (tl[:lv, k] - s0[:lv]) for k in (1, 2, 3, 4, 5, 6, 7)}
                d["next"] = s0[1:lv + 1] - s0[:lv]
                if rep:
                    res.append((d, ok))
            row = {"tree": label, "graph": f.stem, "algorithm": algorithm, "blocks_per_sm": per_sm, "exact": all(o for _, o in res)}
            for name in (1, 2, 3, 4, 5, 6, 7, "next"):
                v = np.concatenate([d[name] for d, _ in res])
                sz = np.concatenate([sizes[:len(d[name])] for d, _ in res])
                good = (v > 0) & (v < 1e7)
                row[f"d{name}_mean_ns"] = float(v[good].mean()) if good.any() else None
                row[f"d{name}_median_ns"] = float(np.median(v[good])) if good.any() else None
                small = good & (sz <= 4096)
                row[f"d{name}_small_mean_ns"] = float(v[small].mean()) if small.any() else None
            row["levels"] = int(lv)
            print(json.dumps(row), flush=True)
            with open(out, "a") as fh:
                fh.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen(Path(sys.argv[2]))
    elif sys.argv[1] == "timeline":
        timeline(Path(sys.argv[2]), sys.argv[3], Path(sys.argv[4]), Path(sys.argv[5]),
                 int(sys.argv[6]) if len(sys.argv) > 6 else 2)
    else:
        time_tree(Path(sys.argv[2]), sys.argv[3], Path(sys.argv[4]), Path(sys.argv[5]),
                  int(sys.argv[6]) if len(sys.argv) > 6 else 2)
