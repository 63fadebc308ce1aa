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
