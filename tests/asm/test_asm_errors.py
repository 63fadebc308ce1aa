"""Assembly errors: AsmError at file:line:column of the offending operand, and
the CLI turns them into exit status 2 without a traceback."""
import os
import subprocess
import sys

import pytest

from isa_ext.asm import assemble
from isa_ext.cli import main
from isa_ext.errors import AsmError

from conftest import ROOT

# (source, line, column, words the message must contain); columns counted by hand,
# 1-based, pointing at the first character of the offending operand / mnemonic
CASES = [
    ("  frob r1,r2\n", 1, 3, "unknown mnemonic"),
    ("addi r3,r4\n", 1, 11, "missing operand"),
    ("addi r3,r4,1,2\n", 1, 14, "unexpected operand"),
    ("add r3,f4,r5\n", 1, 8, "wrong register class"),
    ("nop\naddi r3,r4,40000\n", 2, 12, "out of range"),
    ("addi r3,r4,-32769\n", 1, 12, "out of range"),
    ("b nowhere\n", 1, 3, "undefined symbol"),
    ("x: nop\nx: nop\n", 2, 1, "defined twice"),
    ("ld r3,6(r4)\n", 1, 7, "multiple of 4"),
    ("lwz r3,8(f1)\n", 1, 10, "wrong register class"),
    ("addi r3,r40,1\n", 1, 9, "out of range"),
    ("li f1,3\n", 1, 4, "wrong register class"),
    ("cmpwi cr9,r3,0\n", 1, 7, "out of range"),
    ("addi r3,r4,1+\n", 1, 14, "expression"),
    ("beq cr1,label,5\n", 1, 15, "unexpected operand"),
    ("  .frob 3\n", 1, 3, "unknown directive"),
    ("addi r3,r4,r5\n", 1, 12, "register"),
    # .align takes an exponent: out of 0..16 is an error before any shift
    # (-1 and 10**20 were Python errors, found by tests/core/test_fuzz.py)
    ("nop\n.align -1\n", 2, 8, "power of two"),
    (".p2align 99999999999999999999\n", 1, 10, "power of two"),
    (".align 17\n", 1, 8, "power of two"),
    (".balign 3\n", 1, 9, "power of two"),
]


@pytest.mark.parametrize("source,line,column,words", CASES)
def test_error_location(isa, source, line, column, words):
    with pytest.raises(AsmError) as info:
        assemble(source, filename="prog.s", isa=isa)
    e = info.value
    assert (e.filename, e.line, e.column) == ("prog.s", line, column), str(e)
    assert words in e.message
    assert str(e).startswith(f"prog.s:{line}:{column}: error: ")


def test_cli_error_exit_2(tmp_path, capsys):
    src = tmp_path / "bad.s"
    src.write_text("li r3,1\n  addi r3,r3,q\n")
    assert main(["asm", str(src)]) == 2
    err = capsys.readouterr().err
    assert f"{src}:2:14: error: undefined symbol 'q'" in err
    assert "Traceback" not in err


def test_cli_run_error_exit_2_no_traceback(tmp_path):
    src = tmp_path / "bad.s"
    src.write_text("frob r1\n")
    r = subprocess.run([sys.executable, "-m", "isa_ext", "run", str(src)],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 2
    assert r.stderr.strip() == f"{src}:1:1: error: unknown mnemonic 'frob'"
