"""SVP64 instructions inside translated blocks (isa_ext.translate.svp64) run
exactly as one instruction at a time does.

The property: random loops of SVP64 instructions (predicates, element
widths, SUBVL, REMAP from svshape/svremap, setvl changing VL inside the loop,
loads and stores) run with translation on (every block translated the first
time it is reached) and off end with the same registers, memory, SVSTATE,
element-operation count, steps, stop reason and trap, also when stopped by a
step limit or by an element-level interrupt and then resumed.  The
per-instruction path is the reference: tests/svp64/test_svp64_one_behaviour.py and
the ISACaller/SVP64Asm tests pin it against independent oracles.  The
directed tests pin the unrolled path itself with hand-derived values.
"""
import random

import pytest

from isa_ext.isa import ISA
from isa_ext.sim import Simulator
from isa_ext.svp64 import svstate as SV

ISA_SV = ISA(extensions=["base", "svp64"])
DATA = 0x20000
M64 = (1 << 64) - 1

# {p} predicate, {w} element width, {v} SUBVL; destinations from r80 up,
# sources r40.. and r60.., r50 the LD/ST base, predicates in r3, r10, r30
LINES = [
    "sv.add{p}{w}{v} *80, *40, *60",
    "sv.add{v} *80, *40, *60",
    "sv.add *80, *80, *60",
    "sv.addi{p}{w}{v} *80, *40, 7",
    "sv.subf{p}{w} *80, *80, *60",
    "sv.neg{p}{v} *80, *40",
    "sv.add. *80, *40, *60",
    "sv.cmp{p} *8, 1, *40, *60",
    "sv.ld{p} *80, 8(50)",
    "sv.std{p} *40, 8(50)",
    "sv.ld *80, 8(50)",
    "sv.std *40, 8(50)",
    "sv.fadd{p} *80, *40, *60",
    "sv.add/sats/w=8{p} *80, *40, *60",
    "sv.subf/mr 20, 20, *40",
    "sv.mulld *80, *40, *60",
    "addi 20, 20, 1",
    "add 21, 20, 22",
    "setvl 0, 0, {vl}, 0, 1, 1",
]
PREDICATES = ["", "", "", "/m=r3", "/m=~r3", "/m=r10", "/m=r3/sz", "/m=r10/dz"]
WIDTHS = ["", "", "/w=8", "/w=16", "/w=32"]
SUBVLS = ["", "", "/vec2", "/vec3", "/vec4"]
# svshape 2, 2, 2: a 2x2x2 matrix schedule (VL = 8) under persistent REMAP
REMAP = ["svshape 2, 2, 2, 0, 0", "svremap 31, 1, 2, 3, 0, 0, 1",
         "sv.maddld *80, *40, *60, *80"]


def random_program(rng):
    if rng.random() < 0.3:
        return vertical_first_program(rng)
    body = []
    if rng.random() < 0.2:
        body += REMAP
    for _ in range(rng.randrange(1, 5)):
        body.append(rng.choice(LINES).format(p=rng.choice(PREDICATES), w=rng.choice(WIDTHS),
                                             v=rng.choice(SUBVLS), vl=rng.randrange(1, 9)))
    return "loop:\n" + "".join(f" {t}\n" for t in body) + " bdnz loop\n"


VF_LINES = ["sv.add{v} *80, *40, *60", "sv.add *80, *80, *60", "sv.subf *80, *40, *60",
            "sv.add. *80, *40, *60", "sv.mulld *80, *40, *60", "sv.addi *80, *40, 3",
            "sv.add{p} *80, *40, *60", "addi 20, 20, 1",
            # scalar operands of a VF instruction (test_svp64_libresoc_programs' svstep_add_1)
            "sv.add 21, *40, *60", "sv.add *80, 21, *60"]


def vertical_first_program(rng):
    """A vertical-first loop: the body once per element, svstep. moving the
    steps, bc looping until CR0.SO (the loop's end); SVSTATE.vfirst is set by
    fresh() for these ("svstep" in the text)."""
    body = [rng.choice(VF_LINES).format(p=rng.choice(PREDICATES), v=rng.choice(SUBVLS))
            for _ in range(rng.randrange(1, 3))]
    step = rng.choice(["svstep. 1, 0, 1, 0", "sv.svstep. 0, 0, 0, 0"])
    return "loop:\n" + "".join(f" {t}\n" for t in body) + f" {step}\n bc 4, 3, loop\n"


def fresh(seed, text, translate):
    rng = random.Random(seed)
    sim = Simulator(ISA_SV, translate=translate)
    sim.hot_after = rng.choice([0, 0, 1, 2])
    sim.load_asm(text)
    s = sim.state
    vl = rng.randrange(0, 9)
    s.svstate = SV.make(maxvl=max(vl, 1), vl=vl, vfirst=int("svstep" in text))
    for r in range(1, 128):
        s.gpr[r] = rng.choice([0, 1, 7, rng.getrandbits(64), rng.getrandbits(8)])
    s.gpr[50] = DATA
    for r in range(128):
        s.fpr[r] = rng.getrandbits(64)
    for i in range(16):
        s.cr[i] = rng.getrandbits(4)
    s.mem.write_bytes(DATA, bytes(rng.getrandbits(8) for _ in range(256)))
    s.ctr = rng.choice([1, 2, 5])
    # chain blocks after this many runs of one (0: never; regions hold SVP64
    # elements in their locals as blocks do)
    sim.region_after = rng.choice([0, 1, 2])
    return sim


def outcome(sim, res):
    t = res.trap
    s = sim.state
    return {"stop": res.stop, "steps": res.steps, "pc": res.pc,
            "trap": t and (t.pc, t.word, t.kind, t.reason), "regs": s.copy_registers(),
            "mem": s.mem.read_bytes(DATA, 1024), "element_ops": sim.element_ops}


def run_both(seed, text, max_steps, interrupt_after):
    outs = []
    for translate in (False, True):
        sim = fresh(seed, text, translate)
        sim.interrupt_after = interrupt_after
        got = [outcome(sim, sim.run(max_steps=max_steps))]
        if got[0]["stop"] == "interrupt":  # resume where the interrupt left it
            got.append(outcome(sim, sim.run(max_steps=max_steps)))
        outs.append(got)
    assert outs[0] == outs[1], f"translated and per-instruction runs differ (seed {seed}):\n{text}"
    return outs[0]


@pytest.mark.parametrize("batch", range(4))
def test_random_svp64_loops_run_the_same_translated_or_not(batch):
    rng = random.Random(17_000 + batch)
    stops = set()
    for _ in range(25):
        text = random_program(rng)
        out = run_both(rng.getrandbits(32), text, rng.choice([1, 2, 5, 9, 40, 400]),
                       rng.choice([None, None, None, 0, 1, 5, 13, 40]))
        stops.update(o["stop"] for o in out)
    assert stops & {"end", "step_limit"}, stops


@pytest.mark.parametrize("unroll, calls", [(0, True), (8, False)])
def test_random_svp64_loops_run_the_same_with_pypys_unroll_limit(unroll, calls, monkeypatch):
    # PyPy unrolls at most 8 horizontal-first elements into a block
    # (translate/svp64.UNROLL_ELEMENTS) and ends a block before an SVP64
    # instruction it does not unroll (block.EXECUTOR_CALLS_IN_BLOCKS false):
    # the same property that way (and with none unrolled, the executor
    # called from blocks), here on any interpreter
    import isa_ext.translate.block as tb
    import isa_ext.translate.svp64 as tsv
    monkeypatch.setattr(tsv, "UNROLL_ELEMENTS", unroll)
    monkeypatch.setattr(tb, "EXECUTOR_CALLS_IN_BLOCKS", calls)
    rng = random.Random(17_100 + unroll)
    for _ in range(25):
        run_both(rng.getrandbits(32), random_program(rng), rng.choice([1, 2, 5, 9, 40, 400]),
                 rng.choice([None, None, None, 0, 1, 5, 13, 40]))


def test_sv_add_vl64_above_the_unroll_limit_calls_the_executor_in_the_block(monkeypatch):
    # as test_unrolled_sv_add_loop_adds_every_element, with PyPy's limit:
    # r0..r63 = 0, 2, ..., 126, 6 steps, 192 element operations; the block
    # holds the sv.add and the bdnz but no element's register as a local
    import isa_ext.translate.block as tb
    import isa_ext.translate.svp64 as tsv
    monkeypatch.setattr(tsv, "UNROLL_ELEMENTS", 8)
    monkeypatch.setattr(tb, "EXECUTOR_CALLS_IN_BLOCKS", True)
    sim = Simulator(ISA_SV, translate=True)
    sim.hot_after = 0
    res = _run_doubling_loop(sim)
    assert (res.stop, res.steps, sim.element_ops) == ("end", 6, 192)
    assert res.gpr[:64] == [2 * i for i in range(64)]
    block = sim._blocks[0x1000]
    assert block.mnemonics == ["sv.add", "bc"] and "_g63" not in block.source


def test_random_svp64_loops_run_the_same_with_pypys_machine_word_arithmetic(monkeypatch):
    # PyPy's forms of the 64-bit masks and signed values in specialised
    # bodies (translate.specialise._MachineWordArith), forced on here, with
    # an ISA of its own (its caches then hold those forms)
    import isa_ext.translate.specialise as sp
    monkeypatch.setattr(sp, "PYPY_ARITH", True)
    monkeypatch.setitem(globals(), "ISA_SV", ISA(extensions=["base", "svp64"]))
    rng = random.Random(17_200)
    for _ in range(25):
        run_both(rng.getrandbits(32), random_program(rng), rng.choice([1, 2, 5, 9, 40, 400]),
                 rng.choice([None, None, None, 0, 1, 5, 13, 40]))


def _run_doubling_loop(sim):
    """sv.add *0, *64, *64 (VL=64) three times round a bdnz loop, r(64+i) = i."""
    sim.load_asm("loop:\n sv.add *0, *64, *64\n bdnz loop\n")
    sim.state.svstate = SV.make(maxvl=64, vl=64)
    for i in range(64):
        sim.state.gpr[64 + i] = i
    sim.state.ctr = 3
    return sim.run()


def test_unrolled_sv_add_loop_adds_every_element():
    # sv.add *0, *64, *64 with VL=64 doubles r64..r127 into r0..r63; set
    # r(64+i) = i: r0..r63 = 0, 2, 4, ..., 126.  Run three times by bdnz
    # (CTR=3): the same values (the sources do not change), 3 x 64 element
    # operations, 6 steps (3 x (sv.add, bdnz)).
    sim = Simulator(ISA_SV, translate=True)
    sim.hot_after = 0
    res = _run_doubling_loop(sim)
    assert (res.stop, res.steps, sim.element_ops) == ("end", 6, 192)
    assert res.gpr[:64] == [2 * i for i in range(64)]
    import isa_ext.translate.svp64 as tsv
    if tsv.UNROLL_ELEMENTS < 64:  # PyPy: the sv.add is left to the per-instruction path
        assert sim._blocks[0x1000] is None
        return
    block = sim._blocks[0x1000]
    assert block.mnemonics == ["sv.add", "bc"] and "_g63 = " in block.source


def test_trap_at_an_element_leaves_svstate_at_that_element():
    # sv.ld *80, 0(50) with VL=4 and r50 = 0x7ff8: element 0 loads 0x7ff8,
    # element 1 at 0x8000 ... all in memory; put r50 at the top of the memory
    # limit instead so that element 2 faults: with a 64 KiB limit the loads at
    # r50 + 8k for base 0xfff0 are 0xfff0 (ok), 0xfff8 (ok), 0x10000 (out):
    # the trap leaves srcstep = dststep = 2 and 2 element operations counted,
    # the same as one instruction at a time.
    outs = []
    for translate in (False, True):
        sim = Simulator(ISA_SV, translate=translate, mem_limit=1 << 16)
        sim.hot_after = 0
        sim.load_asm("sv.ld *80, 0(50)\n")
        sim.state.svstate = SV.make(maxvl=4, vl=4)
        sim.state.gpr[50] = 0xfff0
        res = sim.run()
        outs.append((res.stop, res.steps, sim.element_ops,
                     SV.get(sim.state.svstate, "srcstep"), res.pc))
    assert outs[0] == outs[1]


@pytest.mark.parametrize("batch", range(2))
def test_specialised_element_loop_runs_as_the_generic_one(batch, monkeypatch):
    # the executor's horizontal-first fast path switches from the generic
    # element loop (Compiled.element_loop) to the page specialised to the
    # record's fields (translate.svp64.template_loop) once a record is hot:
    # with the switch at once and never, one instruction at a time, random
    # loops end the same
    from isa_ext.svp64 import executor
    rng = random.Random(17_100 + batch)
    specialised = 0
    for _ in range(25):
        text = random_program(rng)
        seed, max_steps = rng.getrandbits(32), rng.choice([5, 40, 400])
        interrupt = rng.choice([None, None, 3, 17])
        outs = []
        for after in (10 ** 9, 1):
            monkeypatch.setattr(executor, "TEMPLATE_AFTER", after)
            sim = fresh(seed, text, False)
            sim.interrupt_after = interrupt
            for rec in list(ISA_SV.__dict__.get("_sv_records", {}).values()):
                rec.__dict__.pop("template_loop", None)
                rec.__dict__.pop("fast_runs", None)
            outs.append(outcome(sim, sim.run(max_steps=max_steps)))
        specialised += sum(1 for rec in ISA_SV.__dict__.get("_sv_records", {}).values()
                           if rec.__dict__.get("template_loop") not in (None, rec.fast_loop))
        assert outs[0] == outs[1], f"the two element loops differ (seed {seed}):\n{text}"
    assert specialised  # the specialised loop did run


def test_a_record_whose_loop_fails_to_specialise_runs_the_generic_loop(monkeypatch):
    # translate.svp64.template_loop is an optimisation of the one-instruction
    # path: if it fails (here RuntimeError), the record keeps the generic
    # element loop and the run ends as test_unrolled_sv_add_loop_adds_every_element
    # works out: r0..r63 = 0, 2, ..., 126 after 3 x 64 element operations.
    from isa_ext.svp64 import executor
    import isa_ext.translate.svp64 as tsv

    def broken(rec):
        raise RuntimeError("cannot specialise")
    monkeypatch.setattr(tsv, "template_loop", broken)
    monkeypatch.setattr(executor, "TEMPLATE_AFTER", 1)
    isa = ISA(extensions=["base", "svp64"])  # records of its own: none specialised yet
    sim = Simulator(isa, translate=False)
    res = _run_doubling_loop(sim)
    assert (res.stop, res.steps, sim.element_ops) == ("end", 6, 192)
    assert res.gpr[:64] == [2 * i for i in range(64)]


def test_setvl_translates_and_an_sv_instruction_after_it_starts_its_own_block():
    # compare.py's VF program: an outer bdnz loop (CTR=2) setting VL=4 in
    # vertical-first mode, the inner loop adding one element per pass until
    # svstep. ends it.  r(64+i) = i + 1: r0..r3 = 2, 4, 6, 8, except that
    # svstep. 1, ... writes its step value (0, SVi=1) to r1 after each
    # element, so r1 = 0 (the svstep page: RT <- [0]*57 || step); 2 x 4 element
    # operations; steps 2 x (setvl + 4 x (sv.add, svstep., bc) + bdnz) = 28.
    # setvl's page once made the translator fail (an if without else); the
    # sv.add after it must not be specialised to the SVSTATE seen before setvl
    # ran, so the block at setvl ends there.
    sim = Simulator(ISA_SV, translate=True)
    sim.hot_after = 0
    sim.load_asm("outer:\n setvl 0, 0, 4, 1, 1, 1\ninner:\n sv.add *0, *64, *64\n"
                 " svstep. 1, 0, 1, 0\n bc 4, 3, inner\n bdnz outer\n")
    for i in range(4):
        sim.state.gpr[64 + i] = i + 1
    sim.state.ctr = 2
    res = sim.run()
    assert (res.stop, res.steps, sim.element_ops) == ("end", 28, 8)
    assert res.gpr[:4] == [2, 0, 6, 8]
    assert sim.translation_failures == []
    assert sim._blocks[0x1000].mnemonics == ["setvl"]
    assert sim._blocks[0x1004].mnemonics == ["sv.add", "svstep.", "bc"]
