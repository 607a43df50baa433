#!/usr/bin/env bash
# Run 406, 2026-12-07 (twentieth session): the records issues 3 and 6 still lack, with what device
# time is left (some 600 s). `gq bench render` now has a scene's configurations take turns after
# their warm-ups (run 403's cornell baseline moved 14.1-16.2 G rays/s when measured in one block;
# taking turns, run 405, SFQ was 1.12x on both scenes). Predicted: SFQ at its one tile 1.10-1.14x
# compaction on both scenes; G-LFQ 0.96-1.00x; on an H200 the BFS stage as run 396's on the H100
# (SFQ no slower than compaction on every graph). On an H200 (none came in runs 377-405) the suite's
# BFS stage first, for issue 6, then its render bench of every queue; on an H100 the render bench
# only. About 4 minutes warm on an H200, 1 on an H100. Carry [".whl"].
# device run, from the repository root: GQ_COMMIT=<sha> bash benchmarks/results/2026-12-07-next-records.sh
set -u
C=${GQ_COMMIT:?say the commit: GQ_COMMIT=<sha>}
export GQ_COMMIT=$C GQ_DIRTY=0
CARD=$(nvidia-smi --query-gpu=name --format=csv,noheader)
echo "$CARD"
STAGES="render-bench"
echo "$CARD" | grep -q H200 && STAGES="bfs render-bench"
GQ_STAGES="$STAGES" GQ_RENDER_ACCELS=bvh timeout 500 bash tools/gpu-suite.sh 2>&1 | tail -30
