"""``isa-ext run`` flags for Linux programs: misuse is a clear error (exit 2),
and without --linux the usual report still shows the program's output."""
import subprocess
import sys

from test_linux_syscalls import build  # noqa: F401 - the fixture


def run(*args):
    return subprocess.run([sys.executable, "-m", "isa_ext", "run", *args], capture_output=True,
                          timeout=300)


def test_arguments_for_a_non_elf_program_are_an_error(tmp_path):
    src = tmp_path / "p.s"
    src.write_text("li r3, 1\n")
    r = run(str(src), "--", "x")
    assert r.returncode == 2 and b"for ELF programs" in r.stderr
    r = run("--linux", str(src))
    assert r.returncode == 2 and b"for ELF programs" in r.stderr


def test_missing_sandbox_directory_is_an_error(build, tmp_path):  # noqa: F811
    r = run("--read", str(tmp_path / "nope"), build("args"))
    assert r.returncode == 2 and b"not a directory" in r.stderr
    r = run("--env", "NOEQUALS", build("args"))
    assert r.returncode == 2 and b"KEY=VALUE" in r.stderr


def test_report_mode_passes_arguments(build):  # noqa: F811
    r = run(build("args"), "--", "hello")
    assert r.returncode == 2   # the program's own status: argc
    assert b"stop: exit" in r.stdout and b"exit status: 2" in r.stdout
    assert b"argv: hello\n" in r.stdout


def test_trace_names_functions(build):  # noqa: F811
    """--trace prints <name>: where a function of the ELF is entered; a call
    enters cmain at its local entry (readelf: [<localentry>: 8])."""
    import re
    from conftest import need_tool
    exe = build("kill")
    syms = subprocess.run([need_tool("powerpc64le-linux-gnu-readelf"), "-sW", exe],
                          capture_output=True, text=True).stdout
    line = next(x for x in syms.splitlines() if x.split()[-1:] == ["cmain"])
    local = int(re.search(r"localentry>: (\d+)", line).group(1))
    entry = int(line.split()[1], 16) + local
    r = run("--trace", exe)
    lines = r.stdout.decode().splitlines()
    at = lines.index("<cmain>:")
    assert int(lines[at + 1].split()[0], 16) == entry
    assert lines[0] == "<_start>:"
