"""Patch wave_faa.cuh in place (probe only): the lanes of the group meet (sync_lanes) after the leader's
fetch-add and before the shuffle. usage: python3 presync_patch.py TREE"""
import sys
from pathlib import Path

f = Path(sys.argv[1]) / "queues_cuda/include/gq/wave_faa.cuh"
s = f.read_text()
old = """  if (lane == leader) base = fetch_add<O>(counter, (uint64_t)count * unit);
#if defined(GQ_FAULT_NO_BROADCAST)"""
assert s.count(old) == 1
s = s.replace(old, """  if (lane == leader) base = fetch_add<O>(counter, (uint64_t)count * unit);
  sync_lanes(mask);
#if defined(GQ_FAULT_NO_BROADCAST)""")
f.write_text(s)
print("presync patched", f)
