"""The variants of runs 243-253 as patched on the device (runs/variant.py; each run used the variants it had by then): Patch a copy of the tree for a stress variant: python3 variant.py TREE uniform|nowait|sides2"""
import sys
from pathlib import Path
tree, what = Path(sys.argv[1]), sys.argv[2]
scq = tree / "queues_cuda/include/gq/scq_ring.cuh"
glfq = tree / "queues_cuda/include/gq/glfq.cuh"
s = scq.read_text()
g = glfq.read_text()
if "sides2" in what:  # blind only on aq
    old = "stress && (enqueue ? fq_plenty : aq_plenty)"
    assert old in g
    g = g.replace(old, "stress && !enqueue && aq_plenty")
if "uniform" in what:  # blind only when every active lane of the warp is
    old = "const bool blind_now = kBlindStress && blind;"
    assert old in s
    s = s.replace(old, "const bool blind_now = kBlindStress && __all_sync(__activemask(), blind);")
if "nowait" in what:  # sCQ's rule: wait for an install only when Tail is past the ticket
    old = "wait != 0u && (kTicketlessEmpty || (int64_t)(load<mo::relaxed>(tail()) - h) > 0)"
    assert old in s
    s = s.replace(old, "wait != 0u && (int64_t)(load<mo::relaxed>(tail()) - h) > 0")
if "nocatchup" in what:  # an empty dequeue past Tail leaves Tail alone
    old = "if (t != h + 1) catchup(t, h + 1, err, stat);"
    assert old in s
    s = s.replace(old, "(void)t;")
if "perlane" in what:  # the blind ticket by a fetch-add of each lane's own, no wave
    old = "h = wave_faa<mo::seq_cst>(head());"
    assert old in s
    s = s.replace(old, "h = fetch_add<mo::seq_cst>(head(), 1ull);")
if "noballot" in what:  # blind again only while the lane itself found its value
    old = "*plenty = ballot(active_mask(), !(cycle_of_word(e) == c && !is_bot(index_of(e)))) == 0u;"
    assert old in s
    s = s.replace(old, "*plenty = cycle_of_word(e) == c && !is_bot(index_of(e));")
if "sitekey" in what:  # wave_faa and wave_claim group lanes by (counter, call) rather than counter
    wf = tree / "queues_cuda/include/gq/wave_faa.cuh"
    w = wf.read_text()
    old = "const uint32_t mask = peers(active_mask(), counter);"
    assert w.count(old) == 2
    i = w.index(old)
    w = w[:i] + w[i:].replace(old, "const uint32_t mask = peers(active_mask(), (const char*)counter + 1);", 1)
    w = w.replace(old, "const uint32_t mask = peers(active_mask(), (const char*)counter + 2);", 1)
    wf.write_text(w)
if "wavefence" in what:  # the wave-drawn blind build, every lane fencing before the ticket
    old = "          h = wave_faa<mo::seq_cst>(head());"
    assert old in s
    s = s.replace(old, "          { fence<mo::seq_cst>(); h = wave_faa<mo::seq_cst>(head()); }")
if "wavedelay" in what:  # the wave-drawn blind build, every lane reading Head and Tail first (the claim's delay)
    old = "          h = wave_faa<mo::seq_cst>(head());"
    assert old in s
    s = s.replace(old, "          { if ((load<mo::relaxed>(head()) ^ load<mo::relaxed>(tail())) == 0xdeadbeefull) backoff(ns0); h = wave_faa<mo::seq_cst>(head()); }")
    s = s.replace("      const bool blind_now = kBlindStress && blind;", "      uint32_t ns0 = 8;\n      const bool blind_now = kBlindStress && blind;")
scq.write_text(s)
glfq.write_text(g)
print("patched", what)
