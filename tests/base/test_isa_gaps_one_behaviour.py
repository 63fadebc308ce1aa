"""One behaviour for the SVP64-capable rows issue 15 added (base and libre-soc
draft): random programs of them run plain, traced, interrupted and resumed at
every element, and (single instructions) as a vertical-first loop, and must end
in one state (the machinery of tests/svp64/test_svp64_one_behaviour.py)."""
import re

from hypothesis import HealthCheck, given, settings, strategies as st

from isa_ext.svp64 import svstate as SV
from test_svp64_one_behaviour import M64, _enabled, all_modes, draw_line, step_mods_for

# (template, VF-able) as in test_svp64_one_behaviour.TEMPLATES: destinations
# from r80 / CR8; a CR0 result is not VF-able (the loop's svstep. writes CR0)
TEMPLATES = [
    ("sv.bpermd{p} *80, *40, *60", True),
    ("sv.addex{p} *80, *40, *60, 0", True),
    ("sv.brd{t}{v} *80, *40", True),
    ("sv.brh{t} *80, *40", True),
    ("sv.cdtbcd{t} *80, *40", True),
    ("sv.addg6s{p} *80, *40, *60", True),
    ("sv.avgadd{p}{w}{v} *80, *40, *60", True),
    ("sv.absdu{p}{w} *80, *40, *60", True),
    ("sv.absdacu{p} *80, *40, *60", True),
    ("sv.absds. *80, *40, *60", False),
    ("sv.cprop{p}{w} *80, *40, *60", True),
    ("sv.sadd{p} *80, *40, *60, 2", True),
    ("sv.ternlogi{p} *80, *40, *60, 0x96", True),
    ("sv.binlog{p} *80, *40, *60, *20, 1", True),
    ("sv.bmask{p}{w} *80, *40, *60, 10, 1", True),
    ("sv.mffpr{t} *80, *40", True),
    ("sv.fishmv{t} *80, 0x1234", True),
]


@st.composite
def programs(draw):
    n = draw(st.integers(1, 2))
    lines, vf_ok, step_mods = [], True, ""
    for _ in range(n):
        line, ok, step_mods = draw_line(draw, TEMPLATES, ["", "/vec2", "/vec3"])
        lines.append(line)
        vf_ok = vf_ok and ok
    vl = draw(st.integers(0, 6))
    svstate = SV.make(maxvl=max(vl, 1), vl=vl)
    words = st.integers(0, M64)
    init = {"svstate": svstate,
            "gpr": {r: draw(words) for r in list(range(1, 50)) + list(range(51, 128))},
            "fpr": {r: draw(words) for r in range(32, 128)}}
    vf_ok = vf_ok and n == 1 and vl and all(
        _enabled(expr, init["gpr"], vl) for expr in re.findall(r"m=(~?r\d+)", step_mods))
    return lines, init, (step_mods if vf_ok else None)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(prog=programs())
def test_every_mode_gives_the_same_state(svisa, prog):
    lines, init, vf_mods = prog
    if vf_mods is not None:
        vf_mods = step_mods_for(svisa, lines[0], vf_mods)
    all_modes(svisa, lines, init, vf_mods)
