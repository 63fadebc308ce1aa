"""`isa-ext run` and UNDEFINED behaviour: strict by default, --permissive records.

The program is a horizontal-first in-place sv.mv.swiz over a vec4 group at r16
(seed 001: any overlap of source and destination elements over 0..VL-1 in
horizontal-first mode is UNDEFINED)."""
from isa_ext.cli import main
from isa_ext.encoding import encode

from test_swizzle_svp64 import sv_program


def _write_program(isa, tmp_path):
    # setvl 0,0,2,0,1,1: MAXVL = VL = 2 (golden form: "setvl 0,0,8,0,1,1")
    words = [encode(isa, "setvl", RT=0, RA=0, VLi=1, vf=0, vs=1, ms=1)]
    words += sv_program(isa, "mv.swiz", 4, 4, "WZYX", subvl=4, src_subvl=4)
    path = tmp_path / "overlap.bin"
    path.write_bytes(b"".join(w.to_bytes(4, "little") for w in words))
    return path


def test_strict_run_stops_on_undefined_behaviour(isa, tmp_path, capsys):
    path = _write_program(isa, tmp_path)
    assert main(["run", str(path)]) == 132  # a trap: 128 + SIGILL
    out = capsys.readouterr().out
    assert "stop: trap" in out and "(undefined)" in out and "hf-overlap" in out


def test_permissive_run_finishes_and_lists_the_diagnostic(isa, tmp_path, capsys):
    path = _write_program(isa, tmp_path)
    assert main(["run", str(path), "--permissive"]) == 0
    out = capsys.readouterr().out
    assert "stop: end" in out
    assert "diagnostics: 1" in out and "hf-overlap: 1 time(s)" in out
