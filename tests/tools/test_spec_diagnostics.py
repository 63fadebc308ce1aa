"""Diagnostics report: formatting helpers and ``isa-ext diag``."""
from isa_ext import diagnostics
from isa_ext.cli import main
from isa_ext.diagnostics import Diagnostic, diagnostics_as_dicts, format_diagnostics, summarize
from isa_ext.sim import Simulator

RECORDS = [Diagnostic("hf-overlap", 0x1004, "destination overlaps source", {"rt": 4}),
           Diagnostic("reserved-value", 0x1008, "selector 0b001"),
           Diagnostic("hf-overlap", 0x100c, "destination overlaps source")]


def test_summary_counts_each_kind_in_order():
    assert summarize(RECORDS) == [("hf-overlap", 2, 0x1004), ("reserved-value", 1, 0x1008)]


def test_format_lists_kinds_and_records():
    text = format_diagnostics(RECORDS).splitlines()
    assert text[0] == "diagnostics: 3 (UNDEFINED or reserved behaviour met)"
    assert text[1] == "  hf-overlap: 2 time(s), first at pc=0x1004"
    assert text[2] == "  reserved-value: 1 time(s), first at pc=0x1008"
    assert text[3] == "  pc=0x1004 hf-overlap: destination overlaps source [rt=4]"
    assert len(text) == 6


def test_format_limits_records():
    many = [Diagnostic("x", 4 * i, "m") for i in range(30)]
    text = format_diagnostics(many, limit=5).splitlines()
    assert text[-1] == "  ... 25 more"
    assert sum(1 for line in text if line.startswith("  pc=")) == 5


def test_empty_and_dicts():
    assert format_diagnostics([]) == "diagnostics: none"
    assert diagnostics_as_dicts(RECORDS[:1]) == [
        {"kind": "hf-overlap", "pc": 0x1004, "message": "destination overlaps source",
         "details": {"rt": 4}}]


def test_report_reaches_the_run_result():
    sim = Simulator(extensions=["base"], strict=False)
    sim.load_words([0x38630001])  # addi 3,3,1
    diagnostics.report(sim, "reserved-value", 0x1000, "test record")
    res = sim.run()
    assert [d.kind for d in res.diagnostics] == ["reserved-value"]


def test_diag_command_clean_program(tmp_path, capsys):
    prog = tmp_path / "ok.s"
    prog.write_text("    addi 3,0,5\n")
    assert main(["diag", str(prog)]) == 0
    out = capsys.readouterr().out
    assert "stop: end after 1 step(s)" in out and "diagnostics: none" in out


def test_diag_command_reports_and_fails(tmp_path, capsys, monkeypatch):
    prog = tmp_path / "ub.s"
    prog.write_text("    addi 3,0,5\n")
    real_run = Simulator.run

    def run_meeting_ub(self, *a, **k):
        diagnostics.report(self, "hf-overlap", 0x1000, "injected")
        return real_run(self, *a, **k)

    monkeypatch.setattr(Simulator, "run", run_meeting_ub)
    assert main(["diag", str(prog)]) == 1
    out = capsys.readouterr().out
    assert "diagnostics: 1" in out and "pc=0x1000 hf-overlap: injected" in out


def test_diag_missing_program_is_bad_input(tmp_path, capsys):
    assert main(["diag", str(tmp_path / "nope.s")]) == 2
    assert "nope.s" in capsys.readouterr().err
