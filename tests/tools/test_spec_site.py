"""isa-ext spec: the generated site and Markdown describe every row, and the
encoding diagrams agree with the decoder's masks."""
import html
import pathlib
import re
import textwrap
from html.parser import HTMLParser

import pytest

from isa_ext.cli import main
from isa_ext.forms import parse_forms
from isa_ext.spec import opcode_map
from isa_ext.spec.layout import encoding_boxes
from isa_ext.spec.sources import parse_errata, references_for, scan_references
from isa_ext.tables import parse_table

from conftest import ROOT as CHECKOUT
ROOT = pathlib.Path(CHECKOUT)


@pytest.fixture(scope="module")
def site(spec_site):
    return spec_site


class _SvgFields(HTMLParser):
    """(first bit, last bit, label, value text) of each field box in an encoding SVG."""

    def __init__(self):
        super().__init__()
        self.boxes, self._cur, self._text_class = [], None, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "g" and "field" in a.get("class", ""):
            self._cur = {"label": a["data-field"], "bitno": [], "value": None}
            self.boxes.append(self._cur)
        elif tag == "text" and self._cur is not None:
            self._text_class = a.get("class")

    def handle_data(self, data):
        if self._cur is not None and self._text_class == "bitno":
            self._cur["bitno"].append(int(data))
        elif self._cur is not None and self._text_class == "value":
            self._cur["value"] = data

    def handle_endtag(self, tag):
        if tag == "text":
            self._text_class = None
        elif tag == "g":
            self._cur = None


def _svg_boxes(html_text):
    p = _SvgFields()
    p.feed(html_text[html_text.index("<svg class=\"encoding\""):])
    out = []
    for b in p.boxes:
        first, last = b["bitno"][0], b["bitno"][-1]
        out.append((first, last, b["label"], b["value"]))
    return out


def test_every_row_has_a_page_and_an_index_link(site, isa):
    index = (site / "index.html").read_text()
    links = set(re.findall(r'href="insn/([^"]+)\.html"', index))
    assert len(links) == len(isa.rows)
    for slug in links:
        assert (site / "insn" / f"{slug}.html").is_file()
    for row in isa.rows:
        assert f"<code>{row.mnemonic}</code></a>" in index


def test_diagrams_show_each_rows_fixed_bits(site, isa):
    """Rebuilding mask and value from the drawn constant boxes and the reserved
    ("/", must be zero) boxes gives the decoder's."""
    index = (site / "index.html").read_text()
    slug_of = dict((m, s) for s, m in re.findall(r'href="insn/([^"]+)\.html"><code>([^<]+)</code>', index))
    for row in isa.rows:
        boxes = _svg_boxes((site / "insn" / f"{slug_of[row.mnemonic]}.html").read_text())
        covered = [b for first, last, *_ in boxes for b in range(first, last + 1)]
        size = row.form.size  # (a prefixed row: 64 bits, prefix first)
        assert sorted(covered) == list(range(size)), row.mnemonic
        mask = value = 0
        for first, last, label, shown in boxes:
            if label == "/":
                mask |= ((1 << (last - first + 1)) - 1) << (size - 1 - last)
                continue
            if shown is None:
                continue
            n = last - first + 1
            v = int(shown, 2) if n <= 3 else int(shown)
            mask |= ((1 << n) - 1) << (size - 1 - last)
            value |= v << (size - 1 - last)
        assert (mask, value) == (row.mask, row.value), row.mnemonic


def test_add_page_content(site, isa):
    """add: XO-form, primary opcode 31, extended opcode 266 in bits 22:30 (Power ISA)."""
    text = (site / "insn" / "add.html").read_text()
    boxes = _svg_boxes(text)
    assert [(f, l, lab) for f, l, lab, _ in boxes] == [
        (0, 5, "PO"), (6, 10, "RT"), (11, 15, "RA"), (16, 20, "RB"), (21, 21, "OE"),
        (22, 30, "XO"), (31, 31, "Rc")]
    assert boxes[0][3] == "31" and boxes[5][3] == "266"
    for variant in ("add", "add.", "addo", "addo."):
        assert f"<code>{variant}</code>" in text
    # the Pseudocode block is the add page's code, read here straight from the source
    # file (pseudocode/base/fixedarith.mdwn), dedented and HTML-escaped
    src = (ROOT / "pseudocode" / "base" / "fixedarith.mdwn").read_text()
    code = src.split("* add RT,RA,RB (OE=0 Rc=0)", 1)[1].split("Pseudo-code:\n\n", 1)[1]
    code = textwrap.dedent(code.split("\n\nSpecial Registers Altered:", 1)[0])
    assert code.startswith("a <- (RA)") and "RT <- sum[1:64]" in code
    assert f'<pre class="pseudocode">{html.escape(code, quote=False)}</pre>' in text
    assert "RM-1P-2S1D" in text


def test_markdown_has_every_row_and_encoding_tables(site, isa):
    md = (site / "spec.md").read_text()
    for row in isa.rows:
        assert f"### `{row.mnemonic}` —" in md
    assert "| 0:5 | 6:10 | 11:15 | 16:20 | 21 | 22:30 | 31 |\n|---|---|---|---|---|---|---|\n" \
           "| PO | RT | RA | RB | OE | XO | Rc |\n| 31 |  |  |  |  | 266 |  |" in md


def test_multi_piece_field_is_drawn_per_piece():
    forms = parse_forms("form T\n    PO 0:5\n    RS 6:10\n    RA 11:15\n    sh 16:20 30\n"
                        "    XO 21:29\n    Rc 31\n")
    row = parse_table("mnemonic,form,match,syntax\nzz,T,PO=30 XO=5 sh=0b100001,\"RA,RS\"\n",
                      forms, "t", "t.csv")[0]
    boxes = [(b.first, b.last, b.label, b.value) for b in encoding_boxes(row)]
    assert (16, 20, "sh[0:4]", 0b10000) in boxes
    assert (30, 30, "sh[5]", 1) in boxes
    # the row has no Rc suffix, so bit 31 is reserved (must be 0), drawn "/"
    assert (31, 31, "/", None) in boxes


def test_bits_no_field_covers_are_reserved():
    forms = parse_forms("form T\n    PO 0:5\n    RT 6:10\n    XO 26:31\n")
    row = parse_table("mnemonic,form,match,syntax\nzz,T,PO=1 XO=2,RT\n", forms, "t", "t.csv")[0]
    assert [(b.first, b.last, b.label) for b in encoding_boxes(row)] == [
        (0, 5, "PO"), (6, 10, "RT"), (11, 25, "/"), (26, 31, "XO")]


ERRATA = """# Errata

Intro mentioning `add` outside any entry.

## Seed 9

### 9-1 The and/or example

The seed's `addi` example and the word add in prose; also mv.swiz and sv.fmv.swiz.

### 9-2 Nothing here

Only English: add, and, or.
"""


def test_errata_entries_and_mentions():
    entries = parse_errata(ERRATA)
    assert [(e.title, e.line) for e in entries] == [("9-1 The and/or example", 7),
                                                     ("9-2 Nothing here", 11)]
    first, second = entries
    assert {"addi", "mv.swiz", "fmv.swiz", "sv.fmv.swiz"} <= first.mentions
    assert not {"add", "and", "or"} & first.mentions
    assert not {"add", "and", "or"} & second.mentions


def test_errata_as_list_items():
    entries = parse_errata("# Errata\n\n- `lbz` reads one byte\n  more text\n- nothing\n")
    assert [e.title for e in entries] == ["`lbz` reads one byte", "nothing"]
    assert "lbz" in entries[0].mentions and "lbz" not in entries[1].mentions


def test_references_come_from_strings_and_assembly(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "examples").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(
        '# add in a comment does not count\nPROG = """\n    addi 3,3,1\n    sv.add 1,2,3\n"""\n'
        "def test_y():\n    s = set(); s.add(1)\n")
    (tmp_path / "examples" / "k.s").write_text("loop:\n    add. 3,4,5\n")
    index = scan_references(str(tmp_path))
    # names from a phrase: bare "add" strings here would be uses of add itself
    assert references_for(index, "add add.".split()) == {"examples/k.s": [2],
                                                         "tests/test_x.py": [4]}
    assert references_for(index, "addi".split()) == {"tests/test_x.py": [3]}


def _alloc(key, name, owner="ours"):
    return opcode_map.Allocation(key, name, "X", owner)


def test_free_space_is_exactly_the_unallocated_keys():
    allocs = [_alloc("-------0011", "a"), _alloc("00001011101", "b", "openpower-isa"),
              _alloc("-----10011-", "c", "openpower-isa")]
    owners = opcode_map.owners_by_key(allocs)
    free = opcode_map.free_patterns(owners)
    expected = {v for v in range(2048)
                if not any(all(c == "-" or int(c) == (v >> (10 - i)) & 1 for i, c in enumerate(k))
                           for k in ("-------0011", "00001011101", "-----10011-"))}
    got = []
    for p in free:
        got += [v for v in range(2048)
                if all(c == "-" or int(c) == (v >> (10 - i)) & 1 for i, c in enumerate(p))]
    assert len(got) == len(set(got))  # disjoint
    assert set(got) == expected
    assert len(expected) == 2048 - 128 - 1 - 64


def test_collisions_only_between_owners():
    allocs = [_alloc("-----11011-", "mine"), _alloc("-----11011-", "setvl", "openpower-isa"),
              _alloc("-------0011", "x"), _alloc("-------0011", "y"),
              _alloc("-----10011-", "svstep"), _alloc("-----10011-", "svstep", "openpower-isa")]
    pairs = [(a.name, b.name) for a, b in opcode_map.collisions(allocs)]
    assert pairs == [("mine", "setvl")]  # same-name rows are one instruction


def test_reference_po22_rows_load():
    ref = opcode_map.load_reference()
    assert all(len(a.key) == 11 and set(a.key) <= set("01-") for a in ref)
    names = {a.name for a in ref}
    # the draft instructions openpower-isa places in PO22 (docs/instruction-set.md)
    assert {"setvl", "svstep", "svshape", "svremap", "svindex", "fmvis", "fishmv", "bmask",
            "binlog", "crbinlog", "crfbinlog", "avgadd", "absdu", "cprop", "gbbd"} <= names


def test_po22_page_lists_every_allocation(site, isa):
    text = (site / "po22.html").read_text()
    for a in opcode_map.allocations(isa):
        # our rows link their instruction page; openpower-isa's have none here
        assert re.search(rf"<td><code>{re.escape(a.key)}</code></td><td>(<a href=\"insn/"
                         rf"[^\"]+\">)?{re.escape(a.name)}(</a>)?</td>", text), a
    assert "key values are free" in text
    assert text.count("<rect ") == 2048


def test_spec_cli_reports_unwritable_output(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main(["spec", "--out", str(blocker / "site")]) == 2
    assert "cannot write the site" in capsys.readouterr().err


def _registers_row(text, kind):
    return re.search(rf"<tr><th>{kind}</th><td>([^<]*)</td></tr>", text).group(1).split()


def test_register_pairs_list_both_registers(site, isa):
    """Issue 18: mv.swiz listed RTp/RAp but not the pairs' second registers.
    Seed 001: mv.swiz reads RAp and RAp+1 and writes RTp and RTp+1; Power ISA
    lq writes RTp and RTp+1, stq reads RSp and RSp+1."""
    swiz = (site / "insn" / "mv.swiz.html").read_text()
    assert _registers_row(swiz, "read") == ["RAp", "RAp+1"]
    assert _registers_row(swiz, "written") == ["RTp", "RTp+1"]
    assert "FRTp is the pair FRTp, FRTp+1" in (site / "insn" / "fmv.swiz.html").read_text()
    assert _registers_row((site / "insn" / "lq.html").read_text(), "written") == ["RTp", "RTp+1"]
    assert {"RSp", "RSp+1"} <= set(_registers_row((site / "insn" / "stq.html").read_text(), "read"))
    # every row with a pair field (forms.txt's "even" line, read here) names both
    even = next(line.split()[1:] for line in (ROOT / "decoder" / "forms.txt").read_text().splitlines()
                if line.startswith("even "))
    for row in isa.rows:
        for name in (str(op) for op in row.operands):
            if name in even:
                text = (site / "insn" / f"{row.mnemonic}.html").read_text()
                regs = _registers_row(text, "read") + _registers_row(text, "written")
                assert name in regs and f"{name}+1" in regs, row.mnemonic
