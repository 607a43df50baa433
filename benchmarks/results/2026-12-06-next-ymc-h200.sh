#!/usr/bin/env bash
# Prepared in the eighth session of 2026-12-06, when no H200 could be had (five calls: three H100s,
# two no machine): YMC's H200 figures since ec1b895 (segmented scan), a793291 (catch-up) and d28c99e
# (catch-up once a warp). The H200 records of YMC are still run 341's, of the serial scan. On an
# H200 it runs YMC's proof (1,000 histories to check off the device with
# tools/check_saved_histories.py, its GPU tests, FIFO on 1e8 tokens), its sweep, its renders against
# compaction and its queue BFS (Kron-21 at 1, 2 and the default blocks an SM, road-2M), then every
# queue's BFS on Kron-21; on any other card it runs nothing. About 4 minutes warm. The ninth session
# added SFQ to the sweep and the renders: its claim CAS changed in 4d2df62 (run 349, an H100), and
# its H200 sweep and renders are still run 341's and 342's, of the code before.
# device run, from the repository root, the commit said explicitly (the device copy's git HEAD is
# the session's first):
#   GQ_COMMIT=<sha> bash benchmarks/results/2026-12-06-next-ymc-h200.sh   (carry [".whl"])
set -u
C=${GQ_COMMIT:?say the commit: GQ_COMMIT=<sha>}
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $card"
echo "$card" | grep -q H200 || { echo "not an H200: nothing run"; exit 0; }
mkdir -p "$OUT/x"
GQ_COMMIT=$C GQ_DIRTY=0 GQ_BENCH_QUEUES=ymc,sfq GQ_RENDER_QUEUES=ymc,sfq GQ_RENDER_ACCELS=bvh \
  GQ_STAGES="ymc queue-bench render-bench" bash tools/gpu-suite.sh 2>&1 | grep -E "rc=" | tail -8
tar -xzf "$OUT/0-suite.tgz" -O render-bench-bvh.log 2>/dev/null | tail -7
tar -xzf "$OUT/0-suite.tgz" -O queue-bench.log 2>/dev/null | grep -E "^(ymc|sfq) +(balanced|split) .* (262144|16384) "
export GQ_COMMIT=$C GQ_DIRTY=0
PYTHONPATH=$PWD timeout 100 python3 benchmarks/results/2026-12-06-run368-ymc-bfs-time.py ymc "$OUT/x/bfs-ymc.json" 2>&1 | tail -4
PYTHONPATH=$PWD timeout 150 python3 -m gq bfs --generate kron --scale 21 --bench --json "$OUT/x/bfs-kron21.json" \
  --chart "$OUT/x/bfs-kron21.png" 2>&1 | tail -9
tar -czf "$OUT/next-ymc-h200.tgz" -C "$OUT" x && rm -rf "$OUT/x"
