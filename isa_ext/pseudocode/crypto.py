"""AES round helpers for vcipher, vcipherlast, vncipher, vncipherlast and
vsbox (Power ISA v3.1 Book I 6.11: the book names FIPS-197's
transformations).  A 128-bit value is the AES state: byte 0 (bits 0:7, the
most significant) is in[0], the state is column-major (FIPS-197 3.4:
s[r, c] = in[r + 4c]).

The S-box is computed from its definition (FIPS-197 5.1.1: the inverse in
GF(2^8) modulo x^8 + x^4 + x^3 + x + 1, then the affine map), not copied.
"""
from . import library


def _gf_mul(a, b):
    r = 0
    while b:
        if b & 1:
            r ^= a
        a = (a << 1) ^ 0x11B if a & 0x80 else a << 1
        b >>= 1
    return r


def _sbox():
    # the multiplicative inverses from the powers of the generator 3: 3**k
    # times 3**(255-k) is 1 (a search over every pair took 70 ms at start-up)
    inverse = [0] * 256
    powers, x = [], 1
    for _ in range(255):
        powers.append(x)
        x = _gf_mul(x, 3)
    for k, a in enumerate(powers):
        inverse[a] = powers[(255 - k) % 255]
    box = []
    for b in inverse:
        s = b
        for k in range(1, 5):  # b ^ rotl(b, 1) ^ ... ^ rotl(b, 4) ^ 0x63
            s ^= ((b << k) | (b >> (8 - k))) & 0xFF
        box.append(s ^ 0x63)
    return box


SBOX = _sbox()
INV_SBOX = [0] * 256
for _i, _s in enumerate(SBOX):
    INV_SBOX[_s] = _i


def _bytes(x):
    return list(x.to_bytes(16, "big"))


def _value(b):
    return int.from_bytes(bytes(b), "big")


def sub_bytes(x, box=SBOX):
    return _value(box[b] for b in _bytes(x))


def shift_rows(x, sign=1):
    """Row r rotates left by r columns (sign -1: right, InvShiftRows)."""
    b = _bytes(x)
    return _value(b[r + 4 * ((c + sign * r) % 4)] for c in range(4) for r in range(4))


def mix_columns(x, matrix=(2, 3, 1, 1)):
    b = _bytes(x)
    out = []
    for c in range(4):
        col = b[4 * c:4 * c + 4]
        for r in range(4):
            v = 0
            for k in range(4):
                v ^= _gf_mul(matrix[(k - r) % 4], col[k])
            out.append(v)
    return _value(out)


INV_MIX = (0x0E, 0x0B, 0x0D, 0x09)


library.runtime_function("AES_SUBBYTES", 128, "_aes_sub_bytes")(lambda x: sub_bytes(x))
library.runtime_function("AES_INVSUBBYTES", 128, "_aes_inv_sub_bytes")(lambda x: sub_bytes(x, INV_SBOX))
library.runtime_function("AES_SHIFTROWS", 128, "_aes_shift_rows")(lambda x: shift_rows(x))
library.runtime_function("AES_INVSHIFTROWS", 128, "_aes_inv_shift_rows")(lambda x: shift_rows(x, -1))
library.runtime_function("AES_MIXCOLUMNS", 128, "_aes_mix_columns")(lambda x: mix_columns(x))
library.runtime_function("AES_INVMIXCOLUMNS", 128, "_aes_inv_mix_columns")(lambda x: mix_columns(x, INV_MIX))
