"""Element trace events of sv.mv.swiz (one per group, SVP64 event format)."""
import re

from isa_ext.cli import main
from isa_ext.sim import Simulator
from isa_ext.svp64 import svstate as SV


def test_swiz_groups_traced():
    # sv.mv.swiz/vec4/svec4 *8, *16, "WZYX", VL=2, 64-bit elements: group g reads
    # r16+4g..r19+4g and writes r8+4g..r11+4g (non-planar: element g*4+i)
    sim = Simulator()
    sim.load_asm(' sv.mv.swiz/vec4/svec4 *8, *16, "WZYX"\n')
    sim.state.svstate = SV.make(maxvl=2, vl=2)
    for i in range(8):
        sim.state.gpr[16 + i] = i + 1
    events = []
    sim.tracer = events.append
    r = sim.run()
    assert r.stop == "end", r.trap
    el = [e for e in events if e["type"] == "element"]
    assert [(e["srcstep"], e["dststep"]) for e in el] == [(0, 0), (1, 1)]
    assert el[0]["reads"] == {"RAp": [16, 17, 18, 19]}
    assert el[0]["writes"] == {"RTp": [8, 9, 10, 11]}
    assert el[1]["writes"] == {"RTp": [12, 13, 14, 15]}
    assert all(e["mnemonic"] == "sv.mv.swiz" for e in el)
    # WZYX reverses each group: r8..r11 = 4 3 2 1
    assert r.gpr[8:12] == [4, 3, 2, 1]


def test_swiz_trace_cli(tmp_path, capsys):
    p = tmp_path / "s.s"
    p.write_text(' setvl 0, 0, 2, 0, 1, 1\n sv.mv.swiz/vec4/svec4 *8, *16, "WZYX"\n')
    assert main(["run", str(p), "--trace"]) == 0
    out = capsys.readouterr().out
    lines = re.findall(r"^ +elem src=\d+ dst=(\d+) ", out, re.M)
    assert lines == ["0", "1"]


def _svstep_run(line):
    """The decoded SVSTATE and CR0 after ``line`` ran once in VF mode, VL 4."""
    sim = Simulator()
    sim.load_asm(f" {line}\n")
    sim.state.svstate = SV.make(maxvl=4, vl=4, vfirst=1)
    r = sim.run()
    assert r.stop == "end", r.trap
    return SV.decode(r.state.svstate), r.state.cr[0]


def _svstep_once(line):
    d, cr0 = _svstep_run(line)
    return d["vl"], d["srcstep"], d["vfirst"], cr0


def test_vf_svstep_fail_first_truncates():
    # VF, steps 0, VL 4.  svstep. advances to step 1 and records CR0 = 0b000 || end
    # = 0 (SO clear; the page writes CR0 itself: the Rc=1 fail-first table applies).  Control: no fail-first -> steps 1, VL 4, still VF.
    assert _svstep_once("sv.svstep. 0, 0, 0, 0") == (4, 1, 1, 0)
    # /ff=ns hits (SO = 0): VL truncated to the element that ran (step 0) -> 0; the
    # advanced step 1 is past the new VL, so the loop ends (steps reset, VF left)
    assert _svstep_once("sv.svstep./ff=ns 0, 0, 0, 0") == (0, 0, 0, 0)
    # with VLi: VL = 1; step 1 reaches it -> loop ends as well
    assert _svstep_once("sv.svstep./ff=ns/vli 0, 0, 0, 0") == (1, 0, 0, 0)
    # /ff=so does not hit (SO = 0): as the control
    assert _svstep_once("sv.svstep./ff=so 0, 0, 0, 0") == (4, 1, 1, 0)


def test_vf_svstep_fail_first_on_a_sub_element_keeps_the_loop():
    # VF, steps 0, VL 4, SUBVL 2.  svstep. advances to sub-element 1 of element
    # 0 (control: steps 0/0, substeps 1/1, VL 4).  /ff=ns/vli hits on element 0's
    # first sub-element: with VLi VL counts the failing group, VL = 0 + 1 = 1
    # (docs/svp64.md "Fail-first with SUBVL>1").  The advanced srcstep and
    # dststep (0) are both below the new VL, so the loop is not at its end
    # (docs/svp64.md: it ends when one is "at or past the new VL"): VF stays on
    # at substeps 1/1.  (ISACaller gives VL 0 here: docs/compat.md.)
    def once(line):
        d = _svstep_run(line)[0]
        return tuple(d[k] for k in ("vl", "srcstep", "dststep", "ssubstep", "dsubstep",
                                    "vfirst"))
    assert once("sv.svstep./vec2 0, 0, 0, 0") == (4, 0, 0, 1, 1, 1)
    assert once("sv.svstep./ff=ns/vli/vec2 0, 0, 0, 0") == (1, 0, 0, 1, 1, 1)
