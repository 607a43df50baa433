"""Build the shipped GPU modules through CuPy (the device's NVRTC), each into its own cache directory
under OUT, so that their cubins can be read with nvdisasm. usage: python3 build_cubins.py OUT"""
import os
import subprocess
import sys

out = sys.argv[1]
B = "from queues_cuda import bench_queues as bq; from queues_cuda.queues import QUEUES; "
jobs = {
    "glfq-bench-1": B + "bq._CudaBench(QUEUES['glfq'], ()).module(1).compile()",
    "glfq-bench-8": B + "bq._CudaBench(QUEUES['glfq'], ()).module(8).compile()",
    "gwfq-bench-8": B + "bq._CudaBench(QUEUES['gwfq'], ()).module(8).compile()",
    "sfq-bench-8": B + "bq._CudaBench(QUEUES['sfq'], ()).module(8).compile()",
    "ymc-bench-8": B + "bq._CudaBench(QUEUES['ymc'], ()).module(8).compile()",
    "bfs-sfq": "from sssp_demo import bfs; from queues_cuda.queues import QUEUES; bfs.cuda_module(QUEUES['sfq'].kind_id).compile()",
    "bfs-glfq": "from sssp_demo import bfs; from queues_cuda.queues import QUEUES; bfs.cuda_module(QUEUES['glfq'].kind_id).compile()",
    "render-glfq": "from raytrace.build import cuda_module; from queues_cuda.queues import QUEUES; cuda_module(QUEUES['glfq'].kind_id).compile()",
    "render-sfq": "from raytrace.build import cuda_module; from queues_cuda.queues import QUEUES; cuda_module(QUEUES['sfq'].kind_id).compile()",
}
for name, code in jobs.items():
    env = dict(os.environ, CUPY_CACHE_DIR=os.path.join(out, name))
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    print(name, "ok" if r.returncode == 0 else r.stderr.strip().splitlines()[-1], os.listdir(os.path.join(out, name)) if os.path.isdir(os.path.join(out, name)) else [])
