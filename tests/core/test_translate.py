"""Block translation (isa_ext.translate, issue 17) runs programs exactly as the
per-instruction path does.

The property: random programs (random instances of table rows mixed with
branches inside the program, loads and stores into a data area, stores into the
program's own code, CR operations and traps) run with ``translate=True`` and
``translate=False`` from the same state end with the same registers, memory,
step count, stop reason, trap and exit status.  The per-instruction path is
the reference here: it is what every other test pins against independent
oracles.  The directed tests pin the exits a block must get exactly right,
with expectations worked out by hand in their comments.
"""
import random
import re

import pytest

from isa_ext.asm import assemble
from isa_ext.isa import ISA
from isa_ext.sim import Simulator

ISA_ALL = ISA()
CODE = 0x10000
DATA = 0x20000
# random rows: every 32-bit table row but the random-number one (two runs differ)
ROWS = [r for r in ISA_ALL.rows if r.mnemonic not in ("darn",)]


def row_word(rng, row):
    """A word matching ``row``: its fixed bits, random everywhere else (a
    prefixed row's: prefix << 32 | suffix)."""
    size = row.form.size
    return row.value | (rng.getrandbits(size) & ~row.mask & ((1 << size) - 1))


def row_line(rng, row):
    """``.long`` of a random instance of ``row`` (8 bytes for a prefixed row:
    placed across a 64-byte boundary, it traps on either path)."""
    w = row_word(rng, row)
    if row.form.prefixed:
        return f".long 0x{w >> 32:08x}, 0x{w & 0xFFFFFFFF:08x}"
    return f".long 0x{w:08x}"


def word_of(line):
    return int.from_bytes(assemble(line, isa=ISA_ALL).data[:4], "little")


# valid instruction words a self-modifying store may write over the program
PATCH_WORDS = [word_of(t) for t in ("addi 5, 5, 7", "add 6, 5, 3", "cmpd 3, 4",
                                    "b .+8", "nop")]


def random_line(rng, i, n):
    """One line of a random program with labels L0..L{n}."""
    k = rng.random()
    r = lambda: rng.randrange(32)  # noqa: E731
    if k < 0.45:
        return row_line(rng, rng.choice(ROWS))
    if k < 0.55:
        bo = rng.choice([4, 12, 16, 18, 20, 20])
        return f"bc {bo}, {rng.randrange(32)}, L{rng.randrange(n + 1)}"
    if k < 0.58:
        return f"b L{rng.randrange(n + 1)}"
    if k < 0.68:  # loads and stores through r30 (the data area)
        op = rng.choice(["ld", "std", "lwz", "stw", "lbz", "stb", "lhz", "sth"])
        disp = rng.randrange(0, 64) * (8 if op in ("ld", "std") else 1)
        return f"{op} {r()}, {disp}(30)"
    if k < 0.73:  # a store into the program itself (r31 = CODE)
        return f"stw {rng.choice([25, 26, 27])}, {4 * rng.randrange(n)}(31)"
    if k < 0.85:
        return rng.choice([f"cmpd {rng.randrange(8)}, {r()}, {r()}",
                           f"cmpw {rng.randrange(8)}, {r()}, {r()}",
                           f"add. {r()}, {r()}, {r()}",
                           f"addic. {r()}, {r()}, {rng.randrange(-50, 50)}",
                           f"crand {r()}, {r()}, {r()}", f"mcrf {rng.randrange(8)}, "
                           f"{rng.randrange(8)}", f"subfo. {r()}, {r()}, {r()}"])
    if k < 0.88:
        return rng.choice([f"tdi {rng.randrange(32)}, {r()}, {rng.randrange(-5, 5)}",
                           f"tw {rng.randrange(32)}, {r()}, {r()}"])
    return rng.choice([f"addi {r()}, {r()}, {rng.randrange(-100, 100)}",
                       f"mtctr {r()}", f"mfcr {r()}", f"mtcrf 255, {r()}",
                       f"rldicl {r()}, {r()}, {rng.randrange(64)}, {rng.randrange(64)}"])


def random_program(rng):
    n = rng.randrange(1, 40)
    lines = [f"L{i}: {random_line(rng, i, n)}" for i in range(n)]
    lines.append(f"L{n}: nop")
    return "\n".join(lines) + "\n"


def fresh(rng_seed, text, translate):
    rng = random.Random(rng_seed)
    sim = Simulator(ISA_ALL, translate=translate, strict=rng.random() < 0.5,
                    mem_limit=64 << 20)
    # translate each block the first time (not once it is hot), mostly: these
    # programs are short
    sim.hot_after = rng.choice([0, 0, 0, 1, 2])
    # chain the blocks of a loop after this many runs of a block (0: never)
    sim.region_after = rng.choice([0, 1, 1, 2, 32])
    prog = assemble(text, isa=ISA_ALL, base=CODE)
    sim.load_bytes(prog.data, addr=CODE)
    s = sim.state
    for i in range(30):
        s.gpr[i] = rng.choice([0, 1, 2, 8, 100, DATA + 8 * rng.randrange(32),
                               rng.getrandbits(64), rng.getrandbits(16), 0x7FFFFFFFFFFFFFFF])
    s.gpr[25:28] = [rng.choice(PATCH_WORDS) for _ in range(3)]
    s.gpr[30], s.gpr[31] = DATA, CODE
    for i in range(8):
        s.cr[i] = rng.getrandbits(4)
    s.ctr = rng.choice([0, 1, 3, 50])
    s.xer = rng.choice([0, 1 << 31, 1 << 29])
    if rng.random() < 0.3:
        sim.end = None  # no end address: only the step limit or a trap stops it
    return sim


def outcome(sim, res):
    t = res.trap
    return {"stop": res.stop, "steps": res.steps, "pc": res.pc,
            "trap": t and (t.pc, t.word, t.kind, t.reason), "exit": res.exit_status,
            "regs": sim.state.copy_registers(), "mem": sim.state.mem.snapshot(),
            "stdout": bytes(sim.state.stdout)}


def both_ways(seed, text, max_steps, trace_too=False, chained=None):
    """The run's outcome, the same every way; ``chained`` (a list) gets
    whether the translated run ended with a region of chained blocks."""
    ways = [False, True] + (["trace"] if trace_too else [])
    outs = []
    for way in ways:
        sim = fresh(seed, text, translate=way is True)
        res = sim.run(max_steps=max_steps, trace=way == "trace")
        outs.append(outcome(sim, res))
        if way is True and chained is not None:
            chained.append(any(e is not None and e.plain is not e
                               for e in sim._blocks.values()))
    for o in outs[1:]:
        assert o == outs[0], (f"translated and per-instruction runs differ "
                              f"(seed {seed}, max_steps {max_steps}):\n{text}")
    return outs[0]


@pytest.mark.parametrize("batch", range(6))
def test_random_programs_run_the_same_translated_or_not(batch):
    rng = random.Random(1700 + batch)
    stops = set()
    for _ in range(50):
        text = random_program(rng)
        out = both_ways(rng.getrandbits(32), text, rng.choice([1, 2, 3, 7, 50, 400]),
                        trace_too=rng.random() < 0.1)
        stops.add(out["stop"])
    assert stops & {"trap", "step_limit", "end"}, stops  # the programs reach real exits


def straight_line(rng, n):
    """A random line that does not branch (random_line's branches name labels
    L0..Ln, which loop programs do not have); it may still trap or store into
    the program."""
    while True:
        line = random_line(rng, 0, n)
        if line.startswith(("b ", "bc ")):
            continue
        # fewer random rows and traps than random_line: most loops should run
        # long enough for their blocks to be chained
        if line.startswith((".long", "tdi", "tw")) and rng.random() < 0.8:
            continue
        return line


def loop_program(rng):
    """A counted loop (r29 down to 0) whose body runs over several blocks:
    if/else arms on random conditions, calls (bl/blr) to subroutines, stores
    into the program on one pass, random instructions between them; the
    loop's blocks are what chaining joins."""
    n = 24  # stores into the program reach its first n words (most of a loop program)
    body = []
    subs = []
    for k in range(rng.randrange(1, 5)):
        kind = rng.random()
        if kind < 0.45:  # if/else on a random CR bit
            arm = lambda: [straight_line(rng, n) for _ in range(rng.randrange(0, 4))]  # noqa: E731
            body += [f"cmpdi {rng.randrange(8)}, {rng.randrange(32)}, {rng.randrange(-3, 9)}",
                     f"bc {rng.choice([4, 12])}, {rng.randrange(32)}, else{k}", *arm(),
                     f"b join{k}", f"else{k}:", *arm(), f"join{k}:"]
        elif kind < 0.6:  # a store into the program on one pass only (r29 == k):
            # the code changes under a loop that may already be chained
            body += [f"cmpdi 6, 29, {rng.randrange(1, 40)}", f"bne 6, same{k}",
                     f"stw {rng.choice([25, 26, 27])}, {4 * rng.randrange(n)}(31)",
                     f"same{k}:"]
        elif kind < 0.8:  # a call
            body.append(f"bl sub{k}")
            subs += [f"sub{k}:", *[straight_line(rng, n) for _ in range(rng.randrange(0, 5))],
                     "blr"]
        else:
            body += [straight_line(rng, n) for _ in range(rng.randrange(1, 6))]
    lines = [f"li 29, {rng.randrange(1, 80)}", "top:", *body,
             "addi 29, 29, -1", "cmpdi 7, 29, 0", "bne 7, top", "b done", *subs, "done: nop"]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", range(3))
def test_cr_moves_and_register_counted_shifts_run_the_same_translated_or_not(seed):
    # the unrolled mtcrf loop, the inlined whole-CR and field slices, and the
    # inline rotations and masks of a count held in a register, against the
    # per-instruction path (which calls the library's helpers)
    rng = random.Random(880 + seed)
    ops = [f"mtcrf {rng.randrange(256)}, {rng.randrange(30)}" for _ in range(3)]
    ops += [f"mtocrf {1 << rng.randrange(8)}, {rng.randrange(30)}", "mfcr 3",
            f"mfocrf 4, {1 << rng.randrange(8)}"]
    ops += [f"{op} {rng.randrange(3, 30)}, {rng.randrange(30)}, {rng.randrange(30)}"
            for op in ("sld", "srd", "slw", "srw", "srad", "sraw", "rotld", "rotlw")]
    ops += [f"rlwnm {rng.randrange(30)}, {rng.randrange(30)}, {rng.randrange(30)}, "
            f"{rng.randrange(32)}, {rng.randrange(32)}",
            f"rldcl {rng.randrange(30)}, {rng.randrange(30)}, {rng.randrange(30)}, "
            f"{rng.randrange(64)}",
            f"extswsli {rng.randrange(30)}, {rng.randrange(30)}, {rng.randrange(64)}"]
    rng.shuffle(ops)
    both_ways(rng.getrandbits(32), "\n".join(ops * 2) + "\n", 100)


@pytest.mark.parametrize("batch", range(2))
def test_random_programs_run_the_same_with_pypys_machine_word_arithmetic(batch, monkeypatch):
    # On PyPy the specialised bodies take machine-word forms of the 64-bit
    # masks and signed values (translate.specialise._MachineWordArith): the
    # same property with them forced on, whatever runs the test, with an ISA
    # of its own (its cache of specialised words then holds those forms); and
    # PyPy's inline accesses, struct calls rather than page views
    import isa_ext.translate.specialise as sp
    monkeypatch.setattr(sp, "PYPY_ARITH", True)
    monkeypatch.setattr(sp, "VIEWS", False)
    monkeypatch.setitem(globals(), "ISA_ALL", ISA())
    rng = random.Random(1790 + batch)
    for _ in range(50):
        both_ways(rng.getrandbits(32), random_program(rng), rng.choice([1, 2, 3, 7, 50, 400]))


def test_machine_word_arithmetic_wraps_and_compares_signed(monkeypatch):
    # r3 = 5, r4 = 20: addi 3,3,-8 wraps to 2**64 - 3 (-3); addi 4,4,-8 is
    # 12; cmpd 3,4 compares -3 < 12 signed: CR0 = LT (0b1000, SO clear);
    # cmpld 1,3,4 unsigned: 2**64 - 3 > 12, CR1 = GT (0b0100)
    import isa_ext.translate.specialise as sp
    monkeypatch.setattr(sp, "PYPY_ARITH", True)
    sim = Simulator(ISA(), translate=True)
    sim.hot_after = 0
    sim.load_asm("addi 3, 3, -8\naddi 4, 4, -8\ncmpd 3, 4\ncmpld 1, 3, 4\n")
    sim.state.gpr[3], sim.state.gpr[4] = 5, 20
    res = sim.run()
    assert (res.steps, res.gpr[3], res.gpr[4], sim.state.cr[0], sim.state.cr[1]) == (
        4, (1 << 64) - 3, 12, 0b1000, 0b0100)
    source = sim._blocks[0x1000].source
    assert "_w := " in source and ">> 63 & 1" in source  # the forms, not the masks


@pytest.mark.parametrize("batch", range(4))
def test_random_loops_over_several_blocks_run_the_same_chained_or_not(batch):
    # loops whose body spans blocks (if/else, calls) are what region chaining
    # runs: translated (chaining after 1, 2 or 32 runs of a block, or not at
    # all) against the per-instruction path, budgets from tiny to the loop's end
    rng = random.Random(1717 + batch)
    stops, chained = set(), []
    for _ in range(40):
        text = loop_program(rng)
        out = both_ways(rng.getrandbits(32), text, rng.choice([1, 3, 10, 57, 400, 3000, 3000]),
                        trace_too=rng.random() < 0.1, chained=chained)
        stops.add(out["stop"])
    assert stops & {"trap", "step_limit", "end"}, stops
    assert sum(chained) >= 3, chained  # the property is about chained loops: some are


# a loop over two blocks: 0x1008 [addi, andi., beq, addi, tdi, b] (its beq a
# side exit to 0x1018 when r3 is even) and 0x1018 [tdi, b]; an odd pass runs 6
# instructions, an even pass 5 (no addi r4)
TWO_BLOCK_LOOP = """
        li      r3, 0
        li      r4, 0
loop:   addi    r3, r3, 1
        andi.   r5, r3, 1
        beq     skip
        addi    r4, r4, 1
skip:   tdi     4, r3, {trap_at}
        b       loop
"""


def chained(trap_at=1000, region_after=1):
    sim = Simulator(ISA_ALL, translate=True)
    sim.hot_after, sim.region_after = 0, region_after
    sim.load_asm(TWO_BLOCK_LOOP.format(trap_at=trap_at))
    return sim


def is_region(sim, pc):
    entry = sim._blocks.get(pc)
    return entry is not None and entry.plain is not entry


def test_a_loop_over_two_blocks_is_chained_into_one_region():
    # pass 1 (r3 = 1) runs in the block at 0x1000 (the li's and the loop body);
    # pass 2 (r3 = 2) leaves block 0x1008 for 0x1018 (not translated yet: no
    # loop to chain), which goes back to 0x1008: both are then one region,
    # entered at either
    sim = chained()
    sim.run(max_steps=40)
    assert is_region(sim, 0x1008) and is_region(sim, 0x1018)
    assert sim._blocks[0x1008].run.func is sim._blocks[0x1018].run.func


# a loop of three blocks (L: addi, bl; S: the subroutine; R: its return, a
# bgt side exit, the back branch) that from pass 51 on also runs D (the
# detour) and B (the rest of R from "back"): an exit the region's blocks
# never took while they were new
DETOUR_LOOP = """
        li      r3, 0
        li      r4, 0
        li      r5, 0
        li      r6, 0
loop:   addi    r3, r3, 1
        bl      sub
        cmpdi   r3, 50
        bgt     detour
back:   addi    r4, r4, 1
        cmpdi   r3, 400
        blt     loop
        b       done
detour: addi    r5, r5, 1
        b       back
sub:    addi    r6, r6, 1
        blr
done:   nop
"""


def test_a_loop_through_a_region_exit_joins_the_region():
    # 400 passes: r4 and r6 count every pass, r5 those after the 50th (350);
    # the region made of L, S and R early on grows to hold D and B, whose
    # loop goes through an exit of the region (seen by its entries)
    sim = Simulator(ISA_ALL, translate=True)
    sim.hot_after, sim.region_after = 0, 4
    prog = sim.load_asm(DETOUR_LOOP)
    res = sim.run(max_steps=100_000)
    assert (res.stop, res.gpr[3], res.gpr[4], res.gpr[5], res.gpr[6]) == ("end", 400, 400, 350, 400)
    loop, detour, back = (prog.symbols[k] for k in ("loop", "detour", "back"))
    assert is_region(sim, detour) and is_region(sim, back)
    assert sim._blocks[detour].run.func is sim._blocks[loop].run.func


# the loop block L takes beq to E (its one exit naming E) or runs on to
# "b join" (J: the one exit naming J): in the region both are also written
# where that exit leaves, with no dispatch between
ARMS_LOOP = """
        li      r3, 0
loop:   addi    r3, r3, 1
        andi.   r5, r3, 1
        beq     even
        addi    r4, r4, 1
        b       join
even:   addi    r6, r6, 1
        addi    r7, r7, 3
        b       join2
join:   cmpdi   r3, 60
        blt     loop
        b       done
join2:  cmpdi   r3, 60
        blt     loop
done:   nop
"""


def run_chained_at_once(text, translate, steps):
    """(simulator, (stop, steps, pc, GPRs)) of ``text`` run for ``steps``,
    translated and chained from the first pass (or one instruction at a time)."""
    sim = Simulator(ISA_ALL, translate=translate)
    sim.hot_after, sim.region_after = 0, 1
    sim.load_asm(text)
    res = sim.run(max_steps=steps)
    return sim, (res.stop, res.steps, res.pc, list(res.gpr))


def writes_of(source, r):
    """Assignments to GPR r's local in a block's source (not the prologue's load)."""
    return len(re.findall(rf"\b_g{r} = (?!G\[)", source))


def test_blocks_written_where_their_one_exit_leaves_keep_every_step_limit():
    # every step budget from 1 to past the end: the region (its blocks E and
    # J also written inside L) stops where the instructions one at a time do
    sim, end = run_chained_at_once(ARMS_LOOP, True, 10_000)
    assert end[0] == "end" and end[3][3:8] == [60, 30, 0, 30, 90]
    # (E's r6 add written twice, in its own place and inside L; r4's once)
    region = sim._blocks[0x1004].source
    assert writes_of(region, 6) >= 2 and writes_of(region, 4) == 1
    for steps in range(1, end[1] + 2):
        assert run_chained_at_once(ARMS_LOOP, True, steps)[1] == \
            run_chained_at_once(ARMS_LOOP, False, steps)[1], steps


# the inner loop's block I ends at its branch back to itself; F (its
# fall-through, named by that exit alone) is written where I's end leaves
NESTED_LOOP = """
outer:  li      r5, 0
inner:  addi    r5, r5, 1
        addi    r7, r7, 2
        cmpdi   r5, 5
        blt     inner
        addi    r6, r6, 1
        cmpdi   r6, 20
        blt     outer
"""


def test_a_block_written_after_a_loop_block_runs_only_once_it_falls_through():
    # 20 outer passes of 5 inner ones: r5 = 5, r6 = 20, r7 = 2 * 100; the
    # inner block's taken branch goes round again, never into F
    sim, end = run_chained_at_once(NESTED_LOOP, True, 10_000)
    assert end[0] == "end" and (end[3][5], end[3][6], end[3][7]) == (5, 20, 200)
    assert writes_of(sim._blocks[0x1004].source, 6) >= 2
    for steps in range(1, end[1] + 2, 7):
        assert run_chained_at_once(NESTED_LOOP, True, steps)[1] == \
            run_chained_at_once(NESTED_LOOP, False, steps)[1], steps


def test_trap_in_a_region_reports_its_instruction_and_keeps_earlier_work():
    # tdi 4 traps when r3 == 10: passes 1..9 complete (odd 1,3,5,7,9: 5 x 6;
    # even 2,4,6,8: 4 x 5), then pass 10 runs addi, andi., beq and traps at the
    # tdi (0x1018): 2 + 30 + 20 + 3 = 55 steps; r4 counts the odd passes (5),
    # r5 = 10 & 1 = 0; the region formed in pass 2, so the trap is inside it
    sim = chained(trap_at=10)
    res = sim.run(max_steps=10_000)
    assert (res.stop, res.steps, res.trap.pc, res.pc) == ("trap", 55, 0x1018, 0x1018)
    assert (res.gpr[3], res.gpr[4], res.gpr[5]) == (10, 5, 0)
    assert is_region(sim, 0x1008)


def two_block_loop_by_hand(max_steps):
    """(pc, r3, r4) after ``max_steps`` steps of TWO_BLOCK_LOOP (no trap),
    from its instruction addresses in order, written out by hand."""
    pcs, r3 = [0x1000, 0x1004], 0
    while len(pcs) <= max_steps:
        r3 += 1
        pcs += [0x1008, 0x100c, 0x1010] + ([0x1014] if r3 % 2 else []) + [0x1018, 0x101c]
    done = pcs[:max_steps]
    return pcs[max_steps], done.count(0x1008), done.count(0x1014)


@pytest.mark.parametrize("region_after", [1, 2])
def test_step_limit_is_exact_inside_a_region(region_after):
    # every budget from 1 to 80 steps: the region never runs a block it has
    # no budget left for (e.g. 17 = 2 + 6 + 5 + 4: pass 3 stopped after its
    # addi r4, at the tdi, r3 = 3, r4 = 2)
    assert two_block_loop_by_hand(17) == (0x1018, 3, 2)
    for max_steps in range(1, 81):
        sim = chained(region_after=region_after)
        res = sim.run(max_steps=max_steps)
        assert (res.stop, res.steps) == ("step_limit", max_steps)
        assert (res.pc, res.gpr[3], res.gpr[4]) == two_block_loop_by_hand(max_steps), max_steps
    assert is_region(sim, 0x1008)


def test_region_resumes_exactly_after_a_step_limit():
    # runs of 7 steps at a time end where one run of 7 x 20 steps ends
    sim = chained()
    for _ in range(20):
        sim.run(max_steps=7)
    assert (sim.state.pc, sim.state.gpr[3], sim.state.gpr[4]) == two_block_loop_by_hand(140)


def test_store_into_a_chained_block_is_seen_by_the_next_fetch():
    # blocks 0x1008 [addi, cmpdi, bne, stw, cmpdi, beq, addi, b] and 0x1018
    # [cmpdi, beq, addi, b] loop as one region from pass 2.  Passes r3 = 1..4
    # add 1 to r4 (7 instructions each); pass 5 stores r6 = "addi 4, 4, 100"
    # over the addi at 0x1020 (8 instructions), which then adds 100, as in
    # passes 6 and 7 (7 each); pass 8 leaves at the beq (5 instructions).
    # r4 = 4 + 3 x 100 = 304; steps 2 + 28 + 8 + 14 + 5 = 57.  A region still
    # running the old addi would give r4 = 7.
    sim = Simulator(ISA_ALL, translate=True)
    sim.hot_after, sim.region_after = 0, 1
    sim.load_asm("""
        li      r3, 0
        li      r7, 0x1020
loop:   addi    r3, r3, 1
        cmpdi   r3, 5
        bne     skip
        stw     r6, 0(r7)
skip:   cmpdi   r3, 8
        beq     done
        addi    r4, r4, 1
        b       loop
done:
""")
    sim.state.gpr[6] = word_of("addi 4, 4, 100")
    res = sim.run(max_steps=10_000)
    assert (res.stop, res.steps, res.gpr[3], res.gpr[4], res.pc) == ("end", 57, 8, 304, 0x1028)


@pytest.mark.parametrize("translate", [False, True])
def test_ctrl_c_inside_a_region_reports_the_running_instruction(translate):
    # TWO_BLOCK_LOOP with an sc in place of the tdi: Ctrl-C arriving in the
    # 10th sc (r3 = 10) reports pc 0x1018 after 2 + 5 x 6 + 4 x 5 + 3 = 55
    # instructions (as the trap in test_trap_in_a_region_...), r4 = 5 written
    # back; the loop is a region by then
    from isa_ext.sim import Interrupted
    calls = []

    def ctrl_c(_state):
        calls.append(1)
        if len(calls) == 10:
            raise KeyboardInterrupt
    sim = Simulator(ISA_ALL, translate=translate)
    sim.hot_after, sim.region_after = 0, 1
    sim.load_asm(TWO_BLOCK_LOOP.replace("tdi     4, r3, {trap_at}", "sc").replace(
        "li      r4, 0", "li      r0, 20"))
    sim.state.syscall_handler = ctrl_c
    with pytest.raises(Interrupted) as e:
        sim.run(max_steps=10_000)
    assert (e.value.pc, e.value.steps, sim.state.gpr[3], sim.state.gpr[4]) == (0x1018, 55, 10, 5)
    assert is_region(sim, 0x1008) == translate


def test_a_region_that_fails_to_translate_leaves_its_blocks_unchained(monkeypatch):
    # a translator failure while chaining: the blocks run on their own, to
    # the hand-worked answer (as test_trap_in_a_region_...), the failure kept
    import isa_ext.translate.block as block

    def broken(members, code_cache=None):
        raise RecursionError("too deep")
    monkeypatch.setattr(block, "translate_region", broken)
    sim = chained(trap_at=10)
    res = sim.run(max_steps=10_000)
    assert (res.stop, res.steps, res.trap.pc, res.gpr[4]) == ("trap", 55, 0x1018, 5)
    assert not is_region(sim, 0x1008)
    assert sim.translation_failures[0] == (0x1018, "region: RecursionError: too deep")


LOOP = """
        li      r3, 0
loop:   addi    r3, r3, 1
        cmpd    r3, r4
        bne     loop
"""


@pytest.mark.parametrize("hot_after", [0, 16])
@pytest.mark.parametrize("max_steps", [1, 2, 3, 4, 5, 6, 7, 100, 3001])
def test_step_limit_is_exact_inside_a_looping_block(max_steps, hot_after):
    # li, then 3 instructions a pass: after n steps the addi has run
    # (n + 1) // 3 times and the next instruction is number 1 + (n - 1) % 3;
    # 1000 passes take 1 + 3000 = 3001 steps, and a run stopped by its step
    # limit reports step_limit even on the end address (as without translation)
    sim = Simulator(ISA_ALL, translate=True)
    sim.hot_after = hot_after
    sim.load_asm(LOOP)
    sim.state.gpr[4] = 1000
    res = sim.run(max_steps=max_steps)
    assert (res.stop, res.steps) == ("step_limit", max_steps)
    assert res.gpr[3] == (max_steps + 1) // 3
    assert res.pc == (0x1000 + 4 * (1 + (max_steps - 1) % 3) if max_steps < 3001 else 0x1010)


def test_looping_block_reaches_the_end():
    sim = Simulator(ISA_ALL, translate=True)
    sim.load_asm(LOOP)
    sim.state.gpr[4] = 1000
    res = sim.run(max_steps=3002)
    assert (res.stop, res.steps, res.gpr[3], res.pc) == ("end", 3001, 1000, 0x1010)


def test_trap_in_a_block_reports_its_instruction_and_keeps_earlier_work():
    # addi r3 runs (r3 = 5), tdi 4,3,5 (trap if r3 == 5) traps at 0x1004 after
    # 1 completed step; the following addi r4 never runs
    sim = Simulator(ISA_ALL, translate=True)
    sim.hot_after = 0
    sim.load_asm("addi 3, 3, 5\ntdi 4, 3, 5\naddi 4, 4, 1\n")
    res = sim.run()
    assert (res.stop, res.steps, res.trap.pc, res.pc) == ("trap", 1, 0x1004, 0x1004)
    assert (res.gpr[3], res.gpr[4]) == (5, 0)


@pytest.mark.parametrize("translate", [False, True], ids=["per-insn", "block"])
def test_store_into_a_read_only_page_traps_at_the_store(translate):
    # a page held as bytes is read-only (the Linux layer's PROT_READ): the std
    # at 0x1008 traps as a segmentation fault after 2 steps, leaves the page
    # as it was, and the addi after it never runs
    sim = Simulator(ISA_ALL, translate=translate)
    sim.hot_after = 0
    sim.load_asm("lis 30, 2\naddi 3, 0, 7\nstd 3, 8(30)\naddi 4, 0, 1\n")
    sim.state.mem.write(0x20008, 8, 0x55)
    sim.state.mem.pages[0x20] = bytes(sim.state.mem.pages[0x20])
    res = sim.run()
    assert (res.stop, res.steps, res.trap.pc, res.gpr[3], res.gpr[4]) == \
        ("trap", 2, 0x1008, 7, 0)
    assert "read-only" in str(res.trap) and sim.state.mem.read(0x20008, 8) == 0x55


def test_store_into_the_running_block_is_seen_by_the_next_fetch():
    # the stw at 0x1004 overwrites the addi r5,r5,1 at 0x1008 with r6 = the word
    # of "addi 5, 5, 100": the new instruction runs, so r5 = 100, not 1
    sim = Simulator(ISA_ALL, translate=True)
    sim.hot_after = 0
    sim.load_asm("addi 7, 0, 0x1000\nstw 6, 8(7)\naddi 5, 5, 1\n")
    sim.state.gpr[6] = word_of("addi 5, 5, 100")
    res = sim.run()
    assert (res.stop, res.steps, res.gpr[5]) == ("end", 3, 100)


def test_switch_turns_translation_off(monkeypatch):
    assert Simulator(ISA_ALL, translate=False).translate is False
    monkeypatch.setenv("ISA_EXT_TRANSLATE", "0")
    assert Simulator(ISA_ALL).translate is False
    monkeypatch.setenv("ISA_EXT_TRANSLATE", "1")
    assert Simulator(ISA_ALL).translate is True


def test_cli_no_translate_runs_per_instruction_with_the_same_report(tmp_path, capsys, monkeypatch):
    from isa_ext import sim as simmod
    from isa_ext.cli import main
    monkeypatch.delenv("ISA_EXT_TRANSLATE", raising=False)
    src = tmp_path / "loop.s"
    src.write_text("li 4, 300\n" + LOOP)
    made = []
    real = simmod.Simulator.__init__

    def spy(self, *a, **k):
        real(self, *a, **k)
        made.append(self)
    monkeypatch.setattr(simmod.Simulator, "__init__", spy)
    outs = []
    for extra in ([], ["--no-translate"]):
        assert main(["run", str(src)] + extra) == 0
        outs.append(capsys.readouterr().out)
    # li 4; li 3; then 300 passes of 3: 902 steps either way
    assert "steps: 902" in outs[0] and outs[0] == outs[1]
    assert [m.translate for m in made] == [True, False]


def test_system_call_inside_a_block_sees_and_sets_the_block_registers():
    # Linux ppc64: write is system call 4 (r3 fd, r4 buffer, r5 length; r3 <- bytes
    # written), exit is 1 (r3 status).  sc hands the state to the system call, so the
    # block writes its register locals back before it and reloads them after: the
    # write sees r3..r5 set just before it, and the addi after it sees r3 = 2,
    # making r6 = 12; the exit ends the run after 9 instructions with status 9.
    sim = Simulator(ISA_ALL, translate=True)
    sim.hot_after = 0
    sim.load_asm("li 0, 4\nli 3, 1\naddi 4, 31, 0\nli 5, 2\nsc\naddi 6, 3, 10\n"
                 "li 0, 1\nli 3, 9\nsc\n")
    sim.state.gpr[31] = DATA
    sim.state.mem.write_bytes(DATA, b"hi")
    res = sim.run()
    assert (res.stop, res.exit_status, res.steps) == ("exit", 9, 9)
    assert res.stdout == b"hi" and res.gpr[6] == 12
    assert sim._blocks[0x1000].length == 9  # one block ran all of it


@pytest.mark.parametrize("translate", [False, True])
def test_ctrl_c_inside_a_block_reports_the_running_instruction(translate):
    # Ctrl-C arriving while the sc at 0x1008 runs (here: raised by the system call
    # handler) reports pc 0x1008 after the 2 completed instructions, with the
    # first addi's r3 = 1 written back, as the per-instruction path does.
    from isa_ext.sim import Interrupted

    def ctrl_c(_state):
        raise KeyboardInterrupt
    sim = Simulator(ISA_ALL, translate=translate)
    sim.hot_after = 0
    sim.load_asm("addi 3, 3, 1\nli 0, 20\nsc\naddi 3, 3, 1\n")
    sim.state.syscall_handler = ctrl_c
    with pytest.raises(Interrupted) as e:
        sim.run()
    assert (e.value.pc, e.value.steps, sim.state.gpr[3]) == (0x1008, 2, 1)


def test_a_block_that_fails_to_translate_runs_an_instruction_at_a_time(monkeypatch):
    # A translator failure (here RecursionError, what compile() raises on
    # source nested too deeply) must not end the run: the block runs
    # unblocked, to the loop's own answer (r3 counts to r4 = 1000 in 3001
    # steps, as test_looping_block_reaches_the_end), and the failure is kept.
    import isa_ext.translate.block as block

    def broken(sim, start, end):
        raise RecursionError("maximum recursion depth exceeded during compilation")
    monkeypatch.setattr(block, "translate", broken)
    sim = Simulator(ISA_ALL, translate=True)
    sim.hot_after = 0
    sim.load_asm(LOOP)
    sim.state.gpr[4] = 1000
    res = sim.run(max_steps=3002)
    assert (res.stop, res.steps, res.gpr[3], res.pc) == ("end", 3001, 1000, 0x1010)
    assert sim.translation_failures[0] == (0x1000, "RecursionError: maximum recursion "
                                                   "depth exceeded during compilation")


@pytest.mark.parametrize("translate", [False, True])
def test_trap_after_a_cr_write_leaves_that_cr_and_ctr_visible(translate):
    # A block holds CR fields, CTR and SO in locals (block._state_locals); a
    # trap mid-block must write them back.  XER SO = 1, r3 = 5, CTR = 3:
    # cmpdi 3, 5 sets CR0 = EQ | SO = 0b0011; bc 18 (decrement CTR, branch if
    # it is 0) makes CTR 2 and falls through; tdi 4, 3, 5 traps (r3 == 5) at
    # 0x1008 after 2 steps; the cmpdi 3, 9 after it (CR0 would be GT | SO =
    # 0b0101) never runs, nor the mtcrf-free addi
    sim = Simulator(ISA_ALL, translate=translate)
    sim.hot_after = 0
    sim.load_asm("cmpdi 3, 5\nbc 18, 0, 0x1100\ntdi 4, 3, 5\ncmpdi 3, 9\naddi 4, 4, 1\n")
    s = sim.state
    s.gpr[3], s.ctr, s.xer = 5, 3, 1 << 31
    res = sim.run()
    assert (res.stop, res.steps, res.trap.pc) == ("trap", 2, 0x1008)
    assert (s.cr[0], s.ctr, s.so, s.gpr[4]) == (0b0011, 2, 1, 0)
    if translate:  # the run above went through a block holding CR0 and CTR in locals
        src = sim._blocks[0x1000].source
        assert "_c0 = CRF[0]" in src and "_s_ctr = s.ctr" in src


@pytest.mark.parametrize("max_steps", [5, 301])
def test_looping_block_writes_back_its_cr_and_ctr(max_steps):
    # li 3, 0; then passes of addi 3,3,1; cmpdi 3, 10; bc 16 (bdnz) back, CTR =
    # 100: after 1 + 300 steps r3 = 100, CR0 = GT (100 > 10, SO 0) = 0b0100,
    # CTR = 0, at the end.  Stopped after 5 steps (li and 4 more: one pass and
    # the addi of the second) r3 = 2, CR0 from cmpdi 1, 10 = LT = 0b1000 and
    # CTR = 99.
    sim = Simulator(ISA_ALL, translate=True)
    sim.hot_after = 0
    sim.load_asm("li 3, 0\nloop: addi 3, 3, 1\ncmpdi 3, 10\nbc 16, 0, loop\n")
    sim.state.ctr = 100
    res = sim.run(max_steps=max_steps)
    s = sim.state
    expect = (100, 0b0100, 0) if max_steps == 301 else (2, 0b1000, 99)
    assert res.steps == max_steps and (s.gpr[3], s.cr[0], s.ctr) == expect
    assert "_c0 = CRF[0]" in sim._blocks[0x1004].source


class _Body:
    """A stand-in for one instruction's specialised body (the attributes
    block._state_locals reads)."""

    def __init__(self, lines, next_src="CIA + 4"):
        self.lines, self.next_src, self.localised = lines, next_src, True


@pytest.mark.parametrize("lines, want", [
    # SO and CTR read and written as plain attributes: held in locals, the
    # written ones written back
    (["s.so = 1", "v_x = s.ctr"], ([], [], ["ctr", "so"], ["so"])),
    # s.xer composes SO from s.so: a local SO would be stale there, so no
    # state locals at all (CR0 still is one)
    (["s.so = 1", "v_x = s.xer", "CRF[0] = 2"], ([0], [0], [], [])),
    # CRF[(1)] is a constant field the textual renaming would miss: no CR locals
    (["CRF[0] = 1", "v_x = CRF[(1)]"], ([], [], [], [])),
    # the CR file handed on whole: no CR locals
    (["CRF[2] = 1", "v_x = _cr_pack(CRF)"], ([], [], [], [])),
    # the state handed to a call on a line of its own (svstep's
    # _svstate_next, an executor call after the CALL marker): held, the
    # block writing its locals back before that line and reading them after
    (["s.svstate = 5", "v_x = _next(s, 0, 0)", "CRF[0] = s.sv_end"],
     ([0], [0], ["sv_end", "svstate"], ["svstate"])),
    (["s.svstate = 5", "#CALL _r = _X0(s, 4096)"], ([], [], ["svstate"], ["svstate"])),
    # ... but not inside an expression (no line of its own to wrap)
    (["s.svstate = 5", "v_x = _next(s, 0, 0) + 1"], ([], [], [], [])),
    (["CRF[0] = 1", "v_x = _next(s, 0, 0) + 1"], ([], [], [], [])),
    # a method of the state may reach the CR file (sc's s.syscall() sets CR0.SO)
    (["CRF[0] = 1", "s.syscall()"], ([], [], [], [])),
])
def test_block_holds_cr_and_state_in_locals_only_where_nothing_else_sees_them(lines, want):
    from isa_ext.translate.block import _state_locals
    _rename, crs, crs_written, attrs, attrs_written = _state_locals([(0x1000, 4, None,
                                                                      _Body(lines))])
    assert (crs, crs_written, attrs, attrs_written) == want


def test_vertical_first_loop_holds_svstate_in_a_local_and_counts_exactly():
    # the VF loop of bench_svp64 (sv.add, svstep., bc) over VL=4, r(64+i) =
    # i + 1: r0, r2, r3 = 2, 6, 8 (r1 = 0, svstep.'s step value written
    # after the element), 4 element operations, 12 steps; SVSTATE leaves
    # vertical-first mode at the end (the svstep appendix: the end of the
    # loop clears vfirst) with its steps back at 0, so it is make(VL=4) alone
    from isa_ext.svp64 import svstate as SV
    sim = Simulator(ISA(extensions=["base", "svp64"]), translate=True)
    sim.hot_after = 0
    sim.load_asm("loop:\n sv.add *0, *64, *64\n svstep. 1, 0, 1, 0\n bc 4, 3, loop\n")
    for i in range(4):
        sim.state.gpr[64 + i] = i + 1
    sim.state.svstate = SV.make(maxvl=4, vl=4, vfirst=1)
    res = sim.run()
    assert (res.stop, res.steps, sim.element_ops) == ("end", 12, 4)
    assert res.gpr[:4] == [2, 0, 6, 8] and sim.state.svstate == SV.make(maxvl=4, vl=4)
    assert "_s_svstate = s.svstate" in sim._blocks[0x1000].source


def test_a_superblock_ends_at_its_branch_back_to_the_start():
    # r3 counts 0..5 round the loop (cmpdi/bne back to "loop" at 0x1004);
    # the li's after it run once, when the loop ends: the loop's block is
    # its three instructions, and the code after it a block of its own, so
    # no pass of the loop writes back r4 or r5.  Values by hand: r3 = 5
    # (five passes), r4 = 1, r5 = 2; steps 1 + 3 x 5 + 2 = 18.
    sim = Simulator(ISA_ALL, translate=True)
    sim.hot_after = 0
    sim.load_asm("li 3, 0\nloop:\n addi 3, 3, 1\n cmpdi 3, 5\n bne loop\n li 4, 1\n li 5, 2\n")
    res = sim.run()
    assert (res.stop, res.steps, res.gpr[3], res.gpr[4], res.gpr[5]) == ("end", 18, 5, 1, 2)
    assert sim._blocks[0x1004].mnemonics == ["addi", "cmpi", "bc"]
    assert "_g4" not in sim._blocks[0x1004].source


def test_constant_targets_of_a_conditional_branch():
    # bne at 0x100c back 8 bytes (BD = -2): taken to 0x1004, else 0x1010
    from isa_ext.translate.block import _constant_targets
    sim = Simulator(ISA_ALL, translate=True)
    sim.hot_after = 0
    sim.load_asm("li 3, 0\nloop:\n addi 3, 3, 1\n cmpdi 3, 5\n bne loop\n")
    sim.run()
    pc, _size, _d, sp = sim._blocks[0x1004].insns[-1]
    assert pc == 0x100c and _constant_targets(sp, pc) == {0x1004, 0x1010}


def test_simulators_of_one_isa_share_compiled_blocks():
    # the same program in two simulators of one ISA: the second's block runs
    # the code object compiled for the first (its own function and names),
    # with the same result: r3 counts to 5 (see the superblock test above)
    isa = ISA(extensions=["base"])
    runs = []
    for _ in range(2):
        sim = Simulator(isa, translate=True)
        sim.hot_after = 0
        sim.load_asm("li 3, 0\nloop:\n addi 3, 3, 1\n cmpdi 3, 5\n bne loop\n")
        assert sim.run().gpr[3] == 5
        runs.append(sim._blocks[0x1004].run)
    assert runs[0] is not runs[1] and runs[0].__code__ is runs[1].__code__


@pytest.mark.parametrize("offset, width, hits", [
    # 0x1000 + offset: where the store goes; the program's words are
    # 0x1000..0x101b, nop at 0x100c, addi 5, 5, 1 at 0x1010
    (0x20, "std", False),   # the same page as the code, past its last word
    (0x10, "stw", True),    # onto addi 5, 5, 1
    (0x0c, "std", True),    # 8 bytes onto the nop (rewritten as nop) and the addi
])
def test_a_translated_store_forgets_the_code_exactly_when_it_hits_a_decoded_word(
        offset, width, hits):
    # the loop runs the addi and the store twice (CTR = 2), translated from
    # the first pass (hot_after 0).  The store writes "addi 5, 5, 100" (for
    # std: little-endian, the nop's word in the low half, the addi's in the
    # high half): one that hits makes the second pass run the new addi,
    # r5 = 1 + 100; one that misses leaves addi 5, 5, 1 twice, r5 = 2.
    # Steps: li, li, mtctr, nop, then 2 x (addi, store, bdnz) = 10.
    w = word_of("addi 5, 5, 100")
    sim = Simulator(ISA_ALL, translate=True)
    sim.hot_after = 0
    sim.load_asm(f"li 7, 0x1000\nli 8, 2\nmtctr 8\nnop\nloop:\n addi 5, 5, 1\n"
                 f" {width} 6, {offset}(7)\n bdnz loop\n")
    sim.state.gpr[6] = word_of("nop") | w << 32 if width == "std" else w
    res = sim.run()
    assert (res.stop, res.steps) == ("end", 10)
    assert res.gpr[5] == (101 if hits else 2)
    assert (sim._blocks.get(0x1010) is not None) == (not hits)  # forgotten on a hit


def test_code_store_checks_every_word_an_unaligned_store_covers():
    # 8 bytes at 0x100e cover the words 0x100c (its last two bytes), 0x1010
    # (whole) and 0x1014 (its first two): only 0x1010 watched, still a hit
    from isa_ext.machine import Memory
    forgotten = []
    m = Memory()
    m.watch_code(0x1010, 0x1014)
    m.on_code_write = lambda: forgotten.append(1)
    assert m.code_pages == {1}
    m.code_store(0x1016, 8)  # 0x1016..0x101d: past the word
    assert forgotten == [] and m.code_words
    m.code_store(0x100e, 8)
    assert forgotten == [1] and not m.code_words and not m.code_pages


def test_a_zero_displacement_adds_nothing():
    # ld RT,0(RA): EA = (RA) + 0 (Power ISA book I, 3.3.2): the block reads the
    # register itself, and loads what the book says
    sim = Simulator(ISA(extensions=["base"]), translate=True)
    sim.hot_after = 0
    sim.load_asm("li 4, 0x100\nstd 4, 0(4)\nld 3, 0(4)\nlwz 5, 0(4)\nstw 4, 8(4)\n")
    res = sim.run(max_steps=5)
    src = "".join(b.source for b in sim._blocks.values() if b)
    assert "ld" in " ".join(m for b in sim._blocks.values() if b for m in b.mnemonics)
    assert not re.search(r"\b_g4 \+ 0\b", src) and re.search(r"\b_g4 \+ 8\b", src)
    assert res.gpr[3] == 0x100 and res.gpr[5] == 0x100 and sim.state.mem.read(0x108, 4) == 0x100


@pytest.mark.parametrize("translate", [False, True], ids=["per-insn", "block"])
def test_byte_loads_and_stores_reach_the_byte_they_name(translate):
    # stb of r5 = 0x1F1, 0x1F2, ... at 0x20FFC..0x20FFF and 0x21000..0x21003
    # (across a page end) writes the low byte only: 0xF1..0xF8; lbz reads each
    # back, and lbz of the read-only page's bytes 0x22FFE/0x22FFF (0xAB, 0xCD
    # written before it was made read-only) reads those
    lines = ["lis 30, 2", "ori 30, 30, 0xFFC", "li 5, 0x1F0"]
    for i in range(8):
        lines += ["addi 5, 5, 1", f"stb 5, {i}(30)"]
    lines += [f"lbz {10 + i}, {i}(30)" for i in range(8)]
    lines += ["lis 29, 2", "ori 29, 29, 0x1FFE", "lbz 20, 0x1000(29)", "lbz 21, 0x1001(29)"]
    sim = Simulator(ISA_ALL, translate=translate)
    sim.hot_after = 0
    sim.load_asm("\n".join(lines) + "\n")
    mem = sim.state.mem
    mem.write(0x22FFE, 2, 0xCDAB)   # little-endian: 0xAB at 0x22FFE
    mem.pages[0x22] = bytes(mem.pages[0x22])
    res = sim.run()
    assert res.stop == "end", res
    assert [res.gpr[10 + i] for i in range(8)] == [0xF1 + i for i in range(8)]
    assert (res.gpr[20], res.gpr[21]) == (0xAB, 0xCD)
    assert [mem.read(0x20FFC + i, 1) for i in range(8)] == [0xF1 + i for i in range(8)]


@pytest.mark.parametrize("translate", [False, True], ids=["per-insn", "block"])
def test_mfspr_and_mtspr_of_lr_ctr_tar(translate):
    # by hand: load_asm sets LR to the end address (0x1000 + 4 * 9 = 0x1024);
    # mtctr 3 -> CTR 77, mflr 4 -> 0x1024, mtlr 3 -> LR 77, mfctr 5 -> 77,
    # mtspr 815 (TAR) -> 0x1024, mfspr 6 <- TAR, mflr 7 -> 77, mfspr 8, 9 <- CTR
    sim = Simulator(ISA_ALL, translate=translate)
    sim.hot_after = 0
    sim.load_asm("li 3, 77\nmtctr 3\nmflr 4\nmtlr 3\nmfctr 5\nmtspr 815, 4\nmfspr 6, 815\n"
                 "mflr 7\nmfspr 8, 9\n")
    res = sim.run()
    assert (res.stop, res.steps) == ("end", 9)
    assert [res.gpr[i] for i in range(4, 9)] == [0x1024, 77, 0x1024, 77, 77]
    assert (sim.state.lr, sim.state.ctr, sim.state.tar) == (77, 77, 0x1024)


def test_a_block_holds_lr_ctr_tar_of_mfspr_and_mtspr_in_locals():
    # mfspr/mtspr of a plain SPR (machine.SPR_PLAIN) is its attribute: the
    # block reads it into a local once and writes it back at the exit,
    # calling neither spr_read nor spr_write
    sim = Simulator(ISA_ALL, translate=True)
    sim.hot_after = 0
    sim.load_asm("mflr 4\nmtctr 4\nmtspr 815, 4\naddi 3, 3, 1\n")
    sim.run()
    src = next(b for b in sim._blocks.values() if b is not None).source
    assert "spr_read" not in src and "spr_write" not in src
    assert "_s_lr = s.lr" in src and "s.ctr = _s_ctr" in src and "s.tar = _s_tar" in src


@pytest.mark.parametrize("translate, view", [(False, False), (True, False), (True, True)],
                         ids=["per-insn", "block", "block-through-a-view"])
def test_an_address_that_wraps_past_2_to_the_64_reaches_the_wrapped_byte(translate, view):
    # effective addresses are modulo 2**64 (the book's EA computation): with
    # r4 = 0, -8(r4) is 0xFFFFFFFFFFFFFFF8 and with r5 = 2**64 - 8, 8(r5) and
    # 0(r5 + r6 = 8) are address 0.  Memory there holds by hand: 0x1122334455667788
    # at the top, 0xA1 at 0, which the loads read back and the stores change
    sim = Simulator(ISA_ALL, translate=translate)
    sim.hot_after = 0
    sim.load_asm("ld 10, -8(4)\nlbz 11, 8(5)\nlbzx 12, 5, 6\nstb 7, 8(5)\nstd 7, -8(4)\n"
                 "lbz 13, 0(4)\nldx 14, 5, 0\n", addr=0x10000)
    mem, s = sim.state.mem, sim.state
    mem.write(0xFFFFFFFFFFFFFFF8, 8, 0x1122334455667788)
    mem.write(0, 1, 0xA1)
    s.gpr[4], s.gpr[5], s.gpr[6], s.gpr[7] = 0, (1 << 64) - 8, 8, 0x0102030405060708
    seen = []
    if view:   # another memory object: every access is its call, with the address as
        # the book has it (a trace records it)
        from isa_ext.machine import MemoryView

        class Seen(MemoryView):
            def read(self, addr, n):
                seen.append(addr)
                return self.mem.read(addr, n)

            def write(self, addr, n, v):
                seen.append(addr)
                return self.mem.write(addr, n, v)
        s.mem = Seen(mem)
    res = sim.run()
    assert (res.stop, res.steps) == ("end", 7), res
    assert all(0 <= a < 1 << 64 for a in seen) and len(seen) == 7 * view
    assert [res.gpr[i] for i in (10, 11, 12, 13, 14)] == \
        [0x1122334455667788, 0xA1, 0xA1, 0x08, 0x0102030405060708]
    assert mem.read(0, 1) == 0x08 and mem.read(0xFFFFFFFFFFFFFFF8, 8) == 0x0102030405060708


def test_an_inline_access_computes_its_address_without_a_64_bit_mask():
    # a D-form or X-form address is a register plus a displacement or a
    # register: the block computes it as that sum (a negative displacement
    # subtracted), the 64-bit reduction left to the call its other path takes
    sim = Simulator(ISA(extensions=["base"]), translate=True)
    sim.hot_after = 0
    sim.load_asm("li 4, 0x100\nstd 4, -16(4)\nld 3, -16(4)\nldx 5, 4, 3\nstb 4, 8(4)\n")
    res = sim.run()
    src = "".join(b.source for b in sim._blocks.values() if b)
    assert re.search(r"_a := \(?_g4 - 16\b", src) and re.search(r"_a = \(?_g4 - 16\b", src)
    assert re.search(r"_a := \(?_g4 \+ _g3\b", src) and re.search(r"_a = \(?_g4 \+ 8\b", src)
    assert str((1 << 64) - 16) not in src
    assert (res.gpr[3], res.gpr[5]) == (0x100, sim.state.mem.read(0x200, 8))


def test_a_loop_over_many_blocks_runs_inside_its_region():
    # a loop calling twenty subroutines, sub k counting in r(10+k) the i in
    # 0..299 with bit k % 6 set (by hand: the model below).  Once chained
    # (region_after 2), its 40-odd blocks (more than block.DISPATCH_CHAIN, so
    # chosen by a binary search of their addresses; fewer than
    # sim.MAX_REGION_BLOCKS) run as one region: the dispatcher is reached a
    # few dozen times, not once per block per pass
    from isa_ext.translate.block import DISPATCH_CHAIN
    n, subroutines = 300, 20
    body, subs = [], []
    for k in range(subroutines):
        body.append(f"bl sub{k}")
        subs += [f"sub{k}:", f"andi. 5, 3, {1 << k % 6}", "beqlr", f"addi {10 + k}, {10 + k}, 1",
                 "blr"]
    sim = Simulator(ISA(extensions=["base"]), translate=True)
    sim.hot_after, sim.region_after = 0, 2
    sim.load_asm("\n".join(["li 3, 0", f"li 4, {n}", "top:", *body, "addi 3, 3, 1",
                            "cmpd 3, 4", "blt top", "b done", *subs, "done: nop"]) + "\n")

    class Counting(dict):
        gets = 0

        def get(self, k, d=None):
            Counting.gets += 1
            return dict.get(self, k, d)
    sim._blocks = Counting()
    res = sim.run()
    assert res.stop == "end"
    assert [res.gpr[10 + k] for k in range(subroutines)] == \
        [sum(1 for i in range(n) if i >> k % 6 & 1) for k in range(subroutines)]
    regions = {id(b.run): b for b in sim._blocks.values() if b is not None and b.plain is not b}
    assert any(b.source.count("_nia ==") > DISPATCH_CHAIN and "if _nia <" in b.source
               for b in regions.values())
    assert Counting.gets < 200, Counting.gets


def test_on_pypy_the_first_block_raises_the_jits_trace_limit_once(monkeypatch):
    # the interpreter's name and pypyjit stood in for: the first translation
    # sets trace_limit to PYPY_TRACE_LIMIT, later ones nothing; on CPython
    # (the real sys.implementation here unless this runs on PyPy) nothing
    import sys
    import types
    from isa_ext.translate import block
    calls = []
    fake = types.ModuleType("pypyjit")
    fake.set_param = lambda **kw: calls.append(kw)
    monkeypatch.setitem(sys.modules, "pypyjit", fake)
    monkeypatch.setattr(block, "_jit_tuned", [])
    monkeypatch.setattr(block.sys, "implementation", types.SimpleNamespace(name="cpython"))
    block.tune_pypy_jit()
    assert calls == [] and block._jit_tuned == []
    monkeypatch.setattr(block.sys, "implementation", types.SimpleNamespace(name="pypy"))
    sim = Simulator(ISA(extensions=["base"]), translate=True)
    sim.hot_after = 0
    sim.load_asm("addi 3, 3, 1\nb 1f\n1: addi 3, 3, 1\n")
    assert sim.run().gpr[3] == 2
    assert calls == [{"trace_limit": block.PYPY_TRACE_LIMIT}]


def test_a_conditional_branch_tests_its_condition_without_a_next_address_temporary():
    # bne's body is NIA = CIA + 4; if not CR0.EQ: NIA = target: the block
    # tests the condition and leaves with the target, and falls through
    # without assigning anything (translate.block._branch_form); the loop
    # below runs r3 from 0 to 10 (ten taken bne, then one not taken)
    sim = Simulator(ISA(extensions=["base"]), translate=True)
    sim.hot_after = 0
    sim.load_asm("1: addi 3, 3, 1\ncmpdi 3, 10\nbne 1b\naddi 4, 4, 1\n")
    res = sim.run(max_steps=1_000)
    assert (res.stop, res.steps, res.gpr[3], res.gpr[4]) == ("end", 31, 10, 1)
    source = sim._blocks[0x1000].source
    assert "NIA" not in source and "if not _c0 & 2:" in source


@pytest.mark.parametrize("translate", [False, True], ids=["per-insn", "block"])
@pytest.mark.parametrize("branch, via", [("blrl", "lr"), ("bctrl", "ctr")])
def test_a_branch_and_link_through_lr_or_ctr_goes_where_it_pointed_before(
        branch, via, translate):
    # blrl/bctrl: NIA from LR/CTR as they were, then LR = CIA + 4 (Power ISA
    # book I, 2.4): to sub (0x100c), back by blr to 0x1004, on to done
    sim = Simulator(ISA_ALL, translate=translate)
    sim.hot_after = 0
    prog = sim.load_asm(f"{branch}\naddi 3, 3, 1\nb done\n"
                        "sub: addi 4, 4, 1\nblr\ndone: nop\n")
    setattr(sim.state, via, prog.symbols["sub"])
    res = sim.run(max_steps=100)
    assert (res.stop, res.steps, res.gpr[3], res.gpr[4]) == ("end", 6, 1, 1)


@pytest.mark.parametrize("branch, goes_on", [("blr", False), ("bctr", False), ("b 0x1000", False),
                                             ("beqlr", True), ("bdnz 0x1000", True)])
def test_a_block_ends_at_a_branch_taken_whatever_holds(branch, goes_on):
    # blr, bctr and b go to their target whatever the condition register and
    # CTR hold: the word after them is another path's code and is not in their
    # block; a conditional branch's block goes on past it (a superblock)
    sim = Simulator(ISA_ALL, translate=True)
    sim.hot_after = 0
    sim.load_asm(f"addi 3, 3, 1\n{branch}\naddi 4, 4, 1\n")
    sim.state.lr = sim.state.ctr = 0x2000
    sim.run(max_steps=2)
    assert sim._blocks[0x1000].length == (3 if goes_on else 2)


def test_a_store_ending_a_regions_block_that_rewrites_its_code_is_seen_at_once():
    # A loop of two blocks: the first is MAX_LENGTH (64) instructions long
    # and ends with a store (nothing after it in the block looks at decoded
    # code) of a word toggled each pass between addi 3,3,1 (0x38630001) and
    # addi 3,3,100 (0x38630064, xor 0x65).  Passes 1-4 store it into a data
    # page (T + 0x1000: r13 = 1 while r12 = 5 - pass > 0); from pass 5 on
    # over T, the second block's first instruction, which then runs +100
    # (passes 5, 7, 9: an odd number of toggles) or +1.  r3 = 4 * 1 +
    # 3 * 100 + 3 * 1 = 307 (by hand), as the per-instruction path gives,
    # chained (the loop is a region by pass 5) or not.
    filler = "addi 5, 5, 1\n" * 57
    text = ("li 3, 0\nli 10, 0x65\nlis 9, 0x3863\nori 9, 9, 1\nli 4, 10\nmtctr 4\n"
            "li 12, 5\nlis 14, 0\nori 14, 14, 0x1124\n"
            "loop:\nxor 9, 9, 10\naddi 12, 12, -1\nneg 13, 12\nsrdi 13, 13, 63\n"
            f"sldi 13, 13, 12\nadd 8, 14, 13\n{filler}stw 9, 0(8)\n"
            "addi 3, 3, 1\nbdnz loop\n")
    for translate, region_after in ((False, 0), (True, 0), (True, 1), (True, 2)):
        sim = Simulator(ISA(extensions=["base"]), translate=translate)
        sim.hot_after, sim.region_after = 0, region_after
        sim.load_asm(text)
        res = sim.run(max_steps=10_000)
        assert (res.stop, res.gpr[3], res.gpr[5]) == ("end", 307, 570), (translate, region_after)
