"""GPU vector-scope operations with SUBVL = 2, 3, 4 (issue 20, deliverable 1).

Seed 000 gives every GLSL shuffle ivec2..vec4 overloads and seed 002 gives
quadSwizzle*NV vec2..vec4 overloads and TGBALLOT, which "reads a vector operand"
and builds one bitmask per component (result.x from tmp.x, result.y from
tmp.y, ...).  So under ``/vecN`` lane i holds the N-element group starting at
element N*i, and each component is shuffled / swizzled / balloted on its own.
The operations the seeds define only on one value per thread (threadIdValid,
activeThreadsNV, gl_ThreadInWarpNV, the gl_Thread*MaskNV masks) and SURED (no
vector form) trap under SUBVL > 1.

The worked examples are derived by hand in the comments; the randomized test
compares with a separately written component-wise model built on
tests/gpu_reference.py (itself written from the seeds, not from the pages)."""
import struct

import pytest
from hypothesis import given, settings, strategies as st, HealthCheck

from isa_ext.isa import ISA
from isa_ext.sim import Simulator

import gpu_reference as ref


@pytest.fixture(scope="module")
def isa():
    return ISA()


ISA_ALL = ISA()


def run(isa, text, gpr=(), fpr=(), strict=True):
    sim = Simulator(isa, strict=strict)
    sim.load_asm(text)
    for n, v in dict(gpr).items():
        sim.state.gpr[n] = v
    for n, v in dict(fpr).items():
        sim.state.fpr[n] = v
    return sim, sim.run(max_steps=50)


def dbl(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def undbl(x):
    return struct.unpack("<d", struct.pack("<Q", x))[0]


# --- worked examples (issue 20) ------------------------------------------------------

def test_shuffle_down_vec2_is_component_wise(isa):
    # VL=4 lanes of ivec2: RA = r16.. = [10,11 | 12,13 | 14,15 | 16,17], so lane i
    # is (10+2i, 11+2i).  shuffleDownNV(data, 1, 4) (SEGW=2: width 4, one segment):
    # lane i reads lane i+1 while i+1 <= maxLane = 3; lane 3 is out of range and
    # keeps its own value (seed 000: "the value returned ... will come from the
    # current thread").  x: [12,14,16,16], y: [13,15,17,17], interleaved
    # [12,13, 14,15, 16,17, 16,17].
    sim, res = run(isa, "setvl 0,0,4,0,1,1\nsv.shfli.down/vec2 *r32,*r16,1,2",
                   gpr={16 + i: 10 + i for i in range(8)})
    assert res.stop == "end", res.trap
    assert sim.state.gpr[32:40] == [12, 13, 14, 15, 16, 17, 16, 17]


def test_ballot_vec4_gives_one_mask_per_component(isa):
    # VL=4 lanes of vec4, every lane holding (0, 1, 0, 1): seed 002's TGBALLOT
    # sets result.x bit t when [t]tmp.x != 0, and so on.  x and z are 0 in every
    # lane -> mask 0; y and w are non-zero in lanes 0..3 -> 0b1111.  Every lane's
    # result vector is (0, 0xF, 0, 0xF).
    sim, res = run(isa, "setvl 0,0,4,0,1,1\nsv.ballot/vec4 *r32,*r16",
                   gpr={16 + i: i % 2 for i in range(16)})
    assert res.stop == "end", res.trap
    assert sim.state.gpr[32:48] == [0, 0xF, 0, 0xF] * 4


def test_ballot_vec2_counts_only_active_lanes(isa):
    # VL=3 lanes of ivec2, mask r3 = 0b101 (lanes 0 and 2 active).  Lane data:
    # lane0 (5,0), lane1 (7,7), lane2 (0,9).  x: lane0 and lane1 non-zero, but
    # lane1 is inactive -> 0b001; y: lane1 (inactive) and lane2 -> 0b100.  Active
    # lanes 0 and 2 get (1, 4); inactive lane 1 keeps its old contents (0x55).
    sim, res = run(isa, "setvl 0,0,3,0,1,1\nsv.ballot/vec2/m=r3 *r32,*r16",
                   gpr={3: 0b101, 16: 5, 17: 0, 18: 7, 19: 7, 20: 0, 21: 9,
                        **{32 + k: 0x55 for k in range(6)}})
    assert res.stop == "end", res.trap
    assert sim.state.gpr[32:38] == [1, 4, 0x55, 0x55, 1, 4]


def test_quad_swizzle_x_vec2(isa):
    # One quad (VL=4) of vec2: lane0 (1,2), lane1 (3,4), lane2 (5,6), lane3 (7,8).
    # quadSwizzleXNV reads the horizontal neighbour (seed 002: X pairs 4N+0<->4N+1
    # and 4N+2<->4N+3): lane0 <- lane1 (3,4), lane1 <- lane0 (1,2), lane2 <- lane3
    # (7,8), lane3 <- lane2 (5,6): [3,4,1,2,7,8,5,6].
    sim, res = run(isa, "setvl 0,0,4,0,1,1\nsv.qswzx/vec2 *f32,*f16",
                   fpr={16 + i: dbl(1.0 + i) for i in range(8)})
    assert res.stop == "end", res.trap
    assert [undbl(v) for v in sim.state.fpr[32:40]] == [3, 4, 1, 2, 7, 8, 5, 6]


def test_quad_swizzle_0_add_vec3(isa):
    # quadSwizzle0NV(swizzled, unswizzled) over one quad of vec3: every lane reads
    # lane 0's (1,2,3) and adds its own unswizzled value (10*lane + k):
    # lane i, component k = (k+1) + 10*i + k.
    fpr = {16 + k: dbl(1.0 + k) for k in range(3)}
    fpr.update({16 + 3 * i + k: dbl(50.0) for i in range(1, 4) for k in range(3)})
    fpr.update({64 + 3 * i + k: dbl(10.0 * i + k) for i in range(4) for k in range(3)})
    sim, res = run(isa, "setvl 0,0,4,0,1,1\nsv.qswz0a/vec3 *f32,*f16,*f64", fpr=fpr)
    assert res.stop == "end", res.trap
    assert [undbl(v) for v in sim.state.fpr[32:44]] == \
        [k + 1 + 10 * i + k for i in range(4) for k in range(3)]


def test_divergent_quad_vec2_zeroes_every_component(isa):
    # Lane 3 inactive (mask 0b0111): the quad is divergent, its active lanes get
    # +0.0 in both components (seed 002 / errata 002-3); lane 3 keeps 9.0.
    sim, res = run(isa, "setvl 0,0,4,0,1,1\nsv.qswzy/vec2/m=r3 *f32,*f16",
                   gpr={3: 0b0111}, fpr={**{16 + i: dbl(1.0 + i) for i in range(8)},
                                         **{32 + i: dbl(9.0) for i in range(8)}})
    assert res.stop == "end", res.trap
    assert [undbl(v) for v in sim.state.fpr[32:40]] == [0, 0, 0, 0, 0, 0, 9, 9]


def test_shuffle_register_form_vec2_reads_b_per_component(isa):
    # shfl.idx with a vector RB under /vec2: b for component k of lane i is
    # element 2i+k of RB (the SVP64 sub-vector layout).  RB = (1,0) in every lane:
    # x reads lane 1's x (21), y reads lane 0's y (20 + 1 = ... see data).
    # Data lanes: lane0 (10,11), lane1 (20,21); RC = 0x01 (clamp 1, no segment
    # mask: maxLane 1).  x: j = 1 -> 20; y: j = 0 -> 11.
    sim, res = run(isa, "setvl 0,0,2,0,1,1\nsv.shfl.idx/vec2 *r32,*r16,*r40,r5",
                   gpr={16: 10, 17: 11, 18: 20, 19: 21, 40: 1, 41: 0, 42: 1, 43: 0,
                        5: 0x01})
    assert res.stop == "end", res.trap
    assert sim.state.gpr[32:36] == [20, 11, 20, 11]


def test_zeroing_clears_every_component_of_an_inactive_lane(isa):
    # /dz with lane 1 inactive: both of lane 1's components are zeroed; lanes 0
    # and 2 get shuffle-up-by-0 (their own values).
    sim, res = run(isa, "setvl 0,0,3,0,1,1\nsv.shfli.up/vec2/m=r3/dz *r32,*r16,0,2",
                   gpr={3: 0b101, **{16 + k: 100 + k for k in range(6)},
                        **{32 + k: 0x77 for k in range(6)}})
    assert res.stop == "end", res.trap
    assert sim.state.gpr[32:38] == [100, 101, 0, 0, 104, 105]


# --- combinations no seed defines: clear traps, nothing written ------------------------

UNDEFINED_UNDER_SUBVL = [
    ("sv.shflvi.down/vec2 *r32,1,2", "threadIdValid"),
    ("sv.shflv.idx/vec3 *r32,r5,r6", "threadIdValid"),
    ("sv.activemask/vec2 *r32", "one value per thread"),
    ("sv.laneid/vec4 *r32", "one value per thread"),
    ("sv.lanemasklt/vec2 *r32", "one value per thread"),
    ("sv.ballot/vec2 r32,*r16", "scalar RT cannot hold"),
    ("sv.sured.add.u32/vec2 *r32,*r64,r6,1d", "no vector form"),
]


@pytest.mark.parametrize("line,why", UNDEFINED_UNDER_SUBVL)
def test_undefined_subvl_combinations_trap_and_write_nothing(isa, line, why):
    before = {32 + k: 0x1234 + k for k in range(16)}
    sim, res = run(isa, "setvl 0,0,4,0,1,1\n" + line, gpr={**before, 16: 1, 17: 1})
    assert res.stop == "trap" and res.trap.kind == "illegal"
    assert res.trap.pc == 0x1004 and "SUBVL" in res.trap.reason and why in res.trap.reason
    assert all(sim.state.gpr[n] == v for n, v in before.items())


def test_page_without_components_traps_under_subvl(isa):
    # The engine's safety net: a page that reads LANE(X, i) (one value per lane)
    # cannot run under /vecN -- checked through the pseudocode library directly.
    from isa_ext.ext.gpu.vector_scope import Scope, Operand
    from isa_ext.errors import Trap
    scope = Scope(None, Simulator(isa).state, 0x1000, "sv.x", 2, 3,
                  {"RA": Operand("RA", "gpr", 16, True, 64, False)}, 0, subvl=2)
    with pytest.raises(Trap, match="SUBVL=2 is not defined"):
        scope.read("RA", 0)
    assert scope.read("RA", 1, 1) == 0


# --- a model-based random test over SUBVL ------------------------------------------

def split(values, n):
    """Component k of an interleaved sub-vector list: elements k, n+k, 2n+k..."""
    return [values[k::n] for k in range(n)]


def model_shuffle(mode, data, subvl, active, b, c):
    """Component-wise SHFL: each component is its own warp (gpu_reference.shfl)."""
    out = {}
    for k, comp in enumerate(split(data, subvl)):
        got, _valid, _undef = ref.shfl(mode, comp, active, split(b, subvl)[k],
                                       split(c, subvl)[k])
        for lane, v in got.items():
            out[lane * subvl + k] = v
    return out


SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(st.integers(2, 4), st.sampled_from(["idx", "up", "down", "bfly"]), st.booleans(),
       st.data())
def test_subvl_shuffle_matches_component_model(subvl, mode, imm, data):
    # register layout (128 GPRs): data r16.., results after it, b and c after that
    vl = data.draw(st.integers(1, 48 // subvl if imm else 24 // subvl))
    n = vl * subvl
    step = -(-n // 4) * 4  # vector registers at multiples of 4 (EXTRA2)
    src, dst, rb, rc = 16, 16 + step, 16 + 2 * step, 16 + 3 * step
    active = data.draw(st.integers(0, (1 << vl) - 1))
    lanes = {i for i in range(vl) if active >> i & 1}
    values = data.draw(st.lists(st.integers(0, (1 << 64) - 1), min_size=n, max_size=n))
    gpr = {10: active, **{src + k: v for k, v in enumerate(values)},
           **{dst + k: 0xEE for k in range(n)}}
    if imm:
        lb, seg = data.draw(st.integers(0, 31)), data.draw(st.integers(0, 6))
        b, c = [lb] * n, [ref.immediate_c(1 << seg)] * n
        text = f"sv.shfli.{mode}/vec{subvl}/m=r10/sz *r{dst},*r{src},{lb},{seg}"
    else:
        b = data.draw(st.lists(st.integers(0, 63), min_size=n, max_size=n))
        c = data.draw(st.lists(st.integers(0, 0x3FFF), min_size=n, max_size=n))
        text = f"sv.shfl.{mode}/vec{subvl}/m=r10/sz *r{dst},*r{src},*r{rb},*r{rc}"
        gpr.update({rb + k: v for k, v in enumerate(b)})
        gpr.update({rc + k: v for k, v in enumerate(c)})
    # /sz: an inactive lane's components read as 0
    seen = [v if i // subvl in lanes else 0 for i, v in enumerate(values)]
    want = model_shuffle(mode, seen, subvl, lanes, b, c)
    sim, res = run(ISA_ALL, f"setvl 0,0,{vl},0,1,1\n" + text, gpr=gpr)
    assert res.stop == "end", res.trap
    assert sim.state.gpr[dst:dst + n] == [want.get(e, 0xEE) for e in range(n)]


@SETTINGS
@given(st.integers(2, 4), st.integers(1, 12), st.data())
def test_subvl_ballot_matches_component_model(subvl, vl, data):
    n = vl * subvl
    active = data.draw(st.integers(0, (1 << vl) - 1))
    lanes = {i for i in range(vl) if active >> i & 1}
    values = data.draw(st.lists(st.sampled_from([0, 1, 1 << 63]), min_size=n, max_size=n))
    masks = [ref.ballot(comp, lanes) for comp in split(values, subvl)]
    sim, res = run(ISA_ALL, f"setvl 0,0,{vl},0,1,1\nsv.ballot/vec{subvl}/m=r10 *r64,*r16",
                   gpr={**{16 + k: v for k, v in enumerate(values)}, 10: active,
                        **{64 + k: 0xEE for k in range(n)}})
    assert res.stop == "end", res.trap
    for e in range(n):
        assert sim.state.gpr[64 + e] == (masks[e % subvl] if e // subvl in lanes else 0xEE)


@SETTINGS
@given(st.integers(2, 4), st.integers(1, 8), st.sampled_from("0123xy"),
       st.sampled_from(["", "a", "as"]), st.data())
def test_subvl_quad_swizzle_matches_component_model(subvl, vl, variant, kind, data):
    n = vl * subvl
    active = data.draw(st.integers(0, (1 << vl) - 1))
    lanes = {i for i in range(vl) if active >> i & 1}
    floats = st.one_of(st.integers(-64, 64).map(float), st.sampled_from([-0.0, 0.1, 1e30]))
    sw = data.draw(st.lists(floats, min_size=n, max_size=n))
    un = data.draw(st.lists(floats, min_size=n, max_size=n))
    want = {}
    for k in range(subvl):
        got = ref.quad_swizzle(variant, split(sw, subvl)[k],
                               split(un, subvl)[k] if kind else None, lanes, vl, kind == "as")
        for lane in lanes:
            want[lane * subvl + k] = got[lane]
    operands = "*f0,*f32" + (",*f64" if kind else "")
    sim, res = run(ISA_ALL, f"setvl 0,0,{vl},0,1,1\nsv.qswz{variant}{kind}/vec{subvl}/m=r10 "
                   f"{operands}", gpr={10: active},
                   fpr={**{32 + k: dbl(v) for k, v in enumerate(sw)},
                        **{64 + k: dbl(v) for k, v in enumerate(un)},
                        **{k: dbl(7.0) for k in range(n)}})
    assert res.stop == "end", res.trap
    for e in range(n):
        assert sim.state.fpr[e] == dbl(want.get(e, 7.0)), e


# --- one behaviour: plain, traced and interrupted runs agree ------------------------

@pytest.mark.parametrize("line", [
    "sv.shfli.down/vec2 *r32,*r16,1,2",
    "sv.ballot/vec4/m=r3 *r32,*r16",
    "sv.qswzxa/vec2/m=r3/dz *f32,*f16,*f16",
    "sv.shflvi.down/vec2 *r32,1,2",  # a trap, in every mode alike
])
def test_subvl_gpu_ops_one_behaviour(isa, line):
    from test_svp64_one_behaviour import all_modes
    init = {"gpr": {3: 0b1011, **{16 + k: k * 7 % 5 for k in range(16)}},
            "fpr": {16 + k: dbl(k / 4) for k in range(16)}}
    all_modes(isa, ["setvl 0,0,4,0,1,1", line], init)
