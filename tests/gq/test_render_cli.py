"""`gq render` and `gq bench render` as a user meets them, with the renderer and the scene loader
replaced by fakes (this file tests the command line, not the renderer): every bad option is one
line and exit 2 before anything renders or is written; a render writes its PNG and AOVs and says
what it traced; a benchmark writes provenance, medians that leave the warm-up out, and ratios to
the compaction baseline, and a chart when matplotlib is there.

RenderOptions, RenderResult, validate_options and parse_tiles are the real ones; only `render`
and `load_scene` are faked.
"""

import dataclasses
import datetime
import json
import sys
import types
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from gq.render_cli import default_json_path
from queues_cuda.queues import QUEUES

SECONDS = {"compaction": 2.0, "glfq": 1.0, "sfq": 4.0}  # a queue not named here takes 3.0
WARMUP_SECONDS = 100.0  # the first render of each configuration: it must never reach a median




@dataclass(frozen=True)
class FakeScene:
    path: Path
    name: str
    width: int = 64
    height: int = 48
    spp: int = 2

    def with_image(self, width=None, height=None, spp=None):
        return dataclasses.replace(self, width=width or self.width, height=height or self.height,
                                   spp=spp or self.spp)


@dataclass
class Fake:
    rt: types.ModuleType
    scene_module: types.ModuleType
    renders: list = dataclasses.field(default_factory=list)  # (scene, options) of every render
    loads: list = dataclasses.field(default_factory=list)
    image_value: dict = dataclasses.field(default_factory=dict)  # queue -> pixel value (default 0.5)


@pytest.fixture
def fake(monkeypatch):
    import raytrace.render as rt
    import raytrace.scene as sc
    f = Fake(rt, sc)
    seen = Counter()

    def load_scene(path):
        f.loads.append(Path(path))
        if not Path(path).is_file():
            raise sc.SceneError(f"{path}: no such scene file")
        return FakeScene(Path(path), Path(path).stem)

    def fake_render(scene, opts, progress=None):
        f.renders.append((scene, opts))
        key = opts.queue if opts.renderer == "queue" else "compaction"
        seen[scene.name, key] += 1
        for fraction in (0.0, 0.5, 1.0):
            if progress:
                progress(fraction)
        h, w = opts.height, opts.width
        aov = None
        if opts.aov:
            aov = {"depth": np.full((h, w), np.inf, np.float32), "normal": np.zeros((h, w, 3), np.float32),
                   "id": np.full((h, w), -1, np.int32)}
        return rt.RenderResult(
            image=np.full((h, w, 3), f.image_value.get(key, 0.5), np.float32),
            rays={"primary": w * h * opts.spp, "reflection": 700, "shadow": 1100},
            seconds=WARMUP_SECONDS if seen[scene.name, key] == 1 else SECONDS.get(key, 3.0),
            backend=opts.backend, renderer=opts.renderer, queue=opts.queue if opts.renderer == "queue" else None,
            nonfinite=3, aov=aov)

    monkeypatch.setattr(sc, "load_scene", load_scene)
    monkeypatch.setattr(rt, "render", fake_render)
    return f


@pytest.fixture
def scene(tmp_path):
    path = tmp_path / "room.toml"
    path.write_text("# the fake loader reads nothing\n")
    return path


def files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


# ---- gq render ----------------------------------------------------------------------------------

def test_render_writes_the_png_and_the_aovs_asked_for(fake, run_gq, scene, tmp_path):
    out = tmp_path / "shot.png"
    code, stdout, stderr = run_gq("render", scene, "-o", out, "--backend", "cpu", "--aov", "depth,id")
    assert code == 0, stderr
    assert files(tmp_path) == ["room.toml", "shot.depth.npy", "shot.id.npy", "shot.png"]
    with Image.open(out) as im:
        assert im.size == (64, 48) and np.asarray(im)[0, 0].tolist() == [188, 188, 188]
    assert np.load(tmp_path / "shot.id.npy").dtype == np.int32
    assert "backend cpu" in stdout
    rays = 64 * 48 * 2
    assert f"rays: primary {rays:,}  reflection 700  shadow 1,100  total {rays + 1800:,}" in stdout
    assert "non-finite samples dropped: 3" in stdout
    assert "time: 100.000 s" in stdout and "MRays/s" in stdout
    assert f"wrote {out}" in stdout
    (_, opts), = fake.renders
    assert opts.aov is True and opts.backend == "cpu"


def test_render_default_output_is_the_scene_name_here(fake, run_gq, scene, tmp_path, monkeypatch):
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    code, _, stderr = run_gq("render", scene, "--backend", "cpu")
    assert code == 0, stderr
    assert files(here) == ["room.png"]


def test_render_overrides_reach_the_renderer(fake, run_gq, scene, tmp_path):
    code, _, stderr = run_gq("render", scene, "-o", tmp_path / "a.png", "--width", 32, "--height", 16, "--spp", 3,
                             "--renderer", "queue", "--queue", "sfq", "--tiles", "4x2", "--threads", 5,
                             "--backend", "cpu")
    assert code == 0, stderr
    (s, opts), = fake.renders
    assert (s.width, s.height, s.spp) == (32, 16, 3)
    assert (opts.width, opts.height, opts.spp, opts.renderer, opts.queue, tuple(opts.tiles), opts.threads) == \
        (32, 16, 3, "queue", "sfq", (4, 2), 5)
    assert opts.aov is False


@pytest.mark.parametrize("queue, tiles", [(None, (1, 1)), ("sfq", (1, 1)), ("glfq", (2, 2)), ("gwfq", (2, 2))])
def test_render_tiles_default_to_the_queues_own(fake, run_gq, scene, tmp_path, queue, tiles):
    # One tile for SFQ's blocking form, whose workers reach other tiles only by stealing; 2x2 for
    # the others (raytrace.render.default_tiles).
    code, _, stderr = run_gq("render", scene, "-o", tmp_path / "a.png", "--backend", "cpu",
                             *(("--queue", queue) if queue else ()))
    assert code == 0, stderr
    (_, opts), = fake.renders
    assert (opts.queue, tuple(opts.tiles)) == (queue or "sfq", tiles)


def test_render_compaction(fake, run_gq, scene, tmp_path):
    code, stdout, stderr = run_gq("render", scene, "-o", tmp_path / "a.png", "--renderer", "compaction",
                                  "--backend", "cpu")
    assert code == 0, stderr
    assert "compaction renderer" in stdout
    assert fake.renders[0][1].renderer == "compaction"


@pytest.mark.parametrize("args, needle", [
    (["--width", "0"], "--width must be between 1 and 16384, got 0"),
    (["--width", "100000"], "--width must be between 1 and 16384, got 100000"),
    (["--height", "-2"], "--height must be between 1 and 16384"),
    (["--spp", "0"], "--spp must be between 1 and 4096"),
    (["--spp", "5000"], "--spp must be between 1 and 4096"),
    (["--tiles", "8"], "--tiles"),
    (["--tiles", "0x4"], "--tiles"),
    (["--tiles", "axb"], "--tiles"),
    (["--tiles", "65x1"], "--tiles"),  # the fake scene is 64 pixels across
    (["--aov", "depth,colour"], "--aov: unknown AOV 'colour'; allowed: depth, normal, id"),
    (["--renderer", "magic"], "--renderer: unknown renderer 'magic'; allowed: queue, compaction"),
    (["--queue", "nope"], "--queue: unknown queue 'nope'; allowed: " + ", ".join(QUEUES)),
    (["--renderer", "compaction", "--queue", "glfq"], "--queue applies to --renderer queue only"),
    (["--backend", "gpu"], "--backend: unknown backend 'gpu'"),
    (["--threads", "0"], "--threads must be at least 1"),
    (["-o", "shot.jpg"], "-o: the image is written as PNG, so the name must end in .png"),
])
def test_render_bad_input_is_one_line_exit_2_and_nothing_written(fake, run_gq, scene, tmp_path, args, needle):
    if "-o" not in args:
        args = [*args, "-o", str(tmp_path / "shot.png")]
    code, _, stderr = run_gq("render", scene, "--backend", "cpu", *args)
    assert code == 2
    assert stderr.startswith("gq: error: ") and stderr.count("\n") == 1, stderr
    assert needle in stderr
    assert "Traceback" not in stderr
    assert fake.renders == []
    assert files(tmp_path) == ["room.toml"]


def test_render_checks_options_before_reading_the_scene(fake, run_gq, scene, tmp_path):
    code, _, stderr = run_gq("render", scene, "-o", tmp_path / "a.png", "--width", "0")
    assert code == 2 and "--width" in stderr
    assert fake.loads == []


def test_render_into_a_missing_folder_writes_nothing(fake, run_gq, scene, tmp_path):
    code, _, stderr = run_gq("render", scene, "-o", tmp_path / "missing" / "shot.png", "--backend", "cpu")
    assert code == 2 and stderr.count("\n") == 1
    assert "-o" in stderr and "does not exist" in stderr
    assert fake.renders == [] and fake.loads == []
    assert files(tmp_path) == ["room.toml"]


def test_render_scene_error_is_one_line(fake, run_gq, tmp_path):
    code, _, stderr = run_gq("render", tmp_path / "nowhere.toml", "-o", tmp_path / "a.png", "--backend", "cpu")
    assert code == 2 and stderr.startswith("gq: error: ") and stderr.count("\n") == 1
    assert "nowhere.toml" in stderr
    assert fake.renders == [] and files(tmp_path) == []


# ---- gq bench render ----------------------------------------------------------------------------

def bench_args(tmp_path, *scenes, extra=()):
    args = ["bench", "render", "--width", 8, "--height", 4, "--spp", 1, "--backend", "cpu", "--repeats", 3,
            "--json", tmp_path / "out" / "r.json", *extra]
    for s in scenes:
        args += ["--scene", s]
    return args


def two_scenes(tmp_path):
    paths = [tmp_path / "a.toml", tmp_path / "b.toml"]
    for p in paths:
        p.write_text("")
    return paths


def test_bench_json_has_provenance_rows_and_ratios(fake, run_gq, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # the JSON must not wait on the chart
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    code, stdout, stderr = run_gq(*bench_args(tmp_path, *two_scenes(tmp_path)))
    assert code == 0, stderr
    record = json.loads((tmp_path / "out" / "r.json").read_text())
    for key in ("date", "commit", "dirty", "command", "host", "python", "gpu"):
        assert key in record
    assert record["kind"] == "render-bench"
    assert record["settings"]["repeats"] == 3 and record["settings"]["backend_used"] == "cpu"
    assert record["settings"]["queues"] == list(QUEUES)
    rows = record["rows"]
    assert [(r["scene"], r["renderer"], r["queue"]) for r in rows] == \
        [(s, "compaction", None) for s in ("a",)] + [("a", "queue", q) for q in QUEUES] + \
        [("b", "compaction", None)] + [("b", "queue", q) for q in QUEUES]
    rays = 8 * 4 * 1 + 700 + 1100
    for r in rows:
        key = r["queue"] or "compaction"
        assert r["seconds"] == {"median": SECONDS.get(key, 3.0), "min": SECONDS.get(key, 3.0),
                                "max": SECONDS.get(key, 3.0)}  # the slow warm-up left out
        assert len(r["seconds_each"]) == 3
        assert r["mrays_per_s"]["median"] == pytest.approx(rays / SECONDS.get(key, 3.0) / 1e6)
        assert r["ratio_to_compaction"] == pytest.approx(SECONDS["compaction"] / SECONDS.get(key, 3.0))
        assert r["rays"] == {"primary": 32, "reflection": 700, "shadow": 1100, "total": rays}
        assert r["identical_to_compaction"] is True and r["rays_stable"] is True
        if r["queue"]:  # each queue's default tiling (raytrace.render.default_tiles)
            assert r["tiles"] == ([1, 1] if QUEUES[r["queue"]].has_blocking else [2, 2])
    # 2 scenes x (compaction + each queue) x (1 warm-up + 3 measured)
    assert len(fake.renders) == 2 * (1 + len(QUEUES)) * 4
    assert "vs compaction" in stdout and "2.00x" in stdout and "0.50x" in stdout
    assert f"wrote {tmp_path / 'out' / 'r.json'}" in stdout
    assert "pip install 'gpu-queues[plot]'" in stderr
    assert files(tmp_path / "out") == ["r.json"]


def test_bench_chart(fake, run_gq, tmp_path):
    pytest.importorskip("matplotlib")
    code, stdout, stderr = run_gq(*bench_args(tmp_path, *two_scenes(tmp_path),
                                              extra=["--chart", tmp_path / "c.png"]))
    assert code == 0, stderr
    with Image.open(tmp_path / "c.png") as im:
        assert im.format == "PNG" and im.size[0] > 300
    assert f"wrote {tmp_path / 'c.png'}" in stdout


def test_bench_queue_choice_and_image_mismatch_warning(fake, run_gq, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    fake.image_value["sfq"] = 0.25
    a = two_scenes(tmp_path)[0]
    code, _, stderr = run_gq(*bench_args(tmp_path, a, extra=["--queue", "sfq,sfq"]))
    assert code == 0, stderr
    rows = json.loads((tmp_path / "out" / "r.json").read_text())["rows"]
    assert [(r["renderer"], r["queue"], r["identical_to_compaction"]) for r in rows] == \
        [("compaction", None, True), ("queue", "sfq", False)]
    assert "the sfq image differs from the compaction baseline's" in stderr


def test_bench_default_paths(fake, run_gq, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    a = two_scenes(tmp_path)[0]
    args = ["bench", "render", "--scene", a, "--width", 8, "--height", 4, "--spp", 1, "--backend", "cpu",
            "--repeats", 1, "--queue", "glfq"]
    assert run_gq(*args)[0] == 0
    assert run_gq(*args)[0] == 0
    stem = f"render-{datetime.date.today().isoformat()}"
    written = files(tmp_path / "benchmarks")
    assert f"{stem}.json" in written and f"{stem}-2.json" in written  # the second run keeps the first


def test_default_json_path_never_overwrites(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    day = datetime.date(2026, 1, 2)
    assert default_json_path(day) == Path("benchmarks/render-2026-01-02.json")
    (tmp_path / "benchmarks").mkdir()
    (tmp_path / "benchmarks" / "render-2026-01-02.png").write_bytes(b"")
    assert default_json_path(day) == Path("benchmarks/render-2026-01-02-2.json")


@pytest.mark.parametrize("extra, needle", [
    (["--queue", "nope"], "--queue: unknown queue 'nope'"),
    (["--queue", ","], "--queue: give at least one queue"),
    (["--repeats", "0"], "--repeats must be at least 1"),
    (["--warmup", "-1"], "--warmup must be 0 or more"),
    (["--width", "0"], "--width must be between 1 and 16384"),
    (["--scene", "missing.toml"], "--scene missing.toml: no such file"),
    (["--json", "r.txt"], "--json: the record is JSON"),
    (["--chart", "c.svg"], "--chart: the chart is a PNG"),
])
def test_bench_bad_input_is_one_line_and_nothing_written(fake, run_gq, tmp_path, monkeypatch, extra, needle):
    monkeypatch.chdir(tmp_path)
    a = two_scenes(tmp_path)[0]
    code, _, stderr = run_gq("bench", "render", "--scene", a, "--backend", "cpu", *extra)
    assert code == 2 and stderr.startswith("gq: error: ") and stderr.count("\n") == 1, stderr
    assert needle in stderr
    assert fake.renders == []
    assert files(tmp_path) == ["a.toml", "b.toml"]


def test_run_bench_configurations_take_turns(fake, tmp_path):
    # raytrace/bench.py: per scene, each configuration's warm-up, then the measured renders
    # round-robin, so a drift of the card over a scene's renders falls on every configuration.
    from raytrace.bench import run_bench

    a, b = two_scenes(tmp_path)
    run_bench([a, b], 8, 4, 1, "cpu", ["glfq", "sfq"], repeats=3, warmup=2)
    seen = [(scene.name, opts.queue if opts.renderer == "queue" else "compaction") for scene, opts in fake.renders]
    configs = ["compaction", "glfq", "sfq"]
    expected = []
    for name in ("a", "b"):
        expected += [(name, c) for c in configs for _ in range(2)] + [(name, c) for _ in range(3) for c in configs]
    assert seen == expected


def test_run_bench_progress_rises_to_one(fake, tmp_path):
    from raytrace.bench import run_bench

    seen = []
    a = two_scenes(tmp_path)[0]
    run_bench([a], 8, 4, 1, "cpu", ["glfq"], repeats=2, warmup=1, progress=lambda f, what: seen.append(f))
    assert seen == sorted(seen) and seen[-1] == 1.0 and 0.0 <= seen[0]
