"""Issue 20's "more silent wrong answers": each one now either gives the answer
the ISA / seed text gives or stops with an error naming file:line:column.

Each case failed before the fix (noted per test): an unclosed string dropped
the line with exit 0, `.space 10000000000` ran the host out of memory, an odd
`mv.swiz` register pair assembled cleanly, and a store over an already-decoded
instruction left the old instruction running."""
import pytest

from isa_ext.asm import assemble, MAX_IMAGE_BYTES
from isa_ext.cli import main
from isa_ext.disasm import disassemble_word
from isa_ext.errors import AsmError
from isa_ext.sim import Simulator


# --- assembler errors at file:line:column ------------------------------------------

# (source, line, column, words); columns counted by hand, 1-based
CASES = [
    # the opening quote of the string left open (was: line dropped, exit 0)
    ('li r3,"x\n', 1, 7, "unterminated string"),
    ('nop\n  .ascii "abc\n', 2, 10, "unterminated string"),
    ('.ascii "a\\"b\n', 1, 8, "unterminated string"),  # \" does not close it
    # was: MemoryError (10 GB bytearray); the size operand is column 8
    (".space 10000000000\n", 1, 8, "limit"),
    (".space 0x8000000\n.space 0x8000000\n.byte 1\n", 3, 1, "limit"),
    # seed 001: "RT and RA are only permitted to be even" (was: assembled, trapped
    # only when run)
    ('mv.swiz r3,r4,"XYZW"\n', 1, 9, "RTp must be an even register"),
    ('mv.swiz r4,r7,"XYZW"\n', 1, 12, "RAp must be an even register"),
    ('fmv.swiz f1,f2,"XYZW"\n', 1, 10, "FRTp must be an even register"),
    # GNU as 2.40: "operand out of domain (3 is not a multiple of 2)" for both
    ("lq r3,0(r4)\n", 1, 4, "RTp must be an even register"),
    ("stq r5,0(r4)\n", 1, 5, "RSp must be an even register"),
]


@pytest.mark.parametrize("source,line,column,words", CASES)
def test_assembler_error_location(isa, source, line, column, words):
    with pytest.raises(AsmError) as info:
        assemble(source, filename="prog.s", isa=isa)
    e = info.value
    assert (e.filename, e.line, e.column) == ("prog.s", line, column), str(e)
    assert words in e.message


def test_strings_that_close_still_assemble(isa):
    # a quote inside a comment, an escaped quote and '#' inside a string
    prog = assemble('li r3,1 # "unclosed in a comment\n.ascii "a\\"b#"\n', isa=isa)
    assert prog.data[4:8] == b'a"b#'


def test_largest_image_assembles(isa):
    # exactly at the limit is allowed (the check is "more than")
    prog = assemble(f".space {MAX_IMAGE_BYTES - 4}\nnop\n", isa=isa)
    assert len(prog.data) == MAX_IMAGE_BYTES


@pytest.mark.parametrize("source", ['li r3,"x\n', ".space 10000000000\n",
                                    'mv.swiz r3,r4,"XYZW"\n'])
def test_cli_exit_2_without_traceback(tmp_path, capsys, source):
    src = tmp_path / "bad.s"
    src.write_text(source)
    assert main(["run", str(src)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{src}:1:") and "error:" in err and "Traceback" not in err


def test_odd_pair_word_disassembles_as_long(isa):
    # mv.swiz with RTp=3: PO 22 | RTp 3 | RAp 5 | imm | XO 0b0011 = 0x58651233, an
    # invalid form the assembler refuses: printed as the word itself
    assert disassemble_word(isa, 0x58651233) == ".long 0x58651233"
    # RTp=4, RAp=6 (22<<26 | 4<<21 | 6<<16 | 0x1233 = 0x58861233) prints as the
    # instruction and reassembles to the same word
    text = disassemble_word(isa, 0x58861233)
    assert text.startswith("mv.swiz")
    assert assemble(text + "\n", isa=isa).data == (0x58861233).to_bytes(4, "little")


# --- self-modifying code -------------------------------------------------------------

# Pass 1 runs "li r4,1" at target (decoding it), then stores the word of
# "li r4,2" (addi: 14<<26 | 4<<21 | 2 = 0x38800002) over it and branches back;
# pass 2 must run the new instruction: r8 = 1 + 2 = 3 (a stale decode gives 2).
SMC = """
    li r7, 0
    li r8, 0
target:
    li r4, 1
    add r8, r8, r4
    cmpwi r7, 1
    beq done
    li r7, 1
    lis r6, 0x3880
    ori r6, r6, 2
    li r5, target
    stw r6, 0(r5)
{sync}
    b target
done:
"""


@pytest.mark.parametrize("sync", ["", "    icbi 0, r5\n    isync"])
@pytest.mark.parametrize("trace", [False, True])
def test_self_modifying_code_runs_the_new_instruction(isa, sync, trace):
    sim = Simulator(isa)
    sim.load_asm(SMC.format(sync=sync))
    res = sim.run(max_steps=100, trace=trace)
    assert res.stop == "end", res.trap
    assert sim.state.gpr[8] == 3


def test_store_into_a_prefixed_instruction_suffix(isa):
    # An SVP64 instruction (8 bytes) decoded once, then its suffix word replaced:
    # sv.addi *r16,*r16,1 becomes sv.addi *r16,*r16,5 (addi's SI is the low 16
    # bits of the suffix).  VL=2: r16 = 0 + 1 + 5 = 6 after the two passes.
    src = """
    setvl 0,0,2,0,1,1
    li r7, 0
top:
    sv.addi *r16,*r16,1
    cmpwi r7, 1
    beq done
    li r7, 1
    li r5, top
    lwz r6, 4(r5)
    addi r6, r6, 4
    stw r6, 4(r5)
    b top
done:
"""
    sim = Simulator(isa)
    sim.load_asm(src)
    res = sim.run(max_steps=100)
    assert res.stop == "end", res.trap
    assert sim.state.gpr[16:18] == [6, 6]


def test_icbi_isync_encode_as_gnu_as(isa):
    # Power ISA X-form icbi: 31<<26 | RA<<16 | RB<<11 | 982<<1; XL-form isync:
    # 19<<26 | 150<<1.  GNU as 2.40 gives the same: 7c001fac, 4c00012c, 7c042fac.
    prog = assemble("icbi 0,3\nisync\nicbi 4,5\n", isa=isa)
    words = [int.from_bytes(prog.data[i:i + 4], "little") for i in range(0, 12, 4)]
    assert words == [0x7C001FAC, 0x4C00012C, 0x7C042FAC]


# --- found by tests/core/test_fuzz.py: Python exceptions that escaped the assembler ------

@pytest.mark.parametrize("source,column,words", [
    # RecursionError before: nesting is bounded (column of the 65th "(")
    ("addi r3,r3," + "(" * 100 + "1" + ")" * 100 + "\n", 76, "nested more than 64"),
    # a 10**11-bit integer before (host memory): the shift count is bounded
    ("li r3,1<<99999999999\n", 8, "shift count"),
    # ValueError from int('099', 0) before: a bad octal number is an error
    ("li r3,099\n", 7, "bad number"),
])
def test_expression_limits_are_assembly_errors(isa, source, column, words):
    with pytest.raises(AsmError) as info:
        assemble(source, filename="prog.s", isa=isa)
    assert (info.value.line, info.value.column) == (1, column) and words in info.value.message


def test_leading_zero_is_octal_as_in_gnu_as(isa):
    # GNU as 2.40: "li 3,0777" assembles to 0x386001ff (511)
    assert assemble("li r3,0777\n", isa=isa).data == (0x386001FF).to_bytes(4, "little")


@pytest.mark.parametrize("command", ["asm", "run"])
def test_non_utf8_source_is_an_error_at_its_byte(tmp_path, capsys, command):
    # found by the fuzz suite: `isa-ext asm` raised UnicodeDecodeError; the 0xff is
    # line 2, column 7 ("li r3," is six characters)
    src = tmp_path / "bad.s"
    src.write_bytes(b"nop\nli r3,\xff1\n")
    assert main([command, str(src)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{src}:2:7: error: not UTF-8") and "Traceback" not in err
