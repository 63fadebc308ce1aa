"""REMAP building blocks: the SVSHAPE0-3 SPRs and the element-index schedules.

SVSHAPE0-3 (SPRs 705-708) are 32-bit registers, laid out as libre-soc does
(MSB0 bit ranges of the 32-bit value)::

    0:5 xdimsz   6:11 ydimsz   12:17 zdimsz   18:20 permute (submode2)
    21:23 invxyz   24:27 offset   28:29 skip   30:31 mode

A dimension field holds its size minus one.  ``invxyz`` reads as a 3-bit
number whose bit 0 (LSB, MSB0 bit 23) inverts x, bit 1 y, bit 2 z.  ``mode``:
0 Matrix (permute 6/7: Indexed), 1 FFT/DCT, 2 parallel reduction/prefix-sum,
3 iDCT.  For the butterfly modes the ydimsz field selects the schedule kind.

A schedule is an iterator of ``(index, loopends)``: the element index for
step 0, 1, 2 ... and a 3-bit flag word (bit 0: innermost loop ended, bit 1:
the middle one too, bit 2: the whole schedule), which svstep's REMAP modes
report.  Matrix and butterfly schedules repeat for ever (the caller stops at
VL); reduction, prefix-sum and half-swap schedules are finite (a caller that
runs past the end must trap).  Everything here is pure:
the Indexed schedule reads GPR elements through a callback.

Reserved or undefined field combinations raise ``Trap`` with the reason, so an
engine that calls these generators traps cleanly.
"""
from ..records import record

from ..errors import Trap
from .bitfields import Layout
from . import svstate as sv

FIELDS = {
    "xdimsz": (0, 5), "ydimsz": (6, 11), "zdimsz": (12, 17), "permute": (18, 20),
    "invxyz": (21, 23), "offset": (24, 27), "skip": (28, 29), "mode": (30, 31),
}

# SPR numbers (openpower-isa isatables/sprs.csv)
SPR_NUMBERS = {"svshape0": 705, "svshape1": 706, "svshape2": 707, "svshape3": 708}

MODE_MATRIX, MODE_FFT, MODE_REDUCE, MODE_IDCT = 0, 1, 2, 3

# permute -> dimension order, least significant dimension first; 6 and 7 are
# Indexed mode (xy and yx) in Matrix mode
PERMUTATIONS = {0: (0, 1, 2), 1: (0, 2, 1), 2: (1, 0, 2), 3: (1, 2, 0), 4: (2, 0, 1),
                5: (2, 1, 0)}
INDEXED_PERMUTATIONS = {6: (0, 1, 2), 7: (1, 0, 2)}

# loopends flags
END_INNER, END_MIDDLE, END_ALL = 1, 2, 4

LAYOUT = Layout("SVSHAPE", 32, FIELDS)


get, put, decode = LAYOUT.get, LAYOUT.put, LAYOUT.decode
make = LAYOUT.make  # make(xdimsz=2, mode=1): raw field values


@record
class Shape:
    """The decoded meaning of an SVSHAPE value (sizes, not size-1)."""
    xdim: int
    ydim: int
    zdim: int
    permute: int
    invxyz: tuple       # (invert x, invert y, invert z)
    offset: int
    skip: int
    mode: int

    @classmethod
    def of(cls, value):
        f = decode(value)
        inv = f["invxyz"]
        return cls(f["xdimsz"] + 1, f["ydimsz"] + 1, f["zdimsz"] + 1, f["permute"],
                   (inv & 1, inv >> 1 & 1, inv >> 2 & 1), f["offset"], f["skip"], f["mode"])

    @property
    def is_indexed(self):
        return self.mode == MODE_MATRIX and self.permute in INDEXED_PERMUTATIONS

    @property
    def index_gpr(self):
        """Indexed mode: the first GPR holding the indices (zdimsz field, times 2)."""
        return (self.zdim - 1) << 1

    @property
    def index_width(self):
        """Indexed mode: bits per index element (skip field: 0=64 1=32 2=16 3=8)."""
        return 64 >> self.skip

    @property
    def kind(self):
        """The schedule this shape selects: matrix, indexed, fft, dct-inner,
        dct-outer, dct-costable, halfswap, reduce, prefix."""
        if self.mode == MODE_MATRIX:
            return "indexed" if self.is_indexed else "matrix"
        if self.mode == MODE_REDUCE:
            return "prefix" if self.skip & 0b10 else "reduce"
        kind = _BUTTERFLY_KINDS.get(self.ydim)
        if kind is None:
            raise Trap(f"SVSHAPE butterfly mode {self.mode} with ydimsz={self.ydim - 1} "
                       f"is reserved", "illegal")
        return kind


_BUTTERFLY_KINDS = {1: "fft", 2: "dct-inner", 4: "dct-inner", 3: "dct-outer",
                    5: "dct-costable", 13: "dct-costable", 6: "halfswap", 14: "halfswap",
                    15: "halfswap"}


def schedule(value, read_index=None, predicate=None):
    """The ``(index, loopends)`` schedule of SVSHAPE ``value``.

    ``read_index(gpr, element, width)`` returns the unsigned ``width``-bit
    element number ``element`` of the vector starting at GPR ``gpr`` (needed by
    Indexed shapes).  ``predicate`` (a sequence of booleans per element, or
    None for all enabled) steers the parallel-reduction schedule around
    masked-out elements.
    """
    shape = Shape.of(value)
    kind = shape.kind
    if kind == "indexed":
        if read_index is None:
            raise ValueError("an Indexed SVSHAPE needs a read_index callback")
        return _indexed(shape, read_index)
    if kind == "reduce":
        return _reduce(shape, predicate)
    if kind == "prefix":
        return _prefix_sum(shape, predicate)
    return _GENERATORS[kind](shape)


# The five REMAP operand slots, in SVme bit order (LSB first) with the SVSTATE
# field naming each slot's SVSHAPE: RA, RB, RC (sources, stepped by srcstep),
# RT and EA/FRS (stepped by dststep)
SLOTS = (("in1", "mi0"), ("in2", "mi1"), ("in3", "mi2"), ("out1", "mo0"), ("out2", "mo1"))
SOURCE_SLOTS = ("in1", "in2", "in3")


def operand_shapes(svstate, shapes):
    """{slot: SVSHAPE value} for the slots SVSTATE's SVme enables.

    ``svstate`` is the SVSTATE value, ``shapes`` the four SVSHAPE values.
    Slots whose SVme bit is clear are absent (no REMAP for that operand).
    """
    enabled = sv.get(svstate, "SVme")
    return {slot: shapes[sv.get(svstate, field)]
            for bit, (slot, field) in enumerate(SLOTS) if enabled >> bit & 1}


def index_at(value, step, read_index=None, predicate=None):
    """``(index, loopends)`` at ``step`` of the schedule (a fresh schedule each
    call, as libre-soc's simulator takes it).  Stepping past the end of a
    finite schedule traps."""
    for position, pair in enumerate(schedule(value, read_index, predicate)):
        if position == step:
            return pair
    raise Trap(f"REMAP step {step} is past the end of the {Shape.of(value).kind} "
               f"schedule", "illegal")


def indices(value, count, read_index=None, predicate=None):
    """The first ``count`` element indices (fewer if the schedule is finite)."""
    out = []
    for index, _ in schedule(value, read_index, predicate):
        if len(out) == count:
            break
        out.append(index)
    return out


def register_reader(regs):
    """A ``read_index`` callback over a register list (``State.gpr``): element
    ``element`` of ``width`` bits of the vector starting at register ``gpr``,
    elements packed little-endian across consecutive 64-bit registers."""
    def read_index(gpr, element, width):
        per_reg = 64 // width
        reg = gpr + element // per_reg
        if reg >= len(regs):
            raise Trap(f"REMAP Indexed: index element {element} lies past the last "
                       f"register (vector at GPR {gpr})", "illegal")
        return regs[reg] >> (element % per_reg * width) & ((1 << width) - 1)
    return read_index


# -- Matrix and Indexed ---------------------------------------------------------

def _matrix_coords(shape, lims):
    """One pass over (x, y, z) with x innermost, each dimension possibly reversed,
    plus the loop-end flags of that step."""
    ranges = []
    for size, inverted in zip(lims, shape.invxyz):
        r = list(range(size))
        ranges.append(r[::-1] if inverted else r)
    xs, ys, zs = ranges
    for z in zs:
        for y in ys:
            for x in xs:
                x_end, y_end, z_end = x == xs[-1], y == ys[-1], z == zs[-1]
                ends = x_end | (x_end and y_end) << 1 | (x_end and y_end and z_end) << 2
                yield (x, y, z), ends


def _linear(coords, lims, order, skip):
    """Weight the coordinates in ``order`` (least significant first); a dimension
    at position skip-1 of the order contributes nothing (and no size)."""
    result, mult = 0, 1
    for pos, dim in enumerate(order):
        if skip == pos + 1:
            continue
        result += coords[dim] * mult
        mult *= lims[dim]
    return result


def _matrix(shape):
    lims = (shape.xdim, shape.ydim, shape.zdim)
    order = PERMUTATIONS.get(shape.permute)
    while True:
        for coords, ends in _matrix_coords(shape, lims):
            yield _linear(coords, lims, order, shape.skip) + shape.offset, ends


def _indexed(shape, read_index):
    # no z dimension; invxyz bit 2 is "skip the first dimension" instead, and
    # the skip field is the index element width
    lims = (shape.xdim, shape.ydim, 1)
    inv = (shape.invxyz[0], shape.invxyz[1], 0)
    view = Shape(shape.xdim, shape.ydim, 1, shape.permute, inv, shape.offset, 0, shape.mode)
    order = INDEXED_PERMUTATIONS[shape.permute]
    skip = shape.invxyz[2]
    only_indexing = shape.xdim == 1 and shape.ydim == 1
    step = 0
    while True:
        for coords, ends in _matrix_coords(view, lims):
            element = step if only_indexing else _linear(coords, lims, order, skip)
            yield read_index(shape.index_gpr, element, shape.index_width) + shape.offset, ends
            step += 1


# -- FFT and DCT butterflies ------------------------------------------------------

def _sizes_up(n):
    """Butterfly sizes 2, 4, ... n."""
    out, size = [], 2
    while size <= n:
        out.append(size)
        size *= 2
    return out


def _bit_reverse(value, width):
    out = 0
    for _ in range(width):
        out = out << 1 | value & 1
        value >>= 1
    return out


def _half_reversed(n, pre_reversed):
    """The half-swap permutation of 0..n-1: element i comes from i ^ (i >> 1)
    (Gray code) when ``pre_reversed``, else from its inverse (XOR of every
    right shift of i)."""
    out = []
    for i in range(n):
        if pre_reversed:
            out.append(i ^ (i >> 1))
        else:
            src = i
            for shift in range(1, i.bit_length()):
                src ^= i >> shift
            out.append(src)
    return out


def _in_x_order(shape, sizes):
    """Butterfly sizes in the order the x dimension runs: inverted x (invxyz
    bit 0) runs them largest first."""
    return sizes[::-1] if shape.invxyz[0] else sizes


def _ends(inner, middle, outer):
    return inner | (middle and inner) << 1 | (middle and outer and inner) << 2


def _fft(shape):
    n, stride = shape.xdim, shape.zdim
    sizes = _in_x_order(shape, _sizes_up(n))
    if not sizes:
        return
    if shape.skip == 0b11:
        raise Trap("SVSHAPE FFT butterfly with skip=0b11 is not defined", "illegal")
    while True:
        for size in sizes:
            half, table_step = size // 2, n // size
            starts = list(range(0, n, size))
            if shape.invxyz[1]:
                starts.reverse()
            for i in starts:
                js = list(range(i, i + half))
                ks = [table_step * c for c in range(half)]
                if shape.invxyz[2]:
                    js.reverse()
                    ks.reverse()
                for j, k in zip(js, ks):
                    # skip picks the operand: 0 vec[j], 1 vec[j+half], 2 exptable[k]
                    result = (j, j + half, k)[shape.skip]
                    ends = _ends(j == js[-1], i == starts[-1], size == sizes[-1])
                    yield result * stride + shape.offset, ends


def _dct_inner(shape):
    n, kind, stride = shape.xdim, shape.ydim, shape.zdim
    submode, skip = shape.permute, shape.skip
    sizes = _in_x_order(shape, _sizes_up(n))
    if not sizes:
        return
    if kind == 4 and skip == 0b11:
        raise Trap("SVSHAPE DCT inner butterfly (mode 4) with skip=0b11 is not defined",
                   "illegal")
    levels = n.bit_length() - 1
    bitrev = [_bit_reverse(i, levels) for i in range(n)] if submode == 0b001 \
        else list(range(n))
    # the half-swapped order, updated in place after each group (and carried
    # on into the next repetition of the schedule, as libre-soc's does)
    if submode == 0b001:
        swap = _half_reversed(n, True)
    elif submode == 0b011:
        swap = _half_reversed(n, False)
    else:
        swap = list(range(n))
    idct = submode == 0b011
    while True:
        k_start = 0
        for size in sizes:
            half = size // 2
            starts = list(range(0, n, size))
            if shape.invxyz[1]:
                starts.reverse()
            for i in starts:
                lows = list(range(i, i + half))
                highs = list(range(i + size - 1, i + half - 1, -1))
                if shape.invxyz[2]:
                    lows.reverse()
                    highs.reverse()
                k = k_start
                for c, (lo, hi) in enumerate(zip(lows, highs)):
                    if skip == 0b00:
                        result = swap[bitrev[lo]] if idct else bitrev[swap[lo]]
                    elif skip == 0b01:
                        result = swap[bitrev[lo + half]] if idct else bitrev[swap[hi]]
                    elif kind == 4:
                        result = k          # COS table offset
                    else:
                        result = c if skip == 0b10 else size
                    ends = _ends(lo == lows[-1], i == starts[-1], size == sizes[-1])
                    yield result * stride + shape.offset, ends
                    k += 1
                for lo, hi in list(zip(lows, highs))[:half // 2]:
                    swap[lo + half], swap[hi] = swap[hi], swap[lo + half]
            k_start += half


def _dct_outer(shape):
    n, stride = shape.xdim, shape.zdim
    submode, skip = shape.permute, shape.skip
    sizes = []
    size = n // 2
    while size >= 2:
        sizes.append(size)
        size //= 2
    sizes = _in_x_order(shape, sizes)
    if not sizes:
        return
    levels = n.bit_length() - 1
    bitrev = [_bit_reverse(i, levels) for i in range(n)] if submode in (0b001, 0b011) \
        else list(range(n))
    swap = _half_reversed(n, False) if submode == 0b011 else list(range(n))
    idct = submode == 0b011
    while True:
        for size in sizes:
            half = size // 2
            starts = list(range(half))
            if shape.invxyz[1]:
                starts.reverse()
            for i in starts:
                his = list(range(i + half, i + n - half, size))
                if shape.invxyz[2]:
                    his.reverse()
                for c, hi in enumerate(his):
                    if skip in (0b00, 0b01):
                        j = hi if skip == 0b00 else hi + size
                        result = swap[bitrev[j]] if idct else bitrev[swap[j]]
                    else:
                        result = c if skip == 0b10 else size    # coefficient helpers
                    ends = _ends(hi == his[-1], i == starts[-1], size == sizes[-1])
                    yield result * stride + shape.offset, ends


def _dct_costable(shape):
    n, stride = shape.xdim, shape.zdim
    sizes = _in_x_order(shape, _sizes_up(n))
    if not sizes:
        return
    if shape.skip == 0b01:
        raise Trap("SVSHAPE DCT COS-table schedule with skip=0b01 is not defined", "illegal")
    if shape.invxyz[2]:
        raise Trap("SVSHAPE DCT COS-table schedule with z inverted is not defined",
                   "illegal")
    k = 0
    while True:
        for size in sizes:
            half = size // 2
            for c in range(half):
                # only two loops: the inner-loop flag is always set
                result = (k, None, c, size)[shape.skip]
                ends = _ends(True, c == half - 1, size == sizes[-1])
                yield result * stride + shape.offset, ends
                k += 1


def _halfswap(shape):
    n, stride = shape.xdim, shape.zdim
    if n & (n - 1):
        # a bit reversal or Gray-code swap of 0..n-1 is a permutation only at
        # a power of two (openpower-isa's halfrev2 indexes past the vector)
        raise Trap(f"SVSHAPE bit-reversed/half-swap schedule over {n} elements is not "
                   "defined (x dimension not a power of two)", "illegal")
    levels = n.bit_length() - 1
    bitrev = [_bit_reverse(i, levels) for i in range(n)]
    if shape.mode == MODE_FFT:
        order = bitrev                                   # FFT: bit-reversal only
    elif shape.permute == 0b001:
        rev = _half_reversed(n, True)
        order = [bitrev[rev[i]] for i in range(n)]
    else:
        swap = _half_reversed(n, False)
        order = [swap[bitrev[i]] for i in range(n)]
    if shape.invxyz[0]:
        order.reverse()
    # one pass (a load/store reordering, not a loop), and no offset
    for j in order:
        yield j * stride, (0b111 if j == order[-1] else 0)


# -- parallel reduction and prefix sum --------------------------------------------

def _enabled(predicate, i):
    return predicate is None or bool(predicate[i])


def _reduce(shape, predicate):
    n = shape.xdim
    if shape.skip not in (0b00, 0b01):
        raise Trap(f"SVSHAPE reduction with skip={shape.skip} is not defined", "illegal")
    live = list(range(n))
    if shape.invxyz[0]:
        live.reverse()
    steps, step = [], 1
    while step < n:
        step *= 2
        steps.append(step)
    if shape.invxyz[1]:
        steps.reverse()
    for step in steps:
        last_step = step == steps[-1]
        results = []
        for i in range(0, n, step):
            other = i + step // 2
            mine = live[i]
            theirs = live[other] if other < n else None
            theirs_on = other < n and _enabled(predicate, theirs)
            if _enabled(predicate, mine) and theirs_on:
                results.append([(mine, theirs)[shape.skip] + shape.offset, 0])
            elif theirs_on:
                live[i] = theirs        # masked-out slot: carry the other one up
        if results:
            results[-1][1] = last_step << 1 | END_INNER
        yield from (tuple(r) for r in results)


def _prefix_sum(shape, predicate):
    n = shape.xdim
    order = list(range(n))
    if shape.invxyz[0]:
        order.reverse()
    if shape.permute != 0 or shape.invxyz[1] or shape.invxyz[2]:
        raise Trap("SVSHAPE prefix-sum with a permutation or y/z inversion is not defined",
                   "illegal")
    if predicate is not None and not all(predicate[i] for i in order):
        raise Trap("SVSHAPE prefix-sum under a predicate with masked-out elements is not "
                   "defined", "illegal")
    right = shape.skip & 1      # 0: left operand (i - dist), 1: right operand (i)
    results = []

    def sweep(start, stride, dist):
        for i in reversed(range(start, n, stride)):
            results.append([order[i if right else i - dist] + shape.offset, 0])
        if results:
            results[-1][1] |= END_INNER

    dist = 1
    while dist < n:         # up-sweep
        sweep(dist * 2 - 1, dist * 2, dist)
        dist <<= 1
    if results:
        results[-1][1] |= END_MIDDLE
    dist >>= 1
    while dist >= 1:        # down-sweep
        sweep(dist * 3 - 1, dist * 2, dist)
        dist >>= 1
    if results:
        results[-1][1] = END_INNER | END_MIDDLE | END_ALL
    yield from (tuple(r) for r in results)


_GENERATORS = {"matrix": _matrix, "fft": _fft, "dct-inner": _dct_inner,
               "dct-outer": _dct_outer, "dct-costable": _dct_costable,
               "halfswap": _halfswap}
