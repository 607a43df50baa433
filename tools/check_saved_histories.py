"""Check histories saved by tools/gpu_record_histories.py and write the verdicts as JSON.

    python3 tools/check_saved_histories.py histories-glfq.npz [...] --out verdicts.json
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


def one(job):
    tag, h, timeout = job
    capacity = int(re.search(r"capacity=(\d+)", tag).group(1))
    started = time.perf_counter()
    verdict, text = check_history(h, capacity, timeout, tag)
    return tag, len(h), verdict, text, time.perf_counter() - started


parser = argparse.ArgumentParser()
parser.add_argument("files", nargs="+")
parser.add_argument("--out", required=True)
parser.add_argument("--timeout", type=float, default=120.0)
parser.add_argument("--recorded", default=None, help="provenance JSON of the recording run")
args = parser.parse_args()
rows, tally = [], Counter()
jobs = [(tag, h, args.timeout) for f in args.files for tag, h in load_many(f)]
with ProcessPoolExecutor(max_workers=os.cpu_count()) as pool:
    for tag, n, verdict, text, seconds in pool.map(one, jobs, chunksize=2):
        queue = tag.split()[0]
        key = {True: "linearizable", False: "not_linearizable", None: "unknown"}[verdict]
        tally[(queue, key)] += 1
        tally[(queue, "operations")] += n
        if verdict is not True:
            rows.append({"tag": tag, "verdict": key, "detail": text, "seconds": round(seconds, 2)})
summary = {}
for (queue, key), count in sorted(tally.items()):
    summary.setdefault(queue, {})[key] = count
record = provenance(checked=summary, not_linearizable_or_unknown=rows, timeout_s=args.timeout)
if args.recorded:
    record["recorded"] = json.load(open(args.recorded))
json.dump(record, open(args.out, "w"), indent=2)
print(json.dumps(summary, indent=2))
