"""Docs that stay true (issue 18 item 6): where README.md or docs/ state a fact
the code defines -- the QEMU CPU model and compiler flags of the differential
runs, the sub-commands and their flags, the counts a test run produces -- this
fails when the two part.  Figures measured on a machine (speeds) live in two
places only: the README's table, which benchmarks/compare.py --readme-table
prints (tests/tools/test_benchmark_compare.py checks its shape), and
docs/benchmarks.md's "History", each row there naming the script that measured it.
"""
import argparse
import re
from pathlib import Path

import pytest

from isa_ext.cli import build_parser

from conftest import ROOT as CHECKOUT
ROOT = Path(CHECKOUT)
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = {p.name: p.read_text(encoding="utf-8") for p in (ROOT / "docs").glob("*.md")}
# docs/errata.md is a log: it quotes what older docs said ("ran -cpu power9")
CURRENT = {"README.md": README, **{k: v for k, v in DOCS.items() if k != "errata.md"}}


def test_qemu_cpu_of_the_differential_is_the_codes():
    from isa_ext.diffcheck.tools import AS_FLAGS, QEMU_CPU
    from isa_ext.diffcheck.cprograms import CFLAGS
    gcc_cpu = next(f.split("=", 1)[1] for f in CFLAGS if f.startswith("-mcpu="))
    as_cpu = next(f[2:] for f in AS_FLAGS if f.startswith("-mpower"))
    wrong = []
    for name, text in CURRENT.items():
        for line in text.splitlines():
            # the diffcheck's QEMU and GNU as: what isa_ext.diffcheck.tools runs
            if re.search(r"differential|diffcheck", line, re.I):
                wrong += [(name, line) for cpu in re.findall(r"-cpu (power\w+)", line)
                          if cpu != QEMU_CPU]
                wrong += [(name, line) for cpu in re.findall(r"-m(power\d+)\b", line)
                          if cpu != as_cpu]
            # the C suite's compiler flags
            wrong += [(name, line) for cpu in re.findall(r"-mcpu=(power\w+)", line)
                      if "-mno-vsx" in line and cpu != gcc_cpu]
    assert not wrong


def _leaves():
    out = {}

    def walk(parser, name):
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        for a in subs:
            for sub_name, sub in a.choices.items():
                walk(sub, f"{name} {sub_name}".strip())
        if name and not subs:
            out[name] = parser
    walk(build_parser(), "")
    return out


# the README's command summary and docs/cli.md's full table: one row per
# sub-command in each
COMMAND_TABLES = {"README.md": README, "cli.md": DOCS["cli.md"]}


def _readme_rows(text):
    """{command-table row text: the sub-command it documents}."""
    rows = {}
    leaves = _leaves()
    for line in text.splitlines():
        m = re.match(r"\| `isa-ext ([a-z-]+(?: [a-z{},-]+)?)", line)
        if not m:
            continue
        words = m.group(1).split()
        if words[0].startswith("-"):
            continue  # a top-level option (--version): test_top_level_options
        if len(words) == 2 and words[1].startswith("{"):
            for verb in words[1].strip("{}").split(","):
                rows[line + verb] = f"{words[0]} {verb}"
        elif len(words) == 2 and " ".join(words) in leaves:
            rows[line] = " ".join(words)
        else:
            rows[line] = words[0]
    return rows


@pytest.mark.parametrize("doc", sorted(COMMAND_TABLES))
def test_every_sub_command_has_a_readme_row(doc):
    documented = set(_readme_rows(COMMAND_TABLES[doc]).values())
    leaves = set(_leaves())
    assert leaves - documented == set()


def _options(parser):
    return {s: a for a in parser._actions for s in a.option_strings}


@pytest.mark.parametrize("doc", sorted(COMMAND_TABLES))
def test_readme_flags_and_choices_are_the_parsers(doc):
    leaves = _leaves()
    bad = []
    for row, command in _readme_rows(COMMAND_TABLES[doc]).items():
        opts = _options(leaves[command])
        for flag, choices in re.findall(r"(--[a-z][a-z-]*)(?: ([a-z0-9-]+(?:\\\|[a-z0-9-]+)+))?",
                                        row.split("|")[1]):
            if flag not in opts:
                bad.append((command, flag))
            elif choices and set(choices.split("\\|")) != set(opts[flag].choices or ()):
                bad.append((command, flag, choices))
    assert not bad


def test_readme_diffcheck_figures_are_the_ci_runs():
    # docs/diffcheck.md's "10,000 (...) in 20 ELFs": CI's case count over the
    # batch size; the seed
    from test_diffcheck import CI_CASES, CI_SEED
    from isa_ext.diffcheck.runner import DiffCheck
    doc = DOCS["diffcheck.md"]
    assert f"isa-ext diffcheck --cases {CI_CASES} --seed {CI_SEED}" in doc
    elfs = -(-CI_CASES // DiffCheck().batch)
    assert re.search(rf"\| {CI_CASES:,} \(.*\) in {elfs} ELFs", doc)


def test_readme_fuzz_counts_are_the_tests():
    from test_fuzz import BATCHES, COUNTS, SCALE
    if SCALE != 1:
        pytest.skip("ISA_EXT_FUZZ_SCALE changes the counts")
    # docs/testing.md, "Fuzzing"
    text = " ".join(DOCS["testing.md"].split("Fuzzing (`tests/core/test_fuzz.py`", 1)[1]
                    .split("\n\n")[0].split())
    for key, what in (("exec32", "random 32-bit words"), ("exec64", "SVP64 pairs"),
                      ("disasm", "disassembled and reassembled words"),
                      ("asm", "assembler sources"), ("elf", "corrupt ELF files")):
        assert f"{COUNTS[key] * BATCHES:,} {what}" in text, (key, what)
    total = (COUNTS["exec32"] + COUNTS["exec64"]) * BATCHES
    assert f"{total:,} executed instructions" in text


SPEED = re.compile(r"\d(?:\.\d+)?(?:-\d(?:\.\d+)?)?\s?(?:M|million) (?:element operations|"
                   r"instructions)/s")


def _table_after(text, heading):
    """The first Markdown table after ``heading``: its rows, header and rule excluded."""
    rest = text.split(heading, 1)[1]
    lines = rest[rest.index("\n|"):].strip("\n").split("\n\n")[0].splitlines()
    return [r for r in lines if r.startswith("| ") and "---" not in r][1:]


README_TABLE_START = "<!-- the output of benchmarks/compare.py --readme-table, pasted whole -->"
README_TABLE_END = "<!-- end of compare.py's output -->"


def test_speed_figures_only_in_the_generated_table_and_the_history():
    # a speed stated elsewhere in docs/ drifts from the measured ones (it did:
    # 2.1-2.4M against 3.1-3.2M); docs point to the README's table instead, and
    # the dated figures of the past live in docs/benchmarks.md's "History"
    history = DOCS["benchmarks.md"].split("\n## History\n", 1)[1]
    stray = [(name, m) for name, text in DOCS.items() if name != "errata.md"
             for m in SPEED.findall(text.replace(history, "") if name == "benchmarks.md"
                                    else text)]
    assert not stray
    # every row of the history's speed table names the script that measured it
    rows = _table_after(history, "### Speed, isa_ext alone and by benchmark script")
    assert len(rows) >= 10
    for row in rows:
        scripts = re.findall(r"`python (benchmarks/\w+\.py)[^`]*`", row)
        assert scripts and all((ROOT / s).is_file() for s in scripts), row
    # the README: speeds only inside compare.py's pasted outputs (the loops, the
    # Embench builds), each naming its command
    blocks = [part.split(README_TABLE_END, 1)[0]
              for part in README.split(README_TABLE_START)[1:]]
    assert len(blocks) == 2
    rest = README
    for generated in blocks:
        assert "`python benchmarks/compare.py --readme-table" in generated
        assert SPEED.findall(generated) == [] and "M (" in generated  # "9.16 M (1/714 of QEMU)"
        rest = rest.replace(generated, "")
    assert not SPEED.findall(rest)
    # and kept: the README's tables are the newest of the history's list of them,
    # in the order the history lists them (newest first)
    kept = history.split("### The README's tables (compare.py --readme-table)", 1)[1]
    listed = [t.split("\n\n|", 1) for t in kept.split("Measured by `")[1:]]
    listed = [["Measured by `" + cap, "|" + table.split("\n\n")[0].rstrip()]
              for cap, table in listed]
    shown = [["Measured by `" + g.strip().split("Measured by `", 1)[1].split("\n\n|", 1)[0],
              "|" + g.strip().split("\n\n|", 1)[1]] for g in blocks]
    assert sorted(map(tuple, shown)) == sorted(map(tuple, listed[:len(shown)]))


@pytest.mark.parametrize("doc", sorted(COMMAND_TABLES))
def test_top_level_options(doc):
    top = _options(build_parser())
    flags = re.findall(r"^\| `isa-ext (--[a-z-]+)`", COMMAND_TABLES[doc], re.M)
    assert flags and all(flag in top for flag in flags), flags
