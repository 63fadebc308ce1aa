"""Embench-IoT (../shared/vendor/embench-iot.tar.gz, GPL-3.0: built here from
the tarball, never copied into the project) compiled by GNU gcc with
``-O2 -mcpu=power10 -mno-vsx -mno-altivec``: each benchmark, freestanding
(tests/c/start.S's _start, embench_board.c's board support and the few C
library functions the programs call), must exit as under QEMU 7.2
(``qemu-ppc64le -cpu power10``).  gcc's power10 code is full of the v3.1
prefixed loads, stores and paddi (pld, plwz, pstb, pla ...)."""
import os

import pytest

import embench_build
from conftest import need_tool
from isa_ext.diffcheck import cprograms, tools
from isa_ext.isa import ISA
from isa_ext.sim import Simulator

BENCHMARKS = embench_build.BENCHMARKS
CFLAGS = ("-O2", "-mcpu=power10", "-mno-vsx", "-mno-altivec")
MAX_STEPS = 100_000_000


@pytest.fixture(scope="module")
def embench(tmp_path_factory):
    return embench_build.extract(tmp_path_factory.mktemp("embench"))


@pytest.fixture(scope="module")
def base():
    return ISA(extensions=["base"])


def test_the_tarball_has_the_benchmarks_tested(embench):
    assert tuple(sorted(os.listdir(os.path.join(embench, "src")))) == BENCHMARKS


def build(embench, name, out):
    return embench_build.build(embench, name, out, CFLAGS)


def prefixed_count(elf):
    """Prefix words (primary opcode 1) in the ELF's executable sections."""
    from elftools.elf.elffile import ELFFile
    n = 0
    with open(elf, "rb") as f:
        for sec in ELFFile(f).iter_sections():
            if sec["sh_flags"] & 0x4 and sec["sh_type"] == "SHT_PROGBITS":
                data = sec.data()
                n += sum(1 for i in range(0, len(data) - 3, 4) if data[i + 3] >> 2 == 1)
    return n


@pytest.mark.slow
@pytest.mark.parametrize("name", BENCHMARKS)
def test_benchmark_runs_as_under_qemu(embench, base, tmp_path, name):
    need_tool("qemu-ppc64le")
    elf = build(embench, name, str(tmp_path / f"{name}.elf"))
    assert prefixed_count(elf) > 0  # (what this test is about: gcc used them)
    # every instruction gcc wrote decodes (objdump shows the traceback tables'
    # 0x00000200 words after some functions as "attn": data, never run)
    missing = cprograms.missing_instructions(base, elf)
    assert set(missing) <= {"attn"}, missing
    q = tools.run_qemu(elf, timeout=300)
    assert q.signal is None and q.status == 0, f"QEMU: status {q.status} signal {q.signal}"
    sim = Simulator(isa=base)
    sim.load_elf(elf)
    res = sim.run(max_steps=MAX_STEPS)
    assert (res.stop, res.exit_status) == ("exit", q.status), res.trap
    assert bytes(sim.state.stdout) == q.stdout
