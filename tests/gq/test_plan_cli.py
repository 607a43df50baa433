"""`gq plan` as a user meets it: a generated or drawn map in, the cheapest route out (equal in
cost to scipy's), and every bad input one line with exit code 2 and nothing written."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from gq import cli
from queues_cuda.backend import gpu_status


def run(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        cli.run([str(a) for a in args])
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def cost_of(out: str) -> float:
    return float(out.split("cost ")[1].split()[0])


@pytest.mark.parametrize("kind", ["maze", "terrain"])
def test_generated_map_route_matches_scipy(tmp_path, capsys, kind):
    outs = {}
    for algorithm in ("pardijkstra", "scipy"):
        png = tmp_path / f"{algorithm}.png"
        code, out, err = run(capsys, "plan", "--generate", kind, "--size", 64, "--seed", 3, "-o", png,
                             "--algorithm", algorithm)
        assert code == 0, err
        assert Image.open(png).size == (64, 64)
        outs[algorithm] = cost_of(out)
    assert outs["pardijkstra"] == outs["scipy"]


def test_drawn_map_with_start_and_goal(tmp_path, capsys):
    grid = np.full((20, 30), 255, np.uint8)
    grid[5:15, 10] = 0  # a wall to walk around
    Image.fromarray(grid).save(tmp_path / "map.png")
    code, out, err = run(capsys, "plan", tmp_path / "map.png", "--start", "2,10", "--goal", "25,10",
                         "-o", tmp_path / "r.png")
    assert code == 0, err
    assert cost_of(out) > 23  # the straight line is blocked


@pytest.mark.parametrize("args, message", [
    ((), "give a map file or --generate"),
    (("--generate", "cave"), "unknown map 'cave'"),
    (("--generate", "maze", "--algorithm", "astar"), "--algorithm"),
    pytest.param(("--generate", "maze", "--backend", "cuda"), "--backend cuda",
                 marks=pytest.mark.skipif(gpu_status()[0] is not None, reason="a GPU answers: --backend cuda runs")),
    (("--generate", "maze", "--start", "1,1"), "--start 1,1 is on a wall"),  # odd,odd: a maze pillar
    (("--generate", "maze", "--goal", "9999,1"), "outside the map"),
])
def test_bad_input_is_one_line_exit_2(tmp_path, capsys, args, message):
    out_png = tmp_path / "r.png"
    code, out, err = run(capsys, "plan", *args, "--size", 32, "-o", out_png)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err
    assert not out_png.exists()


def test_all_wall_map_and_bad_output(tmp_path, capsys):
    Image.fromarray(np.zeros((8, 8), np.uint8)).save(tmp_path / "black.png")
    code, _, err = run(capsys, "plan", tmp_path / "black.png", "-o", tmp_path / "r.png")
    assert code == 2 and "wall" in err
    code, _, err = run(capsys, "plan", "--generate", "maze", "-o", tmp_path / "r.jpg")
    assert code == 2 and ".png" in err
