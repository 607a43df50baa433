"""Run 373's table: the A/B's kernel ms (median of each tree's rounds) and ncu's stall reasons."""
import collections
import csv
import io
import json
import sys
from pathlib import Path

d = Path(sys.argv[1])
rows = [json.loads(line) for line in (d / "ab.jsonl").read_text().splitlines() if line.strip()]
by = collections.defaultdict(list)
for r in rows:
    if "kernel_ms" in r:
        by[(r["graph"], r["algorithm"], r["per_sm"], r["tree"])].append((r["kernel_ms"], r["exact"]))
    else:
        print("error row:", r)
for key in sorted(by):
    ms = [m for m, _ in by[key]]
    print(*key, "kernel ms", " ".join(f"{m:.3f}" for m in ms), "exact" if all(e for _, e in by[key]) else "NOT EXACT")
P, S = "smsp__average_warps_issue_stalled_", "_per_issue_active.ratio"
for f in sorted(d.glob("ncu-*.csv")):
    lines = [ln for ln in f.read_text().splitlines() if ln.startswith('"')]
    table = list(csv.reader(io.StringIO("\n".join(lines))))
    if len(table) < 3:
        print(f.name, "no table:", (d / (f.stem + ".err")).read_text()[-300:])
        continue
    m = dict(zip(table[0], table[2]))
    num = lambda k: float(m[k].replace(",", ""))  # noqa: E731
    issue = num("smsp__issue_active.sum")
    stalls = {k[len(P):-len(S)]: num(k) * issue for k in m if k.startswith(P) and k.endswith(S)}
    top = sorted(stalls.items(), key=lambda kv: -kv[1])[:9]
    print(f.stem, f"{num('gpu__time_duration.sum') / 1e6:.3f} ms", f"inst {num('smsp__inst_executed.sum'):.3e}",
          f"warps_active {num('smsp__warps_active.sum'):.3e}", f"issue {issue:.3e}")
    print("   ", "  ".join(f"{k} {v:.3e}" for k, v in top))
