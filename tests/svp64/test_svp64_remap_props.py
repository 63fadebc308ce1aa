"""One behaviour per program, under REMAP: random REMAP set-ups (svshape
Matrix and parallel-reduction shapes, svshape2 offset/modulo shapes, svindex
Indexed shapes at 64- and 8-bit index widths, then a random svremap) followed
by random vector instructions (predication, twin predication, element widths,
SUBVL, saturation, loads and stores) must end in the same state in the plain
run (the generated remapped loop where it applies), the traced run (the
general element path), every interrupt-and-resume point, and -- for a single
instruction under persistent REMAP -- the vertical-first loop
(tests/svp64/test_svp64_one_behaviour.py runs the same modes without REMAP).

A program that traps (a REMAP combination not implemented, an index running
off the register file) must trap in every mode with the same state.
"""
import re

from hypothesis import HealthCheck, given, settings, strategies as st

from test_svp64_one_behaviour import (_enabled, draw_line, interrupted, make_sim, plain,
                                      state_of, step_mods_for, traced)
from isa_ext.svp64 import svstate as SV

M64 = (1 << 64) - 1

# (template, VF-able): as test_svp64_one_behaviour.TEMPLATES (destinations from
# r80 / CR8, so no element overwrites a predicate, r0, r16.. (the svindex
# indices) or r50); not VF-able: map-reduce and fail-first (HF semantics)
TEMPLATES = [
    ("sv.add{p}{w}{v} *80, *40, *60", True),
    ("sv.addi{p}{w}{v} *80, *40, 7", True),
    ("sv.ori{t}{v} *80, *40, 3", True),
    ("sv.subf{p}{w} *80, *80, *60", True),
    ("sv.neg{p}{w}{v} *80, *40", True),
    ("sv.rldimi{p} *80, *40, 8, 16", True),
    ("sv.cmp{p} *8, 1, *40, *60", True),
    ("sv.ld{p} *80, 8(50)", True),
    ("sv.lwz{p}{w} *80, 4(50)", True),
    ("sv.std{p} *40, 8(50)", True),
    ("sv.stw/els{t} *40, 4(50)", True),
    ("sv.ldu{p} *80, 8(*40)", True),
    ("sv.lwzu{p} *80, 4(52)", True),
    ("sv.fadd{p} *80, *40, *60", True),
    ("sv.add/sats/w=8{p} *80, *40, *60", True),
    ("sv.maddld{p}{w} *80, *40, *60, *80", True),
    ("sv.subf/mr 20, 20, *40", False),
    ("sv.add./ff=ne{p} *80, *40, *60", False),
]


@st.composite
def remap_setup(draw, vf):
    """REMAP set-up lines; ``vf``: the shape leaves vertical-first mode on
    (svshape's vf operand; the others keep SVSTATE's)."""
    kind = draw(st.sampled_from(["matrix", "reduce", "svshape2", "svindex", "svindex8"]))
    if kind == "matrix":
        x, y, z = draw(st.integers(1, 4)), draw(st.integers(1, 2)), draw(st.integers(1, 2))
        lines = [f"svshape {x}, {y}, {z}, 0, {vf}"]
    elif kind == "reduce":
        lines = [f"svshape {draw(st.integers(2, 8))}, 1, 1, 7, {vf}"]
    elif kind == "svshape2":
        lines = [f"svshape2 {draw(st.integers(0, 3))}, 0, {draw(st.integers(1, 15))}, "
                 f"{draw(st.integers(1, 8))}, 0, 0"]
    else:
        ew = 3 if kind == "svindex8" else 0
        lines = [f"svindex 8, {draw(st.integers(1, 31))}, {draw(st.integers(1, 8))}, {ew}, "
                 f"{draw(st.integers(0, 1))}, 0, 0"]
    shape = st.integers(0, 3)
    # svremap picks the operands and SVSHAPEs again; pst=1 keeps REMAP for
    # every following SVP64 instruction (needed by the VF loop)
    pst = 1 if vf else draw(st.integers(0, 1))
    lines.append(f"svremap {draw(st.integers(1, 31))}, {draw(shape)}, {draw(shape)}, "
                 f"{draw(shape)}, {draw(shape)}, {draw(shape)}, {pst}")
    return lines


@st.composite
def programs(draw):
    n = draw(st.integers(1, 2))
    want_vf = n == 1 and draw(st.booleans())
    setup = draw(remap_setup(1 if want_vf else 0))
    lines, vf_ok, step_mods = [], True, ""
    for _ in range(n):
        line, ok, step_mods = draw_line(draw, TEMPLATES, ["", "/vec2", "/vec3"])
        lines.append(line)
        vf_ok = vf_ok and ok
    vl = draw(st.integers(1, 8))
    words = st.integers(0, M64)
    gpr = {r: draw(words) for r in list(range(1, 50)) + list(range(51, 128))}
    # svindex indices: small, so most programs stay inside the register file
    for r in range(16, 24):
        gpr[r] = draw(st.integers(0, 7))
    gpr[16] |= sum(draw(st.integers(0, 7)) << (8 * i) for i in range(1, 8))
    init = {"svstate": SV.make(maxvl=vl, vl=vl, vfirst=1 if want_vf else 0),
            "gpr": gpr, "fpr": {r: draw(words) for r in range(32, 128)},
            "data": draw(st.binary(min_size=1024, max_size=1024))}
    return setup, lines, init, (step_mods if vf_ok and want_vf else None)


def _hf_lines(setup):
    """The HF program's set-up: svshape's vf operand cleared."""
    return [ln[:-1] + "0" if ln.startswith("svshape ") else ln for ln in setup]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(prog=programs())
def test_every_mode_gives_the_same_state_under_remap(svisa, prog):
    setup, lines, init, vf_mods = prog
    hf_init = dict(init, svstate=init["svstate"] & ~1)
    text = "\n".join(_hf_lines(setup) + lines) + "\n"
    ref, ops = plain(svisa, text, hf_init)
    want = state_of(ref)
    assert state_of(traced(svisa, text, hf_init)) == want, "traced run differs"
    for k in range(ops + 1):
        assert state_of(interrupted(svisa, text, hf_init, k)) == want, f"interrupt after {k}"
    # A VF loop with no enabled element never ends (every prefixed
    # instruction, sv.svstep. too, does nothing): only the HF modes then.
    # svshape sets VL, so the mask is checked against the VL the run ended with
    vl = SV.get(ref.state.svstate, "vl")
    if vf_mods is not None and ref.stop == "end" and vl and all(
            _enabled(e, init["gpr"], vl) for e in re.findall(r"m=(~?r\d+)", vf_mods)):
        mods = step_mods_for(svisa, lines[0], vf_mods)
        vtext = "\n".join(setup) + f"\nloop:\n {lines[0]}\n sv.svstep.{mods} 0, 0, 0, 0\n" \
            "bc 4, 3, loop\n"
        vres = make_sim(svisa, vtext, init).run(max_steps=2000)
        # the VF program's code is longer: PC-relative state is not compared
        assert state_of(vres, vf=True) == state_of(ref, vf=True), "vertical-first loop differs"
