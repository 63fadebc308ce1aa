"""The seeds' GPU identity and geometry (issue 20, deliverable 2): seed 002's
gl_WarpIDNV, gl_SMIDNV, gl_HelperThreadNV, gl_WarpSizeNV, gl_WarpsPerSMNV and
gl_SMCountNV as a machine configuration (isa_ext/ext/gpu/identity.py:
``Simulator(gpu=...)``, ``isa-ext run --gpu``) read by the thread-group
instructions warpid, smid, helperthread, warpsize, warpspersm, smcount
(pseudocode/gpu/threadgroup.mdwn), and seed 004's SURED rules that depend on
it or on the seed's defaults (.U32*, .NEAR*).

Expected values come from the seed text:
* 002: "gl_WarpIDNV ... in the range 0 to gl_WarpsPerSMNV-1", "gl_SMIDNV ...
  in the range 0 to gl_SMCountNV-1", "gl_WarpSizeNV is the total number of
  thread in a warp" (here: VL), fragment.helperthread "equal to -1 when the
  current thread is a helper thread and 0 otherwise";
* 004: "When used in a pixel shader by helper pixels ... SURED automatically
  turned into NOP for that thread", ".sz {.U32*, ...}", ".clamp {.IGN, .NEAR*,
  .TRAP}" (the * marks the default).
"""
import pytest

from isa_ext.asm import assemble
from isa_ext.cli import main
from isa_ext.errors import IsaExtError
from isa_ext.ext.gpu.identity import GpuIdentity
from isa_ext.isa import ISA
from isa_ext.sim import Simulator

from test_gpu import DESC_AT, SURF, descriptor, word_at

M64 = (1 << 64) - 1
GEOMETRY = dict(warp_id=3, sm_id=5, warps_per_sm=48, sm_count=16, helper_lanes=0b0110)


@pytest.fixture(scope="module")
def isa():
    return ISA()


def run(isa, text, gpu=None, gpr=None, memory=None, trace=False):
    sim = Simulator(isa, gpu=gpu)
    sim.load_asm(text)
    for n, v in (gpr or {}).items():
        sim.state.gpr[n] = v
    for addr, data in (memory or {}).items():
        sim.state.mem.load(addr, data)
    return sim, sim.run(max_steps=100, trace=trace)


@pytest.mark.parametrize("trace", [False, True])
def test_every_active_lane_reads_the_configured_identity(isa, trace):
    # 4 lanes, lanes 0..3; r10 = 0b1011 makes lane 2 inactive (not written)
    sim, res = run(isa, """
        setvl 0,0,4,0,1,1
        sv.warpid/m=r10 *r16
        sv.smid/m=r10 *r20
        sv.warpspersm/m=r10 *r24
        sv.smcount/m=r10 *r28
        sv.warpsize/m=r10 *r32
    """, gpu=GEOMETRY, gpr={10: 0b1011, 18: 77, 22: 77, 26: 77, 30: 77, 34: 77},
        trace=trace)
    assert res.stop == "end", res.trap
    g = sim.state.gpr
    assert g[16:20] == [3, 3, 77, 3]      # gl_WarpIDNV
    assert g[20:24] == [5, 5, 77, 5]      # gl_SMIDNV
    assert g[24:28] == [48, 48, 77, 48]   # gl_WarpsPerSMNV
    assert g[28:32] == [16, 16, 77, 16]   # gl_SMCountNV
    assert g[32:36] == [4, 4, 77, 4]      # gl_WarpSizeNV = VL


def test_helper_thread_flag_is_minus_one_or_zero_per_lane(isa):
    # helper_lanes 0b0110: lanes 1 and 2 are helper threads -> -1; lanes 0, 3 -> 0
    sim, res = run(isa, "setvl 0,0,4,0,1,1\nsv.helperthread *r8\n", gpu=GEOMETRY,
                   gpr={8: 5, 9: 5, 10: 5, 11: 5})
    assert res.stop == "end", res.trap
    assert sim.state.gpr[8:12] == [0, M64, M64, 0]


def test_the_default_machine(isa):
    # no configuration: one SM with one warp, warp 0 on SM 0, no helper threads;
    # unprefixed, each instruction is a one-lane warp (warp size 1)
    sim, res = run(isa, "warpid r3\nsmid r4\nwarpspersm r5\nsmcount r6\nwarpsize r7\n"
                        "helperthread r8\n", gpr={3: 9, 4: 9, 5: 9, 6: 9, 7: 9, 8: 9})
    assert res.stop == "end", res.trap
    assert sim.state.gpr[3:9] == [0, 0, 1, 1, 1, 0]


@pytest.mark.parametrize("mnemonic", ["warpid", "smid", "helperthread", "warpsize",
                                      "warpspersm", "smcount"])
def test_one_value_per_thread_has_no_sub_vector_form(isa, mnemonic):
    sim, res = run(isa, f"setvl 0,0,2,0,1,1\nsv.{mnemonic}/vec2 *r8\n", gpu=GEOMETRY,
                   gpr={8: 1, 9: 1, 10: 1, 11: 1})
    assert res.stop == "trap" and res.trap.kind == "illegal"
    assert "one value per thread" in res.trap.reason
    assert sim.state.gpr[8:12] == [1, 1, 1, 1]


@pytest.mark.parametrize("kw,why", [
    (dict(warp_id=48, warps_per_sm=48), "warp_id=48 is outside 0 .. warps_per_sm-1 = 47"),
    (dict(sm_id=16, sm_count=16), "sm_id=16 is outside 0 .. sm_count-1 = 15"),
    (dict(sm_count=0), "at least one SM"),
    (dict(warp_id=-1), "warp_id=-1"),
    (dict(helper_lanes=1 << 64), "helper_lanes"),
])
def test_identity_outside_the_seed_ranges_is_refused(kw, why):
    with pytest.raises(IsaExtError, match=why.replace(".", r"\.").replace("(", r"\(")):
        Simulator(gpu=kw)


def test_api_takes_the_identity_object_too(isa):
    sim, res = run(isa, "smid r3\n", gpu=GpuIdentity(sm_id=7, sm_count=8))
    assert sim.state.gpr[3] == 7


# --- SURED ---------------------------------------------------------------------------

def test_sured_is_a_nop_for_helper_threads(isa):
    # 4 lanes add 1 at x = 0, 1, 2, 3 of a 1d u32 surface; lanes 1, 2 are helper
    # threads: only x = 0 and 3 are updated
    sim, res = run(isa, "setvl 0,0,4,0,1,1\nsv.sured.add.u32 *r32,*r40,r6,1d\n",
                   gpu=GEOMETRY,
                   gpr={32: 0, 33: 1, 34: 2, 35: 3, 40: 1, 41: 1, 42: 1, 43: 1, 6: DESC_AT},
                   memory={DESC_AT: descriptor()})
    assert res.stop == "end", res.trap
    assert [word_at(sim, SURF + 4 * x) for x in range(4)] == [1, 0, 0, 1]


def test_sured_without_a_size_is_u32(isa):
    # ".sz {.U32*, ...}": the size may be left out, meaning .U32
    for op in ("add", "min", "max", "inc", "dec", "and", "or", "xor"):
        assert assemble(f"sured.{op} r2,r4,r6,2d\n", isa=isa).words == \
            assemble(f"sured.{op}.u32 r2,r4,r6,2d\n", isa=isa).words


def test_sured_clamp_default_is_near(isa):
    # ".clamp {.IGN, .NEAR*, .TRAP}": a descriptor whose mode byte leaves the clamp
    # bits 0 clamps to the nearest element: x = -5 -> 0 and x = 40 -> 15 (width 16);
    # 1d_buffer x is S32 under near (so -5 is negative, not 0xFFFFFFFB)
    raw = bytearray(descriptor())
    raw[29] = 0b01  # enabled, no .ba, clamp bits 0
    sim, res = run(isa, "setvl 0,0,2,0,1,1\nsv.sured.max.s32 *r32,*r40,r6,1d_buffer\n",
                   gpr={32: (-5) & 0xFFFFFFFF, 33: 40, 40: 7, 41: 9, 6: DESC_AT},
                   memory={DESC_AT: bytes(raw)})
    assert res.stop == "end", res.trap
    assert word_at(sim, SURF) == 7 and word_at(sim, SURF + 60) == 9


# --- CLI -----------------------------------------------------------------------------

def test_cli_gpu_option(tmp_path, capsys):
    prog = tmp_path / "id.s"
    prog.write_text("setvl 0,0,2,0,1,1\nsv.warpid *r8\nsmid r3\nsv.helperthread *r12\n")
    main(["run", str(prog), "--gpu", "warpid=5,warpspersm=8",
          "--gpu", "smid=2,smcount=4,helperlanes=0b10"])
    out = capsys.readouterr().out
    for line in ("r3       0x0 -> 0x2", "r8       0x0 -> 0x5", "r9       0x0 -> 0x5",
                 "r13      0x0 -> 0xffffffffffffffff"):
        assert line in out
    assert "r12 " not in out  # lane 0 is no helper thread: stays 0


@pytest.mark.parametrize("value,why", [
    ("warpid=8,warpspersm=8", "warp_id=8 is outside 0 .. warps_per_sm-1 = 7"),
    ("warpd=1", "unknown setting 'warpd' (did you mean warpid?)"),
    ("warpid=x", "--gpu warpid=x: bad value"),
])
def test_cli_gpu_option_errors_are_one_line(tmp_path, capsys, value, why):
    prog = tmp_path / "id.s"
    prog.write_text("warpid r3\n")
    assert main(["run", str(prog), "--gpu", value]) != 0
    err = capsys.readouterr().err
    assert why in err and "Traceback" not in err and err.count("\n") == 1
