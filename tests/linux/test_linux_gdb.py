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


def test_gdb_on_a_glibc_program(tmp_path):
    """A static glibc program built with -g: break main, run to it, read argc
    and argv[1] as gdb shows them, next over each printf (gdb steps over the
    calls), then continue to the exit; the program's output, from the server
    (--linux), is what it printed."""
    gcc, gdb = need_tool("powerpc64le-linux-gnu-gcc"), need_tool("gdb-multiarch")
    exe = str(tmp_path / "greet")
    subprocess.run([gcc, "-g", "-O0", "-static", "-o", exe,
                    os.path.join(ROOT, "tests", "linux", "progs", "greet.c")], check=True)
    proc = subprocess.Popen([sys.executable, "-m", "isa_ext.cli", "gdbserver", "--port", "0",
                             "--linux", exe, "--", "world"], cwd=ROOT,
                            env=dict(os.environ, PYTHONPATH=ROOT), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    m = re.match(rb"listening on 127\.0\.0\.1:(\d+)$", proc.stdout.readline().strip())
    assert m
    r = subprocess.run([gdb, "-batch", "-nx", exe,
                        "-ex", f"target remote 127.0.0.1:{m.group(1).decode()}",
                        "-ex", "break main", "-ex", "continue",
                        "-ex", "print argc", "-ex", "print argv[1]",
                        "-ex", "next", "-ex", "next", "-ex", "next", "-ex", "continue"],
                       capture_output=True, text=True, timeout=600)
    out, err = proc.communicate(timeout=60)
    text = r.stdout + r.stderr
    assert re.search(r"Breakpoint 1, main \(argc=2, argv=0x[0-9a-f]+\) at .*greet\.c:6", text), \
        text
    assert "$1 = 2" in text and re.search(r'\$2 = 0x[0-9a-f]+ "world"', text), text
    # each next ends on the following source line, over the printf calls
    assert re.search(r"^7\t.*printf\(\"hello", text, re.M), text
    assert re.search(r"^8\t.*printf\(\"argc", text, re.M), text
    assert re.search(r"^9\t\s+return argc;", text, re.M), text
    assert "exited with code 02" in text, text
    assert b"Traceback" not in err, err
    assert out.startswith(b"hello world\nargc 2\n"), out
