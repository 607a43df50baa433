"""tools/sass_collective_scan.py's reading of a listing, on the shapes of run 267's builds (CPU only).

The listings are cut down from nvdisasm's output of G-LFQ's blind-wave stress build by NVRTC 13.0.88:
the leader's branch of wave_faa with the fence inside it (the spelling that lost elements), and with
the fence before it (58c95f7's); a shuffle checked on every lane's mask; and a MATCH checked right
after the VOTE that made its mask.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

SPEC = importlib.util.spec_from_file_location("sass_collective_scan",
                                              Path(__file__).resolve().parents[2] / "tools" / "sass_collective_scan.py")
scan_tool = importlib.util.module_from_spec(SPEC)
sys.modules[SPEC.name] = scan_tool  # its dataclass looks itself up there
SPEC.loader.exec_module(scan_tool)

HEAD = """.text.gq_bench:
        /*1730*/                   LDC.64 R2, c[0x0][0x210] ;
        /*1740*/                   VOTE.ANY R5, PT, PT ;
        /*1750*/                   R2UR UR4, R5 ;
        /*1760*/                   BRA.DIV UR4, `(.L_x_192) ;
        /*1770*/                   MATCH.ANY.U64 R5, R2 ;
        /*1780*/                   S2R R2, SR_LANEID ;
        /*17a0*/                   BSSY B2, `(.L_x_193) ;
        /*17b0*/                   CS2R R14, SRZ ;
        /*17d0*/                   ISETP.NE.AND P0, PT, R2, R3, PT ;
        /*17e0*/               @P0 BRA `(.L_x_194) ;
"""
FENCE_INSIDE = """        /*1810*/                   MEMBAR.SC.GPU ;
        /*1840*/                   CCTL.IVALL ;
        /*1860*/                   YIELD ;
        /*1880*/                   ATOM.E.ADD.64.STRONG.GPU P0, R14, desc[UR16][R8.64], R10 ;
"""
FETCH_ADD_ALONE = """        /*1880*/                   ATOM.E.ADD.64.STRONG.GPU P0, R14, desc[UR16][R8.64], R10 ;
"""
TAIL = """.L_x_194:
        /*1a20*/                   BSYNC B2 ;
.L_x_193:
        /*1a30*/                   R2UR UR4, R5 ;
        /*1a40*/                   BRA.DIV UR4, `(.L_x_199) ;
.L_x_1137:
        /*1a50*/                   SHFL.IDX PT, R8, R15, R3, 0x1f ;
"""


def test_a_one_lane_check_after_a_branch_that_yields_is_flagged():
    found = scan_tool.scan(HEAD + FENCE_INSIDE + TAIL)
    assert [(f.kernel, f.address, f.collective, f.risky) for f in found] == [("gq_bench", "1a40", "SHFL", True)]
    assert "YIELD 1, MEMBAR 1" in found[0].region


def test_the_fetch_add_alone_in_the_branch_is_not():
    found = scan_tool.scan(HEAD + FETCH_ADD_ALONE + TAIL)
    assert [(f.address, f.risky) for f in found] == [("1a40", False)]


def test_every_lanes_mask_and_match_after_vote_are_not_one_lane_checks():
    every_lane = TAIL.replace("R2UR UR4, R5 ;", "REDUX.OR UR4, R5 ;")
    assert scan_tool.scan(HEAD + FENCE_INSIDE + every_lane) == []
