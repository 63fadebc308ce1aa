"""The element trace under REMAP: every element event carries ``remap``, the
element each remapped operand slot uses at that step ({"in1": 3, "out": 5}),
and ``isa-ext run --trace`` prints it (``remap=in1:3,out:5``).

Programs use svindex (Indexed REMAP, test_caller_svindex.py's form) with the
indices IDXS = [1, 0, 5, 2, 4, 3] in r16..r21: a remapped slot's element at
step i is IDXS[i] (remap.mdwn: each step's index is run through the schedule).
"""
import re

from isa_ext.cli import main
from isa_ext.sim import Simulator
from isa_ext.svp64 import svstate as SV

IDXS = [1, 0, 5, 2, 4, 3]
SETUP = ["setvl 0, 0, 6, 0, 1, 1"] + [f"addi {16 + i}, 0, {v}" for i, v in enumerate(IDXS)]


def _events(isa, lines, gpr=None):
    sim = Simulator(isa=isa)
    sim.load_asm("\n".join(lines) + "\n")
    for r, v in (gpr or {}).items():
        sim.state.gpr[r] = v
    events = []
    sim.tracer = events.append
    res = sim.run(max_steps=50)
    assert res.stop == "end", res.trap
    return [e for e in events if e["type"] == "element"]


def test_events_carry_the_remapped_elements(svisa):
    # RA (mi0) and RT (mo0) both on SVSHAPE0 = IDXS: step i uses element IDXS[i]
    ev = _events(svisa, SETUP + ["svindex 8, 1, 1, 0, 0, 0, 0", "svremap 9, 0, 0, 0, 0, 0, 0",
                                 "sv.add *8, *0, *0"])
    assert [e["remap"] for e in ev] == [{"in1": k, "out": k} for k in IDXS]


def test_predicated_events_name_their_steps_elements(svisa):
    # predicate r30 = 0b000111: steps 0, 1, 2 run; RT at IDXS[0..2]
    ev = _events(svisa, SETUP + ["svindex 8, 8, 1, 0, 0, 0, 0", "sv.add/m=r30 *8, *0, *0"],
                 {30: 0b000111})
    assert [(e["dststep"], e["remap"]) for e in ev] == [(0, {"out": 1}), (1, {"out": 0}),
                                                        (2, {"out": 5})]


def test_twin_predicated_destination_follows_dststep(svisa):
    # sm = r3 (steps 0, 1), dm = r30 (steps 2, 3): RT's element is IDXS[dststep]
    ev = _events(svisa, SETUP + ["svindex 8, 8, 1, 0, 0, 0, 0", "sv.extsw/sm=r3/dm=r30 *8, *0"],
                 {3: 0b11, 30: 0b1100})
    assert [(e["srcstep"], e["dststep"], e["remap"]) for e in ev] == \
        [(0, 2, {"out": 5}), (1, 3, {"out": 2})]


def test_no_remap_no_field(svisa):
    ev = _events(svisa, SETUP + ["sv.add *8, *0, *0"])
    assert len(ev) == 6 and all("remap" not in e for e in ev)


def test_run_trace_prints_remap(tmp_path, capsys):
    src = tmp_path / "p.s"
    src.write_text("\n".join(SETUP + ["svindex 8, 1, 1, 0, 0, 0, 0", "sv.add *8, *0, *0"])
                   + "\n")
    assert main(["run", str(src), "--trace"]) == 0
    out = capsys.readouterr().out
    assert re.findall(r"^ +elem .* remap=in1:(\d+)", out, re.M) == [str(k) for k in IDXS]
