#!/usr/bin/env bash
# Every GPU test and the measurements the open issues ask for, in ONE call on the device machine.
#   device run:  GQ_COMMIT=<sha> GQ_DIRTY=<0|1> [GQ_STAGES="render histories ..."] bash tools/gpu-suite.sh
# Stages run in order of what a short device budget should buy first; each has its own time
# limit so one slow stage cannot eat the others. Full logs and JSON records are packed into
# $OUT/0-suite.tgz (the device tool brings back only a few files); the stage table is printed last. GQ_STAGES picks stages (default: all but queue-tests):
#   render      renderer GPU tests and benchmark, 1920x1080 4 spp, BVH and every-primitive
#   histories   1,000 histories per queue, checked off the device (tools/check_saved_histories.py)
#   warp        the warp-only checks (several queues per warp; the planted broadcast fault), then ring-stress
#   ring-stress G-LFQ's rings under the blind-ticket stress builds (tests/queues_cuda/test_ring_stress_gpu.py)
#   wfq         the wait-free queues' GPU tests (G-WFQ, G-WFQ-YMC)
#   ymc         G-WFQ-YMC alone: 1,000 histories recorded, then all its GPU tests (FIFO on 1e8 tokens)
#   sssp        shortest-path GPU tests, then tools/gpu_sssp_bench.py (seed-DAG sweep, plan 4096^2)
#   wfq-fifo    G-WFQ's slow split runs probed (slow path / helping off), then FIFO >1e8 tokens for G-WFQ and YMC
#   render-tests  the renderer's GPU tests alone
#   render-bench  gq bench render alone (GQ_RENDER_QUEUES=glfq,ymc, GQ_RENDER_ACCELS=bvh pick)
#   tile-profile  where the tile renderer's time goes, by loop phase (tools/gpu_tile_profile.py; GQ_PROFILE_QUEUES=glfq,gwfq)
#   new         tools/gpu_{mesh,queue,bfs}_bench.py: the measurements of issues 6 and 7 (about 10 min)
#   queue-bench tools/gpu_queue_bench.py alone (GQ_BENCH_QUEUES=gwfq,ideal picks queues)
#   queue-ncu   hardware counters per successful operation, balanced kernel, every queue (gq bench queues --hw-counters)
#   hot-line    what one hot line serves: fetch-adds with loads of the same line or of others (tools/gpu_hot_line_probe.py)
#   counter-lines whether two hot lines share an L2 server, by their distance (tools/gpu_counter_lines_probe.py)
#   l1-probe    what acquires on some warps cost the loads and instruction fetches of the others on their SM
#               (tools/gpu_l1_invalidate_probe.py)
#   new-tests   the GPU tests of `gq bench queues`, `gq bfs` and meshes
#   fifo        FIFO conformance, >1e8 tokens (GQ_FIFO_QUEUES="glfq or gwfq" picks queues)
#   bench-tests the GPU tests of `gq bench queues`
#   broker      the Broker Queue's GPU tests
#   slow-path   the wait-free queues' forced slow path (patience 0, help delay 1) and default counters
#   sssp-rounds parDijkstra's us per round on the seed DAG (1 M, 10 M edges), then the sssp GPU tests
#   sssp-probe  parDijkstra on the seed DAG at 1 M and 10 M edges (time per round)
#   slice-probe where a round of pardijkstra-sliced goes, both forms (tools/gpu_slice_probe.py, 1 M and 30 M edges),
#               then a cluster's exchange of offers alone by mechanism (tools/gpu_cluster_exchange_probe.py)
#   round-probe what a Near-Far / Bellman-Ford round costs against its width, with and without local rounds
#               (tools/gpu_round_probe.py: a chain, open strips, mazes)
#   bfs         the BFS GPU tests, then tools/gpu_bfs_bench.py (runs 60-61: about 2.5 min together)
#   barrier-probe the grid barrier's GPU tests, then what one barrier costs by block width and blocks
#               an SM (tools/gpu_barrier_probe.py), and CUDA's grid.sync() the same way (tools/gpu_grid_sync_probe.py)
#   queue-tests every queue GPU test (histories checked on the device, FIFO on >1e8 tokens)
set -uo pipefail
cd "$(dirname "$0")/.."
# Everything is written under $OUT/w and packed into $OUT/0-suite.tgz after every stage (the
# name sorts first: when a call is cut short, the device tool still brings back the archive).
ROOT=${OUT:-/tmp/gq-out}
OUT=$ROOT/w
STAGES=${GQ_STAGES:-machine render histories warp wfq sssp}
want() { [[ " machine $STAGES " == *" $1 "* ]]; }
mkdir -p "$OUT"
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1 GQ_RESULTS_DIR=$OUT
export GQ_CACHE_DIR=${GQ_CACHE_DIR:-/tmp/gq-cache}
: > "$OUT/stages.txt"

stage() {  # stage NAME SECONDS COMMAND...
  local name=$1 limit=$2 started=$SECONDS
  shift 2
  echo "== $name (limit ${limit} s)"
  timeout "$limit" "$@" > "$OUT/$name.log" 2>&1
  local rc=$?
  tail -n 25 "$OUT/$name.log"
  printf '%-16s rc=%-4s %4d s\n' "$name" "$rc" "$((SECONDS - started))" >> "$OUT/stages.txt"
  tar -czf "$ROOT/0-suite.tgz" -C "$OUT" .
}

stage machine 30 bash -c 'nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv; python3 -m gq info'
cp "$OUT/machine.log" "$OUT/machine.txt"
# trimesh is not on the device machine: its wheel travels in .whl/ (gitignored; fill it with
# `pip download trimesh --no-deps -d .whl` and pass carry [".whl"] to the device call). Installed
# before any stage, so that every stage that imports the meshes finds it.
if ! python3 -c 'import trimesh' 2>/dev/null; then
  python3 -m pip install -q --no-index --find-links .whl trimesh > "$OUT/pip.log" 2>&1 || cat "$OUT/pip.log"
fi
if want render; then
  stage kernels 60 python3 tools/gpu_kernel_report.py
fi
if want render || want render-tests; then
  stage render-tests "${GQ_RENDER_TESTS_S:-300}" python3 -m pytest -v -s -m gpu -p no:cacheprovider tests/raytrace \
    ${GQ_RENDER_TESTS_K:+-k "$GQ_RENDER_TESTS_K"}
fi
if want render || want render-bench; then
  for accel in ${GQ_RENDER_ACCELS:-bvh none}; do
    stage "render-bench-$accel" "${GQ_RENDER_BENCH_S:-120}" python3 -m gq bench render --scene scenes/spheres100.toml --scene scenes/cornell.toml \
      --width 1920 --height 1080 --spp 4 --backend cuda --accel "$accel" --queue "${GQ_RENDER_QUEUES:-glfq,sfq,gwfq,ymc}" \
      --json "$OUT/render-bench-$accel.json" --chart "$OUT/render-bench-$accel.png"
  done
fi
if want histories; then
  stage histories 90 python3 tools/gpu_record_histories.py "$OUT"
  python3 -c 'import json; from queues_cuda.provenance import provenance; print(json.dumps(provenance()))' \
    > "$OUT/recorded-provenance.json"
fi
if want warp; then
  stage warp-checks 120 python3 -m pytest -v -s -m gpu -p no:cacheprovider tests/queues_cuda/test_gpu_queues.py \
    -k "several_queues or broadcast"
fi
if want warp || want ring-stress; then
  # G-LFQ's rings under blind tickets (the stress's per lane and the shipped ones through wave_faa:
  # must conserve; wave_faa's old spelling, GQ_STRESS_LEADER_FENCE, is the control: must still lose).
  stage ring-stress 120 python3 -m pytest -v -s -m gpu -p no:cacheprovider tests/queues_cuda/test_ring_stress_gpu.py
fi
if want wfq; then
  stage wfq-tests 240 python3 -m pytest -v -s -m gpu -p no:cacheprovider tests/queues_cuda/test_gpu_queues.py \
    -k "gwfq or ymc"
fi
if want ymc; then
  # G-WFQ-YMC alone (after a fix to it): its 1,000 histories (checked off the device) and every
  # GPU test of it, FIFO conformance on 1e8 tokens included.
  GQ_HISTORY_QUEUES=ymc stage ymc-histories 60 python3 tools/gpu_record_histories.py "$OUT"
  stage ymc-tests "${GQ_YMC_S:-270}" python3 -m pytest -v -s -m gpu -p no:cacheprovider \
    tests/queues_cuda/test_gpu_queues.py -k ymc
fi
if want fifo; then
  # FIFO conformance on >1e8 tokens per queue (GQ_FIFO_QUEUES: a pytest -k expression of queue names).
  stage fifo "${GQ_FIFO_S:-200}" python3 -m pytest -v -s -m gpu -p no:cacheprovider tests/queues_cuda/test_gpu_queues.py \
    -k "fifo_conformance and (${GQ_FIFO_QUEUES:-glfq or gwfq or ymc})"
fi
if want bench-tests; then
  stage bench-tests "${GQ_BENCH_TESTS_S:-100}" python3 -m pytest -v -s -m gpu -p no:cacheprovider tests/queues_cuda/test_bench_queues.py
fi
if want broker; then
  # The Broker Queue (not linearizable): FIFO tokens, and its histories' refutations recorded.
  stage broker-tests "${GQ_BROKER_S:-200}" python3 -m pytest -v -s -m gpu -p no:cacheprovider tests/queues_cuda/test_gpu_queues.py -k broker
fi
if want slow-path; then
  stage slow-path "${GQ_SLOW_PATH_S:-240}" python3 -m pytest -v -s -m gpu -p no:cacheprovider tests/queues_cuda/test_gpu_queues.py \
    -k "slow_path and (${GQ_SLOW_PATH_QUEUES:-gwfq or ymc})"
fi
if want wfq-fifo; then
  # Why G-WFQ's split runs are slow (22 s for 2e7 tokens at 2^14 threads, G-LFQ 0.03 s): the same
  # run with the slow path and the helping switched off one at a time, counters on.
  probe() {  # probe NAME ARGS...
    local name=$1
    shift
    stage "probe-$name" 60 python3 -m gq queues check --backend cuda --histories 0 --capacity 1048576 \
      --fifo-tokens 20000000 --fifo-threads 16384 "$@"
  }
  probe glfq --queue glfq
  probe gwfq --queue gwfq --stats
  probe gwfq-nohelp --queue gwfq --stats --help-delay 1000000
  probe gwfq-noslow --queue gwfq --stats --patience 1000000 --help-delay 1000000
  stage wfq-fifo 300 python3 -m pytest -v -s -m gpu -p no:cacheprovider tests/queues_cuda/test_gpu_queues.py \
    -k "fifo_conformance and (gwfq or ymc)"
fi
if want new-tests; then
  # The GPU tests of the queue benchmark, BFS and meshes (mostly NVRTC compiles: minutes).
  stage new-tests "${GQ_NEW_TESTS_S:-240}" python3 -m pytest -v -s -m gpu -p no:cacheprovider \
    tests/queues_cuda/test_bench_queues.py tests/sssp_demo/test_bfs_gpu.py tests/raytrace/test_mesh_gpu.py
fi
if want new; then
  # The measurements of issues 6 and 7; each tool checks its own results (LBVH against the host
  # build, conservation of every queue run, BFS depths against scipy) and stops itself in time.
  stage mesh-bench "${GQ_MESH_S:-110}" python3 tools/gpu_mesh_bench.py "$OUT"
fi
if want new || want queue-bench; then
  stage queue-bench "${GQ_QUEUE_BENCH_S:-520}" python3 tools/gpu_queue_bench.py "$OUT"
fi
if want queue-ncu; then
  # SFQ stalls in the balanced kernel from 2^15 threads at these short windows (run 351: from 2^17 at
  # 0.5 s): it gets a sweep of its own, so that it is profiled where it works. G-WFQ-YMC joined the
  # others at 2^18 once its hazard scan went by segments (runs 362, 363).
  stage queue-ncu "${GQ_QUEUE_NCU_S:-200}" python3 -m gq bench queues --kernel balanced --queue glfq,gwfq,ymc,ideal \
    --threads 2^18 --runs 1 --duration 0.02 --warmup 0.005 --hw-counters --json "$OUT/queue-ncu.json"
  stage queue-ncu-small "${GQ_QUEUE_NCU_S:-200}" python3 -m gq bench queues --kernel balanced --queue sfq \
    --threads 2^12..2^14 --runs 1 --duration 0.02 --warmup 0.005 --hw-counters --json "$OUT/queue-ncu-small.json"
fi
if want hot-line; then
  stage hot-line 90 python3 tools/gpu_hot_line_probe.py "$OUT/hot-line.json"
fi
if want counter-lines; then
  stage counter-lines 60 python3 tools/gpu_counter_lines_probe.py "$OUT/counter-lines.json"
fi
if want l1-probe; then
  stage l1-probe 90 python3 tools/gpu_l1_invalidate_probe.py "$OUT/l1-probe.json"
fi
if want tile-profile; then
  stage tile-profile "${GQ_TILE_PROFILE_S:-150}" python3 tools/gpu_tile_profile.py "$OUT" \
    $(q=${GQ_PROFILE_QUEUES:-glfq,gwfq}; for x in ${q//,/ }; do echo --queue "$x"; done)
fi
if want bfs; then
  stage bfs-tests 130 python3 -m pytest -v -s -m gpu -p no:cacheprovider tests/sssp_demo/test_bfs_gpu.py
fi
if want new || want bfs; then
  stage bfs-bench "${GQ_BFS_S:-200}" python3 tools/gpu_bfs_bench.py "$OUT"
fi
if want sssp-rounds; then
  # parDijkstra's microseconds per round on the seed DAG (CUDA events, median of 3, exact against
  # the closed form), then its GPU tests.
  stage sssp-rounds 80 python3 -c "import os; from sssp_demo.bench import seed_dag_rounds; \
seed_dag_rounds(edges=(1_000_000, 10_000_000), repeats=3, warmup=1, out_dir=os.environ['GQ_RESULTS_DIR'])"
  stage sssp-gpu-tests "${GQ_SSSP_TESTS_S:-100}" python3 -m pytest -v -s -m gpu -p no:cacheprovider tests/sssp_demo/test_sssp_gpu.py \
    ${GQ_SSSP_TESTS_K:+-k "$GQ_SSSP_TESTS_K"}
fi
if want sssp-probe; then
  # parDijkstra's time per round on the seed DAG at two sizes (run 8: 80 us at 1 M edges, 300 us at 10 M).
  stage sssp-probe 60 bash -c 'for m in 1000000 10000000; do python3 -m gq sssp --generate seed-dag \
    --vertices 30000 --edges $m --algorithm pardijkstra --backend cuda; done'
fi
if want slice-probe; then
  stage slice-probe 180 python3 tools/gpu_slice_probe.py 1000000 30000000
  stage exchange-probe 60 python3 tools/gpu_cluster_exchange_probe.py
fi
if want round-probe; then
  stage round-probe 150 python3 tools/gpu_round_probe.py
fi
if want barrier-probe; then
  stage barrier-tests 60 python3 -m pytest -v -s -m gpu -p no:cacheprovider tests/sssp_demo/test_grid_barrier.py
  stage barrier-probe 90 python3 tools/gpu_barrier_probe.py
  stage grid-sync-probe 60 python3 tools/gpu_grid_sync_probe.py
fi
if want sssp; then
  stage sssp-tests 300 python3 -m pytest -v -s -m gpu -p no:cacheprovider tests/sssp_demo
  stage sssp-bench 420 python3 tools/gpu_sssp_bench.py "$OUT"
fi
if want queue-tests; then
  stage queue-tests 420 python3 -m pytest -v -s -m gpu -p no:cacheprovider tests/queues_cuda
  python3 tools/summarize_gpu_results.py "$OUT/queue-check-gpu.json" 2>&1 | tee "$OUT/summary.txt"
fi
echo "== stages ($STAGES)"
cat "$OUT/stages.txt"
cp "$OUT/stages.txt" "$ROOT/stages.txt"
rm -rf "$OUT"
! grep -qv 'rc=0 ' "$ROOT/stages.txt"
