"""The hash of hashst and hashchk (Power ISA v3.1B Book I 3.3.17.1, return
oriented programming protection): a 64-bit digest of (RA), (RB) and the
HASHKEYR key.

The two registers' bytes are interleaved into two 64-bit stages; each 32-bit
half of a stage goes through a 32-round SIMON-like Feistel cipher (16-bit
words, SIMON32/64's key schedule with z0 and c = 0xfffc) whose round keys are
rotated by a lane number 0..3; the result is the high stage's two ciphertexts
XORed with the low stage's.  Checked against QEMU 7.2's system emulator with
keys set through gdb (tests/base/test_rophash_qemu.py).
"""
from . import library

_MASK16 = 0xFFFF
_MASK64 = (1 << 64) - 1
# SIMON's constant sequence z0 (62 bits, read from the top) and c = 2**16 - 4
_Z0 = 0xFA2561CDF44AC398
_C = 0xFFFC


def _rol16(x, n):
    return ((x << n) | (x >> (16 - n))) & _MASK16


def _ror64(x, n):
    n %= 64
    return ((x >> n) | (x << (64 - n))) & _MASK64


def _round_keys(key):
    """The 32 16-bit round keys: the key's four 16-bit words (most
    significant first) extended by SIMON32/64's schedule."""
    k = [(key >> (48 - 16 * i)) & _MASK16 for i in range(4)]
    for i in range(28):
        t = _rol16(k[i + 3], 13) ^ k[i + 1]
        k.append(_C ^ ((_Z0 >> (63 - i)) & 1) ^ k[i] ^ t ^ _rol16(t, 15))
    return k


def simon_like(x, key, lane):
    """One 32-bit block ``x`` (high half the right word, low half the left)
    through the 32 rounds, each group of four round keys rotated by ``lane``."""
    k = _round_keys(key)
    left, right = x & _MASK16, x >> 16
    for i in range(32):
        group = i & ~3
        f = (_rol16(left, 1) & _rol16(left, 8)) ^ _rol16(left, 2)
        left, right = right ^ f ^ k[group + (i + lane) % 4], left
    return (right << 16) | left


def hash_digest(ra, rb, key):
    """The 64-bit hash of (RA), (RB) under ``key``."""
    high = low = 0
    for i in range(4):
        byte = 8 * i
        high |= _ror64((rb >> byte) & 0xFF, 8 * (2 * i + 1)) | (((ra >> (32 + byte)) & 0xFF) << (16 * i))
        low |= _ror64((rb >> (32 + byte)) & 0xFF, 8 * (2 * i + 1)) | (((ra >> byte) & 0xFF) << (16 * i))
    high = (simon_like(high >> 32, key, 0) << 32) | simon_like(high & 0xFFFFFFFF, key, 1)
    low = (simon_like(low >> 32, key, 2) << 32) | simon_like(low & 0xFFFFFFFF, key, 3)
    return high ^ low


library.runtime_function("HASH", 64, "_rop_hash")(hash_digest)
