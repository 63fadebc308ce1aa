"""What openpower-isa's simulator does around one of its pages, for pages
of the "openpower" dialect.

Its add-family pages compute only the result (``RT <- ¬(RA) + (RB) + 1``);
the simulator (``isa/caller.py``: handle_carry_, handle_overflow,
get_kludged_op_add_ca_ov) then sets XER.CA/CA32 from the same addition when
its tables say the instruction writes a carry, and OV/OV32 (and SO) when OE=1.
Divide pages instead name a variable ``overflow`` the simulator copies into
OV, OV32 and SO when OE=1.  The page itself says which of these registers
the instruction alters ("Special Registers Altered: CA CA32", "SO OV OV32
(if OE=1)"), so that list, not the simulator's tables, decides here:

* a page whose list names CA but whose code never assigns CA gets CA and CA32
  from the carries of the terms of its last addition into a GPR;
* one whose list names OV and whose form has OE gets, when OE=1, OV and OV32
  from that addition (the carry into the top bit differing from the carry out
  of it) or from its ``overflow`` variable, and SO |= OV.

The epilogue runs before the Rc=1 record, so CR0.SO sees the new SO.
"""
import re

from ...pseudocode import library

_CA = re.compile(r"\bCA\b")
_OV = re.compile(r"\bOV\b")


@library.runtime()
def _op_carry(terms, width):
    """The carry out of bit 0 of a ``width``-bit sum of ``terms``."""
    mask = (1 << width) - 1
    return min(sum(t & mask for t in terms) >> width, 1)


@library.runtime()
def _op_overflow(terms, width):
    """Signed overflow of the sum: the carry into the sign bit differs from
    the carry out of it."""
    return int(_op_carry(terms, width) != _op_carry(terms, width - 1))


def wants(page):
    """(carry, overflow): whether the page's altered list names CA / OV."""
    text = " ".join(page.altered)
    return bool(_CA.search(text)), bool(_OV.search(text))


def add_terms(comp, node):
    """Code for the terms of an addition chain "a + b - 1 ..." (a subtracted
    term is added as its two's complement), or None if ``node`` is not one."""
    from lark import Tree
    terms = []

    def walk(n, negate):
        if isinstance(n, Tree) and n.data == "paren":
            return walk(n.children[0], negate)
        if isinstance(n, Tree) and n.data == "arith" and str(n.children[1]) in ("+", "-"):
            return walk(n.children[0], negate) and \
                walk(n.children[2], negate ^ (str(n.children[1]) == "-"))
        v = comp.expr(n)
        terms.append(f"(-({v.code}))" if negate else f"({v.code})")
        return True

    if not (isinstance(node, Tree) and node.data == "arith"
            and str(node.children[1]) in ("+", "-")):
        return None
    walk(node, False)
    return terms if len(terms) > 1 else None


def epilogue(comp):
    """Emit the simulator's XER updates after the page's own code."""
    carry, overflow = comp.op_wants
    w = comp.xlen
    terms = comp.op_add_terms
    if carry and terms is not None and "CA" not in comp.op_assigned:
        comp.emit("if _addterms:  # (the addition ran)")
        comp.indent += 1
        comp.emit(f"s.ca = _op_carry(_addterms, {w})")
        comp.emit("s.ca32 = _op_carry(_addterms, 32)")
        comp.indent -= 1
    if not overflow or "OV" in comp.op_assigned or not comp.is_field("OE"):
        return
    if terms is None and "overflow" not in comp.vars:
        return
    comp.fields_used.add("OE")
    comp.emit("if f_OE:")
    comp.indent += 1
    if "overflow" in comp.vars:
        comp.emit("if v_overflow is not None:")
        comp.indent += 1
        comp.emit("s.ov = s.ov32 = v_overflow & 1")
        comp.emit(f"{comp.so} |= s.ov")
        comp.indent -= 1
    else:
        comp.emit("if _addterms:")
        comp.indent += 1
        comp.emit(f"s.ov = _op_overflow(_addterms, {w})")
        comp.emit("s.ov32 = _op_overflow(_addterms, 32)")
        comp.emit(f"{comp.so} |= s.ov")
        comp.indent -= 1
    comp.indent -= 1
