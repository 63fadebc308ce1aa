"""The one rule for register numbers past the end of a register file.

SVP64 extends register numbers to r0..r127, f0..f127 and CR0..CR127 (CR bits
0..511); an element, a sub-element, an implicit operand (RS=RT+1), an Rc=1 CR
field or a CR predicate field that would land past the last one does not exist.
remap.mdwn: "Over-running the register file clearly has to be detected and an
illegal instruction exception thrown".  Every execution path (generated fast
loop, traced/predicated general path, VF single step, REMAP, the GPU
vector-scope and swizzle engines, sv.bc, CR predicate masks) asks this module
before any element runs, so the instruction traps with the reason and nothing
is written; none of them wraps a number modulo 128.
"""
from ..errors import Trap

# the last register number of each file, and how the reason names one
LAST = {"gpr": 127, "fpr": 127, "crf": 127, "crb": 511}
PREFIX = {"gpr": "r", "fpr": "f", "crf": "cr", "crb": "CR bit "}


def last_register(cls, base, last_element, width=64):
    """The register (CR bit for "crb") holding element ``last_element`` of a
    vector of ``width``-bit elements packed from ``base`` (elements.py layout;
    a CR-bit vector steps one CR field, 4 bits, per element)."""
    if cls in ("gpr", "fpr"):
        return base + ((last_element + 1) * width - 1) // 64
    if cls == "crb":
        return base + 4 * last_element
    return base + last_element


def vector_past_end(who, field, cls, base, elements, width=64, what="vector operand"):
    """None, or the trap reason when ``elements`` elements of ``field`` from
    ``base`` run past the last register of the ``cls`` file."""
    if elements <= 0 or cls not in LAST:
        return None
    last = last_register(cls, base, elements - 1, width)
    if last <= LAST[cls]:
        return None
    p = PREFIX[cls]
    return (f"{who}: {what} {field} at {p}{base} runs past {p}{LAST[cls]} "
            f"({elements} elements end in {p}{last})")


def scalar_past_end(who, field, cls, number):
    """None, or the trap reason when a scalar operand's number (an implicit
    operand such as RS=RT+1) is past the last register of its file."""
    if cls not in LAST or number <= LAST[cls]:
        return None
    p = PREFIX[cls]
    return f"{who}: scalar operand {field} would be {p}{number}, past {p}{LAST[cls]}"


def predicate_past_end(offset, vl):
    """None, or the trap reason when a CR predicate mask of ``vl`` elements,
    element i testing CR[offset + i], would test a field past CR127."""
    last = offset + vl - 1
    if vl <= 0 or last <= LAST["crf"]:
        return None
    return (f"CR predicate: element {vl - 1} would test cr{last}, past cr127 "
            f"(VL={vl}, mask fields from cr{offset})")


def check(reason):
    """Raise the illegal-instruction trap for a reason from this module."""
    if reason:
        raise Trap(reason, "illegal")
