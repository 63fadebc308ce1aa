"""``isa-ext hfvf``: the report names colliding elements and cause classes; the
documented exit statuses (docs/hfvf.md): 0 agree, 3 legal difference,
4 UNDEFINED, 5 bug, 1 the program itself did not end, 2 bad input.  The
expected verdicts are the hand derivations of tests/svp64/test_hfvf.py and seed 001."""
import json
import sys

import pytest

from conftest import required_missing
from isa_ext.cli import main

SWIZ_OVERLAP = 'setvl 0,0,2,0,1,1\nsv.mv.swiz/vec2 *8, *8, "XY"\n'
PRED_CHAIN = "setvl 0,0,4,0,1,1\nsv.add/m=~r3 *1, *0, *0\n"
DISJOINT = "setvl 0,0,4,0,1,1\nsv.add *8, *16, *24\n"


def run(tmp_path, capsys, source, *args):
    prog = tmp_path / "prog.s"
    prog.write_text(source)
    status = main(["hfvf", str(prog), *args])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


def test_overlap_names_elements_and_cause(tmp_path, capsys):
    status, out, _ = run(tmp_path, capsys, SWIZ_OVERLAP)
    assert status == 4
    assert "swizzle group overlap" in out and "r8, r9, r10, r11" in out
    # the colliding elements (seed 001 pack walk, VL=2: source planar, group g's
    # sub-element k is element k*2 + g; destination interleaved, g*2 + k): r9 is
    # source element 1 (group 1, X) and destination element 1 (group 0, Y)
    assert "r9 read by group 1 (RAp[1]), written by group 0 (RTp[1])" in out
    assert "verdict: UNDEFINED" in out


def test_legal_difference_names_register_and_cause(tmp_path, capsys):
    status, out, _ = run(tmp_path, capsys, PRED_CHAIN, "--gpr", "r0=1,r4=0x55", "--deps")
    assert status == 3
    # r4: 16 horizontal-first, 0x55 vertical-first (tests/svp64/test_hfvf.py derivation)
    assert "r4         0x10 / 0x55  (HF step 3 RT[3]; predicate or VL changed inside " \
        "the loop" in out
    assert "PRED: step 2 writes r3" in out
    assert "RAW: step 1 (RA[1]) reads what step 0 (RT[0]) wrote in r1" in out


def test_agreement(tmp_path, capsys):
    status, out, _ = run(tmp_path, capsys, DISJOINT, "--gpr", "r16=1")
    assert status == 0
    assert "HF and VF end in the same state" in out and "result: agree" in out


def test_bug_exit_status(tmp_path, capsys, monkeypatch):
    # a difference no cause explains is a bug (exit 5): simulated by taking the
    # causes away from the predicate chain's legal difference
    from isa_ext.hfvf import classify
    monkeypatch.setattr(classify, "causes_of", lambda *a: [])
    status, out, _ = run(tmp_path, capsys, PRED_CHAIN, "--gpr", "r0=1,r4=0x55")
    assert status == 5
    assert "(HF step 3 RT[3]; no cause found)" in out and "verdict: bug" in out


def test_json(tmp_path, capsys):
    status, out, _ = run(tmp_path, capsys, PRED_CHAIN, "--gpr", "r0=1", "--json")
    doc = json.loads(out)
    assert status == doc["exit_status"] == 3
    (item,) = doc["instructions"]
    assert item["pc"] == 0x1004 and item["verdict"] == "legal difference"
    assert [d["register"] for d in item["differences"]] == ["r4"]
    assert {c["class"] for c in item["causes"]} >= {"predicate-changed"}
    assert item["dependencies"]["steps"][2]["writes"][0]["register"] == "r3"


def test_only(tmp_path, capsys):
    two = DISJOINT + "sv.add *1, *0, *0\n"
    status, out, _ = run(tmp_path, capsys, two, "--only", "0x100c", "--gpr", "r0=1")
    assert status == 0
    assert "0x100c: sv.add *1, *0, *0" in out and "0x1004" not in out
    status, _, err = run(tmp_path, capsys, two, "--only", "0x2000")
    assert status == 2 and "no SVP64 instruction ran at 0x2000" in err


def test_program_that_does_not_end(tmp_path, capsys):
    # everything compared agrees, but the program then traps (an illegal word)
    status, out, _ = run(tmp_path, capsys, DISJOINT + ".long 0\n")
    assert status == 1 and "program: stopped (trap)" in out


@pytest.mark.parametrize("source, args, message", [
    ("sv.add *1, *0\n", (), "prog.s:1:1: error:"),
    (DISJOINT, ("--spr", "svstate"), "bad SPR setting"),
    (DISJOINT, ("--spr", "nosuch=1"), "unknown SPR 'nosuch'"),
    (DISJOINT, ("--gpr", "r200=1"), "no register r200"),
])
def test_bad_input(tmp_path, capsys, source, args, message):
    status, _, err = run(tmp_path, capsys, source, *args)
    assert status == 2 and message in err


def test_picture_without_matplotlib(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import fails
    status, _, err = run(tmp_path, capsys, SWIZ_OVERLAP, "--picture", str(tmp_path / "x.png"))
    assert status == 2 and "pip install 'isa_ext[picture]'" in err


def test_picture_suffix(tmp_path, capsys):
    status, _, err = run(tmp_path, capsys, SWIZ_OVERLAP, "--picture", str(tmp_path / "x.jpg"))
    assert status == 2 and "written as .png or .svg" in err


def test_both_runs_trap(tmp_path, capsys):
    # a vector running past r127 traps before any element (docs/svp64.md), both ways
    status, out, _ = run(tmp_path, capsys, "setvl 0,0,4,0,1,1\nsv.add *126, *8, *8\n")
    assert "note: both runs trap:" in out and "runs past r127" in out
    assert status == 1  # the program itself then traps


def test_picture_cells_mark_collisions():
    from isa_ext.hfvf import compare
    from isa_ext.hfvf.picture import cells
    item = compare("setvl 0,0,3,0,1,1\nsv.add *1, *0, *0\n", gpr={0: 1}).compared[0]
    grid = cells(item.dependencies)
    # step 0 writes r1, step 1 reads it (RAW); r0 and r3 collide with nothing
    assert grid[(0, "r1")] == (False, True, {"RAW"})
    assert grid[(1, "r1")] == (True, False, {"RAW"})
    assert grid[(0, "r0")] == (True, False, set())
    assert grid[(2, "r3")] == (False, True, set())


@pytest.mark.parametrize("suffix, magic", [(".png", b"\x89PNG"), (".svg", b"<?xml")])
def test_picture(tmp_path, capsys, suffix, magic):
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        required_missing("matplotlib not installed (pip install 'isa_ext[picture]'; "
                         ".ci/run does)")
    path = tmp_path / f"deps{suffix}"
    status, _, _ = run(tmp_path, capsys, SWIZ_OVERLAP, "--picture", str(path))
    assert status == 4
    assert path.read_bytes().startswith(magic)


def test_fpr_option(tmp_path, capsys):
    # sv.fadd *8, *16, *24, VL=2, f16 = 1.5, f24 = 2.25: f8 = 3.75 both ways
    # (0x400E000000000000 is 3.75 as a double)
    status, out, _ = run(tmp_path, capsys, "setvl 0,0,2,0,1,1\nsv.fadd *8, *16, *24\n",
                         "--fpr", "f16=1.5,f24=2.25", "--json")
    doc = json.loads(out)
    assert status == 0 and doc["verdict"] == "agree"
    (item,) = doc["instructions"]
    assert item["dependencies"]["steps"][0]["writes"][0]["register"] == "f8"
    from isa_ext.hfvf import compare
    api = compare("setvl 0,0,2,0,1,1\nsv.fadd *8, *16, *24\n",
                  fpr={16: 0x3FF8000000000000, 24: 0x4002000000000000}).compared[0]
    assert api.hf_state.fpr[8] == api.vf_state.fpr[8] == 0x400E000000000000
