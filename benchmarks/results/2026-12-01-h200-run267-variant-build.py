"""Build the G-LFQ stress bench (GQ_STRESS_BLIND_WAVE, 8 blocks) with NVRTC 13.0.88 from a variant include tree.
usage: var.py NAME [extra defines...]  (include tree /tmp/w/inc_NAME, else the repo's)"""
import os, subprocess, sys
sys.path.insert(0, "/work/main")
from pathlib import Path
from queues_cuda import build as qb, bench_queues as bq
from queues_cuda.queues import QUEUES
name, *defs = sys.argv[1:]
inc = Path(f"/tmp/w/inc_{name}")
if not inc.is_dir(): inc = qb.INCLUDE_DIR
defs = tuple(defs) or ("GQ_BENCH_MIN_BLOCKS=8", "GQ_STRESS_BLIND_WAVE")
flags = list(qb._file_flags(QUEUES["glfq"].kind_id, defs, (inc,), qb.NVRTC_FLAGS)) + ["--gpu-architecture=sm_90"]
src = bq.BENCH_KERNEL.read_text()
open(f"/tmp/w/{name}.cu", "w").write(src)
os.makedirs("/tmp/w/cubins", exist_ok=True)
r = subprocess.run([sys.executable, "benchmarks/results/2026-12-01-h200-run267-nvrtc-compile.py", os.environ["NV130"], f"/tmp/w/{name}.cu", f"/tmp/w/cubins/{name}.cubin"] + flags, capture_output=True, text=True)
print(name, r.stdout.strip().splitlines()[-1] if r.returncode == 0 else r.stdout[-2000:] + r.stderr[-2000:])
