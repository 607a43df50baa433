#!/usr/bin/env bash
# run 267: which wave_faa spelling loses elements in G-LFQ's blind-wave stress build (8 blocks, 2^18
# threads)? Cubins compiled off the device by NVRTC 13.0.88 from variant include trees: V0 the code
# of 072d559; V1 the shuffle and lane barrier over the entry's active mask instead of the peers mask;
# V2 seq_cst's fence taken by every lane before the leader's branch; V3 = V2 with a .global atom.
# Rounds interleave the variants so that drift hits all alike.
set -u
export PYTHONUNBUFFERED=1 GQ_CACHE_DIR=/tmp/gq-cache PYTHONPATH=$PWD
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c 'import cupy; print("cupy", cupy.__version__, "nvrtc", cupy.cuda.nvrtc.getVersion())'
for round in 1 2 3; do
  for v in V0 V1 V2 V3; do
    STRESS_CUBIN=runs/cubins/$v.cubin STRESS_DEFINES=GQ_STRESS_BLIND_WAVE STRESS_CASES=18:25:6,18:75:3 \
      timeout 100 python3 runs/stress_probe.py $v 2>&1 | grep -E "SUMMARY|Error|error" | cut -c1-200
  done
done
