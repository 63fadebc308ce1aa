"""GPU cross-lane operations (issue 6): encodings, the seed worked examples, the seed
003 programs as Power ISA programs, strict/permissive undefined reads, traps.

Expected values come from the seed texts (quoted tables) or are derived by hand in
comments; randomized comparisons against tests/gpu_reference.py are in
tests/ext/gpu/test_gpu_random.py."""
import struct

import pytest

from isa_ext.isa import ISA
from isa_ext.sim import Simulator
from isa_ext.errors import AsmError
from isa_ext.asm import assemble
from isa_ext.spec.opcode_map import load_reference, row_key
from conftest import ROOT


@pytest.fixture(scope="module")
def isa():
    return ISA()


def run(isa, text, gpr=None, fpr=None, strict=True, memory=None, max_steps=500):
    sim = Simulator(isa, strict=strict)
    sim.load_asm(text)
    for n, v in (gpr or {}).items():
        sim.state.gpr[n] = v
    for n, v in (fpr or {}).items():
        sim.state.fpr[n] = v
    for addr, data in (memory or {}).items():
        sim.state.mem.load(addr, data)
    res = sim.run(max_steps=max_steps)
    return sim, res


def dbl(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def undbl(x):
    return struct.unpack("<d", struct.pack("<Q", x))[0]


# --- encodings --------------------------------------------------------------------

def test_no_collision_with_openpower_po22_or_swizzle(isa):
    ours = [r for r in isa.rows if r.extension == "gpu"]
    assert len(ours) == 90  # 84 + the six identity queries (tests/ext/gpu/test_gpu_identity.py)
    for row in ours:
        assert row.match["PO"] == 22
        key = row_key(row)
        for alloc in load_reference():
            assert any(a != "-" and b != "-" and a != b for a, b in zip(key, alloc.key)), \
                f"{row.mnemonic} ({key}) collides with {alloc.name} ({alloc.key})"
        # mv.swiz / fmv.swiz own every key with bits 28:31 = 0011 or 1011
        assert key[7:] not in ("0011", "1011") or "-" in key[7:]
        assert not all(k in "-" + s for k, s in zip(key[7:], "0011"))
        assert not all(k in "-" + s for k, s in zip(key[7:], "1011"))
    assert isa.overlaps() == []


def test_overlap_check_can_fail(isa):
    # a deliberately colliding copy of a row is reported
    from copy import copy
    rows = list(isa.rows)
    twin = copy(next(r for r in rows if r.mnemonic == "shfl.up"))
    from isa_ext.tables import overlaps
    assert overlaps(rows + [twin])


def test_every_gpu_row_has_page_category_and_compiles(isa):
    for row in isa.rows:
        if row.extension == "gpu":
            assert row.sv.startswith(("VSRM-1P-", "VSLDSTRM-1P-")) and row.page is not None
            isa.compiled(row)


# --- seed 000: the GLSL shuffle tables (8 threads, width 8) ---------------------------

DATA = [0xA, 0xB, 0xC, 0xD, 0xE, 0xF, 0x10, 0x11]   # the seed's a..h
a, b, c, d, e, f, g, h = DATA


def glsl(isa, alias, index, width=8, data=DATA):
    vl = len(data)
    sim, res = run(isa, f"""
        setvl 0,0,{vl},0,1,1
        sv.{alias} *r32,*r64,{index},{width}
        sv.{alias.replace('NV', 'ValidNV')} r3,{index},{width}
    """, gpr={64 + k: v for k, v in enumerate(data)})
    assert res.stop == "end", res.trap
    return sim.state.gpr[32:32 + vl], [(sim.state.gpr[3] >> k) & 1 for k in range(vl)]


def test_seed000_shuffle_index_2(isa):
    # rule srcThreadId = index = 2 -> thread 2's data c everywhere (the seed's table
    # shows b; errata 000-1 follows the rule)
    assert glsl(isa, "shuffleNV", 2) == ([c] * 8, [1] * 8)


def test_seed000_shuffle_index_9(isa):
    # table: valid 0 everywhere, result a b c d e f g h (index 9 >= width 8)
    assert glsl(isa, "shuffleNV", 9) == (DATA, [0] * 8)


def test_seed000_shuffle_up_1(isa):
    # table: src -1 0 1 .. 6, valid 0 1 1 1 1 1 1 1, result a a b c d e f g
    assert glsl(isa, "shuffleUpNV", 1) == ([a, a, b, c, d, e, f, g], [0] + [1] * 7)


def test_seed000_shuffle_down_2(isa):
    # table: src 2..9, valid 1 1 1 1 1 1 0 0, result c d e f g h g h
    assert glsl(isa, "shuffleDownNV", 2) == ([c, d, e, f, g, h, g, h], [1] * 6 + [0, 0])


def test_seed000_shuffle_xor_1(isa):
    # table: src 1 0 3 2 5 4 7 6, all valid, result b a d c f e h g
    assert glsl(isa, "shuffleXorNV", 1) == ([b, a, d, c, f, e, h, g], [1] * 8)


def test_seed000_segments_are_relative(isa):
    # 16 threads, width 8: the second segment behaves like the first (errata 000-5)
    data = list(range(100, 116))
    got, valid = glsl(isa, "shuffleDownNV", 2, 8, data)
    # segment 0: 102..107 then own 106 107; segment 1: 110..115 then own 114 115
    assert got == [102, 103, 104, 105, 106, 107, 106, 107,
                   110, 111, 112, 113, 114, 115, 114, 115]
    assert valid == [1] * 6 + [0, 0] + [1] * 6 + [0, 0]


def test_seed000_up_does_not_cross_into_the_previous_segment(isa):
    # 16 threads, width 8, up by 1: thread 8 (first of segment 1) keeps its value
    data = list(range(100, 116))
    got, valid = glsl(isa, "shuffleUpNV", 1, 8, data)
    assert got == [100, 100, 101, 102, 103, 104, 105, 106,
                   108, 108, 109, 110, 111, 112, 113, 114]
    assert valid == [0] + [1] * 7 + [0] + [1] * 7


def test_glsl_xor_index_beyond_width_is_out_of_range(isa):
    # shuffleXorNV index 8, width 4: src = tid ^ 8 >= 4 for every thread -> own value
    data = list(range(1, 9))
    assert glsl(isa, "shuffleXorNV", 8, 4, data) == (data, [0] * 8)


def test_register_index_takes_low_bits_like_sass(isa):
    # shfl.idx with b = 9 in a register and c for width 8 (mask 0b111000, clamp 7):
    # j = minLane | (9 & 7) = minLane + 1 -> every lane reads lane 1 (b), valid
    sim, res = run(isa, """
        setvl 0,0,8,0,1,1
        sv.shfl.idx *r32,*r64,r5,r6
        sv.shflv.idx r3,r5,r6
    """, gpr={5: 9, 6: 0x3807, **{64 + k: v for k, v in enumerate(DATA)}})
    assert sim.state.gpr[32:40] == [b] * 8 and sim.state.gpr[3] == 0xFF


# --- seed 003: the example programs, 32 lanes, data x_i = i + 1 -------------------------

X = {k: dbl(k + 1.0) for k in range(32)}
SCAN = "\n".join(f"""
    sv.fshfli.up *f32,*f0,{n},5
    sv.shflvi.up r3,{n},5
    sv.fadds/m=r3 *f0,*f32,*f0""" for n in (1, 2, 4, 8, 16))


def lanes_of(sim, first=0, n=32):
    return [undbl(v) for v in sim.state.fpr[first:first + n]]


def test_seed003_inclusive_plus_scan(isa):
    sim, res = run(isa, "    setvl 0,0,32,0,1,1\n" + SCAN, fpr=X)
    assert res.stop == "end", res.trap
    # lane i holds 1 + 2 + ... + (i + 1) = (i + 1)(i + 2)/2
    assert lanes_of(sim) == [(i + 1) * (i + 2) / 2 for i in range(32)]


def test_seed003_inclusive_scan_register_form_with_sass_c(isa):
    # SHFL.UP P1, Ry, Rx, n, 0 with Sb and Sc in registers (r4 = n, r5 = c = 0)
    steps = "\n".join(f"""
    li r4,{n}
    sv.fshfl.up *f32,*f0,r4,r5
    sv.shflv.up r3,r4,r5
    sv.fadds/m=r3 *f0,*f32,*f0""" for n in (1, 2, 4, 8, 16))
    sim, res = run(isa, "    setvl 0,0,32,0,1,1\n    li r5,0\n" + steps, fpr=X)
    assert res.stop == "end", res.trap
    assert lanes_of(sim) == [(i + 1) * (i + 2) / 2 for i in range(32)]


def test_seed003_exclusive_plus_scan(isa):
    # after the inclusive scan: SHFL.UP by 1 then SEL with 0 where P1 is false
    # (lane 0 only): lane i holds i(i + 1)/2
    prog = "    setvl 0,0,32,0,1,1\n" + SCAN + """
    sv.fshfli.up *f0,*f0,1,5
    sv.shflvi.up r3,1,5
    sv.fsub/m=~r3 *f0,*f0,*f0"""
    sim, res = run(isa, prog, fpr=X)
    assert res.stop == "end", res.trap
    assert lanes_of(sim) == [i * (i + 1) / 2 for i in range(32)]


def test_seed003_inclusive_reverse_scan(isa):
    # SHFL.DOWN ..., 31: lane i holds (i + 1) + ... + 32 = 528 - i(i + 1)/2
    prog = "    setvl 0,0,32,0,1,1\n    li r5,31\n" + "\n".join(f"""
    li r4,{n}
    sv.fshfl.down *f32,*f0,r4,r5
    sv.shflv.down r3,r4,r5
    sv.fadds/m=r3 *f0,*f32,*f0""" for n in (1, 2, 4, 8, 16))
    sim, res = run(isa, prog, fpr=X)
    assert res.stop == "end", res.trap
    assert lanes_of(sim) == [528 - i * (i + 1) / 2 for i in range(32)]


def test_seed003_butterfly_reduction(isa):
    # SHFL.BFLY 16, 8, 4, 2, 1 with clamp 31, unpredicated adds: every lane holds
    # the sum 1 + ... + 32 = 528
    prog = "    setvl 0,0,32,0,1,1\n" + "\n".join(f"""
    sv.fshfli.bfly *f32,*f0,{n},5
    sv.fadds *f0,*f32,*f0""" for n in (16, 8, 4, 2, 1))
    sim, res = run(isa, prog, fpr=X)
    assert res.stop == "end", res.trap
    assert lanes_of(sim) == [528.0] * 32


@pytest.mark.parametrize("mode,index,source", [
    ("idx", 0, lambda i: i & ~3), ("idx", 1, lambda i: (i & ~3) + 1),
    ("idx", 2, lambda i: (i & ~3) + 2), ("idx", 3, lambda i: (i & ~3) + 3),
    ("bfly", 1, lambda i: i ^ 1),   # DDX .1032
    ("bfly", 2, lambda i: i ^ 2),   # DDY .2301 (errata 003-1: the operand, tid^2)
])
def test_seed003_fswz_patterns(isa, mode, index, source):
    # SHFL.mode PT, Ry, Rx, index, 0x1C03 (mask 0b11100: quads; clamp 3), both with
    # c in a register and with the immediate segment width 4
    prog = f"""
        setvl 0,0,32,0,1,1
        li r4,{index}
        li r5,0x1C03
        sv.fshfl.{mode} *f32,*f0,r4,r5
        sv.fshfli.{mode} *f64,*f0,{index},2
        sv.shflv.{mode} r3,r4,r5
    """
    sim, res = run(isa, prog, fpr=X)
    assert res.stop == "end", res.trap
    want = [source(i) + 1.0 for i in range(32)]
    assert lanes_of(sim, 32) == want and lanes_of(sim, 64) == want
    assert sim.state.gpr[3] == 0xFFFFFFFF


# --- seed 002: thread group ------------------------------------------------------------

def test_ballot_activemask_laneid_and_masks(isa):
    # 8 lanes, active = r10 = 0b1011_0111; values 0 in lanes 1 and 5
    vals = [5, 0, 7, 1, 9, 0, 2, 3]
    sim, res = run(isa, """
        setvl 0,0,8,0,1,1
        sv.ballot/m=r10 r3,*r64
        sv.activemask/m=r10 r4
        sv.laneid/m=r10 *r16
        sv.lanemaskeq *r24
        sv.lanemaskge *r32
        sv.lanemaskgt *r40
        sv.lanemaskle *r48
        sv.lanemasklt *r56
    """, gpr={10: 0b10110111, **{16 + k: 0xEE for k in range(8)},
              **{64 + k: v for k, v in enumerate(vals)}})
    assert res.stop == "end", res.trap
    g = sim.state.gpr
    # active lanes 0 1 2 4 5 7; non-zero among them: 0 2 4 7 -> 0b1001_0101
    assert g[3] == 0b10010101
    assert g[4] == 0b10110111
    # lane ids only where active; inactive lanes 3 and 6 keep 0xEE
    assert g[16:24] == [0, 1, 2, 0xEE, 4, 5, 0xEE, 7]
    # lane 3: eq 0b1000, ge 0b11111000, gt 0b11110000, le 0b1111, lt 0b111
    assert (g[24 + 3], g[32 + 3], g[40 + 3], g[48 + 3], g[56 + 3]) == \
        (0b1000, 0b11111000, 0b11110000, 0b1111, 0b111)
    # not ANDed with an active mask, and nothing at or above VL = 8
    assert g[32 + 0] == 0xFF and g[48 + 7] == 0xFF


def test_quad_swizzles(isa):
    # lanes 0..7 (two quads), swizzled s_i = i + 1, unswizzled u_i = 10 * (i + 1)
    fpr = {k: dbl(k + 1.0) for k in range(8)}
    fpr.update({16 + k: dbl(10.0 * (k + 1)) for k in range(8)})
    sim, res = run(isa, """
        setvl 0,0,8,0,1,1
        sv.qswz2 *f32,*f0
        sv.qswzxa *f40,*f0,*f16
        sv.qswzyas *f48,*f0,*f16
    """, fpr=fpr)
    assert res.stop == "end", res.trap
    # QSWZ2: fragment 2 of each quad: 3 3 3 3 7 7 7 7
    assert lanes_of(sim, 32, 8) == [3.0] * 4 + [7.0] * 4
    # X: s[i^1] + u[i]: 2+10 1+20 4+30 3+40 6+50 5+60 8+70 7+80
    assert lanes_of(sim, 40, 8) == [12.0, 21.0, 34.0, 43.0, 56.0, 65.0, 78.0, 87.0]
    # Y: s[i^2] + u[i]: 3+10 4+20 1+30 2+40 7+50 8+60 5+70 6+80
    assert lanes_of(sim, 48, 8) == [13.0, 24.0, 31.0, 42.0, 57.0, 68.0, 75.0, 86.0]


def test_quad_divergent_gives_plus_zero_and_no_add_keeps_minus_zero(isa):
    # active 0b1111_0111: quad 0 lacks lane 3 -> its active lanes get +0.0;
    # quad 1 complete: QSWZ0 without addend keeps -0.0 from lane 4
    fpr = {k: dbl(-0.0 if k == 4 else 1.5) for k in range(8)}
    fpr.update({32 + k: dbl(9.0) for k in range(8)})
    sim, res = run(isa, """
        setvl 0,0,8,0,1,1
        sv.qswz0/m=r10 *f32,*f0
    """, fpr=fpr, gpr={10: 0b11110111})
    assert res.stop == "end", res.trap
    got = sim.state.fpr[32:40]
    assert got[:3] == [0, 0, 0]            # +0.0 bit pattern
    assert got[3] == dbl(9.0)              # inactive lane untouched
    assert got[4:] == [dbl(-0.0)] * 4      # 0x8000... kept, not +0.0


# --- undefined and illegal --------------------------------------------------------------

PROG_INACTIVE = """
    setvl 0,0,4,0,1,1
    sv.shfli.idx/m=r10 *r32,*r64,2,2
"""


def test_inactive_lane_read_strict_stops_without_partial_state(isa):
    gpr = {10: 0b1011, 64: 1, 65: 2, 66: 3, 67: 4, **{32 + k: 0x55 for k in range(4)}}
    sim, res = run(isa, PROG_INACTIVE, gpr=gpr)
    assert res.stop == "trap" and res.trap.kind == "undefined"
    assert "inactive lane 2" in res.trap.reason
    assert sim.state.gpr[32:36] == [0x55] * 4


def test_inactive_lane_read_permissive_reads_current_contents(isa):
    gpr = {10: 0b1011, 64: 1, 65: 2, 66: 3, 67: 4, **{32 + k: 0x55 for k in range(4)}}
    sim, res = run(isa, PROG_INACTIVE, gpr=gpr, strict=False)
    assert res.stop == "end"
    # lanes 0 1 3 read lane 2's register contents (3); lane 2 inactive: untouched
    assert sim.state.gpr[32:36] == [3, 3, 0x55, 3]
    assert [d.kind for d in sim.diagnostics] == ["inactive-lane-read"] * 3


def test_reserved_segment_width_traps_with_pc_and_word(isa):
    # shfli.idx r3,r4,1,width code 7: encode by hand (SEGW field bits 21:25)
    word = (22 << 26) | (3 << 21) | (4 << 16) | (1 << 11) | (7 << 6) | (0 << 4) | 0b0101
    sim = Simulator(isa)
    sim.load_words([word])
    sim.state.gpr[3] = 0x77
    res = sim.run(max_steps=5)
    assert res.stop == "trap" and res.trap.pc == 0x1000 and res.trap.word == word
    assert "reserved" in res.trap.reason and sim.state.gpr[3] == 0x77


def test_unlisted_sured_size_is_illegal(isa):
    # INC with S32 is not in seed 004's table: no instruction, an illegal trap
    word = (22 << 26) | (1 << 21) | (2 << 16) | (3 << 11) | (3 << 8) | (1 << 5)
    assert isa.decode(word) is None
    sim = Simulator(isa)
    sim.load_words([word])
    res = sim.run(max_steps=5)
    assert res.stop == "trap" and res.trap.kind == "illegal"
    with pytest.raises(AsmError):
        assemble("sured.inc.s32 r1,r2,r3,1d", isa=isa)


def test_warp_larger_than_64_lanes_traps(isa):
    sim, res = run(isa, """
        setvl 0,0,65,0,1,1
        sv.laneid *r32
    """)
    assert res.stop == "trap" and "64" in res.trap.reason


def test_segment_width_code_is_a_5_bit_field(isa):
    with pytest.raises(AsmError, match="out of range"):
        assemble("shfli.up r3,r4,1,32", isa=isa)
    with pytest.raises(AsmError, match="surface dimension"):
        assemble("sured.add.u32 r1,r2,r3,4d", isa=isa)


def test_unprefixed_is_a_one_lane_warp(isa):
    sim, res = run(isa, """
        shfli.down r3,r4,1,0
        shflvi.down r5,1,0
        ballot r6,r4
        laneid r7
    """, gpr={4: 42, 3: 0, 7: 99})
    assert res.stop == "end", res.trap
    # one lane: the source lane 1 does not exist -> own value, invalid; ballot bit 0
    assert sim.state.gpr[3:8] == [42, 42, 0, 1, 0]


def test_element_width_32_packs_lanes(isa):
    # ELWIDTH=32 on source and destination: lanes are 32-bit halves of r64.. / r32..
    sim, res = run(isa, """
        setvl 0,0,4,0,1,1
        sv.shfli.bfly/w=32 *r32,*r64,1,2
    """, gpr={64: (2 << 32) | 1, 65: (4 << 32) | 3, 32: 0, 33: 0})
    assert res.stop == "end", res.trap
    # lanes 1 2 3 4 -> 2 1 4 3
    assert sim.state.gpr[32] == (1 << 32) | 2 and sim.state.gpr[33] == (3 << 32) | 4


# --- seed 004: SURED, hand-derived -------------------------------------------------------

SURF = 0x20000
DESC_AT = 0x1F000


# descriptor clamp codes (pseudocode/gpu/surface.mdwn): 0 near (seed 004's
# default .NEAR*), 1 ign, 2 trap
CLAMP = {"near": 0, "ign": 1, "trap": 2}


def descriptor(width=16, height=4, depth=1, esize=4, pitch=64, slice_pitch=256,
               enabled=1, ba=0, clamp="near"):
    clamp = CLAMP[clamp]
    return (SURF.to_bytes(8, "little") + pitch.to_bytes(4, "little")
            + slice_pitch.to_bytes(4, "little") + width.to_bytes(4, "little")
            + height.to_bytes(4, "little") + depth.to_bytes(4, "little")
            + bytes([esize, enabled | ba << 1 | clamp << 2, 0, 0]))


def word_at(sim, addr, n=4):
    return int.from_bytes(sim.state.mem.read_bytes(addr, n), "little")


def test_seed004_example_2d_add_u32(isa):
    # SURED.D.2D.ADD.U32 [R2], R4, R6: x = r2 = 3, y = r3 = 2, operand r4 = 2,
    # descriptor at r6.  Address = base + y*pitch + x*4 = 0x20000 + 128 + 12 = 0x2008C
    sim, res = run(isa, "sured.add.u32 r2,r4,r6,2d",
                   gpr={2: 3, 3: 2, 4: 2, 6: DESC_AT},
                   memory={DESC_AT: descriptor(), 0x2008C: (40).to_bytes(4, "little")})
    assert res.stop == "end", res.trap
    assert word_at(sim, 0x2008C) == 42


def test_trap_clamp_stops_at_the_faulting_lane_with_earlier_lanes_applied(isa):
    # 1d, 4 lanes add 1 at x = 0 1 99 3; width 16 -> lane 2 out of range (clamp trap)
    sim, res = run(isa, """
        setvl 0,0,4,0,1,1
        sv.sured.add.u32 *r32,*r40,r6,1d
    """, gpr={32: 0, 33: 1, 34: 99, 35: 3, 40: 1, 41: 1, 42: 1, 43: 1, 6: DESC_AT},
        memory={DESC_AT: descriptor(clamp="trap")})
    assert res.stop == "trap" and "lane 2" in res.trap.reason
    assert [word_at(sim, SURF + 4 * x) for x in range(4)] == [1, 1, 0, 0]
    assert (sim.state.svstate >> 43) & 0x7F == 2   # SVSTATE.srcstep reports lane 2


def test_near_clamps_and_ign_drops_and_disabled_drops_all(isa):
    # x = -5 and 40 with width 16: near -> x 0 and 15; ign -> nothing
    prog = """
        setvl 0,0,2,0,1,1
        sv.sured.max.s32 *r32,*r40,r6,1d
    """
    gpr = {32: (-5) & 0xFFFFFFFF, 33: 40, 40: 7, 41: 9, 6: DESC_AT}
    sim, res = run(isa, prog, gpr=gpr, memory={DESC_AT: descriptor(clamp="near")})
    assert res.stop == "end" and word_at(sim, SURF) == 7 and word_at(sim, SURF + 60) == 9
    for mode in ({"clamp": "ign"}, {"clamp": "trap", "enabled": 0}):
        sim, res = run(isa, prog, gpr=gpr, memory={DESC_AT: descriptor(**mode)})
        assert res.stop == "end" and word_at(sim, SURF) == 0 and word_at(sim, SURF + 60) == 0


def test_byte_addressing_and_alignment(isa):
    # .ba with u32: x = 8 is a byte address -> bytes 8..11; x = 6 is misaligned
    sim, res = run(isa, "sured.or.u32 r2,r4,r6,1d", gpr={2: 8, 4: 0xF0, 6: DESC_AT},
                   memory={DESC_AT: descriptor(ba=1), SURF + 8: b"\x0f\0\0\0"})
    assert res.stop == "end" and word_at(sim, SURF + 8) == 0xFF
    sim, res = run(isa, "sured.or.u32 r2,r4,r6,1d", gpr={2: 6, 4: 1, 6: DESC_AT},
                   memory={DESC_AT: descriptor(ba=1)})
    assert res.stop == "trap" and "aligned" in res.trap.reason


def test_inc_dec_and_float_sizes(isa):
    def one(op, m, v, n=4):
        sim, res = run(isa, f"sured.{op} r2,r4,r6,1d", gpr={2: 0, 4: v, 6: DESC_AT},
                       memory={DESC_AT: descriptor(esize=n), SURF: m.to_bytes(n, "little")})
        assert res.stop == "end", res.trap
        return word_at(sim, SURF, n)
    # INC: M >= Rb ? 0 : M + 1 ; DEC: (M == 0 || M > Rb) ? Rb : M - 1
    assert (one("inc.u32", 5, 5), one("inc.u32", 4, 5)) == (0, 5)
    assert (one("dec.u32", 0, 7), one("dec.u32", 9, 7), one("dec.u32", 3, 7)) == (7, 7, 2)
    # f32: 1.5 + 2.25 = 3.75 (0x3FC00000 + 0x40100000 -> 0x40700000)
    assert one("add.f32", 0x3FC00000, 0x40100000) == 0x40700000
    # f32 ftz: a subnormal (0x00000001) plus +0 is flushed to +0
    assert one("add.f32", 0x00000001, 0) == 0
    # f16x2: (1.0, 2.0) + (1.0, -2.0) = (2.0, +0.0): 0x3C00_4000 + 0x3C00_C000
    assert one("add.f16x2", 0x3C004000, 0x3C00C000) == 0x40000000
    # f16x2 min: min(1.0, -0.0) = -0.0, min(2.0, 3.0) = 2.0
    assert one("min.f16x2", 0x3C004000, 0x80004200) == 0x80004000
    # u64 / s64: 64-bit element
    assert one("max.s64", 5, (1 << 64) - 1, 8) == 5
    assert one("max.u64", 5, (1 << 64) - 1, 8) == (1 << 64) - 1


def test_example_program_gpu_scan(isa):
    import os
    path = os.path.join(ROOT, "examples", "gpu_scan.s")
    with open(path) as f:
        sim, res = run(isa, f.read(), fpr=X)
    assert res.stop == "end", res.trap
    assert lanes_of(sim) == [(i + 1) * (i + 2) / 2 for i in range(32)]


def test_cr_predicate_zeroing_and_source_zeroing(isa):
    # CR predicate /m=eq: lane i active when CR(32+i).eq is set; lanes 0 and 2 here
    sim2 = Simulator(isa)
    sim2.load_asm("setvl 0,0,4,0,1,1\nsv.laneid/m=eq *r32\n")
    sim2.state.cr[32] = sim2.state.cr[34] = 0b0010  # eq is bit 1 of the 4-bit field
    for k in range(4):
        sim2.state.gpr[32 + k] = 0x77
    assert sim2.run(max_steps=5).stop == "end"
    assert sim2.state.gpr[32:36] == [0, 0x77, 2, 0x77]
    # dz zeroes inactive destination lanes; sz makes the inactive lane 2 read as 0
    # (no diagnostic even in strict mode): every lane reads lane 2 (idx 2, width 4)
    sim, res = run(isa, """
        setvl 0,0,4,0,1,1
        sv.shfli.idx/m=r10/dz/sz *r32,*r64,2,2
    """, gpr={10: 0b1011, 64: 1, 65: 2, 66: 3, 67: 4, **{32 + k: 0x55 for k in range(4)}})
    assert res.stop == "end", res.trap
    assert sim.state.gpr[32:36] == [0, 0, 0, 0] and not sim.diagnostics


def test_min_max_unsigned_and_signed_sizes(isa):
    """MIN/MAX (seed 004 table): unsigned compare for .u32/.u64, signed for .s32/.s64.
    0xFFFFFFFF is 4294967295 unsigned but -1 signed, so the two disagree on it."""
    def one(op, m, v, n):
        sim, res = run(isa, f"sured.{op} r2,r4,r6,1d", gpr={2: 0, 4: v, 6: DESC_AT},
                       memory={DESC_AT: descriptor(esize=n), SURF: m.to_bytes(n, "little")})
        assert res.stop == "end", res.trap
        return word_at(sim, SURF, n)
    # u32: min(7, 5) = 5 (operand smaller), min(5, 7) = 5; max(5, 7) = 7, max(7, 5) = 7
    assert (one("min.u32", 7, 5, 4), one("min.u32", 5, 7, 4)) == (5, 5)
    assert (one("max.u32", 5, 7, 4), one("max.u32", 7, 5, 4)) == (7, 7)
    # unsigned vs signed on 0xFFFFFFFF: min.u32 keeps 1, min.s32 takes -1
    assert one("min.u32", 1, 0xFFFFFFFF, 4) == 1
    assert one("min.s32", 1, 0xFFFFFFFF, 4) == 0xFFFFFFFF
    # u64: min(2^63, 3) = 3 (unsigned), max.s64 of 2^63 (negative) and 3 is 3
    assert one("min.u64", 1 << 63, 3, 8) == 3
    assert one("min.u64", 3, 1 << 63, 8) == 3
    assert one("max.s64", 1 << 63, 3, 8) == 3


def test_source_lane_at_or_beyond_vl_is_out_of_range(isa):
    # docs/gpu-ops.md "always: 0 <= j < VL".  VL = 6 inside one segment of width 8
    # (SEGW = 3): down by 1, lanes 0..4 read lanes 1..5 (values 0x101..0x105);
    # lane 5's source j = 6 is <= maxLane 7 but equals VL, so it is out of range:
    # lane 5 keeps its own 0x105 and its validity bit is 0 -> mask 0b011111
    sim, res = run(isa, """
        setvl 0,0,6,0,1,1
        sv.shfli.down *r32,*r64,1,3
        sv.shflvi.down r3,1,3
    """, gpr={64 + k: 0x100 + k for k in range(6)})
    assert res.stop == "end", res.trap
    assert sim.state.gpr[32:38] == [0x101, 0x102, 0x103, 0x104, 0x105, 0x105]
    assert sim.state.gpr[3] == 0b011111


def test_1d_buffer_coordinate_is_s32_only_with_near(isa):
    # seed 004: "For 1D_BUFFER, the coordinate is S32 if .clamp is .NEAR.
    # Otherwise, the coordinate is interpreted as U32."  x = 0xFFFFFFFF:
    # near reads it as -1 and clamps it to x = 0 (SURF + 0), not to the last
    # element x = 15 (SURF + 60) as the U32 reading 4294967295 would
    sim, res = run(isa, "sured.add.u32 r2,r4,r6,1d_buffer", gpr={2: 0xFFFFFFFF, 4: 5, 6: DESC_AT},
                   memory={DESC_AT: descriptor(clamp="near")})
    assert res.stop == "end", res.trap
    assert (word_at(sim, SURF), word_at(sim, SURF + 60)) == (5, 0)
    # with trap the U32 x 4294967295 >= width 16 is out of range: trap, nothing written
    sim, res = run(isa, "sured.add.u32 r2,r4,r6,1d_buffer", gpr={2: 0xFFFFFFFF, 4: 5, 6: DESC_AT},
                   memory={DESC_AT: descriptor(clamp="trap")})
    assert res.stop == "trap" and word_at(sim, SURF) == 0


def test_array_layer_is_u16_and_near_clamps_it_to_the_last_layer(isa):
    # 1d_array: x = r2, layer = r3; 4 layers (depth), slice pitch 256.
    # seed 004: array indices "are treated as U16": layer 0x10002 is layer 2 ->
    # SURF + 2*256 + 1*4 = SURF + 516
    memory = {DESC_AT: descriptor(depth=4, clamp="near")}
    sim, res = run(isa, "sured.add.u32 r2,r4,r6,1d_array", gpr={2: 1, 3: 0x10002, 4: 7, 6: DESC_AT},
                   memory=memory)
    assert res.stop == "end", res.trap
    assert word_at(sim, SURF + 516) == 7
    # layer 4 = depth (one past the last): near clamps it to layer 3 ->
    # SURF + 3*256 + 4 = SURF + 772; layer 4's address SURF + 1028 stays 0
    sim, res = run(isa, "sured.add.u32 r2,r4,r6,1d_array", gpr={2: 1, 3: 4, 4: 7, 6: DESC_AT},
                   memory=memory)
    assert res.stop == "end", res.trap
    assert (word_at(sim, SURF + 772), word_at(sim, SURF + 1028)) == (7, 0)
