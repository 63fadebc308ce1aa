"""Element access in a register file: SVP64 elements of width w packed
little-endian from a base register (element k of a vector at r<n> is bits
``k*w mod 64`` of r<n + k*w div 64>; 64-bit elements are whole registers).
Register numbers are not wrapped: every caller has checked its operands
against the end of the file first (regfile_end.py)."""

M64 = (1 << 64) - 1


def signed(v, w):
    """``v`` (w bits) read as a two's-complement number."""
    return v - (1 << w) if v >> (w - 1) else v


def read_elem(regs, base, k, w):
    """Element k (width w) of the vector starting at register ``base``."""
    if w == 64:
        return regs[base + k]
    bit = k * w
    return (regs[base + (bit >> 6)] >> (bit & 63)) & ((1 << w) - 1)


def write_elem(regs, base, k, w, value):
    if w == 64:
        regs[base + k] = value & M64
        return
    bit = k * w
    r = base + (bit >> 6)
    sh = bit & 63
    m = ((1 << w) - 1) << sh
    regs[r] = (regs[r] & ~m) | ((value << sh) & m)
