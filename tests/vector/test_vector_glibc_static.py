"""A static glibc program (powerpc64le-linux-gnu-gcc -static): glibc's start-up
and string functions use VSX and VMX (mtfprd in __tls_pre_init_tp, lxvd2x/
vcmpequb./vctzlsbb ... in its POWER8/POWER9 string routines).  With system
calls isa_ext does not have answered ENOSYS (brk: the break), the program must
get through every vector instruction it runs: it prints "hello" and exits 0,
or stops only on a dcbt (a base-ISA cache hint outside this issue) or a system
call, never on a vector instruction."""
import subprocess

import pytest

from conftest import need_tool
from isa_ext.errors import Trap
from isa_ext.machine import linux_syscall
from isa_ext.sim import Simulator

DCBT = (0xFC0007FE, 0x7C00022C)   # (mask, value): PO 31, XO 278
ENOSYS = 38


def _stub_syscalls(s):
    try:
        return linux_syscall(s)
    except Trap:
        if s.gpr[0] == 45 and s.gpr[3] == 0:  # brk(0): the current break
            s.gpr[3] = 0x10000000
            s.cr[0] &= ~1
            return
        s.gpr[3] = ENOSYS
        s.cr[0] |= 1


@pytest.mark.slow
def test_static_glibc_hello_runs_its_vector_code(tmp_path):
    gcc = need_tool("powerpc64le-linux-gnu-gcc")
    src, exe = tmp_path / "hello.c", tmp_path / "hello"
    src.write_text('#include <stdio.h>\nint main(void){puts("hello");return 0;}\n')
    subprocess.run([gcc, "-static", "-O2", str(src), "-o", str(exe)], check=True,
                   capture_output=True)
    sim = Simulator()
    sim.load_elf(str(exe))
    sim.state.syscall_handler = _stub_syscalls
    res = sim.run(max_steps=5_000_000)
    if res.stop == "trap":
        assert res.trap.word & DCBT[0] == DCBT[1], res.trap
        assert res.steps > 330   # past mtfprd in __tls_pre_init_tp
    else:
        assert res.stop == "exit" and res.exit_status == 0
        assert bytes(sim.state.stdout) == b"hello\n"
