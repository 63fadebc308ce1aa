"""``--trace`` of a static glibc program names the ELF's functions: ``<main>:``
where main is called, ``<main+0xN>:`` where a
call made by main returns into it.  The expected addresses come from GNU
objdump and readelf, not from isa_ext."""
import os
import re
import subprocess
import sys

from conftest import TESTS_DIR, need_tool

PROGS = os.path.join(TESTS_DIR, "linux", "progs")


def test_trace_lines_inside_main_name_main(tmp_path):
    exe = str(tmp_path / "demo")
    subprocess.run([need_tool("powerpc64le-linux-gnu-gcc"), "-O2", "-static", "-o", exe,
                    os.path.join(PROGS, "glibc_demo.c")], check=True, capture_output=True)
    syms = subprocess.run([need_tool("powerpc64le-linux-gnu-readelf"), "-sW", exe],
                          capture_output=True, text=True, check=True).stdout
    row = next(x for x in syms.splitlines() if x.split()[-1:] == ["main"])
    main = int(row.split()[1], 16)
    size = int(row.split()[2])
    local = main + int(re.search(r"localentry>: (\d+)", row).group(1))
    # where main's calls return to: the instruction after each bl in main
    dump = subprocess.run([need_tool("powerpc64le-linux-gnu-objdump"), "-d", exe],
                          capture_output=True, text=True, check=True).stdout
    body = dump.split("<main>:\n", 1)[1].split("\n\n", 1)[0]
    returns = {int(line.split(":")[0], 16) + 4 for line in body.splitlines()
               if re.search(r"\tbl\s", line)}
    r = subprocess.run([sys.executable, "-m", "isa_ext", "run", "--linux", "--trace", exe, "--",
                        "exit3"], capture_output=True, text=True, timeout=600)
    assert r.returncode == 3, r.stderr
    lines = r.stdout.splitlines()
    # (each header is followed by the instruction it names)
    pcs = {at: int(lines[at + 1].split()[0], 16) for at, line in enumerate(lines)
           if line.startswith("<main")}
    headers = {lines[at]: pc for at, pc in pcs.items()}
    assert lines.count("<main>:") == 1
    # called once, through a function pointer (glibc's __libc_start_call_main):
    # at its global entry, whose two instructions fall through to the local one
    assert headers.pop("<main>:") == main and local == main + 8
    assert headers, "no line names main after a call it made returned"
    for header, pc in headers.items():
        assert header == f"<main+0x{pc - main:x}>:" and pc in returns, (header, hex(pc))
    # every instruction between a main header and the next header is main's own
    for at in pcs:
        for line in lines[at + 1:]:
            if line.startswith("<"):
                break
            if not line.startswith(" "):      # (an instruction, not one of its details)
                assert main <= int(line.split()[0], 16) < main + size, line
