"""Plain-Python reference models of the GPU cross-lane operations, written from the
seed texts (000 GLSL shuffles, 002 thread group, 003 SASS SHFL, 004 SASS SURED)
and the interpretations listed in docs/gpu-ops.md, independently of the pseudocode
pages.  Lists are indexed by lane; ``active`` is a set of lane numbers.
"""
import math
from fractions import Fraction
import struct

IDX, UP, DOWN, BFLY = "idx", "up", "down", "bfly"


# --- seed 003: SHFL, generalised to VL <= 64 lanes -------------------------------

def sass_source_lane(mode, lane, index, c, lanes):
    """(source lane j, in range) for SHFL: minLane is the first lane of the lane's
    segment, maxLane adds the clamp bits that lie outside the segment mask."""
    segment_mask = (c >> 8) & 0x3F
    clamp = c & 0x3F
    index &= 0x3F
    min_lane = lane & segment_mask
    max_lane = min_lane + (clamp & (0x3F ^ segment_mask))
    if mode == IDX:
        j = min_lane + (index & (0x3F ^ segment_mask))
        ok = j <= max_lane
    elif mode == UP:
        j = lane - index
        ok = j >= min_lane
    elif mode == DOWN:
        j = lane + index
        ok = j <= max_lane
    else:
        j = lane ^ index
        ok = j <= max_lane
    ok = ok and 0 <= j < lanes  # a lane beyond VL does not exist
    return (j if ok else lane), ok


def shfl(mode, data, active, index, c):
    """SHFL over ``len(data)`` lanes; ``index``/``c`` are per-lane lists.
    Returns (results: {lane: value} for active lanes, valid mask, inactive reads)."""
    lanes = len(data)
    out, valid, undefined = {}, 0, []
    for i in sorted(active):
        j, ok = sass_source_lane(mode, i, index[i], c[i], lanes)
        if j not in active:
            undefined.append((i, j))
        out[i] = data[j]
        if ok:
            valid |= 1 << i
    return out, valid, undefined


def immediate_c(width):
    """The c value an immediate segment width stands for: mask ~(W-1), clamp W-1."""
    return ((0x3F & ~(width - 1)) << 8) | (width - 1)


# --- seed 000: GLSL shuffles with a width ------------------------------------------

def glsl_shuffle(kind, data, index, width):
    """shuffleNV / Up / Down / Xor over segments of ``width`` threads, every thread
    active.  Returns (results, threadIdValid list)."""
    index &= 31  # "a 5 bits value ... MSBs are ignored"
    results, valid = [], []
    for thread in range(len(data)):
        first = thread - thread % width
        me = thread - first
        src = {"shuffleNV": index, "shuffleUpNV": me - index,
               "shuffleDownNV": me + index, "shuffleXorNV": me ^ index}[kind]
        ok = src >= 0 if kind == "shuffleUpNV" else src < width
        results.append(data[first + src] if ok else data[thread])
        valid.append(int(ok))
    return results, valid


# --- seed 002: thread group ---------------------------------------------------------

def ballot(values, active):
    return sum(1 << i for i in active if values[i] != 0)


def lane_masks(lane, lanes):
    """gl_Thread{Eq,Ge,Gt,Le,Lt}MaskNV for ``lane`` of a ``lanes``-lane warp."""
    def bits(pred):
        return sum(1 << k for k in range(lanes) if pred(k))
    return {"eq": bits(lambda k: k == lane), "ge": bits(lambda k: k >= lane),
            "gt": bits(lambda k: k > lane), "le": bits(lambda k: k <= lane),
            "lt": bits(lambda k: k < lane)}


QUAD_SOURCE = {"0": lambda i: 0, "1": lambda i: 1, "2": lambda i: 2, "3": lambda i: 3,
               "x": lambda i: i ^ 1, "y": lambda i: i ^ 2}  # position within the quad


def quad_swizzle(variant, swizzled, unswizzled, active, lanes, single=False):
    """{lane: float} for the active lanes; ``unswizzled`` None means no addition.
    Divergent quads (an inactive or missing lane) give +0.0."""
    out = {}
    for i in sorted(active):
        first = i - i % 4
        if not all(first + k in active and first + k < lanes for k in range(4)):
            out[i] = 0.0
            continue
        v = swizzled[first + QUAD_SOURCE[variant](i % 4)]
        if unswizzled is not None:
            v = v + unswizzled[i]  # operands are binary32 values: exact enough
            if single:
                v = struct.unpack("<f", struct.pack("<f", v))[0]
        out[i] = v
    return out


# --- seed 004: SURED ------------------------------------------------------------------

DIM_COORDS = {"1d": 1, "1d_buffer": 1, "1d_array": 2, "2d": 2, "2d_array": 3, "3d": 3}
SIZE_BYTES = {"u32": 4, "s32": 4, "sd32": 4, "f32": 4, "f16x2": 4, "u64": 8, "s64": 8,
              "sd64": 8}
ALLOWED = {"add": "u32 s32 sd32 u64 f32 f16x2", "min": "u32 s32 sd32 u64 s64 sd64 f16x2",
           "max": "u32 s32 sd32 u64 s64 sd64 f16x2", "inc": "u32", "dec": "u32",
           "and": "u32 s32 sd32 u64", "or": "u32 s32 sd32 u64", "xor": "u32 s32 sd32 u64"}


def _signed(v, bits):
    return v - (1 << bits) if v >> (bits - 1) else v


def _decode_float(x, exp_bits, man_bits):
    """A Fraction (or 'nan' / +-inf) from raw bits, subnormals flushed to zero."""
    sign = -1 if x >> (exp_bits + man_bits) else 1
    e = (x >> man_bits) & ((1 << exp_bits) - 1)
    m = x & ((1 << man_bits) - 1)
    if e == (1 << exp_bits) - 1:
        return "nan" if m else sign * math.inf
    if e == 0:
        return ("zero", sign)
    bias = (1 << (exp_bits - 1)) - 1
    return sign * Fraction((1 << man_bits) | m, 1 << man_bits) * Fraction(2) ** (e - bias)


def _encode_float(v, exp_bits, man_bits, qnan):
    """Round a Fraction to nearest even; flush subnormal results to signed zero."""
    sign_bit = 1 << (exp_bits + man_bits)
    if v == "nan":
        return qnan
    if isinstance(v, tuple):
        return sign_bit if v[1] < 0 else 0
    if v in (math.inf, -math.inf):
        return ((1 << exp_bits) - 1) << man_bits | (sign_bit if v < 0 else 0)
    if v == 0:
        return 0
    sign = sign_bit if v < 0 else 0
    a = abs(v)
    bias = (1 << (exp_bits - 1)) - 1
    e = math.floor(math.log2(a.numerator) - math.log2(a.denominator))
    while Fraction(2) ** e > a:
        e -= 1
    while Fraction(2) ** (e + 1) <= a:
        e += 1
    scaled = a / Fraction(2) ** e * (1 << man_bits)  # in [2**man, 2**(man+1))
    q, r = divmod(scaled.numerator, scaled.denominator)
    if 2 * r > scaled.denominator or (2 * r == scaled.denominator and q & 1):
        q += 1
    if q == 1 << (man_bits + 1):
        q >>= 1
        e += 1
    if e > bias:
        return ((1 << exp_bits) - 1) << man_bits | sign
    if e < 1 - bias:
        return sign  # flushed
    return sign | ((e + bias) << man_bits) | (q & ((1 << man_bits) - 1))


def _fadd(a, b, exp_bits, man_bits, qnan):
    x, y = _decode_float(a, exp_bits, man_bits), _decode_float(b, exp_bits, man_bits)
    if x == "nan" or y == "nan":
        return qnan
    if isinstance(x, tuple) and isinstance(y, tuple):  # zero + zero
        return _encode_float(("zero", -1 if x[1] < 0 and y[1] < 0 else 1), exp_bits,
                             man_bits, qnan)
    if isinstance(x, tuple):
        x = Fraction(0)
    if isinstance(y, tuple):
        y = Fraction(0)
    if isinstance(x, float) or isinstance(y, float):  # infinities
        if isinstance(x, float) and isinstance(y, float) and x != y:
            return qnan
        return _encode_float(x if isinstance(x, float) else y, exp_bits, man_bits, qnan)
    s = x + y
    if s == 0:
        return 0  # exact cancellation rounds to +0
    return _encode_float(s, exp_bits, man_bits, qnan)


def _fminmax(a, b, smaller):
    x, y = _decode_float(a, 5, 10), _decode_float(b, 5, 10)
    if x == "nan" and y == "nan":
        return 0x7E00
    if x == "nan":
        return b if not isinstance(y, tuple) else (b & 0x8000)
    if y == "nan":
        return a if not isinstance(x, tuple) else (a & 0x8000)

    def key(v, raw):
        if isinstance(v, tuple):
            return (Fraction(0), v[1] < 0 and -1 or 0)
        return (v, -1 if raw & 0x8000 and v == 0 else 0)
    ka, kb = key(x, a), key(y, b)
    pick = a if ((ka <= kb) == smaller) else b
    return pick & 0x8000 if (pick >> 10) & 0x1F == 0 else pick


def reduce_value(op, size, m, v):
    """The new memory value M for one lane (seed 004's operation table)."""
    bits = SIZE_BYTES[size] * 8
    mask = (1 << bits) - 1
    v &= mask
    signed = size in ("s32", "sd32", "s64", "sd64")
    if size == "f32" and op == "add":
        return _fadd(m, v, 8, 23, 0x7FC00000)
    if size == "f16x2":
        halves = []
        for sh in (16, 0):
            x, y = (m >> sh) & 0xFFFF, (v >> sh) & 0xFFFF
            if op == "add":
                halves.append(_fadd(x, y, 5, 10, 0x7E00))
            else:
                halves.append(_fminmax(x, y, op == "min"))
        return (halves[0] << 16) | halves[1]
    key = (lambda t: _signed(t, bits)) if signed else (lambda t: t)
    if op == "add":
        return (m + v) & mask
    if op == "min":
        return v if key(v) < key(m) else m
    if op == "max":
        return v if key(v) > key(m) else m
    if op == "inc":
        return 0 if m >= v else (m + 1) & mask
    if op == "dec":
        return v if (m == 0 or m > v) else m - 1
    return {"and": m & v, "or": m | v, "xor": m ^ v}[op]


class SurfaceFault(Exception):
    def __init__(self, lane):
        self.lane = lane


def sured(memory, op, size, dim, coords, operands, surfaces, active):
    """Apply SURED lane by lane to ``memory`` ({address: byte}); ``coords`` a list of
    per-lane tuples, ``surfaces`` per-lane descriptor dicts (base, pitch, slice,
    width, height, depth, esize, enabled, ba, clamp).  Raises SurfaceFault(lane) for
    the trap clamp and misaligned byte addresses, with earlier lanes applied."""
    nbytes = SIZE_BYTES[size]
    for lane in sorted(active):
        d = surfaces[lane]
        if not d["enabled"]:
            continue
        c = coords[lane]
        x = c[0] & 0xFFFFFFFF
        if not (dim == "1d_buffer" and d["clamp"] != "near"):
            x = _signed(x, 32)
        y = _signed(c[1] & 0xFFFFFFFF, 32) if dim in ("2d", "2d_array", "3d") else None
        if dim == "1d_array":
            layer = c[1] & 0xFFFF
        elif dim == "2d_array":
            layer = c[2] & 0xFFFF
        elif dim == "3d":
            layer = _signed(c[2] & 0xFFFFFFFF, 32)
        else:
            layer = None
        units = d["width"] * d["esize"] // nbytes
        if d["ba"]:
            if x % nbytes:
                raise SurfaceFault(lane)
            ux = x // nbytes if x >= 0 else -1
        else:
            ux = x
        checks = [(ux, units)]
        if y is not None:
            checks.append((y, d["height"]))
        if layer is not None:
            checks.append((layer, d["depth"]))
        inside = all(0 <= v < n for v, n in checks)
        if not inside:
            if d["clamp"] == "ign":
                continue
            if d["clamp"] == "trap":
                raise SurfaceFault(lane)
            if any(n == 0 for _v, n in checks):
                continue
            ux = min(max(ux, 0), units - 1)
            if y is not None:
                y = min(max(y, 0), d["height"] - 1)
            if layer is not None:
                layer = min(max(layer, 0), d["depth"] - 1)
        addr = d["base"] + (layer or 0) * d["slice"] + (y or 0) * d["pitch"] + ux * nbytes
        m = int.from_bytes(bytes(memory.get(addr + k, 0) for k in range(nbytes)), "little")
        r = reduce_value(op, size, m, operands[lane])
        for k in range(nbytes):
            memory[addr + k] = (r >> (8 * k)) & 0xFF
    return memory
