"""tools/sass_footprint.py: the hot set, the parts by inlining chain, on a made-up source page and
disassembly."""

from tool_loader import load_tool

fp = load_tool("sass_footprint")

PAGE = '''"Kernel Name","rt_tiles",
"Address","Source","Warp Stall Sampling (All Samples)","Instructions Executed","stall_no_inst"
"0x1000","      LDC R1, c[0x0][0x28]","10","900","5"
"0x1010","      ATOM.E.ADD.64 R2, [R4], R6","20","90","1"
"0x1020","      FFMA R1, R2, R3, R4","30","9","9"
"0x1030","      EXIT","0","1","0"
'''
DISASM = '''.text.rt_wave:
        /*0000*/                   NOP ;
.text.rt_tiles:
	//## File "/x/raytrace/include/rt/tile_queues.h", line 210
        /*0000*/                   LDC R1, c[0x0][0x28] ;
	//## File "/x/queues_cuda/include/gq/arch.cuh", line 150 inlined at "/x/queues_cuda/include/gq/scq_ring.cuh", line 155
	//## File "/x/queues_cuda/include/gq/scq_ring.cuh", line 155 inlined at "/x/raytrace/include/rt/tile_queues.h", line 218
	//## File "/x/raytrace/include/rt/tile_queues.h", line 218
        /*0010*/                   ATOM.E.ADD.64 R2, [R4], R6 ;
	//## File "/x/raytrace/include/rt/shapes.h", line 20 inlined at "/x/raytrace/include/rt/whitted.h", line 100
        /*0020*/                   FFMA R1, R2, R3, R4 ;
	//## File "/x/k.cu", line 9
        /*0030*/                   EXIT ;
'''


def test_hot_set_and_parts(tmp_path):
    page, disasm = tmp_path / "page.csv", tmp_path / "d.txt"
    page.write_text(PAGE)
    disasm.write_text(DISASM)
    rows = fp.source_rows(page)
    assert [r["offset"] for r in rows] == [0, 16, 32, 48]
    assert fp.hot_set(rows) == {0, 16}  # 990 of 1,000 executions
    assert fp.hot_set(rows, 0.999) == {0, 16, 32}
    chains = fp.inline_chains(disasm, "rt_tiles")
    assert [fp.part_of(chains[o]) for o in (0, 16, 32, 48)] == ["tile worker", "queue", "trace", "kernel"]
