"""sv.mv.swiz / sv.fmv.swiz (MVRM-2P-2S1D) against an independent model, plus
hand-derived cases for pack/unpack, HF overlap, VF, zeroing and interrupts."""
import random

import pytest

from isa_ext.encoding import encode
from isa_ext.ext.swizzle import parse_swizzle
from isa_ext.sim import Simulator
from isa_ext.svp64 import rm as rmmod, svstate

M64 = (1 << 64) - 1
EW_CODE = {64: 0, 32: 1, 16: 2, 8: 3}


def make_rm(subvl=1, src_subvl=1, rt_extra=0b10, ra_extra=0b10, ew=64, ews=64,
            mask=0, smask=0, sz=0, dz=0):
    """RM bits (MSB0): MASK 1:3, ELWIDTH 4:5, ELWIDTH_SRC 6:7, SUBVL 8:9,
    Rdest_EXTRA2 10:11, Rsrc_EXTRA2 12:13, src_SUBVL 14:15, MASK_SRC 16:18,
    MODE 19:23 with dz at 22 and sz at 23."""
    rm = 0
    for (a, b), v in (((1, 3), mask), ((4, 5), EW_CODE[ew]), ((6, 7), EW_CODE[ews]),
                      ((8, 9), subvl - 1), ((10, 11), rt_extra), ((12, 13), ra_extra),
                      ((14, 15), src_subvl - 1), ((16, 18), smask), ((22, 22), dz),
                      ((23, 23), sz)):
        rm = rmmod.put_bits(rm, a, b, v)
    return rm


def sv_program(isa, mnemonic, rt_field, ra_field, swizzle, **rmargs):
    names = ("FRTp", "FRAp") if mnemonic.startswith("f") else ("RTp", "RAp")
    imm = swizzle if isinstance(swizzle, int) else parse_swizzle(swizzle)
    word = encode(isa, mnemonic, **{names[0]: rt_field, names[1]: ra_field, "imm": imm})
    return [rmmod.prefix_of(make_rm(**rmargs)), word]


def run_sv(isa, prog, vl, regs, floating=False, strict=True, vfirst=0, steps=(0, 0),
           gpr=None, interrupt_after=None):
    sim = Simulator(isa, strict=strict)
    rf = sim.state.fpr if floating else sim.state.gpr
    for i, v in regs.items():
        rf[i] = v
    for i, v in (gpr or {}).items():
        sim.state.gpr[i] = v
    sim.load_words(prog)
    sim.state.svstate = svstate.with_steps(
        svstate.put(svstate.make(maxvl=vl, vl=vl), "vfirst", vfirst), *steps)
    sim.interrupt_after = interrupt_after
    return sim, sim.run(max_steps=4)


# --- the independent model ----------------------------------------------------------

class ByteRegs:
    """Register file as little-endian bytes: element e of w bits of a vector at
    register b lives at byte 8*b + e*w/8."""

    def __init__(self, regs):
        self.data = bytearray(b"".join((v & M64).to_bytes(8, "little") for v in regs))

    def get(self, base, e, w):
        at = 8 * base + e * w // 8
        return int.from_bytes(self.data[at:at + w // 8], "little")

    def put(self, base, e, w, v):
        at = 8 * base + e * w // 8
        self.data[at:at + w // 8] = v.to_bytes(w // 8, "little")

    def regs(self):
        return [int.from_bytes(self.data[8 * i:8 * i + 8], "little") for i in range(128)]


def model(regs, rt, ra, sels, vl, subvl, src_subvl, ew, ews, dmask, smask, sz, dz, one,
          in_place):
    """Registers after the whole loop; None if the selectors are illegal."""
    # pack: planar source of SUBVL planes; unpack: planar destination
    n_dst, n_src = subvl, src_subvl
    planar_src = planar_dst = False
    if src_subvl == 1 and subvl > 1:
        planar_src, n_src = True, subvl
    if subvl == 1 and src_subvl > 1:
        planar_dst, n_dst = True, src_subvl
    for p in range(n_dst):
        if sels[p] == 1 or (sels[p] >= 4 and sels[p] - 4 >= n_src):
            return None
    if any(s == 1 for s in sels):
        return None
    f = ByteRegs(regs)
    where_src = (lambda g, k: k * vl + g) if planar_src else (lambda g, k: g * n_src + k)
    where_dst = (lambda g, p: p * vl + g) if planar_dst else (lambda g, p: g * n_dst + p)
    s = d = 0
    while True:
        while not sz and s < vl and not smask >> s & 1:
            s += 1
        while not dz and d < vl and not dmask >> d & 1:
            d += 1
        if s >= vl or d >= vl:
            break
        src_on = smask >> s & 1
        values = [f.get(ra, where_src(s, k), ews) if src_on else 0 for k in range(n_src)]
        for p in range(n_dst):
            if not dmask >> d & 1:
                new = 0                    # dz: masked-out destination group zeroed
            elif sels[p] >= 4:
                new = values[sels[p] - 4] & ((1 << ew) - 1)
            elif sels[p] == 2:
                new = 0
            elif sels[p] == 3:
                new = one
            elif in_place:
                continue
            else:
                new = 0
            f.put(rt, where_dst(d, p), ew, new)
        s, d = s + 1, d + 1
    return f.regs()


def octal(imm):
    return [int(c) for c in f"{imm:04o}"]


def test_randomised_against_model(isa):
    rng = random.Random(7)
    mismatches = []
    runs = 0
    for case in range(500):
        vl = rng.randint(1, 8)
        subvl = rng.randint(2, 4) if case % 3 else 1
        src_subvl = rng.randint(1, 4)
        ew, ews = rng.choice([8, 16, 32, 64]), rng.choice([8, 16, 32, 64])
        if rng.random() < 0.5:
            ews = ew
        mask_code, smask_code = rng.choice([0, 2, 3]), rng.choice([0, 4, 5])
        sz, dz = rng.randint(0, 1), rng.randint(0, 1)
        # destination r16.. (field 4), source r64.. (field 16): 48 registers apart
        regs = {i: rng.getrandbits(64) for i in range(128)}
        gpr_masks = {3: rng.getrandbits(8), 10: rng.getrandbits(8)}
        regs.update(gpr_masks)
        sels = [rng.choice([0, 2, 3, 4, 5, 6, 7, 4, 5]) for _ in range(4)]
        imm = int("".join(map(str, sels)), 8)
        prog = sv_program(isa, "mv.swiz", 4, 16, imm, subvl=subvl, src_subvl=src_subvl,
                          ew=ew, ews=ews, mask=mask_code, smask=smask_code, sz=sz, dz=dz)
        sim, res = run_sv(isa, prog, vl, regs)
        dmask = {0: 0xFF, 2: regs[3], 3: ~regs[3] & 0xFF}[mask_code]
        smask = {0: 0xFF, 4: regs[10], 5: ~regs[10] & 0xFF}[smask_code]
        want = model([regs[i] for i in range(128)], 16, 64, sels, vl, subvl, src_subvl,
                     ew, ews, dmask, smask, sz, dz, 1, in_place=False)
        runs += 1
        if want is None:
            ok = res.stop == "trap" and res.trap.kind == "illegal" and \
                all(res.gpr[i] == regs[i] for i in range(128))
        else:
            ok = res.stop == "end" and list(res.gpr) == want
        if not ok:
            mismatches.append((case, vl, subvl, src_subvl, ew, ews, oct(imm)))
    assert runs == 500 and mismatches == []


def test_pack_planes_into_vec4(isa):
    # SRC_SUBVL=1, SUBVL=4, VL=2, 64-bit: source planes at r32 (X: r32 r33, Y: r34 r35,
    # Z: r36 r37, W: r38 r39); destination vec4 groups at r16: group g = r16+4g..
    regs = {32 + i: 0x100 + i for i in range(8)}
    prog = sv_program(isa, "mv.swiz", 4, 8, "XYZW", subvl=4, src_subvl=1)
    _, res = run_sv(isa, prog, 2, regs)
    assert res.gpr[16:24] == [0x100, 0x102, 0x104, 0x106, 0x101, 0x103, 0x105, 0x107]


def test_unpack_vec4_into_planes(isa):
    # SUBVL=1, SRC_SUBVL=4, VL=2: groups r32..35, r36..39 -> planes X: r16 r17, Y: r18 r19..
    regs = {32 + i: 0x100 + i for i in range(8)}
    prog = sv_program(isa, "mv.swiz", 4, 8, "XYZW", subvl=1, src_subvl=4)
    _, res = run_sv(isa, prog, 2, regs)
    assert res.gpr[16:24] == [0x100, 0x104, 0x101, 0x105, 0x102, 0x106, 0x103, 0x107]


def test_swizzled_unpack_with_32_bit_elements(isa):
    # ew=32, SUBVL=1, SRC_SUBVL=2, VL=2, "YX": source words (LSB first) r32 = [a0, a1],
    # r33 = [b0, b1]; group 0 = (a0, a1), group 1 = (b0, b1).  Planar destination:
    # position X plane = elements 0,1 <- (a1, b1); Y plane = elements 2,3 <- (a0, b0).
    regs = {32: 0xA1 << 32 | 0xA0, 33: 0xB1 << 32 | 0xB0}
    prog = sv_program(isa, "mv.swiz", 4, 8, "YX", subvl=1, src_subvl=2, ew=32, ews=32)
    _, res = run_sv(isa, prog, 2, regs)
    assert (res.gpr[16], res.gpr[17]) == (0xB1 << 32 | 0xA1, 0xB0 << 32 | 0xA0)


def test_fmv_one_in_each_float_format(isa):
    # "1" on position X of vec2 groups, destination elements f16.. (field 4, vector)
    for ew, one in ((64, 0x3FF0_0000_0000_0000), (32, 0x3F80_0000), (16, 0x3C00)):
        prog = sv_program(isa, "fmv.swiz", 4, 8, "1X", subvl=2, src_subvl=2, ew=ew, ews=ew)
        _, res = run_sv(isa, prog, 1, {32: 0x1234}, floating=True)
        x = res.fpr[16] & ((1 << ew) - 1)
        assert x == one


def test_selector_beyond_source_subvl_traps_without_writes(isa):
    # SUBVL=SRC_SUBVL=2: position X selecting Z (source index 2) is illegal
    regs = {16 + i: 0x55 for i in range(4)}
    prog = sv_program(isa, "mv.swiz", 4, 8, "Z.", subvl=2, src_subvl=2)
    _, res = run_sv(isa, prog, 2, regs)
    assert res.stop == "trap" and res.trap.kind == "illegal"
    assert "beyond the source SUBVL" in res.trap.reason and res.trap.pc == 0x1000
    assert res.gpr[16:20] == [0x55] * 4


def test_hf_overlap_strict_stops_with_diagnostic(isa):
    # RT = RA = r16 vector, SUBVL 4, VL 2: elements r16..r23 both read and written
    regs = {16 + i: i for i in range(8)}
    prog = sv_program(isa, "mv.swiz", 4, 4, "WZYX", subvl=4, src_subvl=4)
    sim, res = run_sv(isa, prog, 2, regs)
    assert res.stop == "trap" and res.trap.kind == "undefined"
    assert "sv.mv.swiz" in res.trap.reason and "r16" in res.trap.reason
    assert res.gpr[16:24] == list(range(8))  # nothing written


def test_hf_overlap_permissive_runs_in_order_with_warning(isa):
    regs = {16 + i: i for i in range(8)}
    prog = sv_program(isa, "mv.swiz", 4, 4, "WZYX", subvl=4, src_subvl=4)
    sim, res = run_sv(isa, prog, 2, regs, strict=False)
    assert res.stop == "end"
    assert [d.kind for d in res.diagnostics] == ["hf-overlap"]
    assert res.diagnostics[0].details["registers"] == list(range(16, 24))
    # groups are disjoint here, so element order gives each group reversed
    assert res.gpr[16:24] == [3, 2, 1, 0, 7, 6, 5, 4]


def test_vf_in_place_group_is_well_defined(isa):
    # vertical-first, srcstep = dststep = 1: only group 1 (r20..r23) is swizzled; in
    # place "W.Y." keeps the skipped positions: (W, Y, Y, W) of (4, 5, 6, 7)
    regs = {16 + i: i for i in range(8)}
    prog = sv_program(isa, "mv.swiz", 4, 4, "W.Y.", subvl=4, src_subvl=4)
    sim, res = run_sv(isa, prog, 2, regs, vfirst=1, steps=(1, 1))
    assert res.stop == "end" and res.diagnostics == []
    assert res.gpr[16:24] == [0, 1, 2, 3, 7, 5, 5, 7]


def test_interrupts_only_between_groups_and_resume(isa):
    # VL 3, vec4 groups r16.. <- reversed groups of r64..; each group is 4 element ops
    regs = {64 + i: 0x100 + i for i in range(12)}
    prog = sv_program(isa, "mv.swiz", 4, 16, "WZYX", subvl=4, src_subvl=4)
    _, full = run_sv(isa, prog, 3, regs)
    expected = [0x103, 0x102, 0x101, 0x100, 0x107, 0x106, 0x105, 0x104,
                0x10B, 0x10A, 0x109, 0x108]
    assert full.gpr[16:28] == expected
    # interrupt_after = n: taken at the first group boundary with n element ops done;
    # n = 0..8 falls before group 0, 1 or 2; from 9 on no boundary is left
    for after in range(9, 13):
        assert run_sv(isa, prog, 3, regs, interrupt_after=after)[1].stop == "end"
    for after in range(0, 9):
        sim, res = run_sv(isa, prog, 3, regs, interrupt_after=after)
        assert res.stop == "interrupt" and res.trap.kind == "interrupt"
        done_groups = (after + 3) // 4  # the group in flight is always finished
        written = res.gpr[16:28]
        assert written[:4 * done_groups] == expected[:4 * done_groups]
        assert written[4 * done_groups:] == [0] * (12 - 4 * done_groups)
        assert svstate.get(res.state.svstate, "dststep") == done_groups
        sim.interrupt_after = None
        again = sim.run(max_steps=4)
        assert again.stop == "end" and again.gpr[16:28] == expected


def test_scalar_pair_is_never_split_by_an_interrupt(isa):
    # an injected interrupt before any element op: the scalar mv.swiz (not an
    # element loop) still writes both registers of the pair
    sim = Simulator(isa)
    sim.state.gpr[4], sim.state.gpr[5] = 0x11, 0x22
    sim.load_words([encode(isa, "mv.swiz", RTp=8, RAp=4, imm=parse_swizzle("XYZW"))])
    sim.interrupt_after = 0
    res = sim.run(max_steps=2)
    assert res.stop == "end" and (res.gpr[8], res.gpr[9]) == (0x11, 0x22)


def test_hf_overlap_across_groups_permissive_runs_in_element_order(isa):
    # RT *10 (field 2, EXTRA2 0b11 -> r10) one group above RA *8 (field 2, 0b10 -> r8),
    # vec2 "YX", VL=3: sources r8..r13 and destinations r10..r15 share r10..r13.
    # Element (group) order: g0 r10,r11 <- (r9, r8) = (B, A); g1 reads the new
    # r10, r11: r12, r13 <- (A, B); g2: r14, r15 <- (r13, r12) = (B, A).
    A, B = 0xA, 0xB
    prog = sv_program(isa, "mv.swiz", 2, 2, "YX", subvl=2, src_subvl=2, rt_extra=0b11)
    _, res = run_sv(isa, prog, 3, {8: A, 9: B}, strict=False)
    assert res.stop == "end"
    assert [d.kind for d in res.diagnostics] == ["hf-overlap"]
    assert res.diagnostics[0].details["registers"] == [10, 11, 12, 13]
    assert "sv.mv.swiz" in res.diagnostics[0].message
    assert res.gpr[8:16] == [A, B, B, A, A, B, B, A]
    # strict: stops before any write, naming the instruction and the registers
    _, res = run_sv(isa, prog, 3, {8: A, 9: B})
    assert res.stop == "trap" and res.trap.kind == "undefined" and res.trap.pc == 0x1000
    assert "sv.mv.swiz" in res.trap.reason and "r10, r11, r12, r13" in res.trap.reason
    assert res.gpr[8:16] == [A, B, 0, 0, 0, 0, 0, 0]


def test_pack_planes_into_vec3_and_vec2(isa):
    # seed: "SRC_SUBVL=1, SUBVL=2/3/4 to give a pack effect".  SUBVL=3, VL=2: planes
    # X = r32 r33, Y = r34 r35, Z = r36 r37 -> groups r16..18 = (X0, Y0, Z0),
    # r19..21 = (X1, Y1, Z1); "ZYX" reverses each group.
    regs = {32 + i: 0x100 + i for i in range(6)}
    prog = sv_program(isa, "mv.swiz", 4, 8, "ZYX", subvl=3, src_subvl=1)
    _, res = run_sv(isa, prog, 2, regs)
    assert res.gpr[16:22] == [0x104, 0x102, 0x100, 0x105, 0x103, 0x101]
    # SUBVL=2, VL=3: planes X = r32..34, Y = r35..37 -> (X0,Y0) (X1,Y1) (X2,Y2)
    prog = sv_program(isa, "mv.swiz", 4, 8, "XY", subvl=2, src_subvl=1)
    _, res = run_sv(isa, prog, 3, regs)
    assert res.gpr[16:22] == [0x100, 0x103, 0x101, 0x104, 0x102, 0x105]


def test_unpack_vec3_and_vec2_into_planes(isa):
    # seed: "SUBVL=1, SRC_SUBVL=2/3/4 to give an unpack".  SRC_SUBVL=3, VL=2: groups
    # r32..34, r35..37 -> planes X = r16 r17 = (r32, r35), Y = r18 r19 = (r33, r36),
    # Z = r20 r21 = (r34, r37).
    regs = {32 + i: 0x100 + i for i in range(6)}
    prog = sv_program(isa, "mv.swiz", 4, 8, "XYZ", subvl=1, src_subvl=3)
    _, res = run_sv(isa, prog, 2, regs)
    assert res.gpr[16:22] == [0x100, 0x103, 0x101, 0x104, 0x102, 0x105]
    # SRC_SUBVL=2, VL=3, "YX": planes X <- Y of each group, Y <- X:
    # X = r16..18 = (r33, r35, r37), Y = r19..21 = (r32, r34, r36)
    prog = sv_program(isa, "mv.swiz", 4, 8, "YX", subvl=1, src_subvl=2)
    _, res = run_sv(isa, prog, 3, regs)
    assert res.gpr[16:22] == [0x101, 0x103, 0x105, 0x100, 0x102, 0x104]


@pytest.mark.parametrize("mode_bits", [0b01000, 0b10000, 0b11000, 0b01011])
def test_other_rm_modes_trap_without_writes(isa, mode_bits):
    # MODE = RM[19:23]; RM[19:20] = 00 is the plain mode (dz RM[22], sz RM[23]);
    # 01 (map-reduce), 10 (fail-first), 11 (saturation / pred-result) are not
    # MVRM-2P-2S1D modes (errata 001-6 (c)): illegal, trapped at the instruction,
    # nothing written
    rm = rmmod.put_bits(make_rm(subvl=2, src_subvl=2), 19, 23, mode_bits)
    word = encode(isa, "mv.swiz", RTp=4, RAp=8, imm=parse_swizzle("YX"))
    regs = {16 + i: 0x77 for i in range(4)}
    _, res = run_sv(isa, [rmmod.prefix_of(rm), word], 2, regs)
    assert res.stop == "trap" and res.trap.kind == "illegal" and res.trap.pc == 0x1000
    assert res.gpr[16:20] == [0x77] * 4
