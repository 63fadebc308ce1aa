"""What the README shows a new user is what the tools do (issue 18's acceptance:
"the README shows a gdb session, a trace excerpt and a screenshot of the spec
site"; since issue 31 the gdb session is in docs/gdb.md, the README's user's
guide links it), and docs/spec-tools.md lists the SVP64 pages the site writes.
The gdb session is replayed by
tests/e2e/test_gdbserver.py::test_docs_gdb_session_is_what_gdb_prints."""
import pathlib
import re
import struct

from isa_ext.cli import main
from test_trace import SV_GPRS, SV_PROG

from conftest import ROOT as CHECKOUT
ROOT = pathlib.Path(CHECKOUT)
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _block_after(heading):
    return README.split(heading, 1)[1].split("```", 2)[1].strip("\n").splitlines()


def test_readme_has_the_three_exhibits():
    gdb_doc = (ROOT / "docs" / "gdb.md").read_text(encoding="utf-8")
    assert gdb_doc.startswith("# Debugging with gdb") and "(gdb) stepi" in gdb_doc
    assert "(docs/gdb.md)" in README
    assert "### Traces" in README
    assert re.search(r"!\[[^\]]*spec site[^\]]*\]\(docs/spec-site\.png\)", README)


def test_readme_trace_excerpt_is_what_trace_prints(tmp_path, capsys):
    # the README says the excerpt comes from tests/core/test_trace.py's SVP64 program
    shown = _block_after("### Traces")
    src = tmp_path / "p.s"
    src.write_text(SV_PROG)
    assert main(["run", str(src), "--trace", "--gpr", SV_GPRS]) == 0
    printed = [line.rstrip() for line in capsys.readouterr().out.splitlines()]
    assert len(shown) == 4
    for line in shown:
        assert line.rstrip() in printed, line
    # in order and adjacent: the instruction line, then its element lines
    at = printed.index(shown[0].rstrip())
    assert printed[at:at + 4] == [line.rstrip() for line in shown]


def test_readme_screenshot_is_the_current_rm_page(spec_site):
    png = (ROOT / "docs" / "spec-site.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])  # IHDR
    assert width >= 800 and height >= 400 and len(png) > 20000
    # what the picture shows, read off it by eye: if the RM page no longer says
    # this, the screenshot is stale: retake it (tests/e2e/test_browser_site.py leaves
    # svp64-rm.png in $ISA_EXT_SCREENSHOTS; this one is chromium --headless
    # --window-size=1100,650 on isa-ext spec's svp64/rm.html)
    page = re.sub(r"<[^>]+>", " ", (spec_site / "svp64" / "rm.html").read_text())
    page = " ".join(page.split())
    for fact in ("Index SVP64 PO22 opcode map Errata Search Markdown", "RM fields",
                 "The 24-bit RM field of the prefix , MSB0.",
                 "MASKMODE 0:0 1 0: integer predicate (MASK names a GPR), 1: CR predicate",
                 "MASK 1:3 3 destination predicate (single-predicated: both)",
                 "ELWIDTH 4:5 2 destination element width",
                 "ELWIDTH_SRC 6:7 2 source element width",
                 "SUBVL 8:9 2 sub-vector length - 1 (1 to 4)",
                 "EXTRA 10:18 9 register extension (EXTRA2/EXTRA3); twin-predicated: "
                 "MASK_SRC in RM[16:18]",
                 "MODE 19:23 5 the mode (see the modes page)",
                 "Element widths", "ELWIDTH value bits 0 64 1 32 2 16 3 8"):
        assert fact in page, fact


def test_spec_tools_doc_lists_every_svp64_page(spec_site):
    doc = (ROOT / "docs" / "spec-tools.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\s*\| `(svp64/[a-z0-9]+\.html)` \|", doc, re.M))
    written = {f"svp64/{p.name}" for p in (spec_site / "svp64").glob("*.html")}
    assert listed == written and len(written) == 8
