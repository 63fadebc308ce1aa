"""docs/adding-an-extension.md, followed word for word: the files the guide
shows (each block marked ``<!-- file: PATH -->``) are written into a temporary
folder, its usage script is run, and the checks of its step 5 are made.

Expected values are the guide's hand derivations: the encoding from the
X-form's field positions (decoder/forms.txt, the Power ISA book's X-form), the
average from arithmetic on the operands."""
import pathlib
import re
import runpy
import sys

import pytest

from conftest import ROOT
from isa_ext.errors import Trap
from isa_ext.isa import ISA
from isa_ext.sim import Simulator

GUIDE = pathlib.Path(ROOT, "docs", "adding-an-extension.md")
FILE_BLOCK = re.compile(r"<!-- file: (?P<path>\S+) -->\n```\w*\n(?P<text>.*?)```", re.S)


@pytest.fixture
def guide_files(tmp_path, monkeypatch):
    """The guide's files under tmp_path; the extension folder importable."""
    blocks = FILE_BLOCK.findall(GUIDE.read_text(encoding="utf-8"))
    assert {p for p, _t in blocks} == {"avg/decoder/avg/avg.csv", "avg/pseudocode/avg/avg.mdwn",
                                       "avg/avg_ext.py", "avg/use_avg.py"}
    for path, text in blocks:
        target = tmp_path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path / "avg"))
    monkeypatch.setenv("ISA_EXT_CACHE", str(tmp_path / "cache"))
    yield tmp_path / "avg"
    for name in ("avg_ext", "use_avg"):
        sys.modules.pop(name, None)


def x_form(po, rt, ra, rb, xo, rc=0):
    """An X-form word from its fields (PO 0:5, RT 6:10, RA 11:15, RB 16:20,
    XO 21:30, Rc 31; MSB0)."""
    return po << 26 | rt << 21 | ra << 16 | rb << 11 | xo << 1 | rc


def test_the_guides_extension_assembles_disassembles_and_runs(guide_files):
    ns = runpy.run_path(str(guide_files / "use_avg.py"))
    want = x_form(9, 3, 4, 5, 7)
    assert want == 0x2464280E  # the guide's derivation, checked against the fields
    assert ns["word"] == want
    assert ns["text"] == "avgu r3,r4,r5"
    result = ns["result"]
    assert result.stop == "end" and result.trap is None
    # (2^64 - 1 + 1) / 2 = 2^63: the 65-bit sum halved (a 64-bit sum gives 0)
    assert result.gpr[3] == 1 << 63
    assert ns["isa"].extensions == ["base", "avg"]


def test_the_guides_extension_helper_works_at_both_speeds(guide_files):
    from avg_ext import EXTENSION
    isa = ISA(extensions=["base", EXTENSION])
    for translate in (False, True):
        sim = Simulator(isa=isa, translate=translate)
        # a loop so that block translation runs the page too
        sim.load_asm("li 6,3\nmtctr 6\nloop: avgu 3,4,5\naddi 4,4,2\nbdnz loop\n")
        sim.state.gpr[4], sim.state.gpr[5] = 10, 31
        r = sim.run()
        # last pass: r4 = 10 + 2 + 2 = 14, (14 + 31) / 2 = 22 (floor)
        assert r.stop == "end" and r.gpr[3] == 22 and r.gpr[4] == 16


def test_reserved_bit_of_the_guides_row_traps(guide_files):
    from avg_ext import EXTENSION
    isa = ISA(extensions=["base", EXTENSION])
    sim = Simulator(isa=isa)
    sim.load_words([x_form(9, 3, 4, 5, 7, rc=1)])
    r = sim.run()
    assert r.trap is not None and r.trap.kind == "illegal"
    assert "invalid form of avgu" in r.trap.reason and "31" in r.trap.reason


def test_the_guides_extension_is_on_the_spec_site_and_checks_clean(guide_files, tmp_path):
    from avg_ext import EXTENSION
    from isa_ext.spec.checks import check_spec
    from isa_ext.spec.render import write_site
    problems, isa = check_spec(extensions=["base", EXTENSION])
    mine = [p for p in problems if "avg" in str(p)]
    assert isa is not None and mine == []
    write_site(isa, str(tmp_path / "site"), None)
    page = (tmp_path / "site" / "insn" / "avgu.html").read_text(encoding="utf-8")
    assert "Average Unsigned" in page and "AVGU((RA), (RB))" in page
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert 'id="ext-avg"' in index and "insn/avgu.html" in index


def test_the_guides_extension_stays_in_its_own_isa(guide_files):
    from avg_ext import EXTENSION
    word = x_form(9, 3, 4, 5, 7)
    mine = ISA(extensions=["base", EXTENSION])
    plain = ISA(extensions=["base"])
    assert mine.decode(word).mnemonic == "avgu"
    assert plain.decode(word) is None
    assert "AVGU" in mine.library.intrinsics and "AVGU" not in plain.library.intrinsics
    with pytest.raises(Trap, match="no instruction matches word 0x2464280e"):
        plain.executable(word)
