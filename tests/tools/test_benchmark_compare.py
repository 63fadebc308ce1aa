"""benchmarks/compare.py runs end to end (--quick) and prints its columns.

Timings are not tested (a shared CI machine); what is: the programs build with
GNU binutils and run to their expected step counts on every engine present
(compare.py itself checks the counts against the loop arithmetic and stops
otherwise), and the report has its rows and the memory and cache lines.
"""
import os
import re
import subprocess
import sys

import pytest

from conftest import need_tool, shared_path
from conftest import ROOT

TOP = ROOT
SCRIPT = os.path.join(TOP, "benchmarks", "compare.py")


def test_quick_run_prints_every_column_and_row():
    for tool in ("powerpc64le-linux-gnu-as", "powerpc64le-linux-gnu-ld", "qemu-ppc64le"):
        need_tool(tool)
    r = subprocess.run([sys.executable, SCRIPT, "--quick", "--engines", "qemu,cpython"],
                       capture_output=True, text=True, cwd=TOP, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    lines = r.stdout.splitlines()
    header = next(line for line in lines if line.startswith("program"))
    assert header.split() == ["program", "engine", "rate", "unit", "engine/QEMU",
                              "engine/CPython", "rate", "by", "CPU", "time"]
    rows = {(m.group(1).strip(), m.group(2).strip()): m.group(3)
            for m in (re.match(r"(.{28}) (.{30}) +([\d,]+) (\S+/s)", line) for line in lines)
            if m}
    assert set(rows) == {
        ("scalar addi/cmpd/bne loop", "qemu-ppc64le"),
        ("scalar addi/cmpd/bne loop", f"isa_ext CPython {sys.version.split()[0]}"),
        ("HF sv.add VL=64", "qemu-ppc64le (64 scalar adds)"),
        ("HF sv.add VL=64", f"isa_ext CPython {sys.version.split()[0]}"),
        ("VF sv.add/svstep./bc VL=64", f"isa_ext CPython {sys.version.split()[0]}"),
    }, r.stdout
    assert all(int(rate.replace(",", "")) > 0 for rate in rows.values())
    assert re.search(r"^memory \(CPython, scalar loop\): RSS [\d.]+ MiB after 1,000 steps, "
                     r"[\d.]+ MiB after 100,000 steps", r.stdout, re.M), r.stdout
    caches = re.search(r"^caches after the memory run.*: decoded words (\d+) / 65,536, "
                       r"executable words (\d+) / 65,536, per-address code (\d+) / 65,536$",
                       r.stdout, re.M)
    # the scalar loop program: li 3,0, lis, ori, addi, cmpd, bne run (6
    # addresses) before its exit (li 0,1; li 3,0 -- the same word as the first
    # li --; sc), then a zero word.  Decoded: at most those 9 distinct words
    # (a superblock from cmpd goes on past the not-taken bne to the zero word,
    # which is illegal and ends it; blocks from the store of translated blocks
    # are decoded for their pages only, the zero word unread); executable:
    # at most the 8 non-zero ones, at least those run one at a time (less
    # one: the two li 3,0 are one word); one at a time: li, lis and ori, run
    # once each and never hot, and at most the loop's 3 (one when the
    # program's block starts are kept from the rate run before:
    # translate/hot_starts.py; translating the loop's block decodes its first
    # word there)
    assert caches, r.stdout
    decoded, executable, per_address = (int(g) for g in caches.groups())
    assert 3 <= per_address <= 6 and 8 <= decoded <= 9, r.stdout
    assert per_address - 1 <= executable <= min(8, decoded), r.stdout


def test_unknown_engine_is_a_usage_error():
    r = subprocess.run([sys.executable, SCRIPT, "--engines", "qemu,bochs"],
                       capture_output=True, text=True, cwd=TOP)
    assert r.returncode == 2 and "bochs" in r.stderr and "Traceback" not in r.stderr


README_TABLE_START = "<!-- the output of benchmarks/compare.py --readme-table, pasted whole -->"
README_TABLE_END = "<!-- end of compare.py's output -->"
CAPTION = re.compile(
    r"^Measured by `python benchmarks/compare\.py (?P<args>[^`]*)` on \d{4}-\d\d-\d\d, "
    r"a \d+-core machine at load average [\d.]+ before and [\d.]+ after, with .+; rates by "
    r"each engine's process CPU time, every engine in the same run(?P<quick>; --quick.*)?\.$")


def _table(text):
    """(caption match, [[cell, ...] per table line]) of compare.py --readme-table output."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    caption = CAPTION.match(lines[0])
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in lines[1:]
            if line.startswith("|")]
    return caption, rows


def _form(cell):
    """A cell with its numbers blanked: "9.16 M (1/714 of QEMU)" -> "N M (N/N of QEMU)"."""
    return re.sub(r"\d[\d,.]*", "N", cell)


def _readme_tables():
    """Each compare.py --readme-table output the README holds (the loops; the
    Embench builds), in order."""
    with open(os.path.join(TOP, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    return [part.split(README_TABLE_END, 1)[0]
            for part in readme.split(README_TABLE_START)[1:]]


def test_the_readme_holds_the_loops_and_the_embench_tables():
    tables = _readme_tables()
    assert len(tables) == 2
    assert "--workloads embench" not in tables[0] and "--workloads embench" in tables[1]


@pytest.mark.parametrize("which", [0, 1], ids=["loops", "embench"])
def test_readme_table_has_the_shape_the_script_prints(which):
    # the README's "How fast" tables are compare.py --readme-table's output pasted
    # whole: run the command each caption names (with --quick) and require the
    # same header, programs, and cell forms wherever this run measured the engine
    for tool in ("powerpc64le-linux-gnu-as", "powerpc64le-linux-gnu-ld", "qemu-ppc64le") + \
            (("powerpc64le-linux-gnu-gcc",) if which else ()):
        need_tool(tool)
    shown = _readme_tables()[which]
    caption, rows = _table(shown)
    assert caption and not caption.group("quick"), shown.strip().splitlines()[0]
    args = caption.group("args").split()
    assert "--readme-table" in args and "--quick" not in args
    if which:   # the Embench tarball beside the checkout (../shared), as the script finds it
        shared_path("vendor", "embench-iot.tar.gz")
    r = subprocess.run([sys.executable, SCRIPT, *args, "--quick"],
                       capture_output=True, text=True, cwd=TOP, timeout=900)
    assert r.returncode == 0, r.stderr[-3000:]
    printed_caption, printed = _table(r.stdout)
    assert printed_caption and printed_caption.group("quick"), r.stdout
    assert printed_caption.group("args").split() == args + ["--quick"]
    # header, rule, and the three loops or each build's cold and steady means
    assert len(rows) == len(printed) == (5 if which == 0 else 4)
    assert rows[:2] == printed[:2]
    for shown_row, printed_row in zip(rows[2:], printed[2:]):
        assert shown_row[0] == printed_row[0]
        assert len(shown_row) == len(printed_row) == 4
        for a, b in zip(shown_row[1:], printed_row[1:]):
            if b != "-":  # "-": an engine this machine lacks (e.g. no PyPy)
                assert _form(a) == _form(b), (shown_row[0], a, b)
        # every figure the README shows is a rate in millions, or "-" with a reason
        assert all(c == "- (no SVP64)" or re.fullmatch(
            r"N M( \(N/N of QEMU\)| \(Nx of QEMU\)| \(as N scalar `add`s\))?", _form(c))
            for c in shown_row[1:]), shown_row
