"""The pseudocode compiler on small pages written here (not the project's pages):
language features, static widths, deferred register writes, error locations."""
import pytest

from isa_ext.cli import main
from isa_ext.errors import SpecError, Trap
from isa_ext.forms import parse_forms
from isa_ext.machine import State
from isa_ext.pseudocode.compiler import compile_page
from isa_ext.pseudocode.pages import parse_pages

FORMS = parse_forms("""
regclass gpr RA RB RT
form T
    PO 0:5
    RT 6:10
    RA 11:15
    RB 16:20
    SI 16:31
    XO 21:30
    Rc 31
""")
M64 = (1 << 64) - 1


def compile_code(code, name="t", filename="pages/t.mdwn"):
    body = "\n".join("    " + line for line in code.strip("\n").splitlines())
    text = f"# Test\n\nT-Form\n\n* {name} RT,RA,RB\n\nPseudo-code:\n\n{body}\n"
    page = parse_pages(text, filename)[0]
    return compile_page(page, FORMS["T"], FORMS.regclass)


def run(code, gpr=None, **fields):
    c = compile_code(code)
    s = State()
    for i, v in (gpr or {}).items():
        s.gpr[i] = v
    args = [fields.get(p, 0) for p in c.params]
    nia = c.sem(s, 0x100, *args)
    return s, nia


def test_add_wraps_at_64_bits():
    s, nia = run("RT <- (RA) + (RB)", gpr={1: M64, 2: 2}, RT=3, RA=1, RB=2)
    assert s.gpr[3] == 1 and nia == 0x104        # 2^64 - 1 + 2 = 2^64 + 1 -> 1


def test_ra_or_zero():
    s, _ = run("RT <- (RA|0) + 5", gpr={0: 100}, RT=3, RA=0)
    assert s.gpr[3] == 5                          # RA field 0 reads 0, not r0
    s, _ = run("RT <- (RA|0) + 5", gpr={4: 100}, RT=3, RA=4)
    assert s.gpr[3] == 105


def test_concat_slice_and_replication():
    # (RA)[56:63] = 0xAB; [1]*4 || 0b0011 || 0xAB(8 bits) = 0xF3AB
    s, _ = run("RT <- [1]*4 || 0b0011 || (RA)[56:63]", gpr={1: 0x12AB}, RT=3, RA=1)
    assert s.gpr[3] == 0xF3AB


def test_exts_sign_extends_the_field():
    s, _ = run("RT <- EXTS(SI)", RT=3, SI=0xFFFE)
    assert s.gpr[3] == M64 - 1                    # 16-bit -2 -> 64-bit -2


def test_signed_and_unsigned_compare():
    code = """
    if (RA) < (RB) then RT <- 1
    else RT <- 0
    if (RA) <u (RB) then RB <- 1
    else RB <- 0
    """
    # RA = -1 (all ones), RB = 1: signed -1 < 1 is true, unsigned 2^64-1 < 1 false
    s, _ = run(code, gpr={1: M64, 2: 1}, RT=3, RA=1, RB=2)
    assert (s.gpr[3], s.gpr[2]) == (1, 0)


def test_unsized_integer_widens_narrow_value():
    # n is 5 bits (31); "n + 32" means the number 63, not (31 + 32) mod 32 = 31
    s, _ = run("n <- (RA)[59:63]\nRT <- n + 32", gpr={1: 31}, RT=3, RA=1)
    assert s.gpr[3] == 63


def test_sized_sum_keeps_the_carry():
    # 65-bit sum of two 64-bit values: bit 0 is the carry
    code = "sum <- ([0] || (RA)) + ([0] || (RB))\nRT <- EXTZ(sum[0:0])"
    s, _ = run(code, gpr={1: M64, 2: 1}, RT=3, RA=1, RB=2)
    assert s.gpr[3] == 1


def test_do_loop_is_inclusive_and_leave_breaks():
    code = """
    n <- 0
    do i = 0 to 9
        n <- n + i
    do while n > 40
        n <- n - 1
        if n = 42 then leave
    RT <- n
    """
    # sum 0..9 = 45; then 44, 43, 42 -> leave
    s, _ = run(code, RT=3)
    assert s.gpr[3] == 42


def test_register_reads_see_values_from_instruction_start():
    # RT = RA = 1: the second line reads (RA) after "RT <-" and still sees 10
    s, _ = run("RT <- (RA) + 1\nRB <- (RA)", gpr={1: 10}, RT=1, RA=1, RB=2)
    assert (s.gpr[1], s.gpr[2]) == (11, 10)


def test_partial_register_assignment():
    s, _ = run("RT[32:63] <- 0xFFFFFFFF\nRT[0:7] <- 0x12", gpr={3: 0}, RT=3)
    assert s.gpr[3] == 0x12000000_FFFFFFFF


def test_memory_round_trip_in_machine_byte_order():
    code = "MEM((RA), 4) <- 0x11223344\nRT <- EXTZ(MEM((RA), 2))"
    s, _ = run(code, gpr={1: 0x2000}, RT=3, RA=1)
    # little-endian: bytes 44 33 22 11; a 2-byte load at 0x2000 reads 0x3344
    assert s.mem.read_bytes(0x2000, 4) == bytes([0x44, 0x33, 0x22, 0x11])
    assert s.gpr[3] == 0x3344


def test_cr_field_slice_assignment():
    s, _ = run("CR[4*3+32:4*3+35] <- 0b1010")
    assert s.cr[3] == 0b1010 and s.cr[0] == 0


def test_nia_assignment_branches():
    _, nia = run("NIA <- CIA + 64")
    assert nia == 0x140


def test_illegal_traps_before_any_write():
    c = compile_code("if RT = 1 then ILLEGAL(\"odd\")\nRT <- 5")
    s = State()
    with pytest.raises(Trap) as e:
        c.sem(s, 0, *[1 if p == "RT" else 0 for p in c.params])
    assert e.value.reason == "odd" and s.gpr[1] == 0


def test_illegal_after_a_write_is_a_compile_error():
    with pytest.raises(SpecError) as e:
        compile_code("RT <- 5\nILLEGAL(\"late\")")
    assert "partial state" in str(e.value)


def test_syntax_error_names_page_file_and_line():
    # the page's code starts at line 9 of the file; the bad line is its second
    with pytest.raises(SpecError) as e:
        compile_code("RT <- 1\nRT <- <- 2")
    assert "pages/t.mdwn:10:" in str(e.value) and "syntax error" in str(e.value)


def test_unknown_name_names_page_file_and_line():
    with pytest.raises(SpecError) as e:
        compile_code("RT <- 1\nRT <- bogus + 1")
    assert "pages/t.mdwn:10" in str(e.value) and "bogus" in str(e.value)


def test_pseudo_show_prints_page_and_python(isa, capsys):
    assert main(["pseudo", "show", "add"]) == 0
    out = capsys.readouterr().out
    page = isa.by_mnemonic["add"][0].page
    assert out.startswith("# Add") and page.filename in out
    for line in page.code.strip().splitlines():  # the page, as written
        assert line in out
    assert "def sem(" in out and "G[f_RT] = w_RT" in out  # RT's deferred write


def test_pseudo_show_unknown_mnemonic_is_exit_2(capsys):
    assert main(["pseudo", "show", "nosuch"]) == 2
    assert "unknown mnemonic" in capsys.readouterr().err


def test_special_register_bit_range_assignment():
    # SVSTATE[62] is the LSB0 bit 1 of the 64-bit register; [32:33] bits 31:30
    s, _ = run("SVSTATE[62] <- 1\nSVSTATE[32:33] <- 0b10\nSVSHAPE1[30:31] <- 0b01")
    assert s.svstate == (1 << 1) | (0b10 << 30) and s.svshape1 == 1


def test_special_register_variable_bit_range():
    # SVSTATE[i*2+32:i*2+33] for i = 2 is [36:37], LSB0 bits 27:26
    s, _ = run("i <- 2\nSVSTATE[i * 2 + 32:i * 2 + 33] <- 0b11")
    assert s.svstate == 0b11 << 26


def test_comment_lines_inside_blocks():
    # a comment on its own line, at any indentation, is a blank line
    s, _ = run("if RA = 0 then\n    # first line of the block\n    RT <- 5\n"
               "        # deeper\n    RT <- 6\n# outer\nRB <- 1", RA=0, RT=3, RB=4)
    assert s.gpr[3] == 6 and s.gpr[4] == 1


@pytest.mark.parametrize("call", ["FPCOMPARE(RA, RB, 2)", "FPTOINT(RB, 32, 1, 3)",
                                  "INTTOFP(RA, 2, 64)"])
def test_yes_no_intrinsic_arguments_are_0_or_1(call):
    # a flag such as FPCOMPARE's "ordered" spelled 2 is a typo in the page, not "yes"
    with pytest.raises(SpecError) as e:
        compile_code(f"RT <- {call}")
    assert "0 or 1" in str(e.value) and "pages/t.mdwn:9" in str(e.value)


def test_conversion_width_is_32_or_64():
    # FPTOINT's integer width: the fcti* pages use 32 and 64; 65 is a typo
    with pytest.raises(SpecError) as e:
        compile_code("RT <- FPTOINT(RB, 65, 0, 0)")
    assert "32 or 64" in str(e.value)
