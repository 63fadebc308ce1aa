"""Freestanding C programs (tests/c/) built by GNU gcc at -O0 and -O2: standard
output and exit status under isa_ext must equal QEMU's.  A failure lists the
instructions gcc emitted that the core lacks."""
import os

import pytest

from conftest import need_tool
from isa_ext.diffcheck import cprograms
from isa_ext.isa import ISA
from conftest import TESTS_DIR

C_DIR = os.path.join(TESTS_DIR, "c")
PROGRAMS = sorted(os.path.splitext(f)[0] for f in os.listdir(C_DIR) if f.endswith(".c"))


@pytest.fixture(scope="module")
def base_isa():
    return ISA(extensions=["base"])


def test_suite_has_the_promised_programs():
    assert {"sort", "crc", "matmul", "fpkernel", "strings"} <= set(PROGRAMS)


@pytest.mark.parametrize("opt", cprograms.OPT_LEVELS)
@pytest.mark.parametrize("name", PROGRAMS)
def test_program_matches_qemu(name, opt, base_isa, tmp_path):
    for tool in ("powerpc64le-linux-gnu-gcc", "powerpc64le-linux-gnu-objdump", "qemu-ppc64le"):
        need_tool(tool)
    _sources, start = cprograms.suite_sources(C_DIR)
    elf = cprograms.compile_program(os.path.join(C_DIR, name + ".c"), start, opt,
                                    str(tmp_path / f"{name}{opt}.elf"))
    result = cprograms.run_program(base_isa, elf, name, opt)
    assert result.qemu_status is not None and result.qemu_stdout, result.summary()
    assert not result.missing, result.summary()
    assert result.ok, result.summary()
