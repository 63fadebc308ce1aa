"""SHFL's 13-bit immediate Sc (seed 003: "Sc may be either a register or a 13-bit
immediate"; docs/errata.md 003-2): ``sv.shfli.<mode> *RT,*RA,b,#Sc``, the shfli
word with SEGW = 31 under an SVP64 prefix whose RM[10:23] (EXTRA and MODE) is Sc.

Expected words are built here bit by bit from that layout (docs/gpu-ops.md);
expected lanes come from the seed's worked examples (derived by hand in the
comments) and from tests/gpu_reference.py (test_gpu_random.py draws the form
against the model too)."""
import pytest

from isa_ext.asm import assemble
from isa_ext.disasm import disassemble
from isa_ext.errors import AsmError
from isa_ext.isa import ISA
from isa_ext.sim import Simulator

import gpu_reference as ref
from test_gpu import run, dbl, undbl  # (the gpu tests' runner)

MODES = {"idx": 0, "up": 1, "down": 2, "bfly": 3}


@pytest.fixture(scope="module")
def isa():
    return ISA()


def prefix_word(rm):
    """SVP64 prefix: PO 1, RM[0] at MSB0 bit 6, bit 7 = 1, RM[1] at 8, bit 9 = 1,
    RM[2:23] at 10:31 (docs/svp64.md)."""
    return (1 << 26) | ((rm >> 23) & 1) << 25 | 1 << 24 | ((rm >> 22) & 1) << 23 | \
        1 << 22 | (rm & 0x3FFFFF)


def rm_of(sc, mask=0, mmode=0, elwidth=0, subvl=1):
    """RM (MSB0): MASKMODE 0, MASK 1:3, ELWIDTH 4:5, ELWIDTH_SRC 6:7, SUBVL 8:9,
    Sc in 10:23."""
    return mmode << 23 | mask << 20 | elwidth << 18 | elwidth << 16 | (subvl - 1) << 14 | sc


def gshf(rt, ra, lb, segw, shm, xo):
    """GSHF (decoder/forms.txt): PO 0:5, RT 6:10, RA 11:15, LB 16:20, SEGW 21:25,
    SHM 26:27, XO 28:31."""
    return 22 << 26 | rt << 21 | ra << 16 | lb << 11 | segw << 6 | shm << 4 | xo


def gshv(rt, lb, segw, shm):
    """GSHV: PO 0:5, RT 6:10, LB 11:15, SEGW 16:20, SHM 21:22, SHI 23, XO 24:31."""
    return 22 << 26 | rt << 21 | lb << 16 | segw << 11 | shm << 9 | 1 << 8 | 0b00001101


def words(isa, text):
    data = assemble(text + "\n", isa=isa).data
    return [int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data), 4)]


# --- encoding -------------------------------------------------------------------------

@pytest.mark.parametrize("mode", sorted(MODES))
def test_gpr_shuffle_words(isa, mode):
    # *r8 and *r16 are EXTRA3 vectors 0b100 with field 2 and 4 (8 >> 2, 16 >> 2)
    assert words(isa, f"sv.shfli.{mode} *r8,*r16,2,#0x1c03") == [
        prefix_word(rm_of(0x1C03)), gshf(2, 4, 2, 31, MODES[mode], 0b0101)]


def test_fpr_and_validity_mask_words(isa):
    assert words(isa, "sv.fshfli.up *f32,*f0,1,#0") == [
        prefix_word(rm_of(0)), gshf(8, 0, 1, 31, 1, 0b1111)]
    # the validity mask's RT is a scalar (r3: field 3)
    assert words(isa, "sv.shflvi.down r3,4,#31") == [
        prefix_word(rm_of(31)), gshv(3, 4, 31, 2)]


def test_predicate_element_width_and_subvl_keep_their_bits(isa):
    # m=r3 is MASK 2 (integer predicate, MASKMODE 0); w=32 is ELWIDTH 1 (both)
    assert words(isa, "sv.shfli.bfly/m=r3/w=32/vec2 *r124,*r0,16,#0x3fff") == [
        prefix_word(rm_of(0x3FFF, mask=2, elwidth=1, subvl=2)), gshf(31, 0, 16, 31, 3, 0b0101)]
    # a CR predicate: m=lt is MASKMODE 1, MASK 0
    assert words(isa, "sv.shfli.idx/m=lt *r8,*r16,0,#0x1c03")[0] == prefix_word(
        rm_of(0x1C03, mmode=1))


@pytest.mark.parametrize("text", [
    "sv.shfli.idx *8, *16, 2, #0x1c03",
    "sv.fshfli.up *32, *0, 1, #0x0",
    "sv.shflvi.down 3, 4, #0x1f",
    "sv.shfli.bfly/vec2/m=r3/w=32 *124, *0, 16, #0x3fff",
    "sv.shfli.down/m=~r10 *64, *96, 31, #0x2000",
])
def test_disassembly_prints_the_immediate_and_reassembles(isa, text):
    [(_addr, _words, got)] = disassemble(isa, assemble(text + "\n", isa=isa).data)
    assert got == text


@pytest.mark.parametrize("text,why", [
    ("sv.shfli.idx *r9,*r16,2,#3", "multiple of 4"),          # no EXTRA: r9 needs 0b101
    ("sv.shfli.idx r8,*r16,2,#3", "must be a vector"),        # RT is always a vector
    ("sv.shflvi.up *r4,1,#0", "must be a scalar"),            # the mask is one value
    ("sv.shflvi.up r32,1,#0", "below 32"),
    ("sv.shfli.idx/sz *r8,*r16,2,#3", "mode modifiers"),      # MODE holds Sc
    ("sv.shfli.idx/mr *r8,*r16,2,#3", "mode modifiers"),
    ("sv.shfli.idx *r8,*r16,2,#0x4000", "14 bits"),
    ("sv.shfl.idx *r8,*r16,r2,#3", "no form with an immediate"),  # register form: RC
    ("sv.ballot r3,#4", "no form with an immediate"),
    ("shfli.idx r8,r16,2,#0x1c03", "no form with an immediate"),  # needs the prefix
])
def test_refused_with_a_reason(isa, text, why):
    with pytest.raises(AsmError) as e:
        assemble(text + "\n", isa=isa)
    assert why in str(e.value)


def test_segw_31_without_the_prefix_traps(isa):
    for word, name in ((gshf(2, 4, 1, 31, 0, 0b0101), "shfli"),
                       (gshv(3, 1, 31, 0), "shflvi")):
        sim = Simulator(isa, strict=True)
        sim.load_words([word])
        res = sim.run(max_steps=5)
        assert res.stop == "trap" and "Sc-immediate form" in str(res.trap), res.trap
        assert name in str(res.trap)


def test_strict_mode_finds_no_reserved_extra_bits(isa):
    # EXTRA is Sc here: a strict simulator must not call Sc's bits reserved
    sim, res = run(isa, "    setvl 0,0,4,0,1,1\n    sv.shfli.idx *r8,*r16,0,#0x1ff\n",
                   gpr={16 + i: 10 + i for i in range(4)})
    assert res.stop == "end", res.trap
    assert not sim.diagnostics


# --- the seed's programs, Sc as an immediate (seed 003 "Examples") ----------------------

def scan_lanes(isa, text, start):
    sim, res = run(isa, "    setvl 0,0,32,0,1,1\n" + text,
                   fpr={i: dbl(v) for i, v in enumerate(start)})
    assert res.stop == "end", res.trap
    return [undbl(v) for v in sim.state.fpr[:32]]


def test_seed003_inclusive_plus_scan_with_immediate_c(isa):
    # SHFL.UP P1, Ry, Rx, n, 0 then Rx += Ry where P1, n = 1, 2, 4, 8, 16: lane i
    # holds 1 + ... + (i + 1) = (i + 1)(i + 2)/2 from lanes holding 1..32
    prog = "\n".join(f"""
    sv.fshfli.up *f32,*f0,{n},#0
    sv.shflvi.up r3,{n},#0
    sv.fadds/m=r3 *f0,*f32,*f0""" for n in (1, 2, 4, 8, 16))
    assert scan_lanes(isa, prog, [i + 1 for i in range(32)]) == \
        [(i + 1) * (i + 2) / 2 for i in range(32)]


def test_seed003_exclusive_plus_scan_with_immediate_c(isa):
    # the inclusive scan, then SHFL.UP P1, Rx, Rx, 1, 0 and SEL Rx, Rx, 0, P1:
    # lane i >= 1 takes lane i - 1's 1 + ... + i = i(i + 1)/2; lane 0 has no
    # source (P1 false), so SEL gives 0 (x - x with the mask inverted)
    prog = "\n".join(f"""
    sv.fshfli.up *f32,*f0,{n},#0
    sv.shflvi.up r3,{n},#0
    sv.fadds/m=r3 *f0,*f32,*f0""" for n in (1, 2, 4, 8, 16)) + """
    sv.fshfli.up *f0,*f0,1,#0
    sv.shflvi.up r3,1,#0
    sv.fsub/m=~r3 *f0,*f0,*f0"""
    assert scan_lanes(isa, prog, [i + 1 for i in range(32)]) == \
        [i * (i + 1) / 2 for i in range(32)]


def test_seed003_inclusive_reverse_scan_with_immediate_c(isa):
    # SHFL.DOWN P1, Ry, Rx, n, 31: lane i holds (i + 1) + ... + 32 = 528 - i(i + 1)/2
    prog = "\n".join(f"""
    sv.fshfli.down *f32,*f0,{n},#31
    sv.shflvi.down r3,{n},#31
    sv.fadds/m=r3 *f0,*f32,*f0""" for n in (1, 2, 4, 8, 16))
    assert scan_lanes(isa, prog, [i + 1 for i in range(32)]) == \
        [528 - i * (i + 1) / 2 for i in range(32)]


def test_seed003_butterfly_reduction_with_immediate_c(isa):
    # SHFL.BFLY __, Ry, Rx, n, 31 and Rx += Ry, n = 16, 8, 4, 2, 1: every lane
    # holds 1 + ... + 32 = 528
    prog = "\n".join(f"""
    sv.fshfli.bfly *f32,*f0,{n},#31
    sv.fadds *f0,*f32,*f0""" for n in (16, 8, 4, 2, 1))
    assert scan_lanes(isa, prog, [i + 1 for i in range(32)]) == [528.0] * 32


@pytest.mark.parametrize("b", range(4))
def test_seed003_broadcast_within_quads(isa, b):
    # SHFL.IDX PT, Ry, Rx, b, 0x1C03: segment mask 0b11100, clamp 3, so lane i
    # reads lane (i & ~3) | b, the b-th lane of its quad
    sim, res = run(isa, f"    setvl 0,0,32,0,1,1\n    sv.shfli.idx *r32,*r64,{b},#0x1c03\n",
                   gpr={64 + i: 100 + i for i in range(32)})
    assert res.stop == "end", res.trap
    assert sim.state.gpr[32:64] == [100 + ((i & ~3) | b) for i in range(32)]


@pytest.mark.parametrize("b", (1, 2))
def test_seed003_exchange_within_quads(isa, b):
    # SHFL.BFLY PT, Ry, Rx, b, 0x1C03: lane i reads lane i ^ b, inside its quad
    sim, res = run(isa, f"    setvl 0,0,32,0,1,1\n    sv.shfli.bfly *r32,*r64,{b},#0x1c03\n",
                   gpr={64 + i: 100 + i for i in range(32)})
    assert res.stop == "end", res.trap
    assert sim.state.gpr[32:64] == [100 + (i ^ b) for i in range(32)]


def test_64_lanes_use_bit_5_and_bit_13_of_sc(isa):
    # VL = 64: Sc = 0x201f is segment mask 0b100000 (two halves of 32) and clamp
    # 31; IDX b = 5 gives lane i the lane (i & 32) | 5 (gpu_reference agrees)
    sim, res = run(isa, "    setvl 0,0,64,0,1,1\n    sv.shfli.idx/w=32 *r0,*r64,5,#0x201f\n",
                   gpr={64 + k: ((200 + 2 * k + 1) << 32) | (200 + 2 * k) for k in range(32)})
    assert res.stop == "end", res.trap
    lanes = [(sim.state.gpr[i // 2] >> (32 * (i % 2))) & 0xFFFFFFFF for i in range(64)]
    assert lanes == [200 + ((i & 32) | 5) for i in range(64)]
    out, _valid, _ = ref.shfl("idx", [200 + i for i in range(64)], set(range(64)),
                              [5] * 64, [0x201F] * 64)
    assert lanes == [out[i] for i in range(64)]


def test_immediate_and_register_sc_agree_on_every_mode(isa):
    # the same shuffle with Sc in r5 (the register form) and in the prefix
    for mode in MODES:
        for sc in (0, 0x1C03, 0x1F, 0x181F, 0x3F3F, 0x0F07):
            gpr = {64 + i: 1000 + i for i in range(16)}
            gpr.update({4: 3, 5: sc})
            a, ra = run(isa, f"    setvl 0,0,16,0,1,1\n    sv.shfl.{mode} *r32,*r64,r4,r5\n"
                             f"    sv.shflv.{mode} r3,r4,r5\n", gpr=dict(gpr), strict=False)
            b, rb = run(isa, f"    setvl 0,0,16,0,1,1\n    sv.shfli.{mode} *r32,*r64,3,#{sc}\n"
                             f"    sv.shflvi.{mode} r3,3,#{sc}\n", gpr=dict(gpr), strict=False)
            assert ra.stop == rb.stop == "end", (ra.trap, rb.trap)
            assert a.state.gpr[32:48] == b.state.gpr[32:48], (mode, sc)
            assert a.state.gpr[3] == b.state.gpr[3], (mode, sc)


def test_translated_blocks_give_the_same_lanes(isa, monkeypatch):
    prog = "    setvl 0,0,32,0,1,1\n" + "\n".join(f"""
    sv.fshfli.up *f32,*f0,{n},#0
    sv.shflvi.up r3,{n},#0
    sv.fadds/m=r3 *f0,*f32,*f0""" for n in (1, 2, 4, 8, 16))
    lanes = {}
    for how in ("0", "eager"):
        monkeypatch.setenv("ISA_EXT_TRANSLATE", how)
        sim, res = run(isa, prog, fpr={i: dbl(1.0) for i in range(32)})
        assert res.stop == "end", res.trap
        lanes[how] = list(sim.state.fpr[:32])
    assert lanes["0"] == lanes["eager"] == [dbl(i + 1.0) for i in range(32)]


def test_interrupted_and_resumed_scan_gives_the_same_lanes(isa):
    # an element-level interrupt injected after k element operations (the
    # fadds elements; a shuffle is one warp-wide step), then resumed: the
    # same hand-derived lanes as the uninterrupted scan, whatever k
    prog = "    setvl 0,0,32,0,1,1\n" + "\n".join(f"""
    sv.fshfli.up *f32,*f0,{n},#0
    sv.shflvi.up r3,{n},#0
    sv.fadds/m=r3 *f0,*f32,*f0""" for n in (1, 2, 4, 8))
    interrupted = 0
    for after in (0, 1, 5, 17, 31, 40, 63, 90):
        sim = Simulator(isa, strict=True)
        sim.load_asm(prog)
        for i in range(32):
            sim.state.fpr[i] = dbl(i + 1.0)
        sim.interrupt_after = after
        res = sim.run(max_steps=500)
        if res.stop == "interrupt":
            interrupted += 1
            sim.interrupt_after = None
            res = sim.run(max_steps=500)
        assert res.stop == "end", (after, res.trap)
        # four steps of the scan: lane i sums lanes max(0, i - 15)..i of 1..32
        assert [undbl(v) for v in sim.state.fpr[:32]] == \
            [sum(range(max(1, i - 14), i + 2)) for i in range(32)], after
    assert interrupted >= 4
