"""The swizzle extension (seed 001): mv.swiz / fmv.swiz and their SVP64 forms.

Semantics live in ``pseudocode/swizzle/swizzle.mdwn`` and the encodings in
``decoder/swizzle/swizzle.csv``.  This module holds what is not semantics:

* the assembly notation of the 12-bit selector immediate, a string of up to four
  of ``X Y Z W 0 1 .`` in destination order X, Y, Z, W (``"W.Y1"``), and the
  number it encodes;
* the hook that lets the assembler and disassembler use that notation for the
  ``imm`` operand of the swizzle rows.
"""
from ..errors import IsaExtError

# Selector codes (3 bits per destination position, X in imm[0:2] MSB0).
SEL_SKIP = 0b000
SEL_RESERVED = 0b001
SEL_ZERO = 0b010
SEL_ONE = 0b011
SEL_COPY = 0b100  # 0b1NN: copy source sub-element NN

POSITIONS = "XYZW"
_CHAR_OF = {SEL_SKIP: ".", SEL_ZERO: "0", SEL_ONE: "1",
            0b100: "X", 0b101: "Y", 0b110: "Z", 0b111: "W"}
_CODE_OF = {c: v for v, c in _CHAR_OF.items()}

SWIZZLE_MNEMONICS = ("mv.swiz", "fmv.swiz")


class SwizzleError(IsaExtError):
    """A swizzle operand that cannot be encoded; ``column`` is 0-based in the text."""

    def __init__(self, message, column=0):
        self.column = column
        super().__init__(message)


def selectors(imm):
    """The four 3-bit selectors of ``imm``, in destination order X, Y, Z, W."""
    return [(imm >> (9 - 3 * pos)) & 0b111 for pos in range(4)]


def from_selectors(sels):
    imm = 0
    for s in sels:
        imm = (imm << 3) | s
    return imm


def parse_swizzle(text):
    """``"W.Y1"`` -> 12-bit immediate.  Missing trailing positions are skipped."""
    if len(text) > 4:
        raise SwizzleError(f"swizzle {text!r} has more than four positions", 4)
    sels = []
    for col, ch in enumerate(text):
        code = _CODE_OF.get(ch.upper())
        if code is None:
            raise SwizzleError(f"swizzle character {ch!r} is not one of X Y Z W 0 1 .", col)
        sels.append(code)
    sels += [SEL_SKIP] * (4 - len(sels))
    return from_selectors(sels)


def format_swizzle(imm):
    """12-bit immediate -> four-character string; None if a selector is reserved."""
    out = []
    for s in selectors(imm):
        if s == SEL_RESERVED:
            return None
        out.append(_CHAR_OF[s])
    return "".join(out)


def parse_operand(text):
    """An assembly operand: a quoted swizzle string or a number 0..4095."""
    t = text.strip()
    if len(t) >= 2 and t[0] == t[-1] and t[0] in "\"'":
        try:
            return parse_swizzle(t[1:-1])
        except SwizzleError as e:
            raise SwizzleError(str(e), e.column + 1 + (len(text) - len(text.lstrip()))) from None
    try:
        value = int(t.replace("_", ""), 0)
    except ValueError:
        raise SwizzleError(f"swizzle operand {t!r} is neither a quoted string like "
                           f"\"W.Y1\" nor a number") from None
    if not 0 <= value < 4096:
        raise SwizzleError(f"swizzle immediate {value} outside 0..4095")
    return value


def format_operand(imm):
    """Disassembly of the ``imm`` operand: the quoted string, else the number."""
    s = format_swizzle(imm)
    return f'"{s}"' if s is not None else str(imm)
