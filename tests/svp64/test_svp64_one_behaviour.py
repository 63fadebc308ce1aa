"""One behaviour per program: a plain run (generated fast loops where they
apply), a traced run (the general element path), an element-level interrupt
after k operations then a resume (for every k), gdbserver's element-step
mode (one element per ``stepi``), and -- for a single
vertical-first-able instruction -- the same instruction as a vertical-first
loop (``sv.svstep.`` + ``bc``) must all end in the same GPRs, FPRs, CR, XER,
FPSCR, SVSTATE and memory.

The runs compare the simulator with itself, so the file also has external
anchors: programs whose final state is derived by hand (derivations in the
comments) or taken from openpower-isa's test files, checked in every mode.
"""
import re

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from isa_ext.sim import Simulator
from isa_ext.svp64 import svstate as SV

M64 = (1 << 64) - 1
DATA = 0x10000  # r50 points here
# the programs sit far from the data and from the small addresses Hypothesis shrinks
# register values to: the HF and VF forms of a line are different code, so a load
# that reached the code read different bytes (sv.ldu *80, 8(*40) with r42 = 4091)
CODE = 0x7FF00000


def make_sim(isa, text, init):
    sim = Simulator(isa=isa)
    sim.load_asm(text, addr=CODE)
    sim.state.svstate = init.get("svstate", 0)
    for r, v in init.get("gpr", {}).items():
        sim.state.gpr[r] = v & M64
    for r, v in init.get("fpr", {}).items():
        sim.state.fpr[r] = v & M64
    for f, v in init.get("cr", {}).items():
        sim.state.cr[f] = v
    sim.state.gpr[50] = DATA
    if "data" in init:
        sim.state.mem.write_bytes(DATA - 512, init["data"])
    return sim


def state_of(res, vf=False):
    s = res.state
    gpr, cr = list(s.gpr), list(s.cr)
    if vf:
        # the VF loop's sv.svstep. writes r0 (its RT) and CR0: not compared
        gpr[0], cr[0] = None, None
    # memory: the data window around r50 (the VF program's own code differs)
    return (res.stop, gpr, list(s.fpr), cr, s.xer, s.fpscr, s.svstate,
            s.mem.read_bytes(DATA - 1024, 2048))


def plain(isa, text, init, max_steps=50):
    sim = make_sim(isa, text, init)
    res = sim.run(max_steps=max_steps)
    return res, sim.element_ops


def traced(isa, text, init, max_steps=50):
    return make_sim(isa, text, init).run(max_steps=max_steps, trace=True)


def interrupted(isa, text, init, k, max_steps=50):
    sim = make_sim(isa, text, init)
    sim.interrupt_after = k
    res = sim.run(max_steps=max_steps)
    if res.stop == "interrupt":
        res = sim.run(max_steps=max_steps)
    return res


def gdb_element_steps(isa, text, init, max_steps=50):
    """``stepi`` after ``monitor sv-step on`` in ``isa-ext gdbserver``: one SVP64
    element (or one scalar instruction) per step, to the same step limit."""
    from isa_ext.gdb.server import Session
    session = Session(make_sim(isa, text, init), conn=None)
    done = 0
    while True:
        res = session.run_steps(1, elements=True)
        if res.stop == "step_limit":  # one whole instruction completed
            done += 1
            if done == max_steps:
                return res
        elif res.stop != "interrupt":  # end, exit or trap
            return res


def vertical_first(isa, insn, step_mods, init):
    """``insn`` as a VF loop: SVSTATE gets vfirst=1; sv.svstep. with the same
    SUBVL/predicate modifiers moves to the next position; bc loops until
    CR0.SO (end) is set."""
    text = f"loop:\n {insn}\n sv.svstep.{step_mods} 0, 0, 0, 0\n bc 4, 3, loop\n"
    vinit = dict(init, svstate=init.get("svstate", 0) | 1)
    return make_sim(isa, text, vinit).run(max_steps=1000)


def all_modes(isa, lines, init, vf_mods=None):
    """The final state of every mode, checked equal; returns the plain run."""
    text = "\n".join(lines) + "\n"
    ref, ops = plain(isa, text, init)
    want = state_of(ref)
    assert state_of(traced(isa, text, init)) == want, "traced run differs"
    assert state_of(gdb_element_steps(isa, text, init)) == want, "gdb element steps differ"
    for k in range(ops + 1):
        assert state_of(interrupted(isa, text, init, k)) == want, f"interrupt after {k}"
    if vf_mods is not None and len(lines) == 1 and ref.stop == "end":
        assert state_of(vertical_first(isa, lines[0], vf_mods, init), vf=True) == \
            state_of(ref, vf=True), "vertical-first loop differs"
    return ref


# --- random programs ----------------------------------------------------------------

# (template, VF-able).  {p} predicate, {w} element width, {v} SUBVL.  Destinations
# from r80 / CR8 up: no element overwrites a predicate (r3, r10, r30), r0, CR0 or
# r50 (the LD/ST base).  Not VF-able: a CR0 result (the loop's sv.svstep. writes
# CR0), map-reduce and fail-first (HF-only semantics: one scalar accumulator, VL
# truncation).
TEMPLATES = [
    ("sv.add{p}{w}{v} *80, *40, *60", True),
    ("sv.addi{p}{w}{v} *80, *40, 7", True),
    ("sv.ori{t}{v} *80, *40, 3", True),
    ("sv.subf{p}{w} *80, *80, *60", True),
    ("sv.neg{p}{w}{v} *80, *40", True),
    ("sv.cmp{p} *8, 1, *40, *60", True),
    ("sv.ld{p} *80, 8(50)", True),
    ("sv.std{p} *40, 8(50)", True),
    ("sv.fadd{p} *80, *40, *60", True),
    ("sv.fmr{t} *80, *40", True),
    ("sv.mcrf{t} *8, *16", True),
    ("sv.add/sats/w=8{p} *80, *40, *60", True),
    ("sv.add.{p} *80, *40, *60", False),
    ("sv.subf/mr 20, 20, *40", False),
    ("sv.add./ff=ne{p} *80, *40, *60", False),
    ("sv.minmax{p}{v} *80, *40, *60, 3", True),
    ("sv.minmax./ff=le{p} 20, *40, 20, 1", False),
    ("sv.std/ff=RC1{p} *40, 8(50)", False),
    ("sv.std/ff=~RC1{v} *40, 8(50)", False),
    ("sv.mulld/sats{p} *80, *40, *60", True),
    ("sv.subf/satu{p}{w}{v} *80, *40, *60", True),
    ("sv.addi/sats{p} *80, *40, -7", True),
    ("sv.divd/sats{p} *80, *40, *60", True),
    ("sv.divwu/satu{p}{w}{v} *80, *40, *60", True),
    ("sv.slw/sats{p}{w} *80, *40, *60", True),
    ("sv.stdu/ff=~RC1/vli{p} *40, 8(51)", False),
    # an update form's vector RA under twin predication: read at the source
    # element, written at the destination's (the scratch path)
    ("sv.ldu{t} *80, 8(*40)", True),
    # rows run at XLEN = the element width (errata SV-23): minmax's word mode,
    # the bigint rows (RS: RC's elements MAXVL on, below r80)
    ("sv.minmax{p}{w}{v} *80, *40, *60, 5", True),
    ("sv.maddedu{p}{w} *80, *40, *60, *64", True),
    ("sv.divmod2du{p}{w} *80, *40, *60, *64", True),
]
PREDICATES = ["", "/m=r3", "/m=~r3", "/m=r10", "/m=~r30", "/m=r3/sz", "/m=r10/dz"]
TWINS = ["", "/sm=r3", "/dm=r10", "/sm=r3/dm=~r10", "/sz/sm=r3", "/dz/dm=r30"]


def draw_line(draw, templates, subvls):
    """One random line from (template, VF-able) ``templates``: (line, VF-able,
    the modifiers a vertical-first svstep. must repeat)."""
    template, ok = draw(st.sampled_from(templates))
    # fail-first has no zeroing (the assembler rejects /sz /dz with /ff=)
    p = draw(st.sampled_from([q for q in PREDICATES if "/ff=" not in template
                              or "z" not in q]))
    t = draw(st.sampled_from(TWINS))
    w = draw(st.sampled_from(["", "/w=8", "/w=16", "/w=32"]))
    v = draw(st.sampled_from(subvls))
    step_mods = (v if "{v}" in template else "") + \
        (p if "{p}" in template else "") + (t if "{t}" in template else "")
    return template.format(p=p, w=w, v=v, t=t), ok, step_mods


@st.composite
def programs(draw):
    n = draw(st.integers(1, 3))
    lines, vf_ok, step_mods = [], True, ""
    for _ in range(n):
        line, ok, step_mods = draw_line(draw, TEMPLATES, ["", "/vec2", "/vec3", "/vec4"])
        lines.append(line)
        vf_ok = vf_ok and ok
    vl = draw(st.integers(0, 8))
    svstate = SV.make(maxvl=max(vl, 1), vl=vl, pack=draw(st.integers(0, 1)),
                      unpack=draw(st.integers(0, 1)))
    words = st.integers(0, M64)
    init = {"svstate": svstate,
            "gpr": {r: draw(words) for r in list(range(1, 50)) + list(range(51, 128))},
            "fpr": {r: draw(words) for r in range(32, 128)},
            "data": draw(st.binary(min_size=1024, max_size=1024))}
    # A VF loop ends when sv.svstep. steps past VL; with VL=0, or a predicate with
    # no enabled element, every prefixed instruction -- sv.svstep. too -- does
    # nothing, so the loop would never end: only the HF modes then.
    vf_ok = vf_ok and n == 1 and vl and all(
        _enabled(expr, init["gpr"], vl) for expr in re.findall(r"m=(~?r\d+)", step_mods))
    return lines, init, (step_mods if vf_ok else None)


def _enabled(expr, gpr, vl):
    """Whether the integer predicate ``expr`` (r3, ~r3, ...) enables any element < vl."""
    v = gpr[int(expr.lstrip("~r"))]
    return bool((~v if expr.startswith("~") else v) & ((1 << vl) - 1))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(prog=programs())
def test_every_mode_gives_the_same_state(svisa, prog):
    lines, init, vf_mods = prog
    if vf_mods is not None:
        vf_mods = step_mods_for(svisa, lines[0], vf_mods)
    all_modes(svisa, lines, init, vf_mods)


def step_mods_for(isa, line, mods):
    """The sv.svstep. modifiers that step as ``line`` does.  sv.svstep is
    twin-predicated (RM-2P-1S1D): for a single-predicated instruction, where any
    zeroing (sz or dz) means no element is skipped on either side, and for LD/ST,
    whose one zeroing bit is zz (both sides), it needs both /sz and /dz; other
    twin-predicated instructions' modifiers carry over as they are."""
    from isa_ext.svp64.asm import mode_kind
    row, _flags = isa.by_mnemonic[line.split()[0][3:].split("/")[0]]
    cat = isa.category(row.sv)
    parts = [m for m in mods.split("/") if m]
    both = cat.ptype == 1 or mode_kind(isa, row, cat) == "ldst"
    if both and ("sz" in parts or "dz" in parts):
        parts = [m for m in parts if m not in ("sz", "dz")] + ["sz", "dz"]
    return "".join("/" + m for m in parts)


# --- external anchors ------------------------------------------------------------------

def test_anchor_predicated_add(svisa):
    # sv.add/m=r3 *80, *40, *60, VL=4, r3 = 0b1010: elements 1 and 3 only
    # (svp64 "predication": element i runs when bit i of r3 is set):
    # r81 = 11 + 21 = 32, r83 = 13 + 23 = 36; r80, r82 keep 0x55
    init = {"svstate": SV.make(maxvl=4, vl=4),
            "gpr": {3: 0b1010, **{40 + i: 10 + i for i in range(4)},
                    **{60 + i: 20 + i for i in range(4)}, **{80 + i: 0x55 for i in range(4)}}}
    res = all_modes(svisa, ["sv.add/m=r3 *80, *40, *60"], init, "/m=r3")
    assert res.gpr[80:84] == [0x55, 32, 0x55, 36]


@pytest.mark.parametrize("line, mask, vl, want_cr0_3", [
    # the openpower-isa profile's cr_field_steps and cr_field_subvl
    # (tests/compat/test_profile.py, ISACaller's results): the first element run
    # takes its BF from the starting step, and BF + step under SUBVL.
    # r40.. = 5, 100, 200, 100, 7, 100 against r60 = 100
    ("sv.cmpl/m=r3 *0, 1, *40, 60", 0b110, 3, [0b0010, 0, 0b0100, 0]),
    ("sv.cmpl/m=r3 *0, 1, *40, 60", 0b1010, 4, [0b0010, 0, 0, 0b0010]),
    # element 1's sub-elements 200 (GT: the first run, CR0) and 100 (EQ: CR1)
    ("sv.cmpl/m=r3/vec2 *0, 1, *40, 60", 0b10, 2, [0b0100, 0b0010, 0, 0]),
    ("sv.cmpl/vec2 *0, 1, *40, 60", 0b11, 2, [0b0010, 0b0010, 0, 0]),
])
def test_anchor_profile_cr_fields(line, mask, vl, want_cr0_3):
    from isa_ext.isa import ISA
    isa = ISA(extensions=["base", "svp64"], profile="openpower-isa")
    init = {"svstate": SV.make(maxvl=vl, vl=vl),
            "gpr": {3: mask, 60: 100,
                    **{40 + i: v for i, v in enumerate((5, 100, 200, 100, 7, 100))}}}
    # no vertical-first run: under the profile a VF instruction is always a
    # loop's start, so its fields differ from the horizontal-first loop's,
    # as ISACaller's do
    res = all_modes(isa, [line], init)
    assert res.state.cr[0:4] == want_cr0_3


@pytest.mark.parametrize("lines, vl, gpr, cr, vf_mods, want", [
    # the openpower-isa profile's reverse_cr_fields (tests/compat/test_profile.py,
    # ISACaller's results): under /mrr step j writes element VL-1-j from CR
    # field 8 + j (BC *34: CR8.EQ, CR9.EQ ...), CR8.EQ only set: r82 = r42,
    # r81 = r61, r80 = r60
    (["sv.isel/mrr *80, *40, *60, *34"], 3, {}, {8: 0b0010}, "", {80: 11, 81: 12, 82: 3}),
    # dest_zeroed_page: element 0 zeroed on both sides runs adde on zeros,
    # 0 + 0 + CA(1) = 1, no carry out; element 1: 5 + 6 + 0 = 0xb (the
    # subfic sets CA: 0 - 0 carries)
    (["subfic 20, 21, 0", "sv.adde/sz/dz/m=r3 *80, *40, *60"], 2,
     {3: 0b10, 40: M64, 60: 1, 41: 5, 61: 6}, {}, None, {80: 0, 81: 0xB}),
    # saturation "none": (2^63 - 1) + 1 wraps to 2^63
    (["sv.add/sats *80, *40, *60"], 1, {40: (1 << 63) - 1, 60: 1}, {}, "", {80: 1 << 63}),
])
def test_anchor_profile_reverse_cr_zeroed_carry_saturation(lines, vl, gpr, cr, vf_mods, want):
    from isa_ext.isa import ISA
    isa = ISA(extensions=["base", "svp64"], profile="openpower-isa")
    init = {"svstate": SV.make(maxvl=vl, vl=vl), "cr": cr,
            "gpr": {**{40 + i: i + 1 for i in range(3)}, **{60 + i: 11 + i for i in range(3)},
                    21: 0, **gpr}}
    res = all_modes(isa, lines, init, vf_mods)
    assert {r: res.gpr[r] for r in want} == want


def test_anchor_twin_predicated_addi(svisa):
    # sv.addi/sm=r3/dm=r10 *80, *40, 1, VL=4: r3 = 0b0101 (sources 0, 2),
    # r10 = 0b0110 (destinations 1, 2).  Twin predication pairs the n-th enabled
    # source with the n-th enabled destination: r81 = r40 + 1 = 101, r82 = r42 + 1 = 103
    init = {"svstate": SV.make(maxvl=4, vl=4),
            "gpr": {3: 0b0101, 10: 0b0110, **{40 + i: 100 + i for i in range(4)}}}
    res = all_modes(svisa, ["sv.addi/sm=r3/dm=r10 *80, *40, 1"], init, "/sm=r3/dm=r10")
    assert res.gpr[80:84] == [0, 101, 103, 0]


def test_anchor_map_reduce_subf(svisa):
    # sv.subf/mr 20, 20, *40, VL=3 (map-reduce: the scalar RT accumulates):
    # subf RT = RB - RA.  r20 = 0; e0: 10 - 0 = 10; e1: 3 - 10 = -7; e2: 1 - (-7) = 8
    init = {"svstate": SV.make(maxvl=3, vl=3), "gpr": {20: 0, 40: 10, 41: 3, 42: 1}}
    res = all_modes(svisa, ["sv.subf/mr 20, 20, *40"], init)
    assert res.gpr[20] == 8


def test_anchor_elwidth_add(svisa):
    # sv.add/w=8 *80, *40, *60, VL=3: byte elements packed in r80 (svp64 "elwidth"):
    # bytes 0xF0+0x20 = 0x10 (wraps), 0x01+0x02 = 0x03, 0x7F+0x01 = 0x80; the other
    # bytes of r80 keep their value (0xAA)
    init = {"svstate": SV.make(maxvl=3, vl=3),
            "gpr": {40: 0x7F01F0, 60: 0x010220, 80: 0xAAAAAAAAAAAAAAAA}}
    res = all_modes(svisa, ["sv.add/w=8 *80, *40, *60"], init, "")
    assert res.gpr[80] == 0xAAAAAAAAAA800310


@pytest.mark.parametrize("mask,expect", [
    # openpower-isa test_caller_svp64_pack.py test_svstep_predicate_pack (mask 0b0110,
    # pack set: svstep 0,0,15,0) and its predicated unpack test (mask 0b0101)
    (0b0110, {10: 2, 11: 4, 12: 3, 13: 5}),
    (0b0101, {8: 0, 9: 4, 12: 1, 13: 5}),
])
def test_anchor_openpower_pack(svisa, mask, expect):
    pack = mask == 0b0110
    init = {"svstate": SV.make(maxvl=4, vl=4, pack=int(pack), unpack=int(not pack)),
            "gpr": {**{i: 0xffffffff for i in range(1, 50)}, 3: mask,
                    **{16 + i: i for i in range(8)}}}
    res = all_modes(svisa, ["sv.ori/vec2/m=r3 *8, *16, 0"], init, "/vec2/m=r3")
    for r in range(8, 16):
        assert res.gpr[r] == expect.get(r, 0xffffffff), r


# Programs run by openpower-isa's ISACaller (snapshot 3cb597b9, /work/isacaller, run on
# this machine): (program, initial GPRs, ISACaller's final r16..r23).  Each is then run
# here in every mode.  (Single-predicated /sz and /dz were run too and are not here:
# ISACaller pairs source and destination elements differently there -- see
# docs/svp64.md "1P zeroing".)
ISACALLER_CASES = [
    (['setvl 0,0,4,0,1,1', 'sv.add/m=r3 *16, *8, *24'],
     {3: 0xa, 8: 0x4164d8399f767c45, 9: 0x5bc8fbbcbde5c099, 10: 0xb0c11fdecb91ce37, 11: 0xd76d4330f1446bea, 12: 0xa6eb8c9ebd69fe29, 13: 0x87b0b125ec1d7da0, 14: 0xd7210dff076ce2ef, 15: 0xc6a5387777330bdb, 16: 0x5555, 17: 0x5555, 18: 0x5555, 19: 0x5555, 20: 0x5555, 21: 0x5555, 22: 0x5555, 23: 0x5555, 24: 0x3fc1ea36f17fd374, 25: 0xd464138a6233255, 26: 0x2827688de6a16a3b, 27: 0x5f2dd97f1cfb10f6, 28: 0xde5271007814e8a2, 29: 0x617959ce3f1f65a8, 30: 0x1a1afe878b33e968, 31: 0x3fd4235992edcf45},
     {16: 0x5555, 17: 0x690f3cf56408f2ee, 18: 0x5555, 19: 0x369b1cb00e3f7ce0, 20: 0x5555, 21: 0x5555, 22: 0x5555, 23: 0x5555}),
    (['setvl 0,0,5,0,1,1', 'sv.add/w=8 *16, *8, *24'],
     {8: 0xbb2edb20035b7399, 9: 0x687c966c377b9aa2, 10: 0x2e9c82b1478c281d, 11: 0xde11cc9dea959c21, 12: 0x63b229f1c4069545, 13: 0xc30d8b7628dbd25e, 14: 0x126a1e48cc11d357, 15: 0x9e30691c238642ea, 16: 0x5555, 17: 0x5555, 18: 0x5555, 19: 0x5555, 20: 0x5555, 21: 0x5555, 22: 0x5555, 23: 0x5555, 24: 0x71e0c07e9e115e4b, 25: 0x21da8978206f5c66, 26: 0xf8eb18b900745130, 27: 0x15c33b2df1461aa, 28: 0xc60a3cab359eeefb, 29: 0xf5cae3bf3729c619, 30: 0x2a759159fb7ff337, 31: 0x2a9eba0cdf561d80},
     {16: 0x9ea16cd1e4, 17: 0x5555, 18: 0x5555, 19: 0x5555, 20: 0x5555, 21: 0x5555, 22: 0x5555, 23: 0x5555}),
    (['setvl 0,0,4,0,1,1', 'sv.addi/sm=r3/dm=r10 *16, *8, 1'],
     {3: 0x5, 8: 0x504b74ba4a0fe75d, 9: 0x32ea6928f6236bf2, 10: 0x6, 11: 0xa02fdaa1ad864c44, 12: 0x2e81d66d346c6e2b, 13: 0xf7f35634f0e3cd97, 14: 0x3266aa3bb0cde917, 15: 0xf7108e96f770c226, 16: 0x5555, 17: 0x5555, 18: 0x5555, 19: 0x5555, 20: 0x5555, 21: 0x5555, 22: 0x5555, 23: 0x5555, 24: 0x621aef57e4cc4132, 25: 0x585a01c4c7d6df0, 26: 0x6a3753915c76f18a, 27: 0xef901b932a7c1880, 28: 0x43892dfc254cb864, 29: 0x54f46a6910acff00, 30: 0xd14125844d25deb3, 31: 0x960d5a8f9a656aaf},
     {16: 0x5555, 17: 0x504b74ba4a0fe75e, 18: 0x7, 19: 0x5555, 20: 0x5555, 21: 0x5555, 22: 0x5555, 23: 0x5555}),
    (['setvl 0,0,3,0,1,1', 'svstep 0,0,14,0', 'sv.ori/vec2/m=r3/dz *16, *8, 0'],
     {3: 0x5, 8: 0x5e0730b3cc170c31, 9: 0x4bbdbb01dc14ed57, 10: 0x6ed78f5d0960afe9, 11: 0xfa749692f21ff5eb, 12: 0x355f2af41757905e, 13: 0x834c1b69573ac59a, 14: 0x5cd5061c9c5f319e, 15: 0x25f02628eb07c30d, 16: 0x5555, 17: 0x5555, 18: 0x5555, 19: 0x5555, 20: 0x5555, 21: 0x5555, 22: 0x5555, 23: 0x5555, 24: 0x4692ba0357079670, 25: 0xb3de08f9ec983704, 26: 0x17921e6c8b8e8f4e, 27: 0xaf9b74f84ffcbf42, 28: 0x4e613a365119cdcc, 29: 0xcc7c6d812d6f2efc, 30: 0xa07657d61404ab1e, 31: 0xb89c4e56261c374b},
     {16: 0x5e0730b3cc170c31, 17: 0x834c1b69573ac59a, 18: 0x0, 19: 0x5555, 20: 0x355f2af41757905e, 21: 0x5555, 22: 0x5555, 23: 0x5555}),
    (['setvl 0,0,6,0,1,1', 'sv.neg/w=16 *16, *8'],
     {8: 0x4f2e84fcb06dbee0, 9: 0x7bd9e8a1ff297d0e, 10: 0xb85a5cd22959fea3, 11: 0x14b9adb50c6dea3d, 12: 0x99c4258bfc985000, 13: 0xec717f158895787f, 14: 0x825c7cc67e84707, 15: 0xbd953dc23cc21779, 16: 0x5555, 17: 0x5555, 18: 0x5555, 19: 0x5555, 20: 0x5555, 21: 0x5555, 22: 0x5555, 23: 0x5555, 24: 0x58056ed0980dc6ff, 25: 0x400db00dd3881a50, 26: 0xa6a5bc9974a677c6, 27: 0x2547f19c6bf84914, 28: 0xfaa30fac0e42d43c, 29: 0xa36939efea83854a, 30: 0xcd39e15808606af8, 31: 0x558d2adb7e5a3930},
     {16: 0xb0d27b044f934120, 17: 0xd782f2, 18: 0x5555, 19: 0x5555, 20: 0x5555, 21: 0x5555, 22: 0x5555, 23: 0x5555}),
    (['setvl 0,0,3,0,1,1', 'sv.subf/mr 20, 20, *8'],
     {8: 0x3501e088d6a34d3e, 9: 0xfb368220216d27a2, 10: 0x90656c8fbb4e5c11, 11: 0x21fdac3af325ffbe, 12: 0xe580c35ea161d909, 13: 0x69f0441ec9bafe62, 14: 0x2b37d8171b4c24c2, 15: 0x5f7cc5d86f3f0240, 16: 0x5555, 17: 0x5555, 18: 0x5555, 19: 0x5555, 20: 0x5, 21: 0x5555, 22: 0x5555, 23: 0x5555, 24: 0xf0b97522634f16f, 25: 0x6baf71d7d8407b1a, 26: 0x2425d75a4b78dc3d, 27: 0xec08693c7401f5ce, 28: 0x9ed2aa0cffd21f09, 29: 0x2b56955dda2d3b3d, 30: 0x85ae8770f9dba1db, 31: 0xf5cb2afc741b324d},
     {16: 0x5555, 17: 0x5555, 18: 0x5555, 19: 0x5555, 20: 0xca30caf8708481a8, 21: 0x5555, 22: 0x5555, 23: 0x5555}),
    (['setvl 0,0,4,0,1,1', 'sv.add/sw=8/dw=16 *16, *8, *24'],
     {8: 0xb057c1627cf7fcf6, 9: 0x5154ef5fbac0d757, 10: 0x462731417aa286ac, 11: 0x785737974a807546, 12: 0xe6e053f7675ebe3b, 13: 0x1cd0c151258170f9, 14: 0xd272324860831ef2, 15: 0x8820e3bdfd06f9f6, 16: 0x5555, 17: 0x5555, 18: 0x5555, 19: 0x5555, 20: 0x5555, 21: 0x5555, 22: 0x5555, 23: 0x5555, 24: 0x2dece95af5b67e6e, 25: 0xefe8b3b5a080c6a5, 26: 0xde28123c7fd39898, 27: 0x2e1c5d3a56a68b41, 28: 0x7deaab6416d1b5ac, 29: 0x83e2c32845b61df2, 30: 0x8c5050eac832652e, 31: 0x80b91b2ede0d0fc5},
     {16: 0x17101ad017a0164, 17: 0x5555, 18: 0x5555, 19: 0x5555, 20: 0x5555, 21: 0x5555, 22: 0x5555, 23: 0x5555}),
    (['setvl 0,0,4,0,1,1', 'sv.addi/sm=~r3/dm=r10/sz *16, *8, 3'],
     {3: 0x5, 8: 0x1027e5d35c7fe058, 9: 0xcb8f1137c938c68d, 10: 0xe, 11: 0x96655f23b1d117b7, 12: 0x8c9196da9fd1ce9, 13: 0x4e424b92c277af32, 14: 0x8f2f39495d09dd29, 15: 0xab163406b4581e37, 16: 0x5555, 17: 0x5555, 18: 0x5555, 19: 0x5555, 20: 0x5555, 21: 0x5555, 22: 0x5555, 23: 0x5555, 24: 0xd5d1cbd047e5eb8d, 25: 0x43cdc3567c55dde1, 26: 0xfb1ff91ac50e2b99, 27: 0xb74acffbb0ddb48b, 28: 0xf4f6717c4b39e336, 29: 0x570f0cbef20f678d, 30: 0x2dbbf762a6523995, 31: 0xda1101aa94a6300c},
     {16: 0x5555, 17: 0x3, 18: 0xcb8f1137c938c690, 19: 0x3, 20: 0x5555, 21: 0x5555, 22: 0x5555, 23: 0x5555}),
]


@pytest.mark.parametrize("asm,regs,want", ISACALLER_CASES, ids=[c[0][-1] for c in ISACALLER_CASES])
def test_anchor_isacaller(svisa, asm, regs, want):
    res = all_modes(svisa, asm, {"gpr": regs})
    assert {r: res.gpr[r] for r in want} == want


# SVP64 branches: openpower-isa test_caller_svp64_bc.py programs (its expected
# r3: 0 when the branch skips "addi 3") and the SVSTATE VL it expects; every
# mode (tests/svp64/test_svp64_branch.py also compares CTR, LR and the PC)
BRANCH_CASES = [
    (["addi 1, 0, 10", "addi 2, 0, 10", "cmpi cr0, 1, 1, 10", "cmpi cr1, 1, 2, 10",
      "sv.bc 12, *2, 0xc", "addi 3, 0, 0x1234", "or 0, 0, 0"], 0, 2),
    (["addi 1, 0, 9", "addi 2, 0, 8", "cmpi cr0, 1, 1, 8", "cmpi cr1, 1, 2, 8",
      "sv.bc/all/vs 12, *1, 0xc", "addi 3, 0, 0x1234", "or 0, 0, 0"], 0x1234, 1),
    (["addi 1, 0, 10", "addi 2, 0, 9", "cmpi cr0, 1, 1, 8", "cmpi cr1, 1, 2, 8",
      "sv.bc/vsb 4, *1, 0xc", "addi 3, 0, 0x1234", "or 0, 0, 0"], 0x1234, 2),
]


@pytest.mark.parametrize("lines,r3,vl", BRANCH_CASES, ids=[c[0][4] for c in BRANCH_CASES])
def test_anchor_svp64_branch(svisa, lines, r3, vl):
    res = all_modes(svisa, lines, {"svstate": SV.make(maxvl=2, vl=2)})
    assert res.gpr[3] == r3 and SV.get(res.state.svstate, "vl") == vl


def _fp(x):
    import struct
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def test_anchor_ffmadds_twin_result(svisa):
    # sv.ffmadds *2, *10, *2, VL=MAXVL=4 (svfparith.mdwn; FRB and the implicit
    # FRS are FRT's vector MAXVL=4 further on, openpower-isa's decoder):
    # f(2+i) = a*c + b, f(6+i) = b - a*c with a = f(2+i), b = f(6+i), c = f(10+i).
    # a = 1, 2, 3, 4; b = 10, 20, 30, 40; c = 0.5: f2.. = 10.5, 21, 31.5, 42;
    # f6.. = 9.5, 19, 28.5, 38 (all exact in single precision)
    init = {"svstate": SV.make(maxvl=4, vl=4),
            "fpr": {**{2 + i: _fp(i + 1.0) for i in range(4)},
                    **{6 + i: _fp(10.0 * (i + 1)) for i in range(4)},
                    **{10 + i: _fp(0.5) for i in range(4)}}}
    res = all_modes(svisa, ["sv.ffmadds *2, *10, *2"], init, "")
    assert res.fpr[2:10] == [_fp(v) for v in (10.5, 21, 31.5, 42, 9.5, 19, 28.5, 38)]


def test_anchor_fptrans_exact_values(isa):
    # sv.fsinpi *8, *16 then sv.fatan2pi *12, *16, *20, VL=MAXVL=4 (fptrans
    # pages; IEEE 754 9.2.1): sinPi(0, 0.5, 1, 1.5) = +0, 1, +0, -1 exactly;
    # atan2pi(y, 1) for y = 0, 0.5, 1, 1.5 with f20.. = 1: +0, 1/4 exactly for
    # y = 1, and atan(0.5)/pi, atan(1.5)/pi bracketed by 0 < . < 1/4 < . < 1/2
    # (their exact values are tests/ext/fptrans/test_fptrans.py's business); the point here
    # is that every mode gives the same state
    init = {"svstate": SV.make(maxvl=4, vl=4),
            "fpr": {**{16 + i: _fp(0.5 * i) for i in range(4)},
                    **{20 + i: _fp(1.0) for i in range(4)}}}
    res = all_modes(isa, ["sv.fsinpi *8, *16", "sv.fatan2pi *12, *16, *20"], init)
    assert res.fpr[8:12] == [_fp(0.0), _fp(1.0), _fp(0.0), _fp(-1.0)]
    assert res.fpr[12] == _fp(0.0) and res.fpr[14] == _fp(0.25)
    assert 0 < _unfp(res.fpr[13]) < 0.25 < _unfp(res.fpr[15]) < 0.5


def _unfp(image):
    import struct
    return struct.unpack("<d", struct.pack("<Q", image))[0]


def test_anchor_remapped_fft_4(svisa):
    # openpower-isa test_sv_remap_fpmadds_fft_4: svshape 2 (FFT, 2 points),
    # svremap 31 1 0 2 0 1: f0 = f0 + f1*f8, f1 = f0 - f1*f8.  f0 = 3, f1 = 2,
    # f8 = 0.25: f0 = 3.5, f1 = 2.5
    init = {"fpr": {0: _fp(3.0), 1: _fp(2.0), 8: _fp(0.25)}}
    res = all_modes(svisa, ["svshape 2, 1, 1, 1, 0", "svremap 31, 1, 0, 2, 0, 1, 0",
                            "sv.ffmadds *0, *8, *0"], init)
    assert res.fpr[0:2] == [_fp(3.5), _fp(2.5)]


def test_anchor_remapped_update_store(svisa):
    # svshape2 1,0,1,3,0,0 maps RA's slot with the offset schedule 1 2 3 1 2 3;
    # sv.stdu *40, 8(50), VL=6 (unit-stride update form: r50 gets each EA, the
    # next element re-reads it): EA_k = EA_(k-1) + 8 + 8*sched(k) = DATA + 0x10,
    # +0x28, +0x48, +0x58, +0x70, +0x90 get r40..r45 (remap.mdwn: the offset of
    # unit-strided LD/ST is remapped; tests/svp64/test_svp64_remap_guard.py)
    init = {"svstate": SV.make(maxvl=6, vl=6),
            "gpr": {40 + i: 0x100 + i for i in range(6)}}
    res = all_modes(svisa, ["svshape2 1, 0, 1, 3, 0, 0", "sv.stdu *40, 8(50)"], init)
    mem = res.state.mem
    assert [mem.read(DATA + off, 8) for off in (0x10, 0x28, 0x48, 0x58, 0x70, 0x90)] == \
        [0x100 + i for i in range(6)]
    assert res.gpr[50] == DATA + 0x90


def test_anchor_maddsubrs_elwidth(svisa):
    # openpower-isa maddsubrs_cases.py case_maddsubrs_16bit_s14 (its asserted
    # r10/r11): 16-bit lanes, RS MAXVL=4 elements on (r11); every mode agrees
    init = {"svstate": SV.make(maxvl=4, vl=4),
            "gpr": {10: 0x1000_2000_3000_4000, 20: 0x1234_fedc_3456_edcb,
                    30: 11585 * 0x1_0001_0001_0001}}
    res = all_modes(svisa, ["sv.maddsubrs/w=16 *10,*20,*30,14"], init, "")
    assert (res.gpr[10], res.gpr[11]) == (0x182f_15d2_46f2_2061, 0xfe71_176f_fcef_3a21)


# openpower-isa test_caller_svp64_dd_ffirst.py (data-dependent fail-first), its
# expectations re-derived by hand:
# test_sv_addi_ffirst_le: sv.subf./ff=le *0,8,*0, VL=4, r0..r3 = 9,8,3,4, r8 = 3:
# 6, 5 written; element 2 gives 0 (<= 0): VL=2, its result discarded, r2 stays 3.
# test_sv_maxu_ddffirst_single_1 (second definition): sv.minmax./ff=le 4,*10,4,1,
# r10..r13 = 3,4,1,0, r4 = 2: r4 <- 3, r4 <- 4, then 1 < 4 fails: VL=2, CR0 LT.
# test_sv_addi_ffirst_vli: sv.subf/ff=RC1/vli *0,8,*0: the file expects the
# results stored (6, 5, 0) and VL=3; RC1 never stores results (normal.mdwn:
# "RC1 as if Rc=1, stores CRs but not the result"), so r0..r3 keep 9,8,3,4,
# CR0..CR2 = GT, GT, EQ and VL=3 (VLi includes the failing element).
@pytest.mark.parametrize("line,regs,want_regs,want_cr,want_vl", [
    ("sv.subf./ff=le *0,8,*0", {0: 9, 1: 8, 2: 3, 3: 4, 8: 3}, [6, 5, 3, 4],
     [0b0100, 0b0100, 0b0010, 0], 2),
    ("sv.minmax./ff=le 4, *10, 4, 1", {4: 2, 10: 3, 11: 4, 12: 1, 13: 0}, None,
     [0b1000, 0, 0, 0], 2),
    ("sv.subf/ff=RC1/vli *0,8,*0", {0: 9, 1: 8, 2: 3, 3: 4, 8: 3}, [9, 8, 3, 4],
     [0b0100, 0b0100, 0b0010, 0], 3),
])
def test_anchor_dd_ffirst(svisa, line, regs, want_regs, want_cr, want_vl):
    init = {"svstate": SV.make(maxvl=4, vl=4), "gpr": regs}
    res = all_modes(svisa, [line], init)
    if want_regs is not None:
        assert res.gpr[0:4] == want_regs
    else:
        assert res.gpr[4] == 4
    assert res.state.cr[0:4] == want_cr
    assert SV.get(res.state.svstate, "vl") == want_vl


def test_anchor_add_chain(svisa):
    # issue 21's element chain (docs/hfvf.md, errata SV-17): sv.add *1, *0, *0 with
    # r0 = 1, VL = 4; element i reads what element i-1 wrote: r1..r4 = 2, 4, 8, 16
    # in every mode, the VF loop included
    res = all_modes(svisa, ["sv.add *1, *0, *0"],
                    {"svstate": SV.make(maxvl=4, vl=4), "gpr": {0: 1}}, "")
    assert res.gpr[1:5] == [2, 4, 8, 16]


@pytest.mark.parametrize("line,vl", [
    # past the end of a file (tests/svp64/test_svp64_regfile_end.py has the spans): the
    # same trap, nothing written, in every mode
    ("sv.add *120, *0, *0", 16),
    ("sv.add./vec4/w=8 *0, *0, *0", 64),
    ("sv.add/m=lt/w=8 *0, *0, *0", 100),
    ("sv.lhax/sw=16 *0, *124, 5", 8),
])
def test_anchor_register_file_end(svisa, line, vl):
    init = {"svstate": SV.make(maxvl=vl, vl=vl), "gpr": {5: DATA}}
    ref = all_modes(svisa, [line], init)
    assert ref.stop == "trap" and "past" in ref.trap.reason
    want = [0] * 50
    want[5] = DATA
    assert ref.state.gpr[:50] == want and ref.state.cr[:8] == [0] * 8


# Fail-first on a CR-bit operation (cr_ops.mdwn "Data-dependent fail-first on
# CR operations": with a 5-bit CR result "the bit of the CR field to be tested
# is the one that has just been modified (created) by the operation", tested
# against inv: /ff=RC1 is inv=0, stop when the bit is 1; ~RC1 stop when 0).
# sv.crand *33, *65, *97, VL=4: element k is CR(8+k).GT <- CR(16+k).GT &
# CR(24+k).GT, with CR16-19.GT = 1 and CR24-27.GT = 0, 0, 1, 1, so the results
# are 0, 0, 1, 1; CR8-11 start 0b0100, 0, 0, 0.  RC1: elements 0 and 1 write 0
# (CR8.GT cleared), element 2 writes 1 and fails: VL = 2 (VLi: 3), its bit
# stands (a CR result is kept, as a cmp's field is), element 3 never runs
# (CR11.GT stays 0).  ~RC1: element 0's 0 fails at once: VL = 0 (VLi: 1), CR8.GT
# cleared by it, CR9-11 untouched.
@pytest.mark.parametrize("line,want_cr8_11,want_vl", [
    ("sv.crand/ff=RC1 *33, *65, *97", [0, 0, 0b0100, 0], 2),
    ("sv.crand/ff=RC1/vli *33, *65, *97", [0, 0, 0b0100, 0], 3),
    ("sv.crand/ff=~RC1 *33, *65, *97", [0, 0, 0, 0], 0),
    ("sv.crand/ff=~RC1/vli *33, *65, *97", [0, 0, 0, 0], 1),
])
def test_anchor_cr_bit_fail_first(svisa, line, want_cr8_11, want_vl):
    cr = {8: 0b0100, **{f: 0b0100 for f in range(16, 20)}, 26: 0b0100, 27: 0b0100}
    for isa in (svisa, _profile_isa()):
        res = all_modes(isa, [line], {"svstate": SV.make(maxvl=4, vl=4), "cr": cr})
        assert res.stop == "end", res.trap
        assert res.state.cr[8:12] == want_cr8_11
        assert SV.get(res.state.svstate, "vl") == want_vl


def _profile_isa():
    from isa_ext.isa import ISA
    return ISA(extensions=["base", "svp64"], profile="openpower-isa")


def test_anchor_cr_bit_fail_first_dz(svisa):
    # The 5-bit variant's MODE is `VLi 1 inv dz /` (cr_ops.mdwn): `/ff=eq`
    # spells bit 22, dz.  sv.crand/m=r3/ff=eq *33, *65, *97, VL=4, r3 = 0b1011
    # (element 2 masked out), sources as test_anchor_cr_bit_fail_first's:
    # elements 0 and 1 write 0 (no stop: inv=0 stops at a 1), element 2 is
    # zeroed (CR10.GT <- 0, no test), element 3 writes 1 and fails: VL = 3.
    # The profile's CR ops have no zeroing (crop_rows, ISACaller's CROP
    # decoding): element 2 is skipped and CR10.GT stays 1
    cr = {8: 0b0100, 10: 0b0100, **{f: 0b0100 for f in range(16, 20)}, 26: 0b0100,
          27: 0b0100}
    init = {"svstate": SV.make(maxvl=4, vl=4), "cr": cr, "gpr": {3: 0b1011}}
    for isa, cr10 in ((svisa, 0), (_profile_isa(), 0b0100)):
        res = all_modes(isa, ["sv.crand/m=r3/ff=eq *33, *65, *97"], init)
        assert res.stop == "end", res.trap
        assert res.state.cr[8:12] == [0, 0, cr10, 0b0100]
        assert SV.get(res.state.svstate, "vl") == 3


# The openpower-isa profile's fail-first readings (tests/compat/test_profile.py
# pins their values against ISACaller's): every path must agree on them too
@pytest.mark.parametrize("line,vl,gpr,cr", [
    ("sv.cmpi/ff=RC1/m=gt *0, 1, *34, 5", 4, {34: 5, 35: 6, 36: 5, 37: 5}, 0x0000A4C4),
    ("sv.mcrf/ff=~RC1/dm=gt *0, 4", 4, {}, 0x0000A4C4),
    ("sv.mcrf/ff=~RC1 *0, 3", 2, {}, 0x000E0000),
    ("sv.mcrf/ff=RC1 *0, *4", 2, {}, 0x0000A200),
    ("sv.cmpeqb/vec2/ff=RC1 *0, 34, 20", 3, {34: 1, 20: 0x0202}, 0x07D17639),
    ("sv.addg6s/ff=RC1/vec2 *77, 38, *88", 2, {88: 0x1111, 89: 0x2222, 38: 0x99999999}, 0),
    ("sv.extswsli/ff=RC1/w=16 *89, *77, 0", 2, {77: 0x80, 78: 0x8000}, 0),
    ("sv.isel/ff=~RC1/vli *16, *44, 51, 9", 2, {44: 7, 51: M64}, 0x80000000),
])
def test_profile_fail_first_readings_on_every_path(line, vl, gpr, cr):
    cr_fields = {f: (cr >> (28 - 4 * f)) & 0xF for f in range(8)}
    init = {"svstate": SV.make(maxvl=vl, vl=vl), "gpr": gpr, "cr": cr_fields}
    res = all_modes(_profile_isa(), [line], init)
    assert res.stop == "end", res.trap
