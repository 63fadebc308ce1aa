"""The swizzle extension (seed 001): mv.swiz / fmv.swiz and their SVP64 forms.

Semantics live in ``pseudocode/swizzle/swizzle.mdwn`` and the encodings in
``decoder/swizzle/swizzle.csv``.  This package holds what is not semantics
(``sv.py``: the MVRM-2P-2S1D group walk; ``hdl.py``: the amaranth decoder);
this module:

* the assembly notation of the 12-bit selector immediate, a string of up to four
  of ``X Y Z W 0 1 .`` in destination order X, Y, Z, W (``"W.Y1"``), and the
  number it encodes;
* the hook that lets the assembler and disassembler use that notation for the
  ``imm`` operand of the swizzle rows.
"""
from ...errors import IsaExtError
from ...extension import Extension

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


# --- instruction decoding (the reference the hardware decoder is checked against) --

# Selector kinds, as the hardware decoder reports them.
KIND_SKIP, KIND_ZERO, KIND_ONE, KIND_COPY = 0, 1, 2, 3

# MVRM-2P-2S1D and the common RM fields: (first, last) MSB0 bit of the 24-bit RM.
RM_FIELDS = {
    "MASKMODE": (0, 0), "MASK": (1, 3), "ELWIDTH": (4, 5), "ELWIDTH_SRC": (6, 7),
    "SUBVL": (8, 9), "Rdest_EXTRA2": (10, 11), "Rsrc_EXTRA2": (12, 13),
    "src_SUBVL": (14, 15), "MASK_SRC": (16, 18), "MODE": (19, 23),
}


def rm_field(rm, name):
    a, b = RM_FIELDS[name]
    return (rm >> (23 - b)) & ((1 << (b - a + 1)) - 1)


def extra2_register(field5, extra2):
    """(register number, is_vector) from a 5-bit field and its EXTRA2 spec
    (svp64 "INT/FP EXTRA2": 00 r0-31, 01 r32-63 scalar; 10 r0-124/4, 11 r2-126/4 vector)."""
    vector = extra2 >> 1
    bit = extra2 & 1
    if vector:
        return (field5 << 2) | (bit << 1), True
    return (bit << 5) | field5, False


def group_sizes(subvl, src_subvl):
    """(destination, source) sub-elements per group (errata 001-3): when exactly one
    side has SUBVL 1 it is laid out planar and takes the other side's group size."""
    if subvl == 1 and src_subvl > 1:
        return src_subvl, src_subvl
    if src_subvl == 1 and subvl > 1:
        return subvl, subvl
    return subvl, src_subvl


class SwizzleDecode:
    """What the decoder reports for one (possibly prefixed) swizzle instruction."""
    FIELDS = ("prefixed", "rm", "match", "is_fmv", "rt", "ra", "even_ok", "sel_kind", "sel_src",
              "illegal_odd", "illegal_reserved", "illegal_range", "illegal", "atomic",
              "rt_ext", "ra_ext", "rt_vec", "ra_vec", "subvl", "src_subvl",
              "mask_src", "dst_group", "src_group")

    def __init__(self, **kw):
        for k in self.FIELDS:
            setattr(self, k, kw.get(k, 0))

    def as_dict(self):
        return {k: getattr(self, k) for k in self.FIELDS}


def decode_swizzle(isa, word, rm=None):
    """Decode ``word`` (with the 24-bit ``rm`` of an SVP64 prefix, or None) using the
    ISA's decoder tables; ``match`` is 0 if it is not a swizzle move."""
    d = isa.decode(word)
    if d is None or d.spec.mnemonic not in SWIZZLE_MNEMONICS:
        return SwizzleDecode(sel_kind=[0] * 4, sel_src=[0] * 4)
    f = d.fields
    is_fmv = int(d.spec.mnemonic == "fmv.swiz")
    rt, ra = (f["FRTp"], f["FRAp"]) if is_fmv else (f["RTp"], f["RAp"])
    kinds, srcs = [], []
    reserved = False
    for sel in selectors(f["imm"]):
        reserved |= sel == SEL_RESERVED
        kind = {SEL_SKIP: KIND_SKIP, SEL_RESERVED: KIND_SKIP, SEL_ZERO: KIND_ZERO,
                SEL_ONE: KIND_ONE}.get(sel, KIND_COPY)
        kinds.append(kind)
        srcs.append(sel & 3 if kind == KIND_COPY else 0)
    out = SwizzleDecode(match=1, is_fmv=is_fmv, rt=rt, ra=ra,
                        even_ok=int(rt % 2 == 0 and ra % 2 == 0),
                        sel_kind=kinds, sel_src=srcs, illegal_reserved=int(reserved),
                        atomic=1, rt_ext=rt, ra_ext=ra, subvl=4, src_subvl=4,
                        dst_group=4, src_group=4)
    if rm is None:
        out.illegal_odd = int(not out.even_ok)
    else:
        # SVP64: elements, not register pairs, so the even-pair rule does not apply
        out.prefixed = 1
        out.rm = rm
        out.rt_ext, out.rt_vec = extra2_register(rt, rm_field(rm, "Rdest_EXTRA2"))
        out.ra_ext, out.ra_vec = extra2_register(ra, rm_field(rm, "Rsrc_EXTRA2"))
        out.rt_vec, out.ra_vec = int(out.rt_vec), int(out.ra_vec)
        out.subvl = rm_field(rm, "SUBVL") + 1
        out.src_subvl = rm_field(rm, "src_SUBVL") + 1
        out.mask_src = rm_field(rm, "MASK_SRC")
        out.dst_group, out.src_group = group_sizes(out.subvl, out.src_subvl)
        # only the destination positions of a group count; copies from beyond the
        # source group are illegal
        out.illegal_range = int(any(k == KIND_COPY and s >= out.src_group
                                    for k, s in zip(kinds[:out.dst_group],
                                                    srcs[:out.dst_group])))
    out.illegal = int(out.illegal_odd or out.illegal_reserved or out.illegal_range)
    return out


def is_svp64_prefix(word):
    """SVP64 prefix: primary opcode 1 (bits 0:5) with bits 7 and 9 set (MSB0)."""
    return word >> 26 == 1 and (word >> (31 - 7)) & 1 == 1 and (word >> (31 - 9)) & 1 == 1


def prefix_rm(prefix):
    """RM[0:23] of a prefix word: RM[0] = bit 6, RM[1] = bit 8, RM[2:23] = bits 10:31."""
    return ((prefix >> (31 - 6)) & 1) << 23 | ((prefix >> (31 - 8)) & 1) << 22 | \
        (prefix & ((1 << 22) - 1))


def decode_words(isa, word0, word1):
    """Decode the instruction at PC from the words at PC and PC+4: a prefixed
    (``sv.``) swizzle when ``word0`` is an SVP64 prefix, else ``word0`` alone."""
    if is_svp64_prefix(word0):
        return decode_swizzle(isa, word1, prefix_rm(word0))
    return decode_swizzle(isa, word0)


# --- extension activation ------------------------------------------------------------

class SwizzleOperand:
    """The ``swizzle`` operand type (table column ``optype``: ``imm:swizzle``)."""
    parse = staticmethod(parse_operand)
    format = staticmethod(format_operand)


class Swizzle(Extension):
    name = "swizzle"
    hdl = "isa_ext.ext.swizzle.hdl"

    def setup(self, reg):
        from . import sv
        reg.operand_type("swizzle", SwizzleOperand)
        sv.install(reg)


EXTENSION = Swizzle()
