"""sv.isel with a vector BC: isel's BC is a CR-bit operand (decoder/forms.txt
regclass crb) with its own EXTRA slot (fixed.csv: RM-1P-3S1D, EXTRA2, s:BC).
Before BC joined the crb class the assembler refused `*BC` and the simulator
ran libre-soc's words with the scalar BC of every element: a silent wrong
answer (found while chasing a mutation-test survivor in extra.split_crf)."""
import pytest

from isa_ext.asm import assemble
from isa_ext.sim import Simulator

from isacaller_compare import assert_same_registers, run_on_both
from svp64asm_golden import svp64asm_word_tests

# SVP64Asm's output (openpower-isa 3cb597b9), the suffix assembled from the
# text it prints (`isel 1,2,3,0` = PO 31 | RT 1 | RA 2 | RB 3 | BC 0 | XO 15)
SVP64ASM_WORDS = [
    ("sv.isel *4, *8, *12, *0", [0x05402A80, 0x7C22181E]),
    ("sv.isel *4, *8, *12, *2", [0x05402A80, 0x7C22189E]),
    # EXTRA2 vector CR: field 8 (bit 32) sets spec bit 1, BC = field >> 4
    ("sv.isel *4, *8, *12, *32", [0x05402AC0, 0x7C22181E]),
    ("sv.isel *4, *8, *12, *33", [0x05402AC0, 0x7C22185E]),
    ("sv.isel *4, *8, *12, *64", [0x05402A80, 0x7C22191E]),
    ("sv.isel *4, *8, *12, *96", [0x05402AC0, 0x7C22191E]),
    ("sv.isel 4, 8, 12, 2", [0x05400000, 0x7C88609E]),
    ("sv.isel *4, 8, *12, 6", [0x05402200, 0x7C28199E]),
    ("sv.isel/m=r3 *4, *8, *12, *0", [0x05602A80, 0x7C22181E]),
]

(test_assembles_as_svp64asm, test_disassembles_to_the_same_words,
 test_svp64asm_words_live) = svp64asm_word_tests(SVP64ASM_WORDS)


def eq_bits(fields):
    """The 32-bit CR with the EQ bit of each CR field in ``fields`` set."""
    return sum(1 << (31 - (4 * f + 2)) for f in fields)


def gprs():
    g = [0] * 128
    for i in range(4):
        g[8 + i], g[12 + i] = 100 + i, 200 + i
    return g


@pytest.mark.parametrize("trace", [False, True])
def test_vector_bc_selects_per_element(isa, trace):
    # element i reads CR bit BC + 4*i (CR field i+0's EQ for *2): fields 0 and
    # 2 set, so r4 = r8, r5 = r13, r6 = r10, r7 = r15
    sim = Simulator(isa=isa)
    sim.load_words(assemble("setvl 0,0,4,0,1,1\nsv.isel *4, *8, *12, *2\n",
                            isa=isa, base=0).words)
    sim.state.gpr[:] = gprs()
    sim.state.crval = eq_bits([0, 2])
    res = sim.run(max_steps=5, trace=trace)
    assert res.stop == "end", res.trap
    assert sim.state.gpr[4:8] == [100, 201, 102, 203]


def test_vector_bc_beyond_cr7(isa):
    # *32 is CR8.LT, element i reads CR(8+i).LT: CR9 and CR11 set
    sim = Simulator(isa=isa)
    sim.load_words(assemble("setvl 0,0,4,0,1,1\nsv.isel *4, *8, *12, *32\n",
                            isa=isa, base=0).words)
    sim.state.gpr[:] = gprs()
    sim.state.cr[9], sim.state.cr[11] = 0b1000, 0b1000
    res = sim.run(max_steps=5)
    assert res.stop == "end", res.trap
    assert sim.state.gpr[4:8] == [200, 101, 202, 103]


def test_vector_bc_on_isacaller(isacaller, isa):
    programs = [(["setvl 0,0,4,0,1,1", line], gprs(), None, eq_bits(fields))
                for line in ("sv.isel *4, *8, *12, *2", "sv.isel *4, *8, *12, *0",
                             "sv.isel *4, 8, *12, 6")
                for fields in ([0, 2], [1, 3], [0, 1, 2, 3])]
    for lines, ours, theirs in run_on_both(isacaller.root, isa, programs):
        assert_same_registers(lines, ours, theirs)
