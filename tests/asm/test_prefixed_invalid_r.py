"""v3.1 prefixed forms with R=1 (address from CIA) and a base register other
than 0 are invalid forms (Book I 3.3.2).  GNU as 2.40 is the oracle: it
refuses each such line with "invalid R operand"; isa_ext's assembler must
refuse the same lines with the same reason, and still accept (with GNU's
words) the neighbouring valid lines.
"""
import subprocess

import pytest

from conftest import gnu_as_words, need_tool
from isa_ext.asm import assemble
from isa_ext.errors import IsaExtError

INVALID = ["pld 3,8(9),1", "paddi 3,4,8,1", "plwz 3,8(9),1", "pstd 3,8(1),1",
           "plbz 5,-16(31),1", "pstfd 1,0(3),1", "plq 4,32(2),1"]
VALID = ["pld 3,8(0),1", "pld 3,8(9),0", "paddi 3,0,8,1", "paddi 3,4,8,0",
         "plwz 3,8(0),1", "pstd 3,8(1),0"]


def _gnu_refusal(tmp_path, line):
    src, obj = tmp_path / "one.s", tmp_path / "one.o"
    src.write_text(line + "\n")
    r = subprocess.run([need_tool("powerpc64le-linux-gnu-as"), "-a64", "-mpower10",
                        "-o", str(obj), str(src)], capture_output=True, text=True)
    return r.returncode != 0 and r.stderr


@pytest.mark.parametrize("line", INVALID)
def test_r1_with_a_base_register_is_refused_as_gnu_as_does(tmp_path, line):
    gnu = _gnu_refusal(tmp_path, line)
    assert gnu and "invalid R operand" in gnu
    with pytest.raises(IsaExtError, match="invalid R operand") as e:
        assemble(line + "\n")
    assert "must be 0" in str(e.value)


def _words(prog):
    data = prog.data
    return [int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data), 4)]


def test_valid_neighbours_still_assemble_to_gnu_words(tmp_path):
    ours = _words(assemble("".join(line + "\n" for line in VALID), base=0))
    assert ours == gnu_as_words(tmp_path, VALID, extra_args=("-mpower10",))
