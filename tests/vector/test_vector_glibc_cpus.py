"""A static glibc program built ``-O3`` for POWER9 and POWER10 (gcc 12
vectorises its loops with VMX/VSX and, for POWER10, the v3.1 prefixed loads
and vector instructions; glibc's own start-up, qsort, printf and string code
run too) prints what it prints under ``qemu-ppc64le -cpu power10`` and exits
with the same status."""
import subprocess

import pytest

from conftest import need_tool
from isa_ext.sim import Simulator

PROGRAM = r"""
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
static int cmp(const void *a, const void *b)
{ int x = *(const int *)a, y = *(const int *)b; return (x > y) - (x < y); }
int main(void) {
    static int a[1000]; static short s[1000]; static double d[1000]; char buf[256];
    unsigned h = 1;
    for (int i = 0; i < 1000; i++) {
        h = h * 1103515245u + 12345u;
        a[i] = (int)(h >> 8) % 100000 - 50000; s[i] = (short)(a[i] >> 3); d[i] = a[i] / 7.0;
    }
    long sum = 0; double ds = 0;
    for (int i = 0; i < 1000; i++) { sum += a[i] * (long)s[i]; ds += d[i] * d[i]; }
    qsort(a, 1000, sizeof a[0], cmp);
    snprintf(buf, sizeof buf, "%ld %.6f %d %d", sum, ds, a[0], a[999]);
    printf("%s %zu %d\n", buf, strlen(buf), memcmp(a, a + 1, 12) < 0);
    char *p = malloc(5000); memset(p, 'x', 4999); p[4999] = 0;
    printf("%zu %s\n", strlen(p), strchr(p, 'y') ? "y" : "n");
    return 3;
}
"""


@pytest.mark.slow
@pytest.mark.parametrize("cpu", ["power9", "power10"])
def test_static_glibc_o3_program_runs_as_under_qemu(tmp_path, cpu):
    gcc = need_tool("powerpc64le-linux-gnu-gcc")
    src, exe = tmp_path / "prog.c", tmp_path / "prog"
    src.write_text(PROGRAM)
    subprocess.run([gcc, "-static", "-O3", f"-mcpu={cpu}", str(src), "-o", str(exe)],
                   check=True, capture_output=True)
    qemu = subprocess.run([need_tool("qemu-ppc64le"), "-cpu", "power10", str(exe)],
                          capture_output=True, timeout=60)
    assert qemu.returncode == 3 and qemu.stdout.endswith(b"4999 n\n")
    sim = Simulator()
    sim.load_elf(str(exe))
    res = sim.run(max_steps=20_000_000)
    assert (res.stop, res.exit_status) == ("exit", qemu.returncode), res.trap
    assert bytes(sim.state.stdout) == qemu.stdout
