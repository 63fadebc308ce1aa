"""sv.mv.swiz / sv.fmv.swiz in vertical-first loops (svstep. + bc), with integer and
CR predicates, zeroing, scalar operands and mixed element widths; HF with CR
predicates; VF-versus-HF equivalence; element-level interrupts in both modes.

The reference here is written separately from the pseudocode pages and from the
model in test_swizzle_svp64.py: the register file is one big integer (register r
occupies bits 64*r .. 64*r+63, elements of w bits packed from the least
significant end), selectors are the octal digits of the immediate (seed table:
X in imm bits 0:2), and the loops follow the seed's prose and docs/svp64.md:

* the seed's "pack"/"unpack" sentence: SRC_SUBVL=1, SUBVL=N reads N planes of VL
  elements; SUBVL=1, SRC_SUBVL=N writes N planes (errata 001-3);
* VF: each execution handles one XYZW group at srcstep/dststep, after moving over
  masked-out groups (no zeroing); all sources of the group are read before any
  destination is written; the predicate is read by each execution;
* svstep. (plain) then adds one to both steps and ends the loop at VL.
"""
import random

import pytest

from isa_ext.sim import Simulator
from isa_ext.svp64 import rm as rmmod, svstate

M64 = (1 << 64) - 1
EW_CODE = {64: 0, 32: 1, 16: 2, 8: 3}
ONE_FP = {64: 0x3FF0_0000_0000_0000, 32: 0x3F80_0000, 16: 0x3C00}


# --- the reference ------------------------------------------------------------------

class BigRF:
    def __init__(self, regs):
        self.v = 0
        for r, x in enumerate(regs):
            self.v |= (x & M64) << (64 * r)

    def _at(self, base, e, w):
        bit = e * w
        assert base + bit // 64 < 128  # legal() keeps every element in the file
        return 64 * (base + bit // 64) + bit % 64

    def get(self, base, e, w):
        return (self.v >> self._at(base, e, w)) & ((1 << w) - 1)

    def put(self, base, e, w, x):
        at = self._at(base, e, w)
        self.v = (self.v & ~(((1 << w) - 1) << at)) | ((x & ((1 << w) - 1)) << at)

    def regs(self):
        return [(self.v >> (64 * r)) & M64 for r in range(128)]


def predicate(kind, code, gpr, cr, vl):
    """Bit i = element i enabled.  Integer: 0 all, 1 1<<r3, 2/3 r3/~r3, 4/5 r10/~r10,
    6/7 r30/~r30.  CR: CR field 32+i (docs/svp64.md), bit LT GT EQ SO by code//2,
    odd codes negated."""
    if kind == "cr":
        bit = (8, 4, 2, 1)[code // 2]
        return sum(1 << i for i in range(vl) if bool(cr[32 + i] & bit) != bool(code & 1))
    if code == 0:
        return (1 << vl) - 1
    if code == 1:
        return 1 << (gpr[3] % 64)
    reg = {2: 3, 4: 10, 6: 30}[code & 6]
    return (gpr[reg] ^ (M64 if code & 1 else 0)) & ((1 << vl) - 1)


class P:
    """One test program's parameters."""

    def __init__(self, **kw):
        self.floating = False
        self.kind, self.dcode, self.scode = "int", 0, 0
        self.sz = self.dz = 0
        self.ew = self.ews = 64
        self.subvl = self.ssubvl = 1
        self.__dict__.update(kw)


def layout(p, vl):
    """(n_dst, n_src, where_dst(g, i), where_src(g, k)) as element offsets."""
    n_dst, n_src = p.subvl, p.ssubvl
    src_planes = p.ssubvl == 1 and p.subvl > 1     # "pack"
    dst_planes = p.subvl == 1 and p.ssubvl > 1     # "unpack"
    if src_planes:
        n_src = p.subvl
    if dst_planes:
        n_dst = p.ssubvl

    def where(planes, n, vec):
        def f(g, k):
            g = g if vec else 0                     # a scalar operand: its one group
            return k * vl + g if planes else g * n + k
        return f
    return n_dst, n_src, where(dst_planes, n_dst, p.rt_vec), where(src_planes, n_src, p.ra_vec)


def legal(p, vl):
    n_dst, n_src, _, _ = layout(p, vl)
    digits = [int(c) for c in f"{p.imm:04o}"]
    if 1 in digits:
        return False
    # docs/svp64.md "Register numbers past the end of a file": VL groups of n
    # elements of w bits from register b (one group if scalar) end in
    # b + (count*w - 1) // 64, which must be r127 at most, or the instruction traps
    for base, vec, n, w in ((p.rt, p.rt_vec, n_dst, p.ew), (p.ra, p.ra_vec, n_src, p.ews)):
        if base + ((vl if vec else 1) * n * w - 1) // 64 > 127:
            return False
    return all(not (d >= 4 and d - 4 >= n_src) for d in digits[:n_dst])


def apply_group(rf, p, vl, s, d, smask, dmask):
    n_dst, n_src, wd, ws = layout(p, vl)
    digits = [int(c) for c in f"{p.imm:04o}"]
    src_on = smask >> s & 1
    vals = [rf.get(p.ra, ws(s, k), p.ews) if src_on else 0 for k in range(n_src)]
    same = p.rt == p.ra and p.rt_vec == p.ra_vec and p.ew == p.ews
    one = ONE_FP[p.ew] if p.floating else 1
    out = {}
    for i in range(n_dst):
        if not dmask >> d & 1:
            out[i] = 0                                  # dz: zeroed group
        elif digits[i] >= 4:
            out[i] = vals[digits[i] - 4]
        elif digits[i] in (2, 3):
            out[i] = 0 if digits[i] == 2 else one
        elif not same:
            out[i] = 0
    for i, x in out.items():                            # after every read
        rf.put(p.rt, wd(d, i), p.ew, x)


def reference(p, vl, regs, gpr, cr, vertical):
    """Register-file snapshots after each executed group; [] if illegal.
    ``regs`` is the file being swizzled (GPRs, or FPRs for fmv), ``gpr`` the GPRs
    for integer predicates (the same list for mv.swiz)."""
    if not legal(p, vl):
        return []
    rf = BigRF(regs)
    snaps = [rf.regs()]

    def masks():
        g = rf.regs() if not p.floating else gpr
        return predicate(p.kind, p.scode, g, cr, vl), predicate(p.kind, p.dcode, g, cr, vl)
    smask, dmask = masks()
    s = d = 0
    while s < vl and d < vl:
        if vertical:
            smask, dmask = masks()                      # each execution reads them
        while not p.sz and s < vl and not smask >> s & 1:
            s += 1
        while not p.dz and d < vl and not dmask >> d & 1:
            d += 1
        if s < vl and d < vl:
            apply_group(rf, p, vl, s, d, smask, dmask)
            snaps.append(rf.regs())
            if not vertical and not p.rt_vec and dmask >> d & 1:
                break                                   # HF scalar destination
        s, d = s + 1, d + 1                             # svstep., or the HF loop
    return snaps


# --- running the simulator ----------------------------------------------------------

def prefix_of(p):
    rm = 0
    dspec = (0b10 | p.rt_bit) if p.rt_vec else p.rt_bit
    sspec = (0b10 | p.ra_bit) if p.ra_vec else p.ra_bit
    for (a, b), v in (((0, 0), int(p.kind == "cr")), ((1, 3), p.dcode),
                      ((4, 5), EW_CODE[p.ew]), ((6, 7), EW_CODE[p.ews]),
                      ((8, 9), p.subvl - 1), ((10, 11), dspec), ((12, 13), sspec),
                      ((14, 15), p.ssubvl - 1), ((16, 18), p.scode), ((22, 22), p.dz),
                      ((23, 23), p.sz)):
        rm = rmmod.put_bits(rm, a, b, v)
    return rmmod.prefix_of(rm)


def suffix_of(p):
    # DQ-form: PO 22 | RT 6:10 | RA 11:15 | imm 16:27 | XO 28:31
    return (22 << 26) | (p.rt_field << 21) | (p.ra_field << 16) | (p.imm << 4) | \
        (0b1011 if p.floating else 0b0011)


def program(p, vertical):
    body = f" .long {prefix_of(p):#x}\n .long {suffix_of(p):#x}\n"
    if vertical:
        # svstep. writes its RT: r31, which no swizzle operand reaches (see
        # random_params) and which the comparisons leave out (regfile)
        return "loop:\n" + body + " svstep. 31, 0, 1, 0\n bc 4, 3, loop\n"
    return body


def make_sim(isa, text, vl, regs, gpr, cr, vertical, floating, strict=True):
    sim = Simulator(isa, strict=strict)
    sim.load_asm(text)
    rf = sim.state.fpr if floating else sim.state.gpr
    for i in range(128):
        sim.state.gpr[i] = gpr[i]
        rf[i] = regs[i]
        sim.state.cr[i] = cr[i]
    sim.state.svstate = svstate.make(maxvl=vl, vl=vl, vfirst=int(vertical))
    return sim


def regfile(res, floating):
    return strip(list(res.fpr if floating else res.gpr))


def strip(regs):
    return regs[:31] + [None] + regs[32:]


def random_params(rng, overlap_ok):
    p = P(floating=rng.random() < 0.25)
    p.kind = rng.choice(["int", "cr"])
    p.dcode, p.scode = rng.randrange(8), rng.randrange(8)
    if rng.random() < 0.3:
        p.dcode = 0
    p.sz, p.dz = rng.randint(0, 1), rng.randint(0, 1)
    widths = [64, 32, 16] if p.floating else [64, 32, 16, 8]
    p.ew = rng.choice(widths)
    p.ews = p.ew if rng.random() < 0.5 else rng.choice(widths)
    p.subvl, p.ssubvl = rng.randint(1, 4), rng.randint(1, 4)
    p.rt_vec = rng.random() < 0.85
    p.ra_vec = rng.random() < 0.8
    # A vector spans at most VL*4 64-bit elements = 32 registers.  Without overlap:
    # destinations in r36..r85, vector sources in r88..r129 (past r127: a trap),
    # scalar sources in r16..r25; the integer predicates live in r3, r10, r30.
    for side in ("rt", "ra"):
        vec = getattr(p, side + "_vec")
        if vec:
            field = rng.randrange(10, 31) if overlap_ok else \
                rng.randrange(9, 14) if side == "rt" else rng.randrange(22, 25)
            bit = rng.randint(0, 1)
            reg = field * 4 + bit * 2
        else:
            field, bit = ((rng.randrange(8, 16), 1) if side == "rt" or overlap_ok
                          else (rng.randrange(16, 23), 0))
            reg = 32 * bit + field
        setattr(p, side + "_field", field)
        setattr(p, side + "_bit", bit)
        setattr(p, side, reg)
    digits = [rng.choice([0, 2, 3, 4, 5, 6, 7, 4, 5]) for _ in range(4)]
    if rng.random() < 0.03:
        digits[rng.randrange(4)] = 1
    p.imm = int("".join(map(str, digits)), 8)
    return p


def random_state(rng):
    regs = [rng.getrandbits(64) for _ in range(128)]
    gpr = list(regs)
    for r in (3, 10, 30):
        gpr[r] = rng.getrandbits(8) | rng.getrandbits(1) << 40
    cr = [rng.randrange(16) for _ in range(128)]
    return regs, gpr, cr


def describe(p, vl):
    return {k: v for k, v in sorted(vars(p).items())} | {"vl": vl, "imm": oct(p.imm)}


# --- randomized: VF (overlap allowed) and HF with CR predicates ---------------------

@pytest.mark.parametrize("vertical", [True, False], ids=["vf", "hf"])
def test_randomized_against_reference(isa, vertical):
    rng = random.Random(1 + vertical)
    bad = []
    kinds = set()
    for _ in range(250):
        vl = rng.randint(1, 8)
        # HF overlap is UNDEFINED; VF overlap is well defined and included
        p = random_params(rng, overlap_ok=vertical)
        regs, gpr, cr = random_state(rng)
        if not p.floating:
            regs = gpr
        sim = make_sim(isa, program(p, vertical), vl, regs, gpr, cr, vertical, p.floating)
        res = sim.run(max_steps=4 * vl + 8)
        snaps = reference(p, vl, regs, gpr, cr, vertical)
        if not snaps:
            ok = res.stop == "trap" and res.trap.kind == "illegal" and \
                regfile(res, p.floating) == strip(regs) and res.trap.pc == 0x1000
        else:
            ok = res.stop == "end" and regfile(res, p.floating) == strip(snaps[-1])
        kinds.add((p.kind, bool(snaps), p.rt_vec and p.ra_vec))
        if not ok:
            bad.append(describe(p, vl))
    assert bad == []
    # the sample did exercise both predicate kinds, traps, and scalar operands
    assert {k for k, _, _ in kinds} == {"int", "cr"}
    assert any(not ok for _, ok, _ in kinds) and any(not both for _, _, both in kinds)


def test_vf_and_hf_agree_without_overlap(isa):
    # the seed relaxes program order only for HF overlap; without overlap the two
    # modes must give the same registers
    rng = random.Random(11)
    compared = 0
    for _ in range(150):
        vl = rng.randint(1, 8)
        p = random_params(rng, overlap_ok=False)
        p.rt_vec = p.ra_vec = True
        p.rt, p.ra = p.rt_field * 4 + p.rt_bit * 2, p.ra_field * 4 + p.ra_bit * 2
        regs, gpr, cr = random_state(rng)
        if not p.floating:
            regs = gpr
        out = []
        for vertical in (False, True):
            sim = make_sim(isa, program(p, vertical), vl, regs, gpr, cr, vertical, p.floating)
            res = sim.run(max_steps=4 * vl + 8)
            out.append((res.stop, regfile(res, p.floating)))
        assert out[0] == out[1], describe(p, vl)
        compared += out[0][0] == "end"
    assert compared > 100


# --- directed VF loops in assembly --------------------------------------------------

def vf_asm(isa, insn, vl, gpr=(), cr=(), fpr=(), strict=True):
    sim = Simulator(isa, strict=strict)
    sim.load_asm(f"loop:\n {insn}\n svstep. 0, 0, 1, 0\n bc 4, 3, loop\n")
    for i, v in dict(gpr).items():
        sim.state.gpr[i] = v
    for i, v in dict(fpr).items():
        sim.state.fpr[i] = v
    for i, v in dict(cr).items():
        sim.state.cr[i] = v
    sim.state.svstate = svstate.make(maxvl=vl, vl=vl, vfirst=1)
    return sim


def test_vf_twin_integer_predicates(isa):
    # VL=4, vec2 64-bit, "YX"; sm=r3=0b1010 (source groups 1, 3), dm=r10=0b0111
    # (destination groups 0, 1, 2).  Pass 1: src skips to 1, dst 0 -> group 0 of r8
    # <- swapped source group 1 (r18, r19); svstep -> (2, 1).  Pass 2: src skips to 3,
    # dst 1 -> r10.. <- (r23, r22); svstep -> (4, 2): end.  Destination group 1 is
    # r10, r11 -- so the predicate register r10 is overwritten after its last use.
    src = {16 + i: 0x100 + i for i in range(8)}
    sim = vf_asm(isa, 'sv.mv.swiz/vec2/svec2/sm=r3/dm=r10 *8, *16, "YX"', 4,
                 gpr={**src, 3: 0b1010, 10: 0b0111, 12: 0x55, 13: 0x66})
    res = sim.run(max_steps=40)
    assert res.stop == "end"
    assert res.gpr[8:14] == [0x103, 0x102, 0x107, 0x106, 0x55, 0x66]
    assert svstate.get(res.state.svstate, "vfirst") == 0


def test_vf_cr_predicates_and_source_zeroing(isa):
    # VL=3, vec2, sm=lt/sz, dm=gt: CR32..34 = 0b1000 (LT), 0b0100 (GT), 0b1100.
    # smask (LT) = 0b101, dmask (GT) = 0b110.  sz: the source step never skips.
    # Pass 1: (s0, d skip->1): r10,r11 <- "YX" of group 0 (r16, r17) = (r17, r16).
    # svstep (1, 2).  Pass 2: s1 is masked out -> zero source: r12, r13 <- (0, 0).
    # svstep (2, 3): end.  r8, r9 (dst group 0, masked, no dz) untouched.
    src = {16 + i: 0x200 + i for i in range(6)}
    sim = vf_asm(isa, 'sv.mv.swiz/vec2/svec2/sm=lt/dm=gt/sz *8, *16, "YX"', 3,
                 gpr={**src, 8: 1, 9: 2, 12: 3, 13: 4}, cr={32: 8, 33: 4, 34: 12})
    res = sim.run(max_steps=40)
    assert res.stop == "end"
    assert res.gpr[8:14] == [1, 2, 0x201, 0x200, 0, 0]


def test_vf_destination_zeroing_with_cr_predicate(isa):
    # VL=2, vec2 "XY", m=eq/dz (both sides eq): CR32 = 0 (not EQ), CR33 = 2 (EQ).
    # smask = dmask = 0b10.  Pass 1: src skips to 1 (no sz), dst 0 stays (dz):
    # destination group 0 is zeroed.  svstep (2, 1): end.  Group 1 is never written:
    # the loop ends when either step reaches VL.
    sim = vf_asm(isa, 'sv.mv.swiz/vec2/svec2/m=eq/dz *8, *16, "XY"', 2,
                 gpr={8: 7, 9: 7, 10: 7, 11: 7, 16: 1, 17: 2, 18: 3, 19: 4},
                 cr={32: 0, 33: 2})
    res = sim.run(max_steps=40)
    assert res.stop == "end" and res.gpr[8:12] == [0, 0, 7, 7]


def test_vf_scalar_source_splat_with_mixed_widths(isa):
    # scalar source r16 read as one vec2 group of 16-bit elements: X = 0x2222, Y =
    # 0x1111 (r16 = 0x...1111_2222: element 0 is the low 16 bits).  Destination
    # vec2 of 32-bit elements from r8, VL=3, "YX": each group = (0x1111, 0x2222),
    # zero-extended into 32 bits.  Groups 0..2 = words 0..5 = r8, r9, r10, each
    # 0x00002222_00001111 (word 0 is the low half).
    sim = vf_asm(isa, 'sv.mv.swiz/vec2/svec2/sw=16/dw=32 *8, 16, "YX"', 3,
                 gpr={16: 0x7777_6666_1111_2222, 11: 0xAB})
    res = sim.run(max_steps=40)
    assert res.stop == "end"
    assert res.gpr[8:12] == [0x0000_2222_0000_1111] * 3 + [0xAB]


def test_vf_scalar_destination_takes_every_group(isa):
    # VF runs one group per execution: a scalar destination r40 (vec2, 32-bit
    # elements) is rewritten by each pass, so the last group wins.  Source vec2 of
    # 32-bit elements at r16: group g = words 2g, 2g+1 = low, high half of r(16+g).
    # "YX" swaps the halves.  VL=3: last group is r18 swapped.
    sim = vf_asm(isa, 'sv.mv.swiz/vec2/svec2/w=32 40, *16, "YX"', 3,
                 gpr={16: 0x1_0000_0002, 17: 0x3_0000_0004, 18: 0x5_0000_0006})
    res = sim.run(max_steps=40)
    assert res.stop == "end" and res.gpr[40] == 0x6_0000_0005


def test_vf_overlapping_groups_follow_program_order(isa):
    # destination *10 (r10..) one group above the source *8 (r8..), vec2 "YX", VL=3.
    # Pass g reads r(8+2g), r(9+2g) after pass g-1 wrote them (strict order):
    # g0: r10, r11 <- (r9, r8) = (B, A); g1: r12, r13 <- (r11, r10) = (A, B);
    # g2: r14, r15 <- (r13, r12) = (B, A).  HF would be UNDEFINED here.
    A, B = 0xA, 0xB
    sim = vf_asm(isa, 'sv.mv.swiz/vec2/svec2 *10, *8, "YX"', 3, gpr={8: A, 9: B})
    res = sim.run(max_steps=40)
    assert res.stop == "end" and res.diagnostics == []
    assert res.gpr[8:16] == [A, B, B, A, A, B, B, A]


def test_vf_in_place_reads_all_sources_first(isa):
    # in place *8 = *8, vec4 "WZYX" over 8-bit elements, VL=2: a rotation that a
    # sub-element-at-a-time copy would corrupt (X <- W, then W <- X would read the
    # new X).  Bytes of r8 (LSB first) 01 02 03 04 | 05 06 07 08 -> 04 03 02 01 |
    # 08 07 06 05.
    sim = vf_asm(isa, 'sv.mv.swiz/vec4/svec4/w=8 *8, *8, "WZYX"', 2,
                 gpr={8: 0x0807_0605_0403_0201})
    res = sim.run(max_steps=40)
    assert res.stop == "end" and res.gpr[8] == 0x0506_0708_0102_0304


def test_vf_fmv_pack_with_dest_mask(isa):
    # sv.fmv.swiz pack: SUBVL=2, SRC_SUBVL=1 (planes X: f16 f17 f18, Y: f19 f20 f21),
    # VL=3, "YX", dm=r3=0b101.  Pass 1: dst 0 <- (Y0, X0) = (f19, f16) into f8, f9.
    # svstep (1, 1): dst skips to 2, src 1 -> f12, f13 <- (Y1, X1) = (f20, f17).
    # svstep (2, 3): end.  f10, f11 untouched.
    fpr = {16 + i: 0x40 + i for i in range(6)}
    fpr.update({10: 9, 11: 9})
    sim = vf_asm(isa, 'sv.fmv.swiz/vec2/svec1/dm=r3 *8, *16, "YX"', 3, gpr={3: 0b101},
                 fpr=fpr)
    res = sim.run(max_steps=40)
    assert res.stop == "end"
    assert res.fpr[8:14] == [0x43, 0x40, 9, 9, 0x44, 0x41]


def test_vf_skip_separate_registers_zeroes_fmv(isa):
    # sv.fmv.swiz separate registers, ".X" over vec2: position X is a skip and not in
    # place -> zero; Y <- X.  VL=1: f8 <- 0, f9 <- f16.
    sim = vf_asm(isa, 'sv.fmv.swiz/vec2/svec2 *8, *16, ".X"', 1,
                 fpr={8: 5, 9: 5, 16: 0x3FF0_0000_0000_0000, 17: 1})
    res = sim.run(max_steps=10)
    assert res.stop == "end" and res.fpr[8:10] == [0, 0x3FF0_0000_0000_0000]


# --- atomicity: interrupts at every element count, HF and VF ------------------------

@pytest.mark.parametrize("vertical", [False, True], ids=["hf", "vf"])
def test_interrupt_only_at_group_boundaries_then_resume(isa, vertical):
    rng = random.Random(21 + vertical)
    checked = 0
    for _ in range(40):
        vl = rng.randint(1, 5)
        p = random_params(rng, overlap_ok=vertical)
        regs, gpr, cr = random_state(rng)
        if not p.floating:
            regs = gpr
        snaps = reference(p, vl, regs, gpr, cr, vertical)
        if not snaps:
            continue
        final = strip(snaps[-1])
        text = program(p, vertical)
        n_dst = layout(p, vl)[0]
        for k in range(0, n_dst * (len(snaps) - 1) + 1):
            sim = make_sim(isa, text, vl, regs, gpr, cr, vertical, p.floating)
            sim.interrupt_after = k
            res = sim.run(max_steps=4 * vl + 8)
            if res.stop == "interrupt":
                # never inside a group: the registers are exactly those after a
                # whole number of groups, at least k element operations done
                now = regfile(res, p.floating)
                done = [j for j, s in enumerate(snaps) if strip(s) == now]
                assert done and max(done) * n_dst >= k, describe(p, vl)
                assert res.trap.pc == 0x1000
                again = sim.run(max_steps=4 * vl + 8)
                assert again.stop == "end", describe(p, vl)
                res = again
                checked += 1
            assert res.stop == "end" and regfile(res, p.floating) == final, \
                (k, describe(p, vl))
    assert checked > 20
