"""--isa-coverage: statement coverage of pseudocode pages."""
import json
import os
import subprocess
import sys

from isa_ext.encoding import encode
from isa_ext.isa import ISA
from isa_ext.pseudocode import compiler
from isa_ext.sim import Simulator
from isa_ext.spec.coverage import Coverage, complete, page_key, write_report

from conftest import ROOT


def _code_line(page, text):
    """The code line number (1-based) of the line of ``page`` starting with ``text``."""
    for n, line in enumerate(page.code.splitlines(), 1):
        if line.strip().startswith(text):
            return n
    raise AssertionError(f"{text!r} not in {page.title}")


def _run(isa, word, **gprs):
    sim = Simulator(isa=isa)
    sim.load_words([word])
    for r, v in gprs.items():
        sim.state.gpr[int(r[1:])] = v
    return sim.run(max_steps=10)


def test_lines_that_ran_are_recorded():
    outer = compiler.COVERAGE  # a session-wide collector when run with --isa-coverage
    cov = Coverage()
    cov.activate()
    try:
        isa = ISA(extensions=["base"], use_cache=False)
        _run(isa, encode(isa, "add", RT=3, RA=4, RB=5), r4=1, r5=2)
        page = isa.by_mnemonic["add"][0].page
        key = page_key(page)
        # the page's top-level lines run every time; those indented under
        # "if OE = 1 then" only for addo
        lines = page.code.splitlines()
        unguarded = {n for n, line in enumerate(lines, 1) if line.strip() and not line[0].isspace()}
        guarded = {n for n, line in enumerate(lines, 1)
                   if line[:1].isspace() and n > _code_line(page, "if OE")}
        assert guarded and _code_line(page, "if OE") in unguarded
        assert unguarded | guarded <= cov.statements[key]
        assert cov.hits[key] == unguarded  # OE=0: the overflow lines did not run
        _run(isa, encode(isa, "addo", RT=3, RA=4, RB=5), r4=1, r5=2)
        assert cov.hits[key] == unguarded | guarded
    finally:
        cov.deactivate()
    assert compiler.COVERAGE is outer


def test_complete_counts_pages_no_test_ran(tmp_path):
    cov = Coverage()
    cov.activate()
    try:
        isa = ISA(extensions=["base"], use_cache=False)
        _run(isa, encode(isa, "addi", RT=3, RA=0, SI=5))
    finally:
        cov.deactivate()
    results = complete(cov, lambda: ISA(extensions=["base"], use_cache=False))
    by_title = {r.page.title: r for r in results}
    addi = by_title[isa.by_mnemonic["addi"][0].page.title]
    add = by_title[isa.by_mnemonic["add"][0].page.title]
    assert addi.percent == 100.0 and addi.hit == addi.statements
    assert add.percent == 0.0 and len(add.statements) >= 6
    report = write_report(results, str(tmp_path / "cov"))
    text = open(report, encoding="utf-8").read()
    assert "<h1>Pseudocode coverage</h1>" in text and "class='miss'" in text
    data = json.load(open(tmp_path / "cov" / "coverage.json", encoding="utf-8"))
    assert 0 < data["extensions"]["base"]["hit"] < data["extensions"]["base"]["statements"]


def test_cached_code_is_not_used_while_covering(tmp_path, monkeypatch):
    """Code from the disk cache has no probes: with coverage on it must be recompiled."""
    monkeypatch.setenv("ISA_EXT_CACHE", str(tmp_path / "cache"))
    warm = ISA(extensions=["base"])
    warm.compile_all()  # fills the disk cache without probes
    cov = Coverage()
    cov.activate()
    try:
        isa = ISA(extensions=["base"])
        _run(isa, encode(isa, "addi", RT=3, RA=0, SI=5))
        assert cov.hits
    finally:
        cov.deactivate()
    # and instrumented code was not written to the cache for later runs
    cold = ISA(extensions=["base"])
    res = _run(cold, encode(cold, "addi", RT=3, RA=0, SI=5))
    assert res.gpr[3] == 5


def test_pytest_option_writes_the_report(tmp_path):
    (tmp_path / "test_prog.py").write_text(
        "from isa_ext.encoding import encode\nfrom isa_ext.sim import Simulator\n\n"
        "def test_addi():\n    sim = Simulator(extensions=['base'])\n"
        "    sim.load_words([encode(sim.isa, 'addi', RT=3, RA=0, SI=7)])\n"
        "    assert sim.run().gpr[3] == 7\n")
    out = tmp_path / "report"
    res = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "isa_ext.pytest_plugin",
                          "--isa-coverage", f"--isa-coverage-dir={out}", "test_prog.py"],
                         cwd=tmp_path, capture_output=True, text=True,
                         timeout=120, env={**os.environ, "PYTHONPATH": ROOT})
    assert res.returncode == 0, res.stdout + res.stderr
    assert "pseudocode coverage (isa-coverage)" in res.stdout
    assert (out / "index.html").is_file()
    data = json.load(open(out / "coverage.json", encoding="utf-8"))
    addi = [p for p in data["pages"] if "addi" in p["mnemonics"]]
    assert addi and addi[0]["percent"] == 100.0
    assert any(p["percent"] == 0.0 for p in data["pages"])
