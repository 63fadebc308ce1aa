"""A static glibc program (powerpc64le-linux-gnu-gcc -static): glibc's start-up
and string functions use VSX and VMX (mtfprd in __tls_pre_init_tp, lxvd2x/
vcmpequb./vctzlsbb ... in its POWER8/POWER9 string routines).  Started as a
Linux process (isa_ext.linux), it runs through every vector instruction it meets
and prints what QEMU prints (the whole glibc suite is tests/linux/)."""
import subprocess

import pytest

from conftest import need_tool
from isa_ext.sim import Simulator


@pytest.mark.slow
def test_static_glibc_hello_runs_its_vector_code(tmp_path):
    gcc = need_tool("powerpc64le-linux-gnu-gcc")
    src, exe = tmp_path / "hello.c", tmp_path / "hello"
    src.write_text('#include <stdio.h>\nint main(void){puts("hello");return 0;}\n')
    subprocess.run([gcc, "-static", "-O2", str(src), "-o", str(exe)], check=True,
                   capture_output=True)
    qemu = subprocess.run([need_tool("qemu-ppc64le"), str(exe)], capture_output=True,
                          timeout=60)
    sim = Simulator()
    sim.load_elf(str(exe))
    res = sim.run(max_steps=5_000_000)
    assert res.steps > 330   # past mtfprd in __tls_pre_init_tp
    assert (res.stop, res.exit_status) == ("exit", qemu.returncode), res.trap
    assert bytes(sim.state.stdout) == qemu.stdout == b"hello\n"
