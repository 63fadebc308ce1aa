"""The freestanding C programs of tests/c built by gcc with the vector units
on (-mcpu=power8 and power9, -O2 and -O3: gcc vectorises with VMX/VSX), run
on isa_ext and on qemu-ppc64le: the same standard output and exit status."""
import os

import pytest

from conftest import TESTS_DIR, need_tool
from isa_ext.diffcheck import cprograms, tools
from isa_ext.isa import ISA

C_DIR = os.path.join(TESTS_DIR, "c")
PROGRAMS = sorted(os.path.splitext(f)[0] for f in os.listdir(C_DIR) if f.endswith(".c"))
# the suite's flags less the ones that keep gcc off the vector units
FLAGS = [f for f in cprograms.CFLAGS
         if f not in ("-mno-vsx", "-mno-altivec") and not f.startswith("-mcpu=")]


@pytest.fixture(scope="module")
def full_isa():
    return ISA()


@pytest.mark.slow
@pytest.mark.parametrize("cpu", ["power8", "power9"])
@pytest.mark.parametrize("opt", ["-O2", "-O3"])
def test_vectorised_programs_match_qemu(cpu, opt, full_isa, tmp_path):
    import subprocess
    for tool in ("powerpc64le-linux-gnu-gcc", "powerpc64le-linux-gnu-objdump", "qemu-ppc64le"):
        need_tool(tool)
    _sources, start = cprograms.suite_sources(C_DIR)
    problems = []
    for name in PROGRAMS:
        elf = str(tmp_path / f"{name}.elf")
        subprocess.run([tools.tool(tools.GCC), opt, f"-mcpu={cpu}", *FLAGS, "-o", elf, start,
                        os.path.join(C_DIR, name + ".c")], check=True, capture_output=True)
        result = cprograms.run_program(full_isa, elf, name, opt)
        # (attn: a base-ISA word gcc -O3 leaves after a noreturn call, never run)
        if not result.ok or set(result.missing) - {"attn"}:
            problems.append(result.summary())
    assert not problems, "\n".join(problems)
