"""The Time Base outside the Linux layer (machine.State.tb): mftb, mftbu and
mfspr 268/269 read a deterministic counter that every read advances by 512
ticks (one microsecond at POWER's 512 MHz Time Base, docs/linux.md "Time"), so
two runs give the same values; writing it (mtspr 268/269, the supervisor's
mttbl/mttbu) traps.  The expectations are the definition above worked by hand:
reads 1, 2, 3 see 512, 1024, 1536; TBU is the counter's high word."""
from isa_ext.asm import assemble
from isa_ext.sim import Simulator


def run(isa, text, tb=0):
    sim = Simulator(isa=isa)
    sim.load_words(assemble(text, isa=isa, base=0x1000).words, addr=0x1000)
    sim.state.tb = tb
    return sim.run(max_steps=20), sim.state


def test_each_read_advances_the_time_base(isa):
    res, s = run(isa, "mftb 3\nmfspr 4,268\nmftb 5\n")
    assert res.stop == "end"
    assert (s.gpr[3], s.gpr[4], s.gpr[5]) == (512, 1024, 1536)


def test_the_upper_word_reads_the_high_half(isa):
    # start just below a 2^32 boundary: the second read crosses it
    res, s = run(isa, "mftbu 3\nmftbu 4\nmfspr 5,269\n", tb=(7 << 32) + (1 << 32) - 600)
    assert (s.gpr[3], s.gpr[4], s.gpr[5]) == (7, 8, 8)


def test_two_runs_read_the_same_values(isa):
    first = run(isa, "mftb 3\nmftb 4\n")[1]
    second = run(isa, "mftb 3\nmftb 4\n")[1]
    assert (first.gpr[3], first.gpr[4]) == (second.gpr[3], second.gpr[4])


def test_writing_the_time_base_traps(isa):
    for line in ("mtspr 268,3", "mtspr 269,3"):
        res, s = run(isa, line + "\n")
        assert res.stop == "trap" and res.trap.kind == "illegal", line
        assert s.tb == 0
