"""Property: an element-level interrupt after k element operations, then resume,
gives exactly the state of an uninterrupted run (every vectorised class)."""
from hypothesis import given, settings, strategies as st, HealthCheck

from isa_ext.isa import ISA
from isa_ext.sim import Simulator
from isa_ext.svp64 import svstate as SV

M64 = (1 << 64) - 1
ISA_ = None

# Destinations start at r80 so that no element overwrites a predicate register
# (r3, r10, r30): the mask is read once per instruction, and a resumed
# instruction reads it again.
CLASSES = [  # (template, needs_w) ; {p} predicate, {w} element width modifiers
    "sv.add{m}{w} *80, *40, *60",          # RM-1P-2S1D
    "sv.add.{m}{w} *80, 40, *60",          # Rc=1, scalar source
    "sv.addi{m}{w} *80, *40, 7",           # RM-2P-1S1D
    "sv.ori{tw} *80, *40, 3",              # twin predication
    "sv.add/vec2{m} *80, *40, *60",        # SUBVL
    "sv.subf/mr 20, 20, *40",              # map-reduce
    "sv.neg{m}{w} *80, *40",
]


def isa():
    global ISA_
    if ISA_ is None:
        ISA_ = ISA(extensions=["base", "svp64"])
    return ISA_


def build(template, mask, width, twin):
    m = f"/m={mask}" if mask else ""
    w = f"/w={width}" if width else ""
    tw = twin or ""
    return template.format(m=m, w=w, tw=tw)


def setup(text, vl, regs, interrupt_after=None):
    i = isa()
    mn, _, ops = text.partition(" ")
    words = i.sv_assemble(mn, ops.split(","), 0, lambda t: int(t, 0))
    sim = Simulator(isa=i)
    sim.load_words(words)
    sim.state.svstate = SV.make(maxvl=max(vl, 1), vl=vl)
    for k, v in enumerate(regs):
        sim.state.gpr[k] = v
    sim.interrupt_after = interrupt_after
    return sim


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cls=st.sampled_from(CLASSES), vl=st.integers(0, 12),
       mask=st.sampled_from([None, "r3", "~r3", "1<<r3", "r10", "~r30"]),
       width=st.sampled_from([None, 8, 16, 32]),
       twin=st.sampled_from([None, "/sm=r3", "/dm=r10", "/sm=r3/dm=~r10", "/sz/sm=r3"]),
       regs=st.lists(st.integers(0, M64), min_size=128, max_size=128),
       k=st.integers(0, 30))
def test_interrupt_resume_equals_uninterrupted(cls, vl, mask, width, twin, regs, k):
    text = build(cls, mask, width, twin)
    ref = setup(text, vl, regs).run()
    sim = setup(text, vl, regs, interrupt_after=k)
    first = sim.run()
    if first.stop == "interrupt":
        assert first.pc == 0x1000
        second = sim.run()
        res = second
    else:
        res = first
    assert res.stop == ref.stop == "end"
    assert res.gpr == ref.gpr and res.state.cr == ref.state.cr
    assert res.state.svstate == ref.state.svstate and res.xer == ref.xer


def test_interrupt_at_every_point_of_predicated_elwidth_add():
    regs = [(0x0123456789ABCDEF * (i + 1)) & M64 for i in range(128)]
    regs[3] = 0b1011011
    text = "sv.add/m=r3/w=16 *20, *40, *60"
    ref = setup(text, 7, regs).run()
    for k in range(8):
        sim = setup(text, 7, regs, interrupt_after=k)
        r = sim.run()
        if r.stop == "interrupt":
            r = sim.run()
        assert r.gpr == ref.gpr, k


# --- external anchor: the property above compares the simulator with itself; here
# libre-soc's ISACaller supplies the final state of each class (uninterrupted), and
# every interrupted-and-resumed run of ours must reach it.

ANCHOR_VL = 7
ANCHOR_LINES = [  # the classes above, with predicates and widths ISACaller agrees on
    "sv.add/m=r3 *80, *40, *60", "sv.add/m=r3/w=16 *80, *40, *60", "sv.add. *80, 40, *60",
    "sv.addi/m=~r3 *80, *40, 7", "sv.ori/sm=r3/dm=~r10 *80, *40, 3",
    "sv.add/vec2 *80, *40, *60", "sv.subf/mr 20, 20, *40", "sv.neg/m=r10/w=32 *80, *40",
]


def anchor_state():
    gpr = [(0x0123456789ABCDEF * (i + 1)) & M64 for i in range(128)]
    gpr[3], gpr[10], gpr[30] = 0b1011011, 0b0110101, 0b1100110   # predicate masks
    fpr = [0x3FF0000000000000 + (i << 44) for i in range(128)]   # 1.0, 1.0625, ...
    return gpr, fpr, 0x12345678


def resumed_runs_equal_isacaller(isa, isacaller, lines, vl):
    """For each line: ISACaller's final GPRs/FPRs/CR after ``setvl`` + line, and ours
    interrupted after every k element operations then resumed; mismatches."""
    from isa_ext.asm import assemble
    from isa_ext.compat import isacaller as D
    gpr, fpr, cr = anchor_state()
    cases = []
    for n, line in enumerate(lines):
        body = [f"setvl 0,0,{vl},0,1,1", line]
        cases.append(D.Case(n, body, assemble("\n".join(body) + "\n", isa=isa).words,
                            gpr, fpr, cr))
    theirs = D.run_isacaller(isacaller.root, cases)
    bad = []
    for case, want in zip(cases, theirs):
        assert "error" not in want, (case.lines, want)
        interrupted = 0
        for k in range(2 * vl + 1):
            sim = Simulator(isa=isa)
            sim.load_words(case.words, addr=D.PROGRAM_BASE)
            sim.state.gpr[:] = gpr
            sim.state.fpr[:] = fpr
            sim.state.crval = cr
            sim.interrupt_after = k
            r = sim.run(max_steps=10)
            if r.stop == "interrupt":
                interrupted += 1
                r = sim.run(max_steps=10)
            got = (list(sim.state.gpr), list(sim.state.fpr), sim.state.crval)
            if r.stop != "end" or got != (want["gpr"], want["fpr"], want["cr"]):
                bad.append(f"{case.lines[1]} interrupted after {k}: {r.stop}")
                break
        if not interrupted:
            bad.append(f"{case.lines[1]}: never interrupted")
    return bad


def test_anchor_resumed_runs_reach_isacallers_state(isacaller):
    assert resumed_runs_equal_isacaller(isa(), isacaller, ANCHOR_LINES, ANCHOR_VL) == []
