"""Every docs/errata.md entry that names an instruction is shown on that
instruction's spec-site page (issue 18: 301 of 311 pages said "Errata: None",
the quad swizzle and SURED pages among them).

The entries and the names they give are read here with a parser of this test's
own (headings, `code` spans, the `qswz*` and `sured.<op>` patterns), not with the
site's (isa_ext/spec/sources.py)."""
import html
import pathlib
import re

import pytest

from isa_ext.isa import ISA

from conftest import ROOT as CHECKOUT
ROOT = pathlib.Path(CHECKOUT)

# Entries about SVP64 as a whole, naming no instruction (their topics are the
# site's SVP64 pages), and the GPU section's heading text.
NAMES_NO_INSTRUCTION = {
    "SV-2": "CR predicates in general", "SV-6": "element-width overrides in general",
    "SV-8": "SVSTATE's pack/unpack bits", "SV-15": "REMAP with SUBVL in general",
    "SV-20": "EXTRA slots of every prefixed word",
    "SV-21": "all 170 fptrans rows, by their page file",
}


@pytest.fixture(scope="module")
def site(spec_site):
    return spec_site


def entries():
    """(id, heading line number, text) of each ### entry."""
    lines = (ROOT / "docs" / "errata.md").read_text().splitlines()
    heads = [i for i, line in enumerate(lines) if re.match(r"#{1,3} ", line)] + [len(lines)]
    out = []
    for a, b in zip(heads, heads[1:]):
        m = re.match(r"### (\S+) ", lines[a])
        if m:
            out.append((m.group(1), a + 1, "\n".join(lines[a:b])))
    return out


def named_rows(text, rows):
    """Rows an entry names: a `code` span that is a row's mnemonic (or the first
    word of an assembly statement, sv. dropped), a pattern (`qswz*`,
    `sured.<op>.u32`) or a family stem (`sured`: every `sured.` row); in prose,
    names with a dot, digit or inner capital."""
    out = set()
    for span in re.findall(r"`([^`]+)`", text):
        span = " ".join(span.split())
        if span.startswith("/"):
            continue  # an SVP64 mode such as /mr
        if re.fullmatch(r"\*(r|f|cr)\d+", span):
            continue  # an SVP64 vector register (*r4), not a pattern (*r4 would name xvi8ger4)
        word = span.split(" ")[0].split("/")[0]
        word = word[3:] if word.startswith("sv.") else word
        if " " in span and not span.startswith("sv.") and \
                not re.search(r"\d", span.split(" ", 1)[1]):
            continue  # not "mnemonic operands" (an sv. word is unmistakable)
        if len(word) < 2:
            continue
        # `*` any text, `<op>` one dot-free word (`sured.<op>` is sured.add ...)
        pattern = re.compile("".join(".*" if p == "*" else "[^.]+" if p.startswith("<")
                                     else re.escape(p) for p in re.split(r"(\*|<\w+>)", word)))
        for mnemonic, variants in rows.items():
            if any(pattern.fullmatch(v) or v.startswith(word + ".")
                   and v != word + "." for v in variants):
                out.add(mnemonic)
    # in prose, a name that cannot be an English word: with a dot or a digit
    # (mv.swiz, svshape2) or a capital inside (shuffleNV)
    for word in re.findall(r"(?<![\w./])[A-Za-z][\w.]*[\w]", re.sub(r"`[^`]*`", " ", text)):
        word = word[3:] if word.startswith("sv.") else word
        if re.search(r"[.\d]", word) or re.search(r"[A-Z]", word[1:]):
            out |= {m for m, variants in rows.items() if word in variants}
    return out


@pytest.fixture(scope="module")
def rows():
    """{mnemonic: its names}: variants and extended mnemonics / aliases."""
    from isa_ext.asm import extended_mnemonics
    isa = ISA()
    out = {r.mnemonic: set(r.variants) for r in isa.rows}
    for name, alias in extended_mnemonics(isa).items():
        for r in isa.rows:
            if alias.base_mnemonic in r.variants:
                out[r.mnemonic].add(name)
    return out


def errata_section(site, name):
    # pages by file name ("qswz0.html"): a bare mnemonic string in a test is a
    # use of that instruction for the site's scanner
    page = (site / "insn" / name).read_text()
    return page.split("<h2>Errata</h2>", 1)[1].split("<h2>", 1)[0]


def test_every_entry_naming_an_instruction_is_on_its_pages(site, rows):
    missing, nameless = [], []
    for ident, line, text in entries():
        named = named_rows(text, rows)
        if not named and ident not in NAMES_NO_INSTRUCTION:
            nameless.append(ident)
        for mnemonic in sorted(named):
            if f"(docs/errata.md:{line})" not in errata_section(site, mnemonic + ".html"):
                missing.append((ident, mnemonic))
    assert missing == []
    assert nameless == []


@pytest.mark.parametrize("ident,on,off", [
    # quad swizzles: 002-2 (`qswz<k>`), 002-3/002-4 (Instructions: `qswz*`)
    ("002-2", ["qswz0.html", "qswz1as.html", "qswzy.html"], ["shfl.up.html"]),
    ("002-3", ["qswz0a.html", "qswzxas.html"], ["ballot.html"]),
    # SURED: 004-3 names the sd sizes only, 004-1 the f16x2 rows, 004-6 them all
    ("004-3", ["sured.max.sd64.html", "sured.add.sd32.html"],
     ["sured.max.u32.html", "sured.add.f32.html"]),
    ("004-1", ["sured.max.f16x2.html"], ["sured.max.u32.html"]),
    ("004-6", ["sured.add.u32.html", "sured.xor.u64.html", "sured.inc.u32.html"],
     ["qswz0.html"]),
    # `sured.<op>` defaults to .u32
    ("004-13", ["sured.xor.u32.html"], []),
    # SHFUP entries reach the up shuffles, not the down ones
    ("000-4", ["fshfli.up.html", "shflv.up.html"], ["fshfli.down.html"]),
    # prose "shuffleNV" is the GLSL alias of shfli.up; `b` there is a variable
    ("000-1", ["shfli.up.html"], ["b.html"]),
    # `/mr` is SVP64 map-reduce, not the mr (or) extended mnemonic
    ("SV-17", ["add.html", "mv.swiz.html"], ["or.html"]),
])
def test_entries_reach_exactly_their_pages(site, ident, on, off):
    line = next(n for i, n, _t in entries() if i == ident)
    marker = f"(docs/errata.md:{line})"
    for page in on:
        assert marker in errata_section(site, page), (ident, page)
    for page in off:
        assert marker not in errata_section(site, page), (ident, page)


def test_entries_are_rendered_not_raw_markdown(site):
    section = errata_section(site, "mv.swiz.html")
    text = re.sub(r"<code>.*?</code>", "", section, flags=re.S)
    assert "<li><b>Resolution.</b>" in section
    assert "**" not in text and "* <b>" not in text and "`" not in text
    # 001-3's "min(SUBVL, SRC_SUBVL)*VL elements" is not the start of italics
    assert "SRC_SUBVL)*VL elements" in html.unescape(section)
