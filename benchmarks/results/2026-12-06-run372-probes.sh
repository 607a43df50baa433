#!/usr/bin/env bash
# As it ran (committed from the session's scratch runs/p372/run.sh), as: GQ_COMMIT=846dab8 bash runs/p372/run.sh on an
# nvidia-h100-x1 call, carry [".whl", "runs/p372"]. The H200 half ran nothing: an H100 came.
# Run 372: on an H200 YMC's record (benchmarks/results/2026-12-06-next-ymc-h200.sh); on any card the
# render probe's round sizes, G-LFQ 8 (shipped) / 12 / 16 and G-WFQ 8 / 16, both scenes, twice.
set -u
C=${GQ_COMMIT:?}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
bash benchmarks/results/2026-12-06-next-ymc-h200.sh
export GQ_COMMIT=$C GQ_DIRTY=0 PYTHONPATH=$PWD
mkdir -p "$OUT/p"
R="glfq 2x2|glfq 2x2, up to 12 a round|glfq 2x2, up to 16 a round|gwfq 2x2|gwfq 2x2, up to 16 a round"
for pass in 1 2; do for s in spheres100 cornell; do
  echo "== pass $pass $s"
  timeout 200 python3 tools/gpu_render_probe.py "$OUT/p/$s-$pass" --scene scenes/$s.toml --repeat 7 --rows "$R" 2>&1 | grep -v Warning
done; done
tar -czf "$OUT/probe372.tgz" -C "$OUT" p && rm -rf "$OUT/p"
