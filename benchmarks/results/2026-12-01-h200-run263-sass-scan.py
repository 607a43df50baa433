"""Scan SASS (nvdisasm -c output) for warp shuffles whose fast path is chosen by the `R2UR; BRA.DIV`
check (one lane's mask) rather than by the REDUX.OR check (every active lane's mask).
usage: python3 sass_scan.py FILE.sass ..."""
import re
import sys

for path in sys.argv[1:]:
    func, found = None, {}
    lines = open(path).read().splitlines()
    for i, line in enumerate(lines):
        m = re.search(r"\.text\.(\S+):", line)
        if m:
            func = m.group(1)
        if "BRA.DIV" not in line:
            continue
        window = " ".join(lines[max(0, i - 6):i])
        nxt = " ".join(lines[i + 1:i + 4])
        kind = "redux" if "REDUX.OR" in window else ("r2ur" if "R2UR" in window else "other")
        what = "SHFL" if "SHFL" in nxt else ("MATCH" if "MATCH" in nxt else ("VOTE" if "VOTE" in nxt else "NOP/other"))
        found.setdefault(func, {}).setdefault((kind, what), []).append(line.split("*/")[0].strip(" /*"))
    for f, d in found.items():
        print(path.split("/")[-1], f, {f"{k}->{w}": len(v) for (k, w), v in sorted(d.items())},
              "r2ur shuffles at", [a for (k, w), v in d.items() if k == "r2ur" and w == "SHFL" for a in v][:8])
