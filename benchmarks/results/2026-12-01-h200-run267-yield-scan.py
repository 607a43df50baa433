"""For each warp collective whose fast path is chosen by one lane's mask (R2UR; BRA.DIV), find the
convergence region just before it (BSSY Bk ... BSYNC Bk) and say whether a YIELD or MEMBAR lies inside.
usage: yscan.py FILE.sass ..."""
import re, sys
for path in sys.argv[1:]:
    lines = open(path).read().splitlines()
    func = None
    funcs = {}
    for i, l in enumerate(lines):
        m = re.search(r"\.text\.(\S+):", l)
        if m: func = m.group(1)
        funcs[i] = func
    out = {}
    for i, l in enumerate(lines):
        if "BRA.DIV" not in l: continue
        win = " ".join(lines[max(0, i - 6):i])
        nxt = next((x for x in lines[i + 1:i + 8] if any(c in x for c in ("SHFL", "MATCH", "VOTE", "NOP", "WARPSYNC", "REDUX"))), "")
        if "REDUX.OR" in win or "R2UR" not in win: continue
        what = next((c for c in ("SHFL", "MATCH", "VOTE", "REDUX", "NOP") if c in nxt), "other")
        if what in ("MATCH", "VOTE", "REDUX"): continue
        # nearest BSYNC before
        j = i
        while j > 0 and "BSYNC" not in lines[j] and i - j < 40: j -= 1
        if "BSYNC" not in lines[j]:
            out.setdefault(funcs[i], []).append((lines[i].split("*/")[0].strip(" /*"), what, "no-bsync"))
            continue
        b = re.search(r"BSYNC (B\d+)", lines[j]).group(1)
        k = j
        while k > 0 and not re.search(rf"BSSY {b},", lines[k]): k -= 1
        region = lines[k:j]
        y = sum("YIELD" in r for r in region); mb = sum("MEMBAR" in r for r in region)
        out.setdefault(funcs[i], []).append((lines[i].split("*/")[0].strip(" /*"), what, f"{b} {len(region)} lines, YIELD {y}, MEMBAR {mb}"))
    for f, v in out.items():
        bad = [x for x in v if "YIELD 0, MEMBAR 0" not in x[2]]
        print(path.split("/")[-1], f, f"{len(v)} one-lane collectives, {len(bad)} after a region with YIELD/MEMBAR (or unknown):", bad[:10])
