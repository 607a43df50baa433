#!/usr/bin/env bash
# Run 411, prepared 2026-12-07 (twenty-first session): first the launch gate's own GPU tests
# (tests/raytrace/test_launch_gate_gpu.py: it holds the stream until released, lets go past its
# budget with a warning, holds nothing when off); then SFQ's launches timed apart now that the launch
# gate keeps the host's pace out of the events (e1f06c0 on). Earlier probes (runs 399-404) put its
# queue_init phase at 0.026-0.046 ms of cornell's 0.66-0.76, with the host's gap between the
# launches inside it. Counted: rt_tiles_init writes SFQ's one-lap queue, 64,800 blocks x 4 spp x 5
# rounds + 4,224 workers x 2 tickets = 1,304,448 slots of 8 bytes (10.4 MB) and 64,800 masks; at
# 2.5-3 TB/s about 4 us. Predicted: queue_init 0.004-0.010 ms, seed 0.001, work 0.64-0.66 on
# cornell. If queue_init is well over 0.01 ms it is a target (a smaller one-lap bound, or a wider
# store). Then, on an H200 only, the records issue 6 and issue 3 still lack there
# (2026-12-07-next-records.sh: the suite's BFS stage and its render bench of every queue). Carry [".whl"].
# device run, from the repository root: GQ_COMMIT=<sha> bash benchmarks/results/2026-12-07-s21-phases.sh
set -u
C=${GQ_COMMIT:?say the commit: GQ_COMMIT=<sha>}
export GQ_COMMIT=$C GQ_DIRTY=0 PYTHONPATH=$PWD GQ_CACHE_DIR=/tmp/gq-cache
CARD=$(nvidia-smi --query-gpu=name --format=csv,noheader)
echo "$CARD"
python3 -c 'import trimesh' 2>/dev/null || python3 -m pip install -q --no-index --find-links .whl trimesh
timeout 60 python3 -m pytest -q -m gpu -p no:cacheprovider tests/raytrace/test_launch_gate_gpu.py 2>&1 | tail -2
for s in cornell spheres100; do
  timeout 120 python3 tools/gpu_render_probe.py "$OUT/p-$s" --scene scenes/$s.toml --repeat 9 --rows "sfq 1x1" 2>&1 \
    | grep -v -i warn | tail -4
  python3 - "$OUT/p-$s" <<'PY'
import json, pathlib, sys
for f in pathlib.Path(sys.argv[1]).glob("*.json"):
    for r in json.load(open(f)).get("rows", []):
        print(" ", r.get("config"), {k: round(v, 4) for k, v in (r.get("phases_ms") or {}).items()})
PY
done
if echo "$CARD" | grep -q H200; then
  bash benchmarks/results/2026-12-07-next-records.sh
fi
