"""`isa-ext run --vsr/--vr` and the vector registers in its report.
Expected values by hand: xxlor is a bitwise OR of whole VSRs, vadduwm adds
word elements modulo 2^32, mfvsrld copies doubleword 1 (Power ISA v3.1)."""
import json

import pytest

from isa_ext.cli import main

PROGRAM = "xxlor vs1,vs2,vs3\nvadduwm v4,v5,v6\nmfvsrld r3,vs1\n"


def test_vsr_and_vr_settings_and_the_json_report(tmp_path, capsys):
    src = tmp_path / "p.s"
    src.write_text(PROGRAM)
    assert main(["run", str(src), "--json",
                 "--vsr", "vs2=0x10000000000000000000000000000001,vs3=0x2",
                 "--vr", "v5=0xffffffff00000001,v6=1"]) == 0
    out = json.loads(capsys.readouterr().out)
    ch = out["changed_registers"]
    assert ch["vs1"]["after"] == "0x10000000000000000000000000000003"
    assert ch["f1"]["after"] == "0x1000000000000000"   # doubleword 0 of vs1
    assert ch["v4"]["after"] == "0xffffffff00000002"   # (0xffffffff + 1 wraps)
    assert ch["r3"]["after"] == "0x3"


def test_vs32_up_is_v0_up(tmp_path, capsys):
    src = tmp_path / "p.s"
    src.write_text("vor v1,v2,v2\n")
    assert main(["run", str(src), "--json", "--vsr", "vs34=0x1234"]) == 0
    assert json.loads(capsys.readouterr().out)["changed_registers"]["v1"]["after"] == "0x1234"


@pytest.mark.parametrize("args,message", [
    (["--vsr", "vs64=1"], "no register vs64"),
    (["--vr", "v32=1"], "no register v32"),
    (["--vr", "v1=0x1" + "0" * 32], "does not fit in 128 bits"),
    (["--gpr", "vs1=3"], "use --vsr vs1=3"),
    (["--spr", "vscr=0x100000000"], "does not fit in 32 bits"),
])
def test_bad_vector_settings_are_refused(tmp_path, capsys, args, message):
    src = tmp_path / "p.s"
    src.write_text(PROGRAM)
    assert main(["run", str(src), *args]) != 0
    assert message in capsys.readouterr().err
