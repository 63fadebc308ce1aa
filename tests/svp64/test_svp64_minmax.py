"""minmax (libre-soc draft, openpower-isa 3cb597b9 isa/av.mdwn, minor_19.csv
key ----000011, RM-1P-2S1D): scalar semantics of every MMM value, Rc=1,
encodings against libre-soc's SVP64Asm, and sv.minmax under SVP64
(vector, scalar accumulator with data-dependent fail-first), live against
ISACaller where it runs.

MMM (bits 21:23, MSB first): bit 0 = compare the low words, bit 1 = compare
signed, bit 2 = maximum (else minimum).  The whole selected register is
written (also in word mode); on equality RB is taken.  Rc=1: CR0 = LT/GT/EQ
of (RA|0) against (RB) under the same comparison, SO copied from XER."""
import pytest

from conftest import sv_words

from isa_ext.asm import assemble
from isa_ext.sim import Simulator
from isa_ext.svp64 import svstate as SV

M64 = (1 << 64) - 1
LT, GT, EQ = 0b1000, 0b0100, 0b0010

A = 0xFFFFFFFF00000005  # negative as a doubleword; low word 5
B = 0x0000000100000007  # positive; low word 7
C = 0x0000000080000000  # positive doubleword; low word negative as a word
D = 0x0000000000000001
E = 0x0000000100000003  # low word 3
F = 0x0000000200000003  # low word 3, E <u F as doublewords

# (RA value, RB value, MMM, expected RT, expected CR0 of minmax.), derived by hand:
SCALAR = [
    (A, B, 0, B, GT),   # unsigned dword min: A >u B
    (A, B, 1, A, GT),   # unsigned dword max
    (A, B, 2, A, LT),   # signed dword min: A < 0 < B
    (A, B, 3, B, LT),   # signed dword max
    (A, B, 4, A, LT),   # unsigned word min: 5 < 7, the whole RA is written
    (A, B, 5, B, LT),   # unsigned word max
    (A, B, 6, A, LT),   # signed word min: 5 < 7
    (A, B, 7, B, LT),   # signed word max
    (C, D, 0, D, GT),   # 2^31 >u 1
    (C, D, 2, D, GT),   # 2^31 > 1 as doublewords too
    (C, D, 4, D, GT),   # unsigned word: 0x80000000 >u 1
    (C, D, 6, C, LT),   # signed word: 0x80000000 is -2^31 < 1
    (C, D, 7, D, LT),   # signed word max: 1
    (E, F, 4, F, EQ),   # low words equal: RB is taken
    (E, F, 5, F, EQ),   # equal under max too: RB
    (E, F, 0, E, LT),   # as unsigned doublewords E < F
]


def run_scalar(svisa, line, regs, so=0):
    sim = Simulator(isa=svisa)
    sim.load_asm(line + "\n")
    for r, v in regs.items():
        sim.state.gpr[r] = v
    sim.state.so = so
    res = sim.run(max_steps=5)
    assert res.stop == "end", res.trap
    return res


@pytest.mark.parametrize("ra,rb,mmm,rt,cr", SCALAR)
def test_scalar(svisa, ra, rb, mmm, rt, cr):
    res = run_scalar(svisa, f"minmax 3, 4, 5, {mmm}", {3: 0x55, 4: ra, 5: rb})
    assert res.gpr[3] == rt and res.state.cr[0] == 0  # Rc=0 leaves CR0 alone
    res = run_scalar(svisa, f"minmax. 3, 4, 5, {mmm}", {3: 0x55, 4: ra, 5: rb}, so=1)
    assert res.gpr[3] == rt and res.state.cr[0] == cr | 1  # SO copied


def test_ra_zero_reads_zero(svisa):
    # (RA|0): RA=0 is the value 0, so the unsigned minimum with 9 is 0 and the
    # maximum 9 (r0 holds 100 and is not read)
    assert run_scalar(svisa, "minmax 3, 0, 5, 0", {0: 100, 5: 9}).gpr[3] == 0
    assert run_scalar(svisa, "minmax 3, 0, 5, 1", {0: 100, 5: 9}).gpr[3] == 9


# libre-soc's SVP64Asm (openpower-isa 3cb597b9, /work/isacaller), run on this machine
ENCODINGS = [
    ("minmax 3,12,5,3", [0x4c6c2b06]),
    ("minmax. 3,12,5,4", [0x4c6c2c07]),
    ("minmax 1,0,2,0", [0x4c201006]),
    ("sv.minmax./ff=le 4, *10, 4, 1", [0x0540060d, 0x4c822107]),
    ("sv.minmax *4,*10,*20,7", [0x05402680, 0x4c222f06]),
    ("sv.minmax. *4,*10,*20,2", [0x05402680, 0x4c222a07]),
]


@pytest.mark.parametrize("line,words", ENCODINGS)
def test_encoding_matches_svp64asm(svisa, line, words):
    assert assemble(line + "\n", isa=svisa).words == words


def test_disassembles(svisa):
    from isa_ext.disasm import disassemble_word
    text = str(disassemble_word(svisa, 0x4c6c2c07))
    assert text.replace(", ", ",") == "minmax. r3,r12,r5,4"


def test_mapreduce_with_fail_first_is_an_error(svisa):
    # libre-soc's assembler encodes "sv.minmax./ff=le/m=ge/mr 4,*10,4,1" (its
    # test_caller_svp64_maxloc.py) as MODE 0b00100: map-reduce, the /ff=le
    # dropped (0x07500604).  The two are separate MODE rows: isa_ext refuses
    # the line rather than drop one (docs/compat.md).
    from isa_ext.errors import IsaExtError
    with pytest.raises(IsaExtError, match="separate SVP64 modes"):
        assemble("sv.minmax./ff=le/m=ge/mr 4,*10,4,1\n", isa=svisa)


# Element widths (av.mdwn compares at XLEN, the element width under SVP64):
# outside word mode the 64-bit page compares the sources extended from the
# element width -- sign-extended for a signed comparison (MMM[1]), zero-
# extended otherwise (decoder/svp64/signed_sources.txt) -- which orders them
# as the XLEN-bit comparison does; the selected source, truncated, is the
# element.  Bytes r10 = 0x01 0x80, r20 = 0x02 0x7F (element 0 first):
# unsigned min 1, 0x7F; unsigned max 2, 0x80; signed min 1, 0x80 (-128);
# signed max 2, 0x7F.
@pytest.mark.parametrize("mmm,want", [(0, 0x7F01), (1, 0x8002), (2, 0x8001), (3, 0x7F02)])
def test_element_width_bytes(svisa, mmm, want):
    sim = Simulator(isa=svisa)
    sim.load_words(sv_words(svisa, f"sv.minmax/w=8 *4, *10, *20, {mmm}"))
    sim.state.svstate = SV.make(maxvl=2, vl=2)
    sim.state.gpr[4], sim.state.gpr[10], sim.state.gpr[20] = M64, 0x8001, 0x7F02
    res = sim.run(max_steps=3)
    assert res.stop == "end", res.trap
    assert res.gpr[4] == (M64 & ~0xFFFF) | want


@pytest.mark.parametrize("mmm,cr", [(2, LT), (0, GT)])
def test_element_width_rc1_is_the_comparison(svisa, mmm, cr):
    # sv.minmax./w=8 3, 4, 5: r4 = 0x80, r5 = 0x7F.  Signed: -128 < 127, CR0 = LT;
    # unsigned: 128 > 127, GT -- the page's own record, not the 8-bit result
    # against 0 (which an element-width Rc=1 CR0 is elsewhere)
    sim = Simulator(isa=svisa)
    sim.load_words(sv_words(svisa, f"sv.minmax./w=8 3, 4, 5, {mmm}"))
    sim.state.svstate = SV.make(maxvl=1, vl=1)
    sim.state.gpr[4], sim.state.gpr[5] = 0x80, 0x7F
    res = sim.run(max_steps=3)
    assert res.stop == "end", res.trap
    assert res.state.cr[0] == cr and res.gpr[3] == (0x80 if mmm == 2 else 0x7F)


@pytest.mark.parametrize("line", [
    # word mode (MMM[0]) compares the low XLEN/2 bits: it runs at XLEN = the
    # element width (tests/svp64/test_svp64_xlen_rows.py), but not saturated
    "sv.minmax/sats/w=8 *4, *10, *20, 4",
    # /satu would zero-extend the narrow sources of a signed comparison
    "sv.minmax/satu/w=8 *4, *10, *20, 2",
])
def test_element_widths_trap(svisa, line):
    sim = Simulator(isa=svisa)
    sim.load_words(sv_words(svisa, line))
    sim.state.svstate = SV.make(maxvl=2, vl=2)
    sim.state.gpr[4] = 0x77
    res = sim.run(max_steps=3)
    assert res.stop == "trap" and "not implemented" in res.trap.reason
    assert res.gpr[4] == 0x77 and res.pc == 0x1000


def test_element_widths_live_isacaller(svisa, isacaller):
    # every non-word MMM at w=8/16/32, Rc=0 and Rc=1, VL=8, random sources: the
    # same GPRs and CR as ISACaller under the openpower-isa profile (its Rc=1
    # vector CR fields are CR0 + element; the default profile extends them)
    import random
    from isa_ext.isa import ISA
    from isa_ext.compat.isacaller import Case, NGPR, NFPR, run_isacaller, run_isa_ext, \
        compare
    prof = ISA(extensions=["base", "svp64"], profile="openpower-isa")
    rng = random.Random(7)
    cases = []
    for w in ("/w=8", "/w=16", "/w=32"):
        for mmm in range(4):
            for dot in ("", "."):
                lines = ["setvl 0,0,8,0,1,1", f"sv.minmax{dot}{w} *16, *32, *48, {mmm}"]
                gpr = [rng.getrandbits(64) for _ in range(NGPR)]
                words = assemble("\n".join(lines) + "\n", isa=svisa).words
                cases.append(Case(len(cases), lines, words, gpr, [0] * NFPR, 0))
    theirs = run_isacaller(isacaller.root, cases)
    for case, t in zip(cases, theirs):
        assert compare(run_isa_ext(prof, case), t) == [], case.lines
        if "." not in case.lines[1]:
            assert compare(run_isa_ext(svisa, case), t) == [], case.lines


# --- SVP64 -----------------------------------------------------------------------

def sv_run(svisa, line, vl, regs, cr=()):
    sim = Simulator(isa=svisa)
    sim.load_words(sv_words(svisa, line))
    sim.state.svstate = SV.make(maxvl=4, vl=vl)
    for r, v in regs.items():
        sim.state.gpr[r] = v & M64
    for f, v in dict(cr).items():
        sim.state.cr[f] = v
    res = sim.run(max_steps=5)
    assert res.stop == "end", res.trap
    return res


def test_vector_signed_max(svisa):
    # sv.minmax *4, *10, *20, 3 (signed dword max), VL=3:
    # max(-1, 2) = 2, max(5, -7) = 5, max(0, 0) = r22 (equal: RB) = 0
    regs = {10: -1, 11: 5, 12: 0, 20: 2, 21: -7, 22: 0}
    res = sv_run(svisa, "sv.minmax *4, *10, *20, 3", 3, regs)
    assert res.gpr[4:7] == [2, 5, 0]


def test_vector_rc_fields(svisa):
    # sv.minmax. *4, *10, *20, 2 (signed min), VL=2: the CR field of element i
    # is the EXTRA-extended Rc field (d:CR0 takes RT's slot spec: vector, field
    # CR0 << 3 | 0 = CR0, one per element -- docs/svp64.md); -1 < 2 -> LT, 5 > -7 -> GT
    regs = {10: -1, 11: 5, 20: 2, 21: -7}
    res = sv_run(svisa, "sv.minmax. *4, *10, *20, 2", 2, regs)
    assert res.gpr[4:6] == [M64, (-7) & M64]
    assert res.state.cr[0:3] == [LT, GT, 0]


def maxu_model(a, m):
    """test_caller_svp64_dd_ffirst.py's sv_maxu, for sv.minmax./ff=le 4,*10,4,1
    (MMM=1: unsigned max; scalar RT=RB=r4 accumulates): element i compares
    a[i] with r4 into CR0; the loop stops at the first element whose CR0 is
    not GT (ff=le), VL becomes i and that element's r4 is discarded.  (The
    file's model writes r4 <- min, which its own check never reads; the page
    writes the maximum.)  Returns (VL, CR0, r4)."""
    cr, i = 0, 0
    while i < len(a):
        cr = LT if a[i] < m else GT if a[i] > m else EQ
        if cr != GT:
            break
        m = max(a[i], m)
        i += 1
    return i, cr, m


# test_caller_svp64_dd_ffirst.py test_sv_maxu_ddffirst_single_1 (its second
# definition: [3,4,1,0], rb=2), _2 ([2,9,8,0], 2), _3 ([2,1,3,0], 99999)
# and the shadowed first _1 ([1,2,3,4], 0)
MAXU_CASES = [([3, 4, 1, 0], 2), ([2, 9, 8, 0], 2), ([2, 1, 3, 0], 99999), ([1, 2, 3, 4], 0)]


@pytest.mark.parametrize("a,m", MAXU_CASES)
def test_ddffirst_scalar_accumulator(svisa, a, m):
    vl, cr, acc = maxu_model(a, m)
    regs = {4: m, **{10 + i: v for i, v in enumerate(a)}}
    res = sv_run(svisa, "sv.minmax./ff=le 4, *10, 4, 1", 4, regs)
    assert SV.get(res.state.svstate, "vl") == vl
    assert SV.get(res.state.svstate, "maxvl") == 4
    assert res.state.cr[0] == cr and res.state.cr[1:4] == [0, 0, 0]
    assert res.gpr[4] == acc


def test_model_values():
    # the model's answers, by hand: [3,4,1,0] from 2: 3>2, 4>3, 1<4 stop -> VL 2,
    # CR0 LT, r4 4; [2,1,3,0] from 99999: 2<99999 stop -> VL 0, r4 unchanged
    assert maxu_model([3, 4, 1, 0], 2) == (2, LT, 4)
    assert maxu_model([2, 9, 8, 0], 2) == (0, EQ, 2)
    assert maxu_model([2, 1, 3, 0], 99999) == (0, LT, 99999)
    assert maxu_model([1, 2, 3, 4], 0) == (4, GT, 4)


# test_caller_svp64_dd_ffirst.py's other programs: (line, VL, initial GPRs,
# {CR field: value} after, VL after); register results are checked in
# test_svp64_one_behaviour.py.  test_1 (sv.cmpi/ff=lt 0, 1, *10, 5, VL=3,
# r10..r12 = 7, 5, 12): its model sv_cmpi stops at the first element below 5:
# none (7 GT, 5 EQ, 12 GT), VL stays 3; BF=0 is scalar, so CR0 is rewritten
# per element and holds the last, GT.  (The file's own check reads an
# undefined `vec` and fails before comparing: docs/compat.md.)
# test_sv_addi_ffirst_le / test_sv_addi_ffirst: sv.subf./ff=le and /ff=eq
# *0,8,*0, VL=4, r0..r3 = 9, 8, 3, 4, r8 = 3: results 6, 5, 0 -> element 2
# fails (0 <= 0; 0 = 0), VL=2, CR0..CR2 = GT, GT, EQ (the failing element's CR
# is kept), CR3 untouched.
DD_FFIRST = [
    ("sv.cmpi/ff=lt 0, 1, *10, 5", 3, {10: 7, 11: 5, 12: 12}, {0: GT}, 3),
    ("sv.subf./ff=le *0,8,*0", 4, {0: 9, 1: 8, 2: 3, 3: 4, 8: 3},
     {0: GT, 1: GT, 2: EQ, 3: 0}, 2),
    ("sv.subf./ff=eq *0,8,*0", 4, {0: 9, 1: 8, 2: 3, 3: 4, 8: 3},
     {0: GT, 1: GT, 2: EQ, 3: 0}, 2),
]


@pytest.mark.parametrize("line,vl,regs,cr,vlout", DD_FFIRST)
def test_dd_ffirst_programs(svisa, line, vl, regs, cr, vlout):
    res = sv_run(svisa, line, vl, regs)
    assert SV.get(res.state.svstate, "vl") == vlout
    assert {f: res.state.cr[f] for f in cr} == cr


# test_caller_svp64_maxloc.py's program as libre-soc's SVP64Asm assembles it
# (the words it printed on this machine; isa_ext assembles every other line
# to the same words): its "sv.minmax./ff=le/m=ge/mr 4,*10,4,1" becomes
# 0x07500604 0x4c822107 (MODE 0b00100: map-reduce, the /ff=le dropped).
MAXLOC = """\
setvl 2,0,4,0,1,1
sv.cmp/ff=gt/m=ge *0,0,*10,4
sv.creqv *16,*16,*16
setvl 2,0,4,0,1,1
mtcrf 128, 0
.long 0x07500604
.long 0x4c822107
sv.crnand/m=lt/zz *19,*16,0
sv.svstep/mr/m=so 1, 0, 6, 1
sv.creqv *16,*16,*16
bc 12,0, -0x3c
"""
MAXLOC_WORDS = [0x584007b6, 0x07502609, 0x7c022000, 0x05402da0, 0x4c000242, 0x584007b6,
                0x7c080120, 0x07500604, 0x4c822107, 0x07402d03, 0x4c6001c2, 0x07e000c4,
                0x58200c66, 0x05402da0, 0x4c000242, 0x4180ffc4]


def test_maxloc_words(svisa):
    # but word 6: GNU as 2.40 (its default CPU, as `powerpc64le-linux-gnu-as`)
    # writes "mtcrf 128, 0", one FXM bit, in the mtocrf form (bit 11 set):
    # 0x7c180120; the file's 0x7c080120 is what GNU as writes with -many
    want = list(MAXLOC_WORDS)
    want[6] = 0x7c180120
    assert assemble(MAXLOC, isa=svisa).words == want


@pytest.mark.parametrize("a", [[1, 3, 3, 3], [3, 4, 1, 5], [2, 9, 8, 0], [2, 1, 3, 0],
                               [0, 0, 0, 0], [0, 9, 9, 3], [9, 0, 10, 11]])
def test_maxloc_program(svisa, a):
    # The file sets r3 = n ("to go into CTR") but never moves it to CTR, so CTR
    # is 0 and "setvl 2,0,4,0,1,1" (vs=1, RA=0, RT!=0: VL from CTR) sets VL=0,
    # MAXVL=4, r2=0: every sv. instruction does nothing, mtcrf clears CR0, the
    # bc (CR0.LT) falls through.  ISACaller (run on this machine for three of
    # these arrays) ends the same way: r2=0, VL=0, MAXVL=4, CR=0, the other
    # registers as they started.  The file asserts nothing about the result.
    sim = Simulator(isa=svisa)
    sim.load_asm(MAXLOC)
    sim.state.svstate = SV.make(maxvl=4, vl=4)
    regs = {3: 4, 4: 2, **{10 + i: v for i, v in enumerate(a)}}
    for r, v in regs.items():
        sim.state.gpr[r] = v
    res = sim.run(max_steps=100)
    assert res.stop == "end", res.trap
    assert res.gpr[:32] == [regs.get(r, 0) for r in range(32)]
    assert res.state.crval == 0 and res.state.ctr == 0
    assert SV.get(res.state.svstate, "vl") == 0 and SV.get(res.state.svstate, "maxvl") == 4


# --- live against ISACaller -------------------------------------------------------

def _live_cases(svisa):
    from isa_ext.compat.isacaller import Case, NGPR, NFPR
    import random
    rng = random.Random(13)
    vals = [0, 1, 5, M64, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 1 << 63, (1 << 63) - 1,
            0x100000003, 0x200000003]
    programs = []
    for mmm in range(8):
        programs.append([f"minmax 3, 4, 5, {mmm}", f"minmax. 6, 4, 5, {mmm}",
                         f"minmax 7, 0, 5, {mmm}"])
        programs.append(["setvl 0,0,4,0,1,1", f"sv.minmax *16, *8, *24, {mmm}",
                         f"sv.minmax. 6, *8, 5, {mmm}"])
    for a, m in MAXU_CASES:
        programs.append(["setvl 0,0,4,0,1,1", "sv.minmax./ff=le 4, *10, 4, 1"])
    # test_caller_svp64_dd_ffirst.py's other programs (their RC1 ones are a
    # known difference: docs/compat.md)
    for line, _vl, _regs, _cr, _vlout in DD_FFIRST:
        programs.append([f"setvl 0,0,{_vl},0,1,1", line])
    cases = []
    for k, lines in enumerate(programs):
        gpr = [rng.choice(vals) for _ in range(NGPR)]
        if "sv.minmax./ff=le" in lines[-1]:
            a, m = MAXU_CASES[k - 16]
            gpr[4] = m
            gpr[10:14] = a
        elif k >= 16 + len(MAXU_CASES):
            for r, v in DD_FFIRST[k - 16 - len(MAXU_CASES)][2].items():
                gpr[r] = v
        words = assemble("\n".join(lines) + "\n", isa=svisa).words
        cases.append(Case(k, lines, words, gpr, [0] * NFPR, rng.getrandbits(32)))
    return cases


def test_live_isacaller(svisa, isacaller):
    from isa_ext.compat.isacaller import run_isacaller, run_isa_ext, compare
    cases = _live_cases(svisa)
    theirs = run_isacaller(isacaller.root, cases)
    for case, t in zip(cases, theirs):
        assert "error" not in t, (case.lines, t)
        diffs = compare(run_isa_ext(svisa, case), t)
        if case.gpr[0] == (1 << 63) - 1 and case.gpr[5] == 0xFFFFFFFF and \
                case.lines[-1] in ("minmax 7, 0, 5, 4", "minmax 7, 0, 5, 7"):
            # an ISACaller bug (docs/compat.md): its max modes with r0 =
            # 2^63-1 (RA|0 reads 0) and RB = 0xffffffff set XER.OV32, which
            # minmax's page never writes ("Special Registers Altered: None")
            assert diffs == ["xer: isa_ext 0x0 ISACaller 0x80000"], case.lines
            continue
        assert diffs == [], case.lines
