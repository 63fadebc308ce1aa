"""The spec site's SVP64 pages, errata page, search index and cross-links
(issue 18 item 5).  The pages are generated from the code's layouts; these
tests hold them to the SVP64 specification's facts (svp64.mdwn / sprs.mdwn in
openpower-isa, and libre-soc's SVSTATE layout) and to the decoder."""
import html
import re
from itertools import product

import pytest

from isa_ext.errors import Trap
from isa_ext.spec import markdown
from isa_ext.spec.svp64_pages import MODES
from isa_ext.svp64 import rm as RMM


@pytest.fixture(scope="module")
def site(spec_site):
    return spec_site


def read(site, rel):
    return (site / rel).read_text(encoding="utf-8")


# -- the mode tables say what the decoder does ---------------------------------

WIDTHS = {"CRbit": 2}  # every other named MODE field is one bit


def _samples(pattern):
    """Every MODE value (5 bits) the pattern allows."""
    tokens = pattern.split()
    widths = [WIDTHS.get(t, 1) for t in tokens]
    assert sum(widths) == 5, pattern
    choices = [[int(t)] if t in ("0", "1") else list(range(1 << w))
               for t, w in zip(tokens, widths)]
    for values in product(*choices):
        m = 0
        for v, w in zip(values, widths):
            m = (m << w) | v
        yield m


@pytest.mark.parametrize("table, pattern, mode, meaning", MODES)
def test_mode_table_rows_decode_as_documented(table, pattern, mode, meaning):
    kind = {"normal": "normal", "crop": "crop", "ldst": "ldst"}[table]
    rc = "Rc=1" in meaning
    for m in _samples(pattern):
        r = RMM.RM(RMM.put_bits(0, 19, 23, m))
        if mode in ("reserved", "not implemented"):
            with pytest.raises(Trap) as e:
                RMM.decode_mode(r, kind, rc, False)
            assert mode in e.value.reason
        else:
            assert RMM.decode_mode(r, kind, rc, False).mode == mode, (pattern, bin(m))


def test_every_mode_value_is_in_a_table_row():
    # the rows of each table cover all 32 MODE values (Rc=0 and Rc=1 fail-first
    # rows overlap: they are the same bits read two ways)
    for table in ("normal", "crop", "ldst"):
        covered = set()
        for t, pattern, _mode, _meaning in MODES:
            if t == table:
                covered |= set(_samples(pattern))
        assert covered == set(range(32)), table


# -- layouts: the spec's facts -------------------------------------------------

def test_prefix_page_matches_the_prefix_word():
    # svp64.mdwn: PO=1 in bits 0:5, bits 7 and 9 set, RM[0] at 6, RM[1] at 8,
    # RM[2:23] at 10:31
    assert [(a, b, v) for a, b, _n, v in RMM.PREFIX_FIELDS] == \
        [(0, 5, 1), (6, 6, None), (7, 7, 1), (8, 8, None), (9, 9, 1), (10, 31, None)]
    for rm in (0, 0xFFFFFF, 0x800000, 0x400000, 0x123456):
        word = RMM.prefix_of(rm)
        bit = lambda i: (word >> (31 - i)) & 1  # noqa: E731 (MSB0 bit i)
        assert word >> 26 == 1 and bit(7) == 1 and bit(9) == 1
        assert bit(6) == rm >> 23 and bit(8) == (rm >> 22) & 1
        assert word & 0x3FFFFF == rm & 0x3FFFFF


def test_rm_fields_are_the_spec_layout(site):
    # svp64.mdwn "RM": MASKMODE 0, MASK 1:3, ELWIDTH 4:5, ELWIDTH_SRC 6:7,
    # SUBVL 8:9, EXTRA 10:18, MODE 19:23; MASK_SRC is EXTRA's last 3 bits, 16:18
    page = read(site, "svp64/rm.html")
    for name, bits in (("MASKMODE", "0:0"), ("MASK", "1:3"), ("ELWIDTH", "4:5"),
                       ("ELWIDTH_SRC", "6:7"), ("SUBVL", "8:9"), ("EXTRA", "10:18"),
                       ("MODE", "19:23")):
        assert f"<td><code>{name}</code></td><td>{bits}</td>" in page
    assert "RM[16:18]" in page
    # the decoder reads those bits: ELWIDTH=1 (32-bit) at RM[4:5], SUBVL=3 (vec4)
    r = RMM.RM(RMM.put_bits(RMM.put_bits(0, 4, 5, 1), 8, 9, 3))
    assert (r.ew, r.subvl) == (32, 4)


def test_svstate_and_svshape_pages(site):
    # SVSTATE (libre-soc sv/sprs.mdwn): maxvl 0:6, vl 7:13, srcstep 14:20,
    # dststep 21:27, dsubstep 28:29, ssubstep 30:31, SVme 42:46, vfirst 63
    page = read(site, "svp64/svstate.html")
    for name, bits in (("maxvl", "0:6"), ("vl", "7:13"), ("srcstep", "14:20"),
                       ("dststep", "21:27"), ("dsubstep", "28:29"), ("ssubstep", "30:31"),
                       ("SVme", "42:46"), ("vfirst", "63:63")):
        assert f"<td><code>{name}</code></td><td>{bits}</td>" in page, name
    assert '<svg class="encoding layout"' in page
    # SVSHAPE (remap.mdwn): xdimsz 0:5, ydimsz 6:11, zdimsz 12:17, permute 18:20,
    # invxyz 21:23, offset 24:27, skip 28:29, mode 30:31
    page = read(site, "svp64/svshape.html")
    for name, bits in (("xdimsz", "0:5"), ("permute", "18:20"), ("mode", "30:31")):
        assert f"<td><code>{name}</code></td><td>{bits}</td>" in page
    assert "SVSHAPE0 705" in page


def test_extra_and_remap_pages(site):
    page = read(site, "svp64/extra.html")
    # EXTRA3 vector spec 0b101 on RA=5: register (5 << 2) | 1 = 21; scalar spec
    # 0b011 on RA=5: (3 << 5) | 5 = 101 (svp64.mdwn "EXTRA3": r = (RA<<2)|s1s0
    # for vectors, (s1s0<<5)|RA for scalars)
    assert "<tr><td><code>101</code></td><td>21</td><td>vector</td></tr>" in page
    assert "<tr><td><code>011</code></td><td>101</td><td>scalar</td></tr>" in page
    page = read(site, "svp64/remap.html")
    # a 3x2 matrix walks 0..5 and repeats; with x inverted (invxyz bit 0) each
    # row of three runs backwards: 2 1 0 5 4 3 (remap.mdwn, Matrix mode)
    assert "<td>0 1 2 3 4 5 0 1 2 3 4 5</td>" in page
    assert "<td>2 1 0 5 4 3 2 1 0 5 4 3</td>" in page


def test_svp64_index_links_every_page(site):
    page = read(site, "svp64/index.html")
    for slug in ("prefix", "rm", "modes", "extra", "svstate", "svshape", "remap"):
        assert f'href="{slug}.html"' in page
        assert (site / "svp64" / f"{slug}.html").is_file()


# -- cross-links ---------------------------------------------------------------

def _ids(text):
    return set(re.findall(r'id="([^"]+)"', text))


def test_instruction_pages_link_their_category_and_errata(site):
    rm_ids = _ids(read(site, "svp64/rm.html"))
    errata_ids = _ids(read(site, "errata.html"))
    page = read(site, "insn/add.html")
    m = re.search(r'href="\.\./svp64/rm\.html#([^"]+)"', page)
    assert m and m.group(1) == "cat-RM-1P-2S1D" and m.group(1) in rm_ids
    broken = []
    for p in (site / "insn").glob("*.html"):
        for target in re.findall(r'href="\.\./errata\.html#([^"]+)"', p.read_text()):
            if target not in errata_ids:
                broken.append((p.name, target))
        for target in re.findall(r'href="\.\./svp64/rm\.html#([^"]+)"', p.read_text()):
            if target not in rm_ids:
                broken.append((p.name, target))
    assert not broken
    # mv.swiz has errata entries (docs/errata.md 001-*): listed and linked
    swiz = read(site, "insn/mv.swiz.html")
    assert swiz.count('href="../errata.html#') >= 1


def test_po22_map_links_instruction_pages(site):
    page = read(site, "po22.html")
    links = set(re.findall(r'href="(insn/[^"]+\.html)"', page))
    assert 'href="insn/mv.swiz.html"' in page  # a PO22 row of the swizzle extension
    assert links and all((site / link).is_file() for link in links)


def test_errata_page_is_rendered_not_raw(site):
    page = read(site, "errata.html")
    body = page.split("<body>", 1)[1]
    text = re.sub(r"<pre>.*?</pre>", "", body, flags=re.S)
    text = re.sub(r"<code>.*?</code>", "", text, flags=re.S)
    assert "**" not in text and "\n### " not in text and "`" not in text
    assert "<h3" in page and "<li>" in page and "<b>" in page
    assert 'Instructions: <a href="insn/mv.swiz.html">' in page


def test_search_index_has_every_page(site):
    js = read(site, "search-index.js")
    assert js.startswith("window.SEARCH_INDEX = ")
    for p in (site / "insn").glob("*.html"):
        assert f'"insn/{p.name}"' in js
    assert '"svp64/modes.html"' in js


# -- the Markdown renderer -----------------------------------------------------

def test_markdown_escapes_html_and_renders_inline():
    out = markdown.render("# T\n\nsee `a<b` and **bold** [x](docs/y.md) <script>\n\n"
                          "* one\n  two\n* three\n")
    assert "<h1>T</h1>" in out
    assert "<code>a&lt;b</code>" in out and "<b>bold</b>" in out
    assert '<a href="docs/y.md">x</a>' in out and "&lt;script&gt;" in out
    assert "<ul><li>one two</li><li>three</li></ul>" in out
    assert markdown.inline("[x](javascript:alert(1))").startswith('<a href="#">')
    assert html.unescape(markdown.render("```\n<a>\n```")) == "<pre><a></pre>"


def test_pages_list_aliases_and_the_errata_naming_them(site):
    # li is the extended mnemonic of addi (Power ISA Book I, "Extended Mnemonics")
    assert "<td><code>li</code></td>" in read(site, "insn/addi.html")
    # shuffleNV is the GLSL name of shfli.up/shfli.idx (decoder/gpu/aliases/glsl.csv);
    # docs/errata.md's "000-2 shuffleNV index 9, width 8" is about it
    page = read(site, "insn/shfli.up.html")
    assert "<td><code>shuffleNV</code></td>" in page
    assert "000-2 shuffleNV index 9" in page


def test_a_helper_modules_word_strings_are_not_references(tmp_path):
    from isa_ext.spec.sources import references_for, scan_references
    (tmp_path / "tests").mkdir()
    # a helper (not test_*.py) with a table of operation names and one program
    (tmp_path / "tests" / "reference.py").write_text(
        'ALLOWED = {"add": "u32", "and": "u32"}\nPROG = """\n    add 3,4,5\n"""\n')
    index = scan_references(str(tmp_path))
    # names from a phrase: a bare "add" string here would be a use of add itself
    add, and_ = "add and".split()
    assert references_for(index, [add]) == {"tests/reference.py": [3]}
    assert references_for(index, [and_]) == {}
