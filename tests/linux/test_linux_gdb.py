"""gdb on a Linux program served by ``isa-ext gdbserver PROG -- ARGS``: break at
a function by its ELF symbol, run to it, read argv from the initial stack."""
import os
import re
import subprocess
import sys

from conftest import ROOT, need_tool
from test_linux_syscalls import build  # noqa: F401 - the fixture


def test_gdb_breaks_in_cmain_and_reads_argv(build):  # noqa: F811
    exe = build("args")
    gdb = need_tool("gdb-multiarch")
    proc = subprocess.Popen([sys.executable, "-m", "isa_ext.cli", "gdbserver", "--port", "0",
                             exe, "--", "first", "second"], cwd=ROOT,
                            env=dict(os.environ, PYTHONPATH=ROOT), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    m = re.match(r"listening on 127\.0\.0\.1:(\d+)$", proc.stdout.readline().strip())
    assert m
    # at _start r1 is the initial stack pointer: argc at 0(r1), argv[i] at 8(r1) + 8i
    r = subprocess.run([gdb, "-batch", "-nx", exe, "-ex", f"target remote 127.0.0.1:{m.group(1)}",
                        "-ex", "print *(long *)$r1",
                        "-ex", "print *(char **)($r1 + 16)",
                        "-ex", "print *(char **)($r1 + 24)",
                        "-ex", "break cmain", "-ex", "continue", "-ex", "kill"],
                       capture_output=True, text=True, timeout=120)
    proc.communicate(timeout=60)
    out = r.stdout + r.stderr
    assert "Breakpoint 1, " in out and "cmain" in out, out
    assert re.search(r"\$1 = 3\b", out), out
    assert '"first"' in out and '"second"' in out, out
