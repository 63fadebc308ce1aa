"""Pseudocode helpers for 128-bit vector registers (the Vector Facility and
VSX, docs/vector.md).

``MEM_ELEMENTS(EA, n, esize)`` reads ``n`` bytes at EA as a vector of
``n/esize`` elements, element 0 first (most significant), each element in
the machine's byte order: how the book's element-ordered loads (lxvd2x,
lxvw4x) and stores see memory.  As an assignment target,
``MEM_ELEMENTS(EA, n, esize) <- v`` stores them with one memory write, so a
store that traps writes nothing.
"""
from . import library


@library.runtime("_mem_elements_read")
def _mem_elements_read(m, ea, n, esize):
    data = m.read_bytes(ea, n)
    order = "little" if m.little else "big"
    v = 0
    for i in range(0, n, esize):
        v = (v << (8 * esize)) | int.from_bytes(data[i:i + esize], order)
    return v


@library.runtime("_mem_elements_write")
def _mem_elements_write(m, ea, n, esize, v):
    order = "little" if m.little else "big"
    mask = (1 << (8 * esize)) - 1
    out = bytearray()
    for i in range(n // esize - 1, -1, -1):
        out += ((v >> (8 * esize * i)) & mask).to_bytes(esize, order)
    m.write_bytes(ea, bytes(out))


def _sizes(comp, n, esize):
    if n.const is None or esize.const is None or n.const % esize.const:
        comp.err("MEM_ELEMENTS(EA, n, esize) needs constant sizes, n a multiple of esize")
    return n.const, esize.const


@library.intrinsic("MEM_ELEMENTS")
def _i_mem_elements(comp, ea, n, esize):
    n, esize = _sizes(comp, n, esize)
    comp.prologue.add("M")
    return library._val(f"_mem_elements_read(M, {ea.code}, {n}, {esize})", 8 * n)


def _set_mem_elements(comp, args, v):
    if len(args) != 3:
        comp.err("MEM_ELEMENTS(EA, n, esize) takes three arguments")
    ea, n, esize = args
    n, esize = _sizes(comp, n, esize)
    comp.prologue.add("M")
    return f"_mem_elements_write(M, {ea.code}, {n}, {esize}, {comp.fit(v, 8 * n)})"


library.SETTERS["MEM_ELEMENTS"] = _set_mem_elements


# --- element shifts, rotates and counts --------------------------------------
# SHL(x, n), SHR(x, n), SHRA(x, n), ROTL(x, n): x shifted/rotated by n bits
# within x's own width (n < that width); CLZ(x), CTZ(x): leading/trailing
# zero bits of x (its width when x is 0).  The book writes these with
# variable-width ranges and concatenations; one helper each keeps the
# element loops of the vector pages to constant widths.

def _width_of(comp, x, name):
    if not isinstance(x.width, int):
        comp.err(f"{name}(x, ...) needs x of a known width")
    return x.width


@library.intrinsic("SHL")
def _i_shl(comp, x, n):
    w = _width_of(comp, x, "SHL")
    return library._val(f"(({x.code} << ({n.code})) & {hex((1 << w) - 1)})", w)


@library.intrinsic("SHR")
def _i_shr(comp, x, n):
    w = _width_of(comp, x, "SHR")
    return library._val(f"({x.code} >> ({n.code}))", w)


@library.intrinsic("SHRA")
def _i_shra(comp, x, n):
    w = _width_of(comp, x, "SHRA")
    sign = hex(1 << (w - 1))
    return library._val(f"(((({x.code} ^ {sign}) - {sign}) >> ({n.code})) & {hex((1 << w) - 1)})", w)


@library.runtime("_rotl_n")
def _rotl_n(x, n, w):
    n %= w
    return ((x << n) | (x >> (w - n))) & ((1 << w) - 1)


@library.intrinsic("ROTL")
def _i_rotl(comp, x, n):
    w = _width_of(comp, x, "ROTL")
    return library._val(f"_rotl_n({x.code}, {n.code}, {w})", w)


@library.intrinsic("CLZ")
def _i_clz(comp, x):
    w = _width_of(comp, x, "CLZ")
    return library._val(f"({w} - ({x.code}).bit_length())", w)


@library.runtime("_ctz_n")
def _ctz_n(x, w):
    return (x & -x).bit_length() - 1 if x else w


@library.intrinsic("CTZ")
def _i_ctz(comp, x):
    w = _width_of(comp, x, "CTZ")
    return library._val(f"_ctz_n({x.code}, {w})", w)


# --- VSX scalar results ------------------------------------------------------
# VSR_SCALAR(x): the 128-bit VSR image of a 64-bit scalar result x: x in
# doubleword 0, doubleword 1 zero (the book leaves it undefined; QEMU 7.2
# writes 0).  VSR_WORDS(x): x's low word in words 0 and 1, doubleword 1 zero
# (the book defines word 1 only, QEMU copies it into word 0).
# VSR_SINGLE(x): VSR_WORDS of the single-precision format of the double x
# (an FP helper's rounded result), FPRF classed as single precision.
# When x is an FP helper call that may leave its target unchanged (an enabled
# invalid operation: PageCompiler.fp_keep), so may the whole VSR write.

def _vsr_image(comp, x, py, state=False):
    code = f"{py}(s, {x.code})" if state else f"{py}({x.code})"
    keep = comp.fp_keep.get(x.code)
    if keep is not None:
        image = f"lambda _v: {py}(s, _v)" if state else py
        comp.fp_keep[code] = f"_vsr_keep({image}, {keep})"
    return library._val(code, 128)


@library.runtime("_vsr_keep")
def _vsr_keep(image, value):
    return None if value is None else image(value)


@library.runtime("_vsr_scalar")
def _vsr_scalar(x):
    return (x & library.M64) << 64


@library.runtime("_vsr_words")
def _vsr_words(x):
    w = x & 0xFFFFFFFF
    return (w << 96) | (w << 64)


@library.runtime("_vsr_single")
def _vsr_single(s, x):
    """The single-precision format of the double x (a rounded result), in
    words 0 and 1; FPRF is set to its class as a single-precision value (a
    result the single format holds only denormalized is a denormal)."""
    from .fp import double_to_single, FPRF_MASK, FPRF_SHIFT
    w = double_to_single(x)
    if (w >> 23) & 0xFF == 0 and w & 0x7FFFFF and not (x >> 52) & 0x7FF == 0x7FF:
        sign = w >> 31
        s.fpscr = (s.fpscr & ~FPRF_MASK) | ((0b11000 if sign else 0b10100) << FPRF_SHIFT)
    return _vsr_words(w)


@library.intrinsic("VSR_SCALAR")
def _i_vsr_scalar(comp, x):
    return _vsr_image(comp, x, "_vsr_scalar")


@library.intrinsic("VSR_WORDS")
def _i_vsr_words(comp, x):
    return _vsr_image(comp, x, "_vsr_words")


@library.intrinsic("VSR_SINGLE")
def _i_vsr_single(comp, x):
    comp.note_write()  # (FPRF)
    return _vsr_image(comp, x, "_vsr_single", state=True)


# --- saturation (the book's si8_CLAMP ... ui64_CLAMP) -------------------------
# CLAMPS(x, w) / CLAMPU(x, w): x, read as a signed number of its own width,
# clamped into the signed / unsigned w-bit range; a clamped value sets
# VSCR.SAT, as the book's clamp functions do.  Write an unsigned source as
# [0] || x so it reads as non-negative.

@library.runtime("_clamp")
def _clamp(s, x, lo, hi):
    if x < lo:
        s.vscr |= 1
        return lo
    if x > hi:
        s.vscr |= 1
        return hi
    return x


def _i_clamp(comp, x, w, signed):
    xw = _width_of(comp, x, "CLAMPS" if signed else "CLAMPU")
    if w.const is None:
        comp.err("CLAMPS/CLAMPU(x, w) need a constant width w")
    w = w.const
    lo, hi = (-(1 << (w - 1)), (1 << (w - 1)) - 1) if signed else (0, (1 << w) - 1)
    comp.note_write()  # (VSCR.SAT)
    return library._val(f"(_clamp(s, _signed({x.code}, {xw}), {lo}, {hi}) & {hex((1 << w) - 1)})", w)


@library.intrinsic("CLAMPS")
def _i_clamps(comp, x, w):
    return _i_clamp(comp, x, w, True)


@library.intrinsic("CLAMPU")
def _i_clampu(comp, x, w):
    return _i_clamp(comp, x, w, False)


# --- carry-less (polynomial) multiply: vpmsum[bhwd] ---------------------------

@library.runtime("_clmul")
def _clmul(a, b):
    r = 0
    while b:
        if b & 1:
            r ^= a
        a <<= 1
        b >>= 1
    return r


@library.intrinsic("CLMUL")
def _i_clmul(comp, a, b):
    wa, wb = _width_of(comp, a, "CLMUL"), _width_of(comp, b, "CLMUL")
    return library._val(f"_clmul({a.code}, {b.code})", wa + wb)


# --- stores of a variable length ----------------------------------------------
# MEM_FIRST(EA, nb) <- v: the first nb bytes of v (most significant first) at
# EA, EA+1 ...: stxvl/stxvll's variable-length store as one memory write (nb
# <= v's bytes; nb = 0 writes nothing), so a store that traps writes nothing.

@library.runtime("_mem_first_write")
def _mem_first_write(m, ea, nb, nbytes, v):
    if nb:
        m.write_bytes(ea, v.to_bytes(nbytes, "big")[:nb])


def _set_mem_first(comp, args, v):
    if len(args) != 2:
        comp.err("MEM_FIRST(EA, nb) takes two arguments")
    ea, nb = args
    width = _width_of(comp, v, "MEM_FIRST")
    comp.prologue.add("M")
    return f"_mem_first_write(M, {ea.code}, min({nb.code}, {width // 8}), {width // 8}, {v.code})"


library.SETTERS["MEM_FIRST"] = _set_mem_first

from . import crypto  # noqa: E402,F401  (AES rounds: vcipher, vncipher, vsbox)
from . import bcd  # noqa: E402,F401  (decimal integers: bcdadd. ... bcdutrunc.)
