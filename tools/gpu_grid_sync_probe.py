"""What CUDA's own grid barrier costs on this GPU, beside ours (a measuring aid for issues 4 and 6):

    python3 tools/gpu_grid_sync_probe.py [ROUNDS]        (default 20000)

cooperative_groups' grid.sync() in a cooperative launch (CuPy's RawModule with
enable_cooperative_groups), with no work between barriers, for the block widths and blocks an SM
of tools/gpu_barrier_probe.py (which times sssp/grid.h's software barrier the same way): the
median of 3 timed runs after a warm-up, in microseconds a barrier. DESIGN.md quotes 1.0 us for
the cooperative sync and 1.6 us for a software barrier at one block an SM; run 81 measured this
at 0.99 us and ours at 2.43 us (2.24 us since run 83, 1.79 us with grid.sync()'s arrival counter,
run 84). A cooperative grid.sync() cannot give up: a block that never arrives hangs it, which is
why the grid forms use their own bounded barrier; this probe only says what the hardware path costs.
"""

from __future__ import annotations

import sys

from launch_timing import us_per_round

SOURCE = r"""
#include <cooperative_groups.h>
extern "C" __global__ void grid_sync_loop(unsigned int rounds, unsigned int* out) {
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  for (unsigned int r = 0; r < rounds; ++r) grid.sync();
  if (grid.thread_rank() == 0) *out = rounds;
}
"""
SHAPES = [(256, 1), (256, 2), (256, 4), (512, 1), (512, 2), (1024, 1)]


def main() -> int:
    import cupy

    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    dev = cupy.cuda.Device()
    sms = dev.attributes["MultiProcessorCount"]
    fn = cupy.RawModule(code=SOURCE, options=("-std=c++17",), enable_cooperative_groups=True).get_function(
        "grid_sync_loop")
    out = cupy.zeros(1, cupy.uint32)
    print(f"{cupy.cuda.runtime.getDeviceProperties(dev.id)['name'].decode()}: {rounds:,} grid.sync() a run, "
          "median of 3")
    print(f"{'threads':>8s} {'blocks/SM':>9s} {'blocks':>7s} {'us/sync':>8s}")
    for width, per_sm in SHAPES:
        blocks = sms * per_sm
        us = us_per_round(fn, (blocks,), (width,), (cupy.uint32(rounds), out), rounds)
        if int(out.get()[0]) != rounds:
            print(f"{width:8d} {per_sm:9d} {blocks:7d}  the kernel did not finish its rounds")
            return 1
        print(f"{width:8d} {per_sm:9d} {blocks:7d} {us:8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
