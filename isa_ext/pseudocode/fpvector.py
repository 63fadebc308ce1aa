"""Vector floating point (VSX vector instructions, Power ISA v3.1 Book I 7.4).

``VECTOR_FP_BEGIN()`` ... ``VECTOR_FP_END()`` bracket the element loop of a
VSX vector FP page, which calls the scalar helpers of fp.py per element:

    VECTOR_FP_BEGIN()
    do i = 0 to 1
        result[64*i:64*i+63] <- FPADD((XA)[64*i:64*i+63], (XB)[64*i:64*i+63], 64)
    if VECTOR_FP_END() then XT <- result

Between the two, each element is computed as if its exceptions were
disabled (fp.suppressed never suppresses) and the exception bits it raises
are collected (fp.note_enabled) instead of being judged one by one.
``VECTOR_FP_END()`` then applies the book's rule for the whole instruction:

* FPRF, FR and FI are as they were before the instruction (the vector forms
  do not alter them); the exception bits every element raised are set, with
  FX for each that went 0 -> 1, and the VX/FEX summaries;
* if any element raised an exception whose enable bit is set (VE for any
  VX*, OE, UE, ZE, XE: the book's ``ex_flag``), it returns 0 and the page
  leaves the whole target unchanged; with MSR.FE0/FE1 not both 0 the
  floating-point enabled exception program interrupt follows the
  instruction (fp.fp_interrupt);
* else it returns 1.

An enabled underflow is judged as the book's rounding does with UE=1: a
tiny result raises UX even when exact (fp.round_enabled).
"""
from .fp import (ENABLES, FI, FPRF_MASK, FR, M64, RN_MASK, SIGN64, XX, _compare_key,
                 _flag_arg, _nan_result, _snan_flag, _state_call, finish, finite_parts,
                 fp_signal, is_inf, is_nan, is_zero, note_enabled, pack_exact, quiet,
                 rounds_up, sign_of)
from .library import intrinsic, runtime, runtime_function

UNCHANGED = FR | FI | FPRF_MASK


def vector_fp_begin(s, keep=False):
    s.fp_vector = 0
    s.fp_vector_kept = s.fpscr & UNCHANGED
    return 0


def vector_fp_end(s, keep=False):
    raised = s.__dict__.pop("fp_vector", 0)
    kept = s.__dict__.pop("fp_vector_kept", s.fpscr & UNCHANGED)
    fpscr = (s.fpscr & ~UNCHANGED) | kept
    s.fpscr = fpscr
    enabled = any(raised & bits and fpscr & enable for bits, enable in ENABLES)
    if raised:
        note_enabled(s, raised)   # the interrupt, if MSR.FE0/FE1 ask for it
    return 0 if enabled else 1


runtime("_vector_fp_begin")(vector_fp_begin)
runtime("_vector_fp_end")(vector_fp_end)


@intrinsic("VECTOR_FP_BEGIN")
def _i_vector_fp_begin(comp):
    return _state_call(comp, "_vector_fp_begin(s)", 1)


@intrinsic("VECTOR_FP_END")
def _i_vector_fp_end(comp):
    return _state_call(comp, "_vector_fp_end(s)", 1)


# --- element operations the scalar helpers do not cover -----------------------

def fp_max_min(s, a, b, is_max):
    """xsmaxdp/xsmindp, xvmax/xvmin: IEEE 754-2008 maxNum/minNum.  A quiet
    NaN beside a number gives the number; otherwise a NaN operand gives the
    first NaN (src1, then src2), quieted; an SNaN raises VXSNAN.  +0 is
    greater than -0."""
    flags = _snan_flag(a, b)
    if flags:
        fp_signal(s, flags)
    if is_nan(a) or is_nan(b):
        if not flags and not (is_nan(a) and is_nan(b)):
            return b if is_nan(a) else a
        return quiet(a if is_nan(a) else b)
    ka, kb = _order_key(a), _order_key(b)
    return (a if ka >= kb else b) if is_max else (a if ka <= kb else b)


def fp_max_min_c(s, a, b, is_max):
    """xsmaxcdp/xsmincdp: C's (a > b) ? a : b (a < b for min): a NaN operand
    gives src2 as it is; an SNaN raises VXSNAN; equal values (+0 and -0)
    give src2."""
    flags = _snan_flag(a, b)
    if flags:
        fp_signal(s, flags)
    if is_nan(a) or is_nan(b):
        return b
    ka, kb = _compare_key(a), _compare_key(b)
    return a if (ka > kb if is_max else ka < kb) else b


def fp_max_min_j(s, a, b, is_max):
    """xsmaxjdp/xsminjdp: Java's Math.max/min: a NaN operand gives src1 if it
    is a NaN, else src2 (as they are); an SNaN raises VXSNAN; +0 > -0."""
    flags = _snan_flag(a, b)
    if flags:
        fp_signal(s, flags)
    if is_nan(a):
        return a
    if is_nan(b):
        return b
    ka, kb = _order_key(a), _order_key(b)
    return (a if ka >= kb else b) if is_max else (a if ka <= kb else b)


def _order_key(x):
    """A total order of non-NaN doubles by value with -0 below +0."""
    mag = x & ~SIGN64 & M64
    return -mag - 1 if sign_of(x) else mag


def fp_round_int_rn(s, b, keep=False):
    """xsrdpic/xvrdpic/xvrspic: ``b`` rounded to an integral value under
    FPSCR.RN; XX (and FI, FR) when inexact; FPRF the result's class."""
    if is_nan(b):
        return finish(s, _nan_result([b], 64), _snan_flag(b), False, keep=keep)
    if is_inf(b) or is_zero(b):
        return finish(s, b, 0, False, keep=keep)
    sign, m, e = finite_parts(b)
    if e >= 0:
        return finish(s, b, 0, False, keep=keep)
    whole, rest = m >> -e, m & ((1 << -e) - 1)
    half = 1 << (-e - 1)
    up = rounds_up(s.fpscr & RN_MASK, sign, whole & 1, rest >= half, bool(rest & (half - 1)))
    return finish(s, pack_exact(sign, whole + up, 0), XX if rest else 0, up, keep=keep)


for _name, _fn in (("_fp_max_min", fp_max_min), ("_fp_max_min_c", fp_max_min_c),
                   ("_fp_max_min_j", fp_max_min_j), ("_fp_round_int_rn", fp_round_int_rn)):
    runtime(_name)(_fn)


def _maxmin_intrinsic(py):
    def gen(comp, a, b, is_max):
        return _state_call(comp, f"{py}(s, {a.code}, {b.code}, {_flag_arg(is_max, 'max')})", 64)
    return gen


# FPMAXMIN(a, b, max), FPMAXMINC(a, b, max), FPMAXMINJ(a, b, max): 1 for max, 0 for min
for _name, _py in (("FPMAXMIN", "_fp_max_min"), ("FPMAXMINC", "_fp_max_min_c"),
                   ("FPMAXMINJ", "_fp_max_min_j")):
    intrinsic(_name)(_maxmin_intrinsic(_py))


@intrinsic("FPROUNDINTRN")
def _i_fproundintrn(comp, b):
    return _state_call(comp, f"_fp_round_int_rn(s, {b.code})", 64)


# --- single-precision software divide / square root tests ----------------------

def _single_exp(w):
    return ((w >> 23) & 0xFF) - 127


def _single_class(w):
    e, frac = (w >> 23) & 0xFF, w & 0x7FFFFF
    return ("nan" if e == 0xFF and frac else "inf" if e == 0xFF else
            "zero" if not e and not frac else "denormal" if not e else "normal")


def test_div_single(a, b):
    """xvtdivsp's per-element 0b1 || fg || fe || 0b0 (Book I 7.6.1, the
    single-precision bounds of xvtdivdp's: emin -126, emax 127, precision 24)."""
    ca, cb = _single_class(a), _single_class(b)
    ea, eb = _single_exp(a), _single_exp(b)
    fe = (ca in ("nan", "inf") or cb in ("nan", "inf", "zero") or eb <= -126 or eb >= 125
          or (ca != "zero" and (ea - eb >= 127 or ea - eb <= -125 or ea <= -103)))
    fg = ca == "inf" or cb in ("inf", "zero", "denormal")
    return 0b1000 | (fg << 2) | (fe << 1)


def test_sqrt_single(b):
    """xvtsqrtsp's per-element field."""
    cb = _single_class(b)
    fe = cb in ("nan", "inf", "zero") or b >> 31 == 1 or _single_exp(b) <= -103
    fg = cb in ("inf", "zero", "denormal")
    return 0b1000 | (fg << 2) | (fe << 1)


runtime_function("FPTESTDIVSP", 4, "_fp_test_div_single")(test_div_single)
runtime_function("FPTESTSQRTSP", 4, "_fp_test_sqrt_single")(test_sqrt_single)


# --- the VSX estimates ----------------------------------------------------------

def fp_estimate_staged(s, b, rsqrt, op_bits, final_bits, keep=False):
    """xsre[sd]p, xsrsqrte[sd]p, xvre[sd]p, xvrsqrte[sd]p.  The book bounds
    an estimate's error only (1/16384 relative); this returns what QEMU 7.2
    computes: the square root (for the rsqrt forms) and then 1/x, each
    rounded to ``op_bits`` precision, then (xsresp, xsrsqrtesp) rounded again
    to single precision; the exceptions those steps raise.  A zero operand
    gives the book's infinity of its sign with ZX (QEMU 7.2 sets no ZX)."""
    from .fpestimate import ONE, _shadow
    from .fp import fp_div, fp_round_single, fp_sqrt, infinity, ZX
    if is_zero(b):
        return finish(s, infinity(sign_of(b)), ZX, False, keep=keep)
    flags = 0
    if rsqrt:
        b, flags = _shadow(s, fp_sqrt, b, op_bits)
    result, more = _shadow(s, fp_div, ONE, b, op_bits)
    flags |= more
    if final_bits != op_bits:
        result, more = _shadow(s, fp_round_single, result)
        flags |= more
    return finish(s, result, flags, False, keep=keep)


runtime("_fp_estimate_staged")(fp_estimate_staged)


@intrinsic("FPESTIMATE")
def _i_fpestimate(comp, b, rsqrt, op_bits, final_bits):
    """FPESTIMATE(x, rsqrt, op_bits, final_bits): see fp_estimate_staged."""
    from .fp import _bits_arg
    return _state_call(comp, (
        f"_fp_estimate_staged(s, {b.code}, {_flag_arg(rsqrt, 'rsqrt')}, "
        f"{_bits_arg(op_bits)}, {_bits_arg(final_bits)})"), 64)


# --- test data class --------------------------------------------------------------

# DCMX bits, most significant first: NaN, +Inf, -Inf, +Zero, -Zero, +Denormal, -Denormal
def _dcmx_bit(x, single):
    neg = sign_of(x)
    if is_nan(x):
        return 6
    if is_inf(x):
        return 4 if neg else 5
    if is_zero(x):
        return 2 if neg else 3
    tiny = (x >> 52) & 0x7FF < (1023 - 126 if single else 1)
    return (0 if neg else 1) if tiny else None


def fp_class(x, dcmx):
    """xststdcdp, xvtstdcdp: 1 if the class of the double x is one DCMX selects."""
    bit = _dcmx_bit(x, False)
    return int(bit is not None and dcmx >> bit & 1)


def fp_class_single(x, dcmx):
    """xststdcsp: as fp_class, a denormal being a value below the single
    format's smallest normal (2**-126)."""
    bit = _dcmx_bit(x, True)
    return int(bit is not None and dcmx >> bit & 1)


runtime_function("FPCLASS", 1, "_fp_class")(fp_class)
runtime_function("FPCLASSSP", 1, "_fp_class_single")(fp_class_single)


# --- half precision and bfloat16 ----------------------------------------------------

HALF = (5, 10)       # exponent bits, fraction bits
BFLOAT16 = (8, 7)


def _narrow_format(kind):
    from .fp import Format
    ebits, fbits = kind
    emax = (1 << (ebits - 1)) - 1
    return Format(fbits + 1, 1 - emax, emax)


def _pack_narrow(x, kind):
    """The ``kind`` image of the double x, which the format holds exactly
    (a NaN keeps the top fraction bits of its payload)."""
    ebits, fbits = kind
    sign = (x >> 63) << (ebits + fbits)
    all_ones = ((1 << ebits) - 1) << fbits
    if is_nan(x):
        return sign | all_ones | ((x >> (52 - fbits)) & ((1 << fbits) - 1))
    if is_inf(x):
        return sign | all_ones
    if is_zero(x):
        return sign
    _, m, e = finite_parts(x)
    bias = (1 << (ebits - 1)) - 1
    top = m.bit_length() - 1 + e
    if top < 1 - bias:           # a denormal: frac * 2**(1 - bias - fbits)
        shift = e - (1 - bias - fbits)
        return sign | (m << shift if shift >= 0 else m >> -shift)
    shift = fbits - (m.bit_length() - 1)
    frac = (m << shift if shift >= 0 else m >> -shift) & ((1 << fbits) - 1)
    return sign | ((top + bias) << fbits) | frac


def _unpack_narrow(h, kind):
    """The double image of a ``kind`` value (exact; an SNaN stays signalling)."""
    ebits, fbits = kind
    sign = (h >> (ebits + fbits)) & 1
    e = (h >> fbits) & ((1 << ebits) - 1)
    frac = h & ((1 << fbits) - 1)
    bias = (1 << (ebits - 1)) - 1
    if e == (1 << ebits) - 1:
        return (sign << 63) | (0x7FF << 52) | (frac << (52 - fbits))
    if e == 0:
        return pack_exact(sign, frac, 1 - bias - fbits)
    return (sign << 63) | ((e - bias + 1023) << 52) | (frac << (52 - fbits))


def _narrow_class(h, kind):
    """FPRF of a ``kind`` result (a denormal there is a denormal)."""
    from .fp import fprf_class
    ebits, fbits = kind
    x = _unpack_narrow(h, kind)
    if (h >> fbits) & ((1 << ebits) - 1) == 0 and h & ((1 << fbits) - 1):
        return 0b11000 if x >> 63 else 0b10100
    return fprf_class(x)


def fp_to_narrow(s, x, kind, keep=False):
    """xscvdphp, xvcvsphp, xvcvspbf16: the double x rounded to ``kind`` under
    FPSCR.RN (OX UX XX VXSNAN as an arithmetic result); FPRF its class
    there.  Returns the 16-bit image."""
    from .fp import FPRF_MASK, FPRF_SHIFT, round_enabled
    if is_nan(x):
        result, flags, up = quiet(x), _snan_flag(x), False
    elif is_inf(x) or is_zero(x):
        result, flags, up = x, 0, False
    else:
        sign, m, e = finite_parts(x)
        result, flags, up = round_enabled(s, sign, m, e, False, _narrow_format(kind),
                                          s.fpscr & RN_MASK)
    if finish(s, result, flags, up, keep=keep) is None:
        return None
    h = _pack_narrow(result, kind)
    s.fpscr = (s.fpscr & ~FPRF_MASK) | (_narrow_class(h, kind) << FPRF_SHIFT)
    return h


def fp_from_narrow(s, h, kind, keep=False):
    """xscvhpdp, xvcvhpsp: a ``kind`` value widened exactly to a double; an
    SNaN raises VXSNAN and is quieted; FPRF the result's class."""
    x = _unpack_narrow(h, kind)
    if is_nan(x):
        return finish(s, quiet(x), _snan_flag(x), False, keep=keep)
    return finish(s, x, 0, False, keep=keep)


runtime("_fp_to_narrow")(fp_to_narrow)
runtime("_fp_from_narrow")(fp_from_narrow)
_KINDS = {"HALF": HALF, "BF16": BFLOAT16}


def _kind_arg(comp, v):
    from .fp import _const_arg
    del comp
    name = {16: "HALF", 8: "BF16"}.get(_const_arg(v, "the format (16: half, 8: bfloat16)"))
    if name is None:
        raise TypeError("the format is 16 (half precision) or 8 (bfloat16)")
    return _KINDS[name]


@intrinsic("FPTONARROW")
def _i_fptonarrow(comp, x, kind):
    """FPTONARROW(x, 16 | 8): x rounded to half precision / bfloat16 (16 bits)."""
    return _state_call(comp, f"_fp_to_narrow(s, {x.code}, {_kind_arg(comp, kind)})", 16)


@intrinsic("FPFROMNARROW")
def _i_fpfromnarrow(comp, h, kind):
    """FPFROMNARROW(h, 16 | 8): a half-precision / bfloat16 value as a double."""
    return _state_call(comp, f"_fp_from_narrow(s, {h.code}, {_kind_arg(comp, kind)})", 64)
