"""Randomized comparison of the simulator with tests/gpu_reference.py (hypothesis):
every shuffle mode and form, element width, predicate mask and VL; ballot and the
lane masks; quad swizzles; surface reductions over every legal operation/size,
dimension, clamp mode and addressing."""
import struct

from hypothesis import given, settings, strategies as st, HealthCheck

from isa_ext.isa import ISA
from isa_ext.sim import Simulator

import gpu_reference as ref

ISA_ALL = ISA()
SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
MODES = ["idx", "up", "down", "bfly"]


def simulate(text, gpr=(), fpr=(), memory=()):
    sim = Simulator(ISA_ALL, strict=False)
    sim.load_asm(text)
    for n, v in gpr:
        sim.state.gpr[n] = v
    for n, v in fpr:
        sim.state.fpr[n] = v
    for addr, data in memory:
        sim.state.mem.load(addr, data)
    return sim, sim.run(max_steps=50)


def elements(regs, base, count, width):
    out = []
    for k in range(count):
        bit = k * width
        out.append((regs[base + bit // 64] >> (bit % 64)) & ((1 << width) - 1))
    return out


def packed(values, base, width):
    regs = {}
    for k, v in enumerate(values):
        bit = k * width
        r = base + bit // 64
        regs[r] = regs.get(r, 0) | (v << (bit % 64))
    return list(regs.items())


@st.composite
def shuffle_case(draw):
    vl = draw(st.integers(1, 64))
    width = 32 if vl > 24 else draw(st.sampled_from([32, 64]))
    fp = width == 64 and draw(st.booleans())
    form = draw(st.sampled_from(["reg-scalar", "reg-vector", "imm", "imm-sc"]) if vl <= 12
                else st.sampled_from(["reg-scalar", "imm", "imm-sc"]))
    active = draw(st.integers(0, (1 << vl) - 1))
    data = draw(st.lists(st.integers(0, (1 << width) - 1), min_size=vl, max_size=vl))
    if form == "imm":
        b = [draw(st.integers(0, 31))] * vl
        seg = draw(st.integers(0, 6))
        c = [ref.immediate_c(1 << seg)] * vl
    elif form == "imm-sc":  # the 13/14-bit Sc in the prefix (errata 003-2)
        b = [draw(st.integers(0, 31))] * vl
        c = [draw(st.integers(0, 0x3FFF))] * vl
        seg = None
    elif form == "reg-scalar":
        b = [draw(st.integers(0, 127))] * vl
        c = [draw(st.integers(0, 0x3FFF))] * vl
        seg = None
    else:
        b = draw(st.lists(st.integers(0, 127), min_size=vl, max_size=vl))
        c = draw(st.lists(st.integers(0, 0x3FFF), min_size=vl, max_size=vl))
        seg = None
    return vl, width, fp, form, active, data, b, c, seg, draw(st.sampled_from(MODES))


@SETTINGS
@given(shuffle_case())
def test_shuffle_matches_reference(case):
    vl, width, fp, form, active, data, b, c, seg, mode = case
    lanes = {i for i in range(vl) if active >> i & 1}
    want, want_valid, undefined = ref.shfl(mode, data, lanes, b, c)
    w = "" if width == 64 else "/w=32"
    t, a = ("*f32", "*f64") if fp else ("*r32", "*r64")
    op = ("f" if fp else "") + ("shfli" if form.startswith("imm") else "shfl")
    if form == "imm-sc":
        text = f"sv.{op}.{mode}/m=r10{w} {t},{a},{b[0]},#{c[0]:#x}\n" \
               f"sv.shflvi.{mode}/m=r10 r3,{b[0]},#{c[0]}"
        gpr = []
    elif form == "imm":
        text = f"sv.{op}.{mode}/m=r10{w} {t},{a},{b[0]},{seg}\n" \
               f"sv.shflvi.{mode}/m=r10 r3,{b[0]},{seg}"
        gpr = []
    elif form == "reg-scalar":
        text = f"sv.{op}.{mode}/m=r10{w} {t},{a},r5,r6\nsv.shflv.{mode}/m=r10{w} r3,r5,r6"
        gpr = [(5, b[0]), (6, c[0])]
    else:
        text = f"sv.{op}.{mode}/m=r10{w} {t},{a},*r12,*r100\n" \
               f"sv.shflv.{mode}/m=r10{w} r3,*r12,*r100"
        gpr = packed(b, 12, width) + packed(c, 100, width)
    old = [0x5A5A5A5A5A5A5A5A & ((1 << width) - 1)] * vl
    regs = packed(data, 64, width) + packed(old, 32, width)
    sim, res = simulate(f"setvl 0,0,{vl},0,1,1\n" + text,
                        gpr=gpr + [(10, active)] + ([] if fp else regs),
                        fpr=regs if fp else [])
    assert res.stop == "end", res.trap
    got = elements(sim.state.fpr if fp else sim.state.gpr, 32, vl, width)
    assert got == [want.get(i, old[i]) for i in range(vl)]
    # the validity mask is 64 bits; at ELWIDTH 32 r3 receives its low half
    assert sim.state.gpr[3] & ((1 << width) - 1) == want_valid & ((1 << width) - 1)
    reads = [d for d in sim.diagnostics if d.kind == "inactive-lane-read"]
    assert len(reads) == len(undefined)


@SETTINGS
@given(st.integers(1, 64), st.data())
def test_ballot_activemask_and_lane_masks(vl, data):
    active = data.draw(st.integers(0, (1 << vl) - 1))
    values = data.draw(st.lists(st.sampled_from([0, 1, 1 << 63, 12345]), min_size=vl,
                                max_size=vl))
    lanes = {i for i in range(vl) if active >> i & 1}
    sim, res = simulate(f"setvl 0,0,{vl},0,1,1\nsv.ballot/m=r10 r3,*r64\n"
                        f"sv.activemask/m=r10 r4",
                        gpr=[(10, active)] + [(64 + k, v) for k, v in enumerate(values)])
    assert res.stop == "end", res.trap
    if lanes:
        assert sim.state.gpr[3] == ref.ballot(values, lanes)
        assert sim.state.gpr[4] == active
    kind = data.draw(st.sampled_from(["eq", "ge", "gt", "le", "lt", "id"]))
    op = "laneid" if kind == "id" else "lanemask" + kind
    sim, res = simulate(f"setvl 0,0,{vl},0,1,1\nsv.{op}/m=r10 *r0",
                        gpr=[(10, active)] + [(k, 0xDEAD) for k in range(64) if k != 10])
    assert res.stop == "end", res.trap
    for i in range(vl):
        if i == 10:
            continue
        want = (i if kind == "id" else ref.lane_masks(i, vl)[kind]) if i in lanes else 0xDEAD
        assert sim.state.gpr[i] == want


SINGLES = st.one_of(st.integers(-64, 64).map(float), st.sampled_from([-0.0, 0.1, 1e30, -3.75]),
                    st.floats(width=32, allow_nan=False, allow_infinity=False))


@SETTINGS
@given(st.integers(1, 32), st.sampled_from("0123xy"), st.sampled_from(["", "a", "as"]),
       st.data())
def test_quad_swizzle_matches_reference(vl, variant, kind, data):
    active = data.draw(st.integers(0, (1 << vl) - 1))
    sw = data.draw(st.lists(SINGLES, min_size=vl, max_size=vl))
    un = data.draw(st.lists(SINGLES, min_size=vl, max_size=vl))
    lanes = {i for i in range(vl) if active >> i & 1}
    want = ref.quad_swizzle(variant, sw, un if kind else None, lanes, vl, kind == "as")
    bits = lambda x: struct.unpack("<Q", struct.pack("<d", x))[0]
    operands = "*f0,*f64" + (",*f96" if kind else "")
    sim, res = simulate(f"setvl 0,0,{vl},0,1,1\nsv.qswz{variant}{kind}/m=r10 {operands}",
                        gpr=[(10, active)],
                        fpr=[(64 + k, bits(v)) for k, v in enumerate(sw)]
                        + [(96 + k, bits(v)) for k, v in enumerate(un)]
                        + [(k, bits(7.0)) for k in range(vl)])
    assert res.stop == "end", res.trap
    for i in range(vl):
        assert sim.state.fpr[i] == (bits(want[i]) if i in lanes else bits(7.0))


# --- SURED ------------------------------------------------------------------------------

LEGAL = [(op, sz) for op, sizes in ref.ALLOWED.items() for sz in sizes.split()]
# descriptor clamp codes (pseudocode/gpu/surface.mdwn): 0 is near, seed 004's default
CLAMPS = {"near": 0, "ign": 1, "trap": 2}
BASE = 0x20000
DESC = 0x1F000


@SETTINGS
@given(st.sampled_from(LEGAL), st.sampled_from(list(ref.DIM_COORDS)),
       st.sampled_from(list(CLAMPS)), st.booleans(), st.integers(1, 8), st.data())
def test_sured_matches_reference(opsz, dim, clamp, ba, vl, data):
    op, size = opsz
    nbytes = ref.SIZE_BYTES[size]
    esize = data.draw(st.sampled_from([nbytes, 2 * nbytes]))
    width, height, depth = (data.draw(st.integers(0, 5)) for _ in range(3))
    enabled = data.draw(st.sampled_from([True, True, True, False]))
    pitch = width * esize + data.draw(st.sampled_from([0, 8]))
    slice_pitch = pitch * max(height, 1) + 16
    desc = dict(base=BASE, pitch=pitch, slice=slice_pitch, width=width, height=height,
                depth=depth, esize=esize, enabled=enabled, ba=ba, clamp=clamp)
    raw = (BASE.to_bytes(8, "little") + pitch.to_bytes(4, "little")
           + slice_pitch.to_bytes(4, "little") + width.to_bytes(4, "little")
           + height.to_bytes(4, "little") + depth.to_bytes(4, "little")
           + bytes([esize, int(enabled) | int(ba) << 1 | CLAMPS[clamp] << 2, 0, 0]))
    n = ref.DIM_COORDS[dim]
    scale = nbytes if ba else 1
    coord = st.one_of(st.integers(-2, 6).map(lambda v: (v * scale) & 0xFFFFFFFF),
                      st.integers(0, 0xFFFFFFFF))
    coords = [tuple(data.draw(coord) for _ in range(n)) for _ in range(vl)]
    operands = data.draw(st.lists(st.integers(0, (1 << 64) - 1), min_size=vl, max_size=vl))
    active = data.draw(st.integers(0, (1 << vl) - 1))
    size_bytes = 6 * slice_pitch
    image = bytes(data.draw(st.lists(st.integers(0, 255), min_size=size_bytes,
                                     max_size=size_bytes)))
    memory = {BASE + k: v for k, v in enumerate(image)}
    lanes = {i for i in range(vl) if active >> i & 1}
    fault = None
    try:
        ref.sured(memory, op, size, dim, coords, operands, [desc] * vl, lanes)
    except ref.SurfaceFault as f:
        fault = f.lane
    coord_regs = [(32 + n * i + k, coords[i][k]) for i in range(vl) for k in range(n)]
    sim, res = simulate(f"setvl 0,0,{vl},0,1,1\nsv.sured.{op}.{size}/m=r10 *r32,*r64,r6,{dim}",
                        gpr=[(10, active), (6, DESC)] + coord_regs
                        + [(64 + i, v) for i, v in enumerate(operands)],
                        memory=[(DESC, raw), (BASE, image)])
    got = sim.state.mem.read_bytes(BASE, size_bytes)
    assert bytes(got) == bytes(memory[BASE + k] for k in range(size_bytes))
    if fault is None:
        assert res.stop == "end", res.trap
    else:
        assert res.stop == "trap" and f"lane {fault}:" in res.trap.reason


@SETTINGS
@given(st.sampled_from(["shuffleNV", "shuffleUpNV", "shuffleDownNV", "shuffleXorNV"]),
       st.integers(0, 63), st.sampled_from([2, 4, 8, 16, 32]), st.data())
def test_glsl_aliases_match_the_glsl_rules(kind, index, width, data):
    vl = width * data.draw(st.integers(1, 64 // width))
    values = data.draw(st.lists(st.integers(0, (1 << 64) - 1), min_size=vl, max_size=vl))
    want, want_valid = ref.glsl_shuffle(kind, values, index, width)
    valid_alias = kind.replace("NV", "ValidNV")
    sim, res = simulate(f"setvl 0,0,{vl},0,1,1\nsv.{kind} *r64,*r0,{index},{width}\n"
                        f"sv.{valid_alias} r63,{index},{width}",
                        gpr=list(enumerate(values)))
    assert res.stop == "end", res.trap
    assert sim.state.gpr[64:64 + vl] == want
    assert [(sim.state.gpr[63] >> i) & 1 for i in range(vl)] == want_valid
