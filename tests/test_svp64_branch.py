"""SVP64 branches (sv.bc and friends) are not implemented: the assembler rejects
them at file:line:column, the disassembler leaves the prefix as a word, and a
prefixed branch traps when run, before anything changes.  (They used to run
as a non-branching loop and assemble a wrong displacement.)"""
import pytest

from isa_ext.asm import assemble
from isa_ext.disasm import Disassembler
from isa_ext.errors import AsmError
from isa_ext.sim import Simulator

REASON = "SVP64 branches are not implemented"

SOURCES = ["sv.bc 12,2,8", "sv.bc 20,0,.+12", "sv.bca 12,2,8", "sv.bcl 12,2,8",
           "sv.bcla 12,2,8", "sv.bclr 12,2,0", "sv.bclrl 12,2,0", "sv.bcctr 12,2,0",
           "sv.bcctrl 12,2,0", "sv.bctar 12,2,0", "sv.b .+8", "sv.bl .+8", "sv.bne 0,.+8",
           "sv.blr", "sv.bdnz .+8", "sv.bc/all 12,2,8"]


@pytest.mark.parametrize("line", SOURCES)
def test_assembler_rejects_svp64_branches(svisa, line):
    # "nop" first so the error is on line 2, column 3 (the mnemonic after "  ")
    with pytest.raises(AsmError) as info:
        assemble("nop\n  " + line + "\n", filename="prog.s", isa=svisa)
    e = info.value
    assert (e.filename, e.line, e.column) == ("prog.s", 2, 3), str(e)
    assert REASON in e.message


# Suffix words encoded by hand (PO 16 B-form: PO<<26 | BO<<21 | BI<<16 | BD<<2 | AA<<1 | LK;
# PO 19 XL-form: ... | XO<<1 | LK), under the plain prefix 0x05400000 that libre-soc's
# SVP64Asm gives "sv.bc 12,2,8" / "sv.bclr 12,2,0" (".long 0x05400000", "bc 12,2,0x8").
SUFFIXES = {
    "bc 12,2,8": 0x41820008, "bca 12,2,8": 0x4182000A, "bcl 12,2,8": 0x41820009,
    "bclr 12,2,0": 0x4D820020, "bclrl 12,2,0": 0x4D820021,
    "bcctr 12,2,0": 0x4D820420, "bctar 12,2,0": 0x4D820460, "b .+8": 0x48000008,
}


@pytest.mark.parametrize("text", sorted(SUFFIXES))
def test_prefixed_branch_traps(svisa, text):
    sim = Simulator(isa=svisa)
    sim.load_words([0x05400000, SUFFIXES[text]])
    r = sim.run(max_steps=10)
    assert r.stop == "trap" and r.trap.reason == REASON
    assert r.trap.pc == 0x1000 and r.pc == 0x1000


def test_repro_loop_does_not_run_on(svisa):
    # setvl VL=4, then sv.bc 20,0,.+12 (as words: the assembler rejects it), then
    # two addi.  It used to run as a non-branching loop and fall through (r3 = 1);
    # now it traps at the prefixed bc and nothing after it runs.
    sim = Simulator(isa=svisa)
    sim.load_asm("setvl 0,0,4,0,1,1\n.long 0x05400000\nbc 20,0,.+12\n"
                 "addi 3,3,1\naddi 4,4,1\n")
    r = sim.run(max_steps=10)
    assert r.stop == "trap" and r.trap.reason == REASON and r.trap.pc == 0x1004
    assert r.gpr[3] == 0 and r.gpr[4] == 0


def test_disassembler_leaves_prefix_as_a_word(svisa):
    data = b"".join(w.to_bytes(4, "little") for w in (0x05400000, 0x41820008))
    lines = [t for _, _, t in Disassembler(svisa).lines(data, 0)]
    assert not any(t.startswith("sv.") for t in lines), lines


def test_cli_asm_error_names_location(tmp_path, capsys):
    from isa_ext.cli import main
    src = tmp_path / "b.s"
    src.write_text("sv.bc 12,2,.+8\n")
    assert main(["asm", str(src)]) == 2
    assert f"{src}:1:1: error: sv.bc: {REASON}" in capsys.readouterr().err
