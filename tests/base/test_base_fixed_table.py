"""Table checks for the scalar fixed-point rows (decoder/base/fixed.csv).

Every row has a page that compiles, the base ISA has no overlapping encodings,
each variant's word agrees with GNU as, and the SVP64 EXTRA mappings of the
instructions the golden file uses are openpower-isa's.
"""
import os

import pytest

from conftest import gnu_as_words
from isa_ext.encoding import encode
from isa_ext.isa import ISA

# A sample value per operand field, written the same way in the assembly text
# and passed to encode(): shift/mask values >= 32 exercise the split 6-bit fields.
SAMPLE = {"RT": 3, "RA": 4, "RB": 5, "RS": 6, "BF": 2, "BFA": 3, "L": 1, "SI": -3,
          "UI": 0x1234, "SH": 5, "MB": 6, "ME": 27, "sh": 37, "mb": 41, "me": 41,
          "TO": 4, "BC": 6, "RC": 7}


@pytest.fixture(scope="module")
def base():
    return ISA(extensions=["base"])


def fixed_rows(isa):
    rows = [r for r in isa.rows if os.path.basename(r.where.split(":")[0]) == "fixed.csv"]
    assert rows, "no rows loaded from decoder/base/fixed.csv"
    return rows


def test_every_row_has_a_page_that_compiles(base):
    for row in fixed_rows(base):
        assert row.page is not None, f"{row.mnemonic} has no page"
        base.compiled(row)  # raises SpecError with file:line on a bad page


def test_page_syntax_lines_match_every_variant(base):
    """Each mnemonic variant of a row is listed on its page with the row's
    operands and the flag values that spell it."""
    for row in fixed_rows(base):
        listed = {m: (ops, flags) for m, ops, flags in row.page.syntaxes}
        for name, flags in row.variants.items():
            assert name in listed, f"page {row.page.title!r} lacks a '* {name}' line"
            ops, page_flags = listed[name]
            assert ops == ",".join(str(o) for o in row.operands), name
            assert {k: v for k, v in page_flags.items() if k in flags} == flags, name


def test_base_has_no_overlapping_encodings(base):
    assert [(a.mnemonic, b.mnemonic) for a, b in base.overlaps()] == []


def test_decode_round_trip_of_every_variant(base):
    for row in fixed_rows(base):
        for name in row.variants:
            values = {f: SAMPLE[f] for f in row.fields_used}
            d = base.decode(encode(base, name, **values))
            assert d is not None and d.mnemonic == name


def test_every_variant_matches_gnu_as(base, tmp_path):
    """One `as` run for one instance of every variant; each word read back from
    the object file must equal encode() of the same operands."""
    lines, expected = [], []
    for row in fixed_rows(base):
        for name in row.variants:
            fields = [o.field for o in row.operands]
            lines.append(f"{name} {','.join(str(SAMPLE[f]) for f in fields)}")
            expected.append(encode(base, name, **{f: SAMPLE[f] for f in fields}))
    got = gnu_as_words(tmp_path, lines)
    assert len(got) == len(expected)
    bad = [f"{text}: ours {e:08x} GNU {g:08x}"
           for text, e, g in zip(lines, expected, got) if e != g]
    assert not bad, bad


# Scalar lines of golden/svp64_encodings.tsv, restated: text -> word.
def test_golden_scalar_words(base, shared_dir):
    path = os.path.join(shared_dir, "golden", "svp64_encodings.tsv")
    checked = 0
    with open(path, encoding="utf-8") as f:
        for line in f:
            text, words = line.rstrip("\n").split("\t")
            mnemonic, _, ops = text.partition(" ")
            if mnemonic not in ("addi", "add", "addo"):
                continue
            rt, ra, third = (int(x) for x in ops.split(","))
            other = "SI" if mnemonic == "addi" else "RB"
            assert encode(base, mnemonic, RT=rt, RA=ra, **{other: third}) == int(words, 16)
            checked += 1
    assert checked == 3


# openpower-isa master, openpower/isatables/RM-*.csv, columns insn, 0..3 ("0"
# written "-" here), for the golden file's fixed-point mnemonics.
OPENPOWER_EXTRA = {
    "add": ("RM-1P-2S1D", "d:RT;d:CR0 s:RA s:RB -"),
    "subf": ("RM-1P-2S1D", "d:RT;d:CR0 s:RA s:RB -"),
    "mulld": ("RM-1P-2S1D", "d:RT;d:CR0 s:RA s:RB -"),
    "addi": ("RM-2P-1S1D", "d:RT s:RA - -"),
    "neg": ("RM-2P-1S1D", "d:RT;d:CR0 s:RA - -"),
    "and": ("RM-1P-2S1D", "d:RA;d:CR0 s:RB s:RS -"),
    "or": ("RM-1P-2S1D", "d:RA;d:CR0 s:RB s:RS -"),
    "ori": ("RM-2P-1S1D", "d:RA s:RS - -"),
    "extsw": ("RM-2P-1S1D", "d:RA;d:CR0 s:RS - -"),
    "popcntd": ("RM-2P-1S1D", "d:RA s:RS - -"),
    "rlwinm": ("RM-2P-1S1D", "d:RA;d:CR0 s:RS - -"),
    "cmp": ("RM-1P-2S1D", "d:BF s:RA s:RB -"),
    "cmpi": ("RM-2P-1S1D", "d:BF s:RA - -"),
}


def test_golden_instructions_have_openpower_extra(base, shared_dir):
    by_name = {r.mnemonic: r for r in fixed_rows(base)}
    with open(os.path.join(shared_dir, "golden", "svp64_encodings.tsv"), encoding="utf-8") as f:
        used = {line.split()[0].split("/")[0].removeprefix("sv.").rstrip(".") for line in f}
    fixed_used = used & set(by_name)
    assert fixed_used == set(OPENPOWER_EXTRA)
    for name, (sv, extra) in OPENPOWER_EXTRA.items():
        row = by_name[name]
        assert (row.sv, " ".join(row.extra)) == (sv, extra), name
