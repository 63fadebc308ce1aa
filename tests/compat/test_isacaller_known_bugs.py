"""The campaign's allowances for two documented ISACaller bugs (issue 36,
docs/compat.md) are narrow: isacaller_known_bugs accepts a program with
`sv.andi.`/`sv.andis.`/`sv.addic.` only when the sole difference is CR fields
isa_ext wrote and ISACaller left as they were; _enable_last changes a drawn
predicate only where ISACaller's skip would run past VL.

The offline tests build outcomes by hand; the live ones run ISACaller and
check that the bug is still there (so the allowance goes stale loudly) and
that the states the allowance lets through are ones ISACaller gets right."""
import pytest

from isa_ext.asm import assemble
from isa_ext.compat import isacaller as D
from isa_ext.compat import isacaller_known_bugs as K
from isa_ext.isa import ISA

M64 = (1 << 64) - 1
CR0 = 0x12345678


@pytest.fixture(scope="module")
def profile_isa():
    return ISA(extensions=["base", "svp64"], profile="openpower-isa")


def outcome(line, ours_cr, theirs_cr, ours_gpr=None, vl=4):
    lines = [f"setvl 0,0,{vl},0,1,1", line]
    case = D.Case(0, lines, [], [0] * D.NGPR, [0] * D.NFPR, CR0)
    ours = {"gpr": list(ours_gpr or case.gpr), "fpr": [0] * D.NFPR, "cr": ours_cr,
            "svstate": 0, "fpscr": 0, "xer": 0}
    theirs = dict(ours, gpr=list(case.gpr), cr=theirs_cr)
    return D.Outcome(case, ours, theirs, D.compare(ours, theirs))


# --- the forced-Rc allowance -------------------------------------------------------

@pytest.mark.parametrize("line", ["sv.andi. *8, *12, 27412", "sv.andis. *8, *12, 3",
                                  "sv.addic. *8, *12, -5", "sv.andi./m=r3 *8, *12, 1"])
def test_unrecorded_cr_fields_are_the_documented_bug(line):
    # isa_ext wrote CR0..CR3 (2 4 4 4), ISACaller kept 0x1234
    o = outcome(line, 0x24445678, CR0)
    assert D.classify(o) == "isacaller-bug"
    assert K.explained_by(o) == "forced-rc-unrecorded"


@pytest.mark.parametrize("line, ours_cr, theirs_cr, ours_gpr", [
    # a CR field ISACaller wrote (CR1 = 9, not the initial 2): not the bug
    ("sv.andi. *8, *12, 27412", 0x24445678, 0x19345678, None),
    # CR4 differs, which isa_ext left and ISACaller changed
    ("sv.andi. *8, *12, 27412", 0x24445678, 0x12349678, None),
    # a GPR differs as well
    ("sv.andi. *8, *12, 27412", 0x24445678, CR0, [0] * 8 + [1] + [0] * (D.NGPR - 9)),
    # a row that has an Rc bit: ISACaller records its CR
    ("sv.and. *8, *12, *16", 0x24445678, CR0, None),
    # fail-first (left out of the draw): CR and VL interact
    ("sv.andi./ff=eq *8, *12, 1", 0x24445678, CR0, None),
])
def test_other_differences_still_count(line, ours_cr, theirs_cr, ours_gpr):
    assert D.classify(outcome(line, ours_cr, theirs_cr, ours_gpr)) == "differ"


def test_the_profile_scope_draws_the_forced_rc_rows(profile_isa):
    rows, options = D.scope_options(profile_isa, "profile")
    assert {"andi.", "andis.", "addic."} <= {r.mnemonic for r in rows}
    cases = D.make_cases(profile_isa, 7, 200, rows=[r for r in rows if r.mnemonic in
                                                   ("andi.", "andis.", "addic.")],
                         per_case=1, **options)
    lines = [c.lines[-1] for c in cases]
    assert all(K.FORCED_RC_LINE.match(ln) for ln in lines), lines[:5]


# --- the SUBVL skip past VL ----------------------------------------------------------

def drawn(line, vl, regs):
    gpr = [0] * D.NGPR
    for r, v in regs.items():
        gpr[r] = v
    D._enable_last(None, line, vl, gpr, 0)
    return gpr


@pytest.mark.parametrize("line, vl, regs, changed", [
    # ISACaller's mask (64 bits) enables nothing below VL but r10 bit 1: changed
    ("sv.srd/vec4/m=r10 *32, *12, *20", 1, {10: 0b10}, {10: 0b11}),
    # ~r10 with r10 = 0b1111 (VL=4): ~ enables bits 4.. only
    ("sv.srd/vec4/m=~r10 *32, *12, *20", 4, {10: 0b1111}, {10: 0b0111}),
    # 1<<r3 with r3 = 5 at VL=2
    ("sv.add/vec2/m=1<<r3 *32, *12, *20", 2, {3: 5}, {3: 1}),
    # twin predication: only the mask that runs past
    ("sv.extsw/vec2/sm=r10/dm=r30 *32, *12", 3, {10: 0b1000, 30: 0b1}, {10: 0b1100}),
])
def test_a_mask_running_past_vl_gets_its_last_element(line, vl, regs, changed):
    gpr = drawn(line, vl, regs)
    assert {r: gpr[r] for r in regs if gpr[r] != regs[r]} == changed


@pytest.mark.parametrize("line, vl, regs", [
    ("sv.srd/vec4/m=r10 *32, *12, *20", 4, {10: 0b0001}),  # trailing elements masked out
    ("sv.srd/vec4/m=r10 *32, *12, *20", 4, {10: 0}),       # a zero mask ends the loop
    ("sv.srd/vec4/m=~r10 *32, *12, *20", 3, {10: 0b101}),
    ("sv.srd/vec4/m=lt *32, *12, *20", 2, {}),              # CR masks: VL bits only
    ("sv.srd/m=r10 *32, *12, *20", 1, {10: 0b10}),          # SUBVL 1
    ("sv.add/vec2/m=1<<r3 *32, *12, *20", 4, {3: 2}),
])
def test_other_masks_are_drawn_as_they_are(line, vl, regs):
    assert drawn(line, vl, regs)[:D.NGPR] == drawn("", vl, regs)[:D.NGPR]


# --- live: the bugs are still there, and the allowed states agree --------------------

live = pytest.mark.slow  # each starts ISACaller (about 20 s)


def live_case(isa, k, vl, line, regs, cr=0):
    gpr = [0] * D.NGPR
    for i in range(12, D.NGPR):
        gpr[i] = 0x1000 + i
    for r, v in regs.items():
        gpr[r] = v & M64
    lines = [f"setvl 0,0,{vl},0,1,1", line]
    return D.Case(k, lines, assemble("\n".join(lines) + "\n", isa=isa).words, gpr,
                  [0] * D.NFPR, cr)


@live
def test_skip_past_vl_exactly_where_enable_last_acts(profile_isa, isacaller):
    # (VL, r10) over every mask below VL, and masks with bits at or past VL only
    shapes = [(vl, m) for vl in (1, 2, 3) for m in range(1 << vl)]
    shapes += [(1, 0b10), (2, 0b100), (2, 0b1100), (3, 1 << 40)]
    line = "sv.srd/vec2/m=r10 *32, *12, *20"
    cases = [live_case(profile_isa, k, vl, line, {10: m, **{i: 4 for i in range(20, 32)}})
             for k, (vl, m) in enumerate(shapes)]
    theirs = D.run_isacaller(isacaller.root, cases)
    for (vl, m), c, t in zip(shapes, cases, theirs):
        ours = D.run_isa_ext(profile_isa, c)
        runs_past = m & ((1 << vl) - 1) == 0 and m != 0
        assert (D.compare(ours, t) != []) == runs_past, (vl, bin(m), D.compare(ours, t))
        assert (drawn(line, vl, {10: m})[10] != m) == runs_past
        if runs_past:  # element VL's first sub-element written, past VL * SUBVL
            assert t["gpr"][32 + 2 * vl] != c.gpr[32 + 2 * vl]
            assert ours["gpr"] == c.gpr


@live
def test_forced_rc_rows_in_a_small_campaign(profile_isa, isacaller):
    # the profile scope restricted to andi./andis./addic.: every program
    # agrees or is the documented bug (GPRs, XER and VL always agree)
    rows, options = D.scope_options(profile_isa, "profile")
    rows = [r for r in rows if r.mnemonic in ("andi.", "andis.", "addic.")]
    outcomes = D.differential(profile_isa, isacaller.root, 36, 24, rows=rows, per_case=1,
                              **options)
    kinds = [D.classify(o) for o in outcomes]
    assert set(kinds) <= {"agree", "isacaller-bug"}, [
        (o.case.lines, o.differences) for o, k in zip(outcomes, kinds)
        if k not in ("agree", "isacaller-bug")]
    assert "isacaller-bug" in kinds
