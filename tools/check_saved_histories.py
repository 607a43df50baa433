"""Check histories saved by tools/gpu_record_histories.py and write the verdicts as JSON.

    python3 tools/check_saved_histories.py histories-glfq.npz [...] --out verdicts.json
    python3 tools/check_saved_histories.py histories-glfq.npz --match threads=512 --match capacity=64 --out v.json

The JSON keeps every verdict that is not "linearizable" with its counter-example, and the
checking time of the slowest histories (`slowest`), so a history that needed the search's full
strength shows up even when it passed.
"""

import argparse
import json
import os
import re
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from queues_cuda.check import check_history
from queues_cuda.history import load_many
from queues_cuda.provenance import provenance
from queues_cuda.queues import QUEUES


def one(job):
    tag, h, timeout = job
    capacity = int(re.search(r"capacity=(\d+)", tag).group(1))
    if not QUEUES[tag.split()[0]].bounded:  # an unbounded queue (ymc) may never answer FULL
        capacity = None
    started = time.perf_counter()
    verdict, text = check_history(h, capacity, timeout, tag)
    return tag, len(h), verdict, text, time.perf_counter() - started


parser = argparse.ArgumentParser()
parser.add_argument("files", nargs="+")
parser.add_argument("--out", required=True)
parser.add_argument("--timeout", type=float, default=120.0)
parser.add_argument("--recorded", default=None, help="provenance JSON of the recording run")
parser.add_argument("--match", action="append", default=[],
                    help="check only histories whose tag contains this text (repeatable: all must match)")
parser.add_argument("--slowest", type=int, default=20, help="how many of the slowest checks to list")
args = parser.parse_args()
rows, tally, times = [], Counter(), []
jobs = [(tag, h, args.timeout) for f in args.files for tag, h in load_many(f)
        if all(m in tag for m in args.match)]
with ProcessPoolExecutor(max_workers=os.cpu_count()) as pool:
    for tag, n, verdict, text, seconds in pool.map(one, jobs, chunksize=2):
        queue = tag.split()[0]
        key = {True: "linearizable", False: "not_linearizable", None: "unknown"}[verdict]
        tally[(queue, key)] += 1
        tally[(queue, "operations")] += n
        times.append({"tag": tag, "verdict": key, "seconds": round(seconds, 3)})
        if verdict is not True:
            rows.append({"tag": tag, "verdict": key, "detail": text, "seconds": round(seconds, 2)})
summary = {}
for (queue, key), count in sorted(tally.items()):
    summary.setdefault(queue, {})[key] = count
times.sort(key=lambda t: -t["seconds"])
record = provenance(checked=summary, not_linearizable_or_unknown=rows, timeout_s=args.timeout,
                    slowest=times[: args.slowest], seconds_total=round(sum(t["seconds"] for t in times), 1))
if args.recorded:
    record["recorded"] = json.load(open(args.recorded))
json.dump(record, open(args.out, "w"), indent=2)
print(json.dumps(summary, indent=2))
for t in times[: min(args.slowest, 5)]:
    print(f"{t['seconds']:8.2f} s  {t['verdict']:16}  {t['tag']}")
