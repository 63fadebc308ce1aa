"""The scalar core against QEMU: >= 10,000 random cases over every table instruction.

QEMU (qemu-ppc64le) and GNU binutils are the oracles; see docs/diffcheck.md.
A failure message lists each mismatch with the path of its reproducer
(``isa-ext diffcheck --replay FILE`` reruns it).
"""
import os
import subprocess
import sys

import pytest

from conftest import need_tool
from isa_ext.diffcheck import DiffCheck
from isa_ext.diffcheck.generate import Generator, targets, NOT_SANDWICHABLE
from isa_ext.diffcheck.program import program
from isa_ext.diffcheck.runner import replay
from isa_ext.isa import ISA

CI_CASES = 10_000
CI_SEED = 20240601


def need_oracles():
    for name in ("powerpc64le-linux-gnu-as", "powerpc64le-linux-gnu-ld", "qemu-ppc64le"):
        need_tool(name)


@pytest.fixture(scope="module")
def base_isa():
    return ISA(extensions=["base"])


@pytest.fixture(scope="module")
def figures(base_isa, tmp_path_factory):
    need_oracles()
    out = str(tmp_path_factory.mktemp("diffcheck"))
    return DiffCheck(isa=base_isa, seed=CI_SEED, out=out).run(CI_CASES)


def test_ten_thousand_random_cases_agree_with_qemu(figures):
    assert figures.cases >= CI_CASES, figures.summary()
    assert figures.mismatch_count == 0, figures.summary()
    assert not figures.decode_mismatches, figures.summary()


def test_every_table_instruction_is_exercised(figures, base_isa):
    runnable = {t.mnemonic for t in targets(base_isa) if t.family != "skip"}
    assert not figures.assembler_rejects, figures.summary()
    assert not figures.qemu_rejects, figures.summary()
    assert runnable - figures.exercised == set(), figures.summary()
    # only documented reasons keep an instruction out
    for name in figures.skipped:
        row = base_isa.by_mnemonic[name][0]
        assert row.mnemonic in NOT_SANDWICHABLE or name in NOT_SANDWICHABLE


def test_branches_run_as_directed_cases(figures, base_isa):
    branches = {t.mnemonic for t in targets(base_isa) if t.family == "branch"}
    assert branches, "the tables have branch instructions"
    assert branches <= figures.exercised
    assert figures.by_kind.get("branch", 0) >= len(branches)


def _broken(mnemonic, bit=1):
    """The base ISA with ``mnemonic`` flipping a bit of its target register: a
    row executor of an extension (isa_ext.extension), which every execution
    path honours, translated blocks included (a patched ``isa.executable`` is
    not: blocks compile the pages themselves)."""
    from isa_ext.extension import Extension

    def setup(reg):
        isa = reg.isa

        def run_row(d):
            if d.mnemonic != mnemonic:
                return None
            c = isa.compiled(d.spec)
            f, rt = c.make(*[d.fields[p] for p in c.params]), d.fields["RT"]

            def wrong(s, cia):
                nia = f(s, cia)
                s.gpr[rt] ^= bit
                return nia
            return wrong
        reg.row_executor(run_row)
    return ISA(extensions=["base", Extension("broken", setup=setup)])


def test_a_wrong_result_is_caught_minimised_and_reproducible(tmp_path):
    need_oracles()
    isa = _broken("addi")
    figs = DiffCheck(isa=isa, seed=5, out=str(tmp_path), only=["addi", "add"],
                     sequences=0.5).run(60)
    assert figs.mismatch_count > 0
    assert {m.mnemonic for m in figs.mismatches} == {"addi"}
    m = figs.mismatches[0]
    rt = m.insn.values["RT"]
    assert any(d.startswith(f"r{rt}:") for d in m.differences)
    assert len(m.case.insns) == 1          # minimised to the differing instruction
    assert os.path.isfile(m.path)
    # the reproducer shows the mismatch again when replayed with the same defect
    assert any(diffs for _, diffs in replay(m.path, isa=isa))
    # ... and agrees with the real simulator
    assert not any(diffs for _, diffs in replay(m.path, isa=ISA(extensions=["base"])))


def test_generation_is_seeded(base_isa):
    ts = [t for t in targets(base_isa) if t.family != "skip"]

    def text(seed):
        g = Generator(base_isa, seed)
        return program([g.case_for(t, i) for i, t in enumerate(ts)])
    assert text(7) == text(7)
    assert text(7) != text(8)


def test_cli_reports_bad_options_without_traceback():
    r = subprocess.run([sys.executable, "-m", "isa_ext", "diffcheck", "--cases", "-5"],
                       capture_output=True, text=True)
    assert r.returncode == 2
    assert "Traceback" not in r.stderr and "--cases" in r.stderr
    r = subprocess.run([sys.executable, "-m", "isa_ext", "diffcheck", "--replay",
                        "/nonexistent/repro.s"], capture_output=True, text=True)
    assert r.returncode == 2
    assert "Traceback" not in r.stderr


def test_every_book1_variant_is_exercised_or_says_why(figures):
    # counted against the Book I inventory, not the tables: a missing
    # instruction would be a gap (isa_ext/diffcheck/book1.py)
    from isa_ext.diffcheck import book1
    c = book1.coverage(figures.exercised, figures.skipped, figures.table_variants)
    assert c["not in the tables"] == [] and c["not drawn"] == [], figures.summary()
    assert all(c["not sandwichable"].values())
    assert "Book I inventory" in figures.summary()
