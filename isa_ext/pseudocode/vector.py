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
