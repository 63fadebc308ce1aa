"""The spec site shows SHFL's Sc-immediate form (seed 003's 13-bit immediate Sc,
docs/errata.md 003-2) on the pages of the rows that have it, and the layout it
states is the one the assembler uses (word built here bit by bit from the page's
words: the shfli word with SEGW = 31, Sc in RM[10:23])."""
import html
import re

import pytest

from isa_ext.asm import assemble
from isa_ext.isa import ISA

IMMEDIATE_ROWS = [f"{op}.{mode}" for op in ("shfli", "fshfli", "shflvi")
                  for mode in ("idx", "up", "down", "bfly")]


def page_text(site, name):
    text = (site / "insn" / f"{name}.html").read_text()
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text)))


@pytest.mark.parametrize("name", IMMEDIATE_ROWS)
def test_immediate_rows_show_the_sc_immediate_form(spec_site, name):
    text = page_text(spec_site, name)
    op = name.split(".")[0]
    assert f"sv.{op}.<mode>" in text
    assert "RM[10:23]" in text and "SEGW = 31" in text and "003-2" in text


def test_the_stated_layout_is_the_assembled_one():
    # sv.shfli.idx *r8,*r16,2,#0x1c03: prefix PO 1, bits 7 and 9 set, RM[10:23]
    # (MSB0 bits 18:31 of the prefix) = 0x1c03; suffix GSHF PO 22, RT 2, RA 4
    # (EXTRA3 0b100 vectors: field = register / 4), LB 2, SEGW 31, SHM 0, XO 0b0101
    data = assemble("    sv.shfli.idx *r8,*r16,2,#0x1c03\n", isa=ISA()).data
    prefix, suffix = (int.from_bytes(data[i:i + 4], "little") for i in (0, 4))
    assert prefix == (1 << 26) | (1 << 24) | (1 << 22) | 0x1C03
    assert suffix == 22 << 26 | 2 << 21 | 4 << 16 | 2 << 11 | 31 << 6 | 0 << 4 | 0b0101
