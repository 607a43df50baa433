"""Print the short table of a GPU results record (tools/gpu-suite.sh calls this last)."""

import json
import sys
from collections import defaultdict

record = json.load(open(sys.argv[1]))
print(f"{record['gpu'].get('name', record['gpu'])}  commit {record['commit'][:10]}  {record['date']}")
hist = defaultdict(lambda: [0, 0, 0, 0.0])
for row in record.get("histories", []):
    h = hist[row["queue"]]
    h[0] += row["histories"]
    h[1] += row["operations"]
    h[2] += row["linearizable"]
    h[3] += row["seconds"]
fifo = defaultdict(lambda: [0, 0, 0.0])
for row in record.get("fifo", []):
    f = fifo[row["queue"]]
    f[0] += row["tokens"]
    f[1] += row["lost"] + row["duplicated"] + row["order_violations"] + row["out_of_range"]
    f[2] += row["run_seconds_wall"]
print(f"{'queue':>6} {'histories':>9} {'ops':>9} {'lin':>6} {'hist s':>7} {'tokens':>11} {'bad':>4} {'fifo s':>7}")
for q in sorted(set(hist) | set(fifo)):
    h, f = hist[q], fifo[q]
    print(f"{q:>6} {h[0]:>9} {h[1]:>9} {h[2]:>6} {h[3]:>7.1f} {f[0]:>11} {f[1]:>4} {f[2]:>7.1f}")
for row in record.get("faults", []):
    print(f"fault {row['fault']} on {row['queue']}: caught={row['caught']}")
