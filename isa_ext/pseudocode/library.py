"""The pseudocode helper-function library.

Two kinds of entries:

* **intrinsics** (``INTRINSICS``): called at compile time with the argument
  :class:`~isa_ext.pseudocode.compiler.Val` objects; they return the code and
  width of the result, so ``EXTS(SI)`` becomes inline shifts and masks.
* **run-time helpers** (``RUNTIME``): plain Python functions the generated code
  calls (rotations, masks, CR-field access, floating point).

These module tables are the *base* library every ISA has (this module and
:mod:`.fp` fill them at import).  An extension never writes into them: it
registers its helpers into its ISA's :class:`isa_ext.extension.Registry`, whose
:class:`~isa_ext.extension.Library` layers them over these tables for that ISA
alone (docs/adding-an-extension.md).
"""
import re as _re

from ..errors import Trap
from ..machine import cr_pack, cr_unpack

INTRINSICS = {}
RUNTIME = {"Trap": Trap}
CONSTANTS = {}
# assignable functions "F(args) <- v": name -> gen(compiler, [arg Val], value Val) -> code
SETTERS = {}
# names read like variables but computed at run time: name -> gen(compiler) -> Val
NAMES = {}
M64 = (1 << 64) - 1


def intrinsic(name):
    def deco(fn):
        INTRINSICS[name] = fn
        return fn
    return deco


def runtime(name=None):
    def deco(fn):
        RUNTIME[name or fn.__name__] = fn
        return fn
    return deco


def runtime_function(name, width, pyname=None):
    """Register a run-time helper ``pyname`` callable from pseudocode as
    ``name(args...)`` whose result has the fixed ``width``."""
    def deco(fn):
        RUNTIME[pyname or fn.__name__] = fn

        def gen(comp, *args):
            from .compiler import Val
            return Val(f"{pyname or fn.__name__}({', '.join(a.code for a in args)})", width)
        INTRINSICS[name] = gen
        return fn
    return deco


def _val(code, width, const=None):
    from .compiler import Val
    return Val(code, width, const)


def _need_width(v, what):
    if not isinstance(v.width, int):
        raise TypeError(f"{what} needs an argument of known constant width")


# --- sign and zero extension -------------------------------------------------

def _exts_to(v, to):
    _need_width(v, "EXTS")
    if v.width >= to:
        return _val(v.code if v.width == to else f"({v.code} & {hex((1 << to) - 1)})", to)
    bias = hex(1 << (v.width - 1))
    return _val(f"((({v.code} ^ {bias}) - {bias}) & {hex((1 << to) - 1)})", to)


def _extz_to(v, to):
    _need_width(v, "EXTZ")
    if v.width > to:
        return _val(f"({v.code} & {hex((1 << to) - 1)})", to)
    return _val(v.code, to, v.const)


for _n, _to in (("EXTS64", 64), ("EXTS128", 128), ("EXTS32", 32)):
    INTRINSICS[_n] = (lambda to: lambda comp, v: _exts_to(v, to))(_to)
for _n, _to in (("EXTZ64", 64), ("EXTZ128", 128), ("EXTZ32", 32)):
    INTRINSICS[_n] = (lambda to: lambda comp, v: _extz_to(v, to))(_to)
# EXTS and EXTZ extend to the GPR width: 64, or XLEN for a page compiled at
# an element width (compiler.names_xlen)
INTRINSICS["EXTS"] = lambda comp, v: _exts_to(v, getattr(comp, "xlen", 64))
INTRINSICS["EXTZ"] = lambda comp, v: _extz_to(v, getattr(comp, "xlen", 64))


@intrinsic("SIGNED")
def _i_signed(comp, v):
    """The two's-complement value of v as an unbounded integer."""
    return _val(comp.signed(v), None)


@intrinsic("UNSIGNED")
def _i_unsigned(comp, v):
    return _val(v.code, None)


@intrinsic("MULS")
def _i_muls(comp, a, b):
    """Signed product, as wide as both operands together."""
    _need_width(a, "MULS")
    _need_width(b, "MULS")
    w = a.width + b.width
    return _val(f"(({comp.signed(a)} * {comp.signed(b)}) & {hex((1 << w) - 1)})", w)


@intrinsic("DIVS")
def _i_divs(comp, a, b):
    """Signed division truncating towards zero; the result has the dividend's width.
    Division by zero gives 0 (the ISA leaves it undefined)."""
    _need_width(a, "DIVS")
    return _val(f"_divs({comp.signed(a)}, {comp.signed(b)}, {a.width})", a.width)


@intrinsic("MODS")
def _i_mods(comp, a, b):
    _need_width(a, "MODS")
    return _val(f"_mods({comp.signed(a)}, {comp.signed(b)}, {a.width})", a.width)


@runtime()
def _divs(a, b, w):
    if b == 0:
        return 0
    q = abs(a) // abs(b)
    if (a < 0) != (b < 0):
        q = -q
    return q & ((1 << w) - 1)


@runtime()
def _mods(a, b, w):
    if b == 0:
        return 0
    r = abs(a) % abs(b)
    if a < 0:
        r = -r
    return r & ((1 << w) - 1)


@intrinsic("DIVU")
def _i_divu(comp, a, b):
    return _val(f"(({a.code} // {b.code}) if {b.code} else 0)", a.width)


@intrinsic("MODU")
def _i_modu(comp, a, b):
    return _val(f"(({a.code} % {b.code}) if {b.code} else 0)", a.width)


# --- rotation and masks ------------------------------------------------------

@runtime()
def _rotl64(x, n):
    n &= 63
    return ((x << n) | (x >> (64 - n))) & M64


@runtime()
def _rotl32(x, n):
    x &= 0xFFFFFFFF
    x |= x << 32
    n &= 63
    return ((x << n) | (x >> (64 - n))) & M64


@runtime()
def _mask64(mb, me):
    """MASK(mb, me): ones from bit mb to bit me (MSB0), wrapping when mb > me."""
    mb &= 63
    me &= 63
    if mb <= me:
        return ((1 << (64 - mb)) - 1) & ~((1 << (63 - me)) - 1) & M64
    return (((1 << (64 - mb)) - 1) | ~((1 << (63 - me)) - 1)) & M64


@runtime()
def _rotln(x, n, w):
    """Rotate the w-bit x left by n modulo w (ROTL64 at XLEN = w)."""
    n &= w - 1
    return ((x << n) | (x >> (w - n))) & ((1 << w) - 1)


@runtime()
def _maskn(mb, me, w):
    """MASK(mb, me) within w bits (XLEN = w), bounds modulo w."""
    return _mask64(mb % w, me % w) >> (64 - w)


# At XLEN = w < 64 (a page compiled at an element width): ROTL64 rotates
# within w bits; ROTL32 rotates the low half doubled into both halves; MASK
# has w bits.
@intrinsic("ROTL64")
def _i_rotl64(comp, x, n):
    if comp.xlen != 64:
        return _val(f"_rotln({x.code}, {n.code}, {comp.xlen})", comp.xlen)
    return _val(f"_rotl64({x.code}, {n.code})", 64)


@intrinsic("ROTL32")
def _i_rotl32(comp, x, n):
    if comp.xlen != 64:
        h, hm = comp.xlen // 2, hex((1 << (comp.xlen // 2)) - 1)
        return _val(f"_rotln(({x.code} & {hm}) * {hex((1 << h) + 1)}, {n.code}, {comp.xlen})",
                    comp.xlen)
    return _val(f"_rotl32({x.code}, {n.code})", 64)


@intrinsic("MASK")
def _i_mask(comp, mb, me):
    if comp.xlen != 64:
        return _val(f"_maskn({mb.code}, {me.code}, {comp.xlen})", comp.xlen)
    return _val(f"_mask64({mb.code}, {me.code})", 64)


@intrinsic("POPCOUNT")
def _i_popcount(comp, x):
    return _val(f"bin({x.code}).count('1')", None)


# --- traps and system calls --------------------------------------------------

def _string(v):
    return v.code if v.code.startswith(("'", '"')) else repr(v.code)


@intrinsic("ILLEGAL")
def _i_illegal(comp, reason=None):
    """ILLEGAL("why"): an illegal-instruction trap.  Must come before any state
    is written, so that a trapping instruction leaves no partial state."""
    if comp.state_written:
        raise TypeError("ILLEGAL after a state change would leave partial state; "
                        "check operands before writing")
    msg = _string(reason) if reason is not None else "'illegal instruction'"
    return _val(f"raise Trap({msg}, 'illegal')", None)


@intrinsic("TRAP")
def _i_trap(comp, reason=None):
    if comp.state_written:
        raise TypeError("TRAP after a state change would leave partial state")
    msg = _string(reason) if reason is not None else "'trap'"
    return _val(f"raise Trap({msg}, 'program')", None)


@intrinsic("SYSCALL")
def _i_syscall(comp, lev=None):
    return _val("s.syscall()", None)


@intrinsic("SYSCALL_VECTORED")
def _i_syscall_vectored(comp, lev=None):
    return _val("s.syscall(True)", None)


# --- condition register ------------------------------------------------------
# The CR is a list of 4-bit fields (128 of them, for SVP64's CR0-CR127).
# Pseudocode numbers CR bits 32..63 for CR0..CR7 (the 64-bit view of the ISA);
# the numbering simply continues for higher fields.

RUNTIME["_cr_get"] = cr_pack      # "CR" read whole
RUNTIME["_cr_put"] = cr_unpack    # "CR <- v"


@runtime()
def _cr_bit(crf, b):
    b -= 32
    return (crf[b >> 2] >> (3 - (b & 3))) & 1


@runtime()
def _cr_set_bit(crf, b, v):
    b -= 32
    sh = 3 - (b & 3)
    crf[b >> 2] = (crf[b >> 2] & ~(1 << sh)) | ((v & 1) << sh)


@runtime()
def _cr_slice(crf, a, b):
    if (a - 32) & 3 == 0 and b == a + 3:
        return crf[(a - 32) >> 2]
    v = 0
    for i in range(a, b + 1):
        v = (v << 1) | _cr_bit(crf, i)
    return v


@runtime()
def _cr_set_slice(crf, a, b, v):
    if (a - 32) & 3 == 0 and b == a + 3:
        crf[(a - 32) >> 2] = v & 0xF
        return
    for i in range(b, a - 1, -1):
        _cr_set_bit(crf, i, v & 1)
        v >>= 1


# Inline forms of the CR helpers for translated blocks (isa_ext.translate): with
# the bit numbers constant each is one subscript of the field list.  Each gets
# the call's arguments, an int for a constant and source text otherwise, and
# returns source text (an expression, or a statement for a helper whose result
# is unused) or None to keep the call.
INLINE = {}
# Statement forms of helpers whose value a page assigns: fn(target name, *args)
# -> source text assigning it (isa_ext.translate.specialise), or None
INLINE_ASSIGN = {}


def _inline(name):
    def reg(fn):
        INLINE[name] = fn
        return fn
    return reg


@_inline("_cr_bit")
def _cr_bit_inline(crf, b):
    if isinstance(crf, str) and isinstance(b, int) and b >= 32:
        b -= 32
        return f"(({crf}[{b >> 2}] >> {3 - (b & 3)}) & 1)"
    return None


@_inline("_cr_set_bit")
def _cr_set_bit_inline(crf, b, v):
    if isinstance(crf, str) and isinstance(b, int) and b >= 32:
        b -= 32
        sh, k = 3 - (b & 3), b >> 2
        return f"{crf}[{k}] = ({crf}[{k}] & {~(1 << sh)}) | ((({v}) & 1) << {sh})"
    return None


@_inline("_cr_slice")
def _cr_slice_inline(crf, a, b):
    # whole fields: one, or several side by side (mfcr reads CR[32:63])
    if isinstance(crf, str) and isinstance(a, int) and isinstance(b, int) and \
            32 <= a <= b <= 63 and (a - 32) & 3 == 0 and (b - a + 1) & 3 == 0:
        first, last = (a - 32) >> 2, (b - 32) >> 2
        return "(" + " | ".join(f"{crf}[{k}] << {4 * (last - k)}" if k < last else f"{crf}[{k}]"
                                for k in range(first, last + 1)) + ")"
    return None


@_inline("_cr_set_slice")
def _cr_set_slice_inline(crf, a, b, v):
    if isinstance(crf, str) and isinstance(a, int) and a >= 32 and (a - 32) & 3 == 0 \
            and b == a + 3:
        return f"{crf}[{(a - 32) >> 2}] = ({v}) & 15"
    return None


@_inline("_cr0")
def _cr0_inline(v, so):
    # v appears twice: only a name, a constant or a register at a constant
    # number (pure, and cheaper than the call)
    if isinstance(v, int) or _re.fullmatch(r"[A-Za-z_]\w*|G\[\d+\]", v):
        return f"((2 | {so}) if {v} == 0 else ((8 if {v} >> 63 else 4) | {so}))"
    return None


# a rotation reads its operand twice: only an operand cheap and pure to repeat
_REPEATABLE = _re.compile(r"[A-Za-z_]\w*|G\[\d+\]|\(?G\[\d+\] & \d+\)?")
# a shift count or mask bound read twice: arithmetic on names and constants
# (no call, no assignment: pure, and a few operations to repeat)
_COUNT = _re.compile(r"[\w\s+\-&|^()\[\]]*")
_CALL = _re.compile(r"[A-Za-z_]\w*\s*\(")


def _repeatable_count(n):
    return isinstance(n, int) or (_COUNT.fullmatch(n) is not None and not _CALL.search(n))


@_inline("_mask64")
def _mask64_inline(mb, me):
    if isinstance(mb, int) and isinstance(me, int):
        return str(_mask64(mb, me))
    # a bound held in a register (sld, srd, slw, srw: MASK(0, 63-n), MASK(n, 63))
    if not (_repeatable_count(mb) and _repeatable_count(me)):
        return None
    b, e = f"(({mb}) & 63)", f"(({me}) & 63)"
    ones_from_mb, ones_after_me = f"((1 << (64 - {b})) - 1)", f"((1 << (63 - {e})) - 1)"
    return (f"(({ones_from_mb} ^ {ones_after_me}) if {b} <= {e} else "
            f"(({ones_from_mb} | ~{ones_after_me}) & {M64}))")


def _repeatable_operand(x):
    # a rotation reads its operand twice: a name or register, or a short pure
    # expression (evaluating it twice costs less than the helper's call)
    return isinstance(x, int) or _REPEATABLE.fullmatch(x) is not None or (
        len(x) <= 120 and _repeatable_count(x))


@_inline("_rotl64")
def _rotl64_inline(x, n):
    if not _repeatable_operand(x):
        return None
    if isinstance(n, int):
        n &= 63
        return f"((({x}) << {n} | ({x}) >> {64 - n}) & {M64})"
    if not _repeatable_count(n):
        return None
    return f"((({x}) << (({n}) & 63) | ({x}) >> (64 - (({n}) & 63))) & {M64})"


@_inline("_rotl32")
def _rotl32_inline(x, n):
    # the word rotated, doubled into both halves (x * (2^32 + 1) is x | x << 32;
    # the doubled word rotated by n is the word rotated by n mod 32, doubled)
    if not _repeatable_operand(x):
        return None
    if isinstance(n, int):
        n &= 31
        return (f"((((({x}) & 4294967295) << {n} | (({x}) & 4294967295) >> {32 - n})"
                " & 4294967295) * 4294967297)")
    if not _repeatable_count(n):
        return None
    k = f"(({n}) & 31)"
    return (f"((((({x}) & 4294967295) << {k} | (({x}) & 4294967295) >> (32 - {k}))"
            " & 4294967295) * 4294967297)")


@runtime()
def _cr0(v, so):
    """The LT GT EQ SO nibble recording a 64-bit result (Rc=1)."""
    if v == 0:
        return 0b0010 | so
    return (0b1000 if v >> 63 else 0b0100) | so


@runtime()
def _xer_get(s):
    return s.xer  # State composes SO OV CA OV32 CA32 and the byte count


@runtime()
def _xer_put(s, v):
    s.xer = v


@runtime()
def _signed(v, w):
    return v - (1 << w) if v >> (w - 1) else v


# --- dialect options (compiler.Dialect) --------------------------------------

@runtime()
def _checked_slice(v, width, a, b):
    """v[a:b] with bounds known only at run time (Dialect.checked_ranges)."""
    if not 0 <= a <= b < width:
        from ..errors import Trap
        raise Trap(f"bit range [{a}:{b}] of a {width}-bit value runs backwards or "
                   f"off the value (a range known only at run time)", "illegal")
    return (v >> (width - 1 - b)) & ((1 << (b - a + 1)) - 1)


@runtime()
def _checked_cr_slice(crf, a, b):
    """CR[a:b] with bounds known only at run time (Dialect.checked_ranges)."""
    if b < a:
        from ..errors import Trap
        raise Trap(f"CR bit range [{a}:{b}] runs backwards (a range known only at "
                   f"run time)", "illegal")
    return RUNTIME["_cr_slice"](crf, a, b)


@runtime()
def _loop_range(start, end):
    """A "do i = start to end" loop's values, counting down when start > end
    (Dialect.loops_count_down)."""
    return range(start, end - 1, -1) if start > end else range(start, end + 1)


# floating-point helpers register themselves on import (kept last: fp uses the
# above; fp imports the transcendentals, which use fp, at its own end)
from . import fp  # noqa: E402,F401
from . import vector  # noqa: E402,F401  (the VMX/VSX helpers: 128-bit registers, element loops)
from . import rophash  # noqa: E402,F401  (hashst/hashchk's HASH)


# --- alignment and darn ------------------------------------------------------

@intrinsic("ALIGNMENT")
def _i_alignment(comp, reason=None):
    """ALIGNMENT("why"): the alignment interrupt (lwarx at an unaligned
    address; lmw and the string instructions in little-endian mode)."""
    if comp.state_written:
        raise TypeError("ALIGNMENT after a state change would leave partial state")
    msg = _string(reason) if reason is not None else "'alignment interrupt'"
    return _val(f"raise Trap({msg}, 'alignment')", None)


@intrinsic("RANDOM")
def _i_random(comp, l):
    """RANDOM(L): darn's deterministic random number (machine.State.random_number)."""
    return _val(f"s.random_number({l.code})", 64)



# --- densely packed decimal (Power ISA v3.1 Book I 5.3.4: a declet of 10 bits
# holds three decimal digits; "large" digits 8 and 9 are coded by the v w x
# and s t bits, the others three bits each) -----------------------------------

@runtime_function("DPD_TO_BCD", 12, "_dpd_to_bcd")
def _dpd_to_bcd(declet):
    """A 10-bit declet p q r s t u v w x y -> three BCD digits (12 bits)."""
    b = [(declet >> (9 - i)) & 1 for i in range(10)]
    p, q, r, s, t, u, v, w, x, y = b
    pqr, stu, wxy = (p << 2) | (q << 1) | r, (s << 2) | (t << 1) | u, (w << 2) | (x << 1) | y
    if not v:
        d2, d1, d0 = pqr, stu, wxy
    elif (w, x) == (0, 0):
        d2, d1, d0 = pqr, stu, 8 + y
    elif (w, x) == (0, 1):
        d2, d1, d0 = pqr, 8 + u, (s << 2) | (t << 1) | y
    elif (w, x) == (1, 0):
        d2, d1, d0 = 8 + r, stu, (p << 2) | (q << 1) | y
    elif (s, t) == (0, 0):
        d2, d1, d0 = 8 + r, 8 + u, (p << 2) | (q << 1) | y
    elif (s, t) == (0, 1):
        d2, d1, d0 = 8 + r, (p << 2) | (q << 1) | u, 8 + y
    elif (s, t) == (1, 0):
        d2, d1, d0 = pqr, 8 + u, 8 + y
    else:
        d2, d1, d0 = 8 + r, 8 + u, 8 + y
    return (d2 << 8) | (d1 << 4) | d0


@runtime_function("BCD_TO_DPD", 10, "_bcd_to_dpd")
def _bcd_to_dpd(bcd):
    """Three BCD digits (12 bits) -> a 10-bit declet.  Each digit's high bit
    (a, e, i: "is 8 or 9") picks the coding; digits above 9 are not decimal
    and are coded by their bits as if they were (the ISA leaves the result
    undefined)."""
    a, b, c, d = ((bcd >> (11 - i)) & 1 for i in range(4))
    e, f, g, h = ((bcd >> (7 - i)) & 1 for i in range(4))
    i, j, k, m = ((bcd >> (3 - n)) & 1 for n in range(4))
    bits = {
        (0, 0, 0): (b, c, d, f, g, h, 0, j, k, m),
        (0, 0, 1): (b, c, d, f, g, h, 1, 0, 0, m),
        (0, 1, 0): (b, c, d, j, k, h, 1, 0, 1, m),
        (1, 0, 0): (j, k, d, f, g, h, 1, 1, 0, m),
        (1, 1, 0): (j, k, d, 0, 0, h, 1, 1, 1, m),
        (1, 0, 1): (f, g, d, 0, 1, h, 1, 1, 1, m),
        (0, 1, 1): (b, c, d, 1, 0, h, 1, 1, 1, m),
        (1, 1, 1): (0, 0, d, 1, 1, h, 1, 1, 1, m),
    }[(a, e, i)]
    out = 0
    for bit in bits:
        out = (out << 1) | bit
    return out
