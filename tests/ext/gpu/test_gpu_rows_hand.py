"""GPU rows the other tests reach only through templates or random draws: every
quad swizzle variant, fshfli.down and each SURED size, one program per row with
the expected values worked out by hand in the comments (seed 002 quad tables,
seed 000 SHFDOWN, seed 004's operation table; binary32/binary16 encodings by
hand).  Each row is written out in full so its spec-site page names this test."""
import struct

import pytest

from isa_ext.isa import ISA
from isa_ext.sim import Simulator


@pytest.fixture(scope="module")
def isa():
    return ISA()


def dbl(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def run(isa, text, gpr=None, fpr=None, memory=None):
    sim = Simulator(isa, strict=True)
    sim.load_asm(text)
    for n, v in (gpr or {}).items():
        sim.state.gpr[n] = v
    for n, v in (fpr or {}).items():
        sim.state.fpr[n] = v
    for addr, data in (memory or {}).items():
        sim.state.mem.load(addr, data)
    res = sim.run(max_steps=50)
    assert res.stop == "end", res.trap
    return sim


# --- quad swizzles (seed 002) ------------------------------------------------------
# One quad (VL = 4, every lane active).  Swizzled operand s = 1.0 2.0 3.0 4.0 in
# f0..f3, unswizzled u in f16..f19.  qswz<k> gives every lane s[k]; qswzx gives lane
# i s[i^1] (2 1 4 3); qswzy s[i^2] (3 4 1 2); the "a" forms add u[i] in double
# precision, the "as" forms round the sum to single precision.

S = [1.0, 2.0, 3.0, 4.0]
U = [10.0, 20.0, 30.0, 40.0]
TINY = 2.0 ** -30  # below half a binary32 ulp of 1..4 (2**-24 at 1.0): lost in single


def quad(isa, line, u):
    fpr = {k: dbl(v) for k, v in enumerate(S)}
    fpr.update({16 + k: dbl(v) for k, v in enumerate(u)})
    sim = run(isa, "setvl 0,0,4,0,1,1\n" + line, fpr=fpr)
    return [struct.unpack("<d", struct.pack("<Q", sim.state.fpr[32 + k]))[0] for k in range(4)]


@pytest.mark.parametrize("line,want", [
    ("sv.qswz1 *f32,*f0", [2.0] * 4),
    ("sv.qswz3 *f32,*f0", [4.0] * 4),
    ("sv.qswzx *f32,*f0", [2.0, 1.0, 4.0, 3.0]),
    ("sv.qswzy *f32,*f0", [3.0, 4.0, 1.0, 2.0]),
    # s[k] + u[i]: 10+s 20+s 30+s 40+s
    ("sv.qswz0a *f32,*f0,*f16", [11.0, 21.0, 31.0, 41.0]),
    ("sv.qswz1a *f32,*f0,*f16", [12.0, 22.0, 32.0, 42.0]),
    ("sv.qswz2a *f32,*f0,*f16", [13.0, 23.0, 33.0, 43.0]),
    ("sv.qswz3a *f32,*f0,*f16", [14.0, 24.0, 34.0, 44.0]),
    # s[i^2] + u[i]: 3+10 4+20 1+30 2+40
    ("sv.qswzya *f32,*f0,*f16", [13.0, 24.0, 31.0, 42.0]),
])
def test_quad_swizzle_rows(isa, line, want):
    assert quad(isa, line, U) == want


@pytest.mark.parametrize("double_line,single_line,src", [
    ("sv.qswz0a *f32,*f0,*f16", "sv.qswz0as *f32,*f0,*f16", [0, 0, 0, 0]),
    ("sv.qswz1a *f32,*f0,*f16", "sv.qswz1as *f32,*f0,*f16", [1, 1, 1, 1]),
    ("sv.qswz2a *f32,*f0,*f16", "sv.qswz2as *f32,*f0,*f16", [2, 2, 2, 2]),
    ("sv.qswz3a *f32,*f0,*f16", "sv.qswz3as *f32,*f0,*f16", [3, 3, 3, 3]),
    ("sv.qswzxa *f32,*f0,*f16", "sv.qswzxas *f32,*f0,*f16", [1, 0, 3, 2]),
])
def test_quad_swizzle_add_single_rounds_to_binary32(isa, double_line, single_line, src):
    # u = 2**-30 everywhere: s + 2**-30 is exact in binary64 (the "a" form keeps
    # it) but needs 31 significand bits, so binary32 rounds it back to s
    tiny = [TINY] * 4
    assert quad(isa, double_line, tiny) == [S[j] + TINY for j in src]
    assert quad(isa, single_line, tiny) == [S[j] for j in src]


# --- fshfli.down (seed 000 SHFDOWN, seed 003 immediate width code) ----------------------

def test_fshfli_down_and_its_glsl_alias(isa):
    # VL 8, width code 3 = one segment of 8 lanes: lane i reads lane i+1; lane 7's
    # source 8 is beyond the segment, so it keeps its own value (SASS SHFL.DOWN)
    fpr = {k: dbl(k + 1.0) for k in range(8)}
    want = [dbl(v) for v in (2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 8.0)]
    sim = run(isa, "setvl 0,0,8,0,1,1\nsv.fshfli.down *f32,*f0,1,3", fpr=fpr)
    assert sim.state.fpr[32:40] == want
    # fshuffleDownNV(value, delta 1, width 8) is the same operation
    sim = run(isa, "setvl 0,0,8,0,1,1\nsv.fshuffleDownNV *f32,*f0,1,8", fpr=fpr)
    assert sim.state.fpr[32:40] == want


# --- SURED sizes (seed 004) --------------------------------------------------------------
# One lane, 1d, x = r2 = 0: the element at the surface base is M, the operand r4 is v
# (its low 32 bits for the 32-bit sizes).  Descriptor: tests/ext/gpu/test_gpu.py's layout.

SURF, DESC_AT = 0x20000, 0x1F000


def descriptor(esize):
    # base, pitch, slice pitch, width 16, height 1, depth 1, element size, enabled
    return (SURF.to_bytes(8, "little") + (64).to_bytes(4, "little") + (256).to_bytes(4, "little")
            + (16).to_bytes(4, "little") + (1).to_bytes(4, "little") + (1).to_bytes(4, "little")
            + bytes([esize, 1, 0, 0]))


M64 = (1 << 64) - 1


@pytest.mark.parametrize("line,nbytes,m,v,want", [
    # add wraps modulo 2**32: 5 + (-7) = -2; 0x7FFFFFFF + 1 = 0x80000000 (no saturation)
    ("sured.add.s32 r2,r4,r6,1d", 4, 5, 0xFFFFFFF9, 0xFFFFFFFE),
    ("sured.add.sd32 r2,r4,r6,1d", 4, 0x7FFFFFFF, 1, 0x80000000),
    # 64-bit element: the carry out of bit 32 stays (a 32-bit add would give 0)
    ("sured.add.u64 r2,r4,r6,1d", 8, 0xFFFFFFFF, 1, 0x1_0000_0000),
    # signed: -1 (0xFFFFFFFF) is below 1; unsigned it would be above
    ("sured.min.sd32 r2,r4,r6,1d", 4, 1, 0xFFFFFFFF, 0xFFFFFFFF),
    ("sured.max.sd32 r2,r4,r6,1d", 4, 0xFFFFFFFF, 1, 1),
    # 64-bit signed: -1 < 1; -2**63 < 5; max(-1, 3) = 3
    ("sured.min.s64 r2,r4,r6,1d", 8, 1, M64, M64),
    ("sured.min.sd64 r2,r4,r6,1d", 8, 1 << 63, 5, 1 << 63),
    ("sured.max.sd64 r2,r4,r6,1d", 8, M64, 3, 3),
    # f16x2 max per half: max(1.0, -0.0) = 1.0 (0x3C00), max(-2.0, 3.0) = 3.0 (0x4200);
    # binary16: 1.0 = 0x3C00, -2.0 = 0xC000, 3.0 = 1.5 * 2**1 = 0x4200, -0.0 = 0x8000
    ("sured.max.f16x2 r2,r4,r6,1d", 4, 0x3C00C000, 0x80004200, 0x3C004200),
    # bitwise, 32-bit: F0F0F0F0 & FF00FF00 = F000F000, | = FFF0FFF0, ^ = 0FF00FF0
    ("sured.and.s32 r2,r4,r6,1d", 4, 0xF0F0F0F0, 0xFF00FF00, 0xF000F000),
    ("sured.or.s32 r2,r4,r6,1d", 4, 0xF0F0F0F0, 0xFF00FF00, 0xFFF0FFF0),
    ("sured.xor.s32 r2,r4,r6,1d", 4, 0xF0F0F0F0, 0xFF00FF00, 0x0FF00FF0),
    # 12345678 & 0000FFFF = 00005678, | = 1234FFFF, ^ = 1234A987 (5678 ^ FFFF = A987);
    # the operand's high word (0xDEAD...) is not part of a 32-bit element
    ("sured.and.sd32 r2,r4,r6,1d", 4, 0x12345678, 0xDEAD0000_0000FFFF, 0x00005678),
    ("sured.or.sd32 r2,r4,r6,1d", 4, 0x12345678, 0xDEAD0000_0000FFFF, 0x1234FFFF),
    ("sured.xor.sd32 r2,r4,r6,1d", 4, 0x12345678, 0xDEAD0000_0000FFFF, 0x1234A987),
    # 64-bit: FFFF0000FFFF0000 op 0F0F0F0F0F0F0F0F
    ("sured.and.u64 r2,r4,r6,1d", 8, 0xFFFF0000_FFFF0000, 0x0F0F0F0F_0F0F0F0F,
     0x0F0F0000_0F0F0000),
    ("sured.or.u64 r2,r4,r6,1d", 8, 0xFFFF0000_FFFF0000, 0x0F0F0F0F_0F0F0F0F,
     0xFFFF0F0F_FFFF0F0F),
    ("sured.xor.u64 r2,r4,r6,1d", 8, 0xFFFF0000_FFFF0000, 0x0F0F0F0F_0F0F0F0F,
     0xF0F00F0F_F0F00F0F),
])
def test_sured_sizes(isa, line, nbytes, m, v, want):
    sim = run(isa, line, gpr={2: 0, 4: v, 6: DESC_AT},
              memory={DESC_AT: descriptor(nbytes), SURF: m.to_bytes(nbytes, "little")})
    got = int.from_bytes(sim.state.mem.read_bytes(SURF, nbytes), "little")
    assert got == want
    # the next element is untouched (the access is exactly one element wide)
    assert sim.state.mem.read_bytes(SURF + nbytes, 4) == b"\0\0\0\0"
