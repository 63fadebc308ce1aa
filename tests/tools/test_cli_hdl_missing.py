"""`isa-ext hdl` without amaranth installed: a clear message, exit 2, no traceback."""
import builtins
import sys

from isa_ext.cli import main


def test_hdl_without_amaranth_names_the_extra(tmp_path, monkeypatch, capsys):
    real_import = builtins.__import__

    def no_amaranth(name, *args, **kwargs):
        if name == "amaranth" or name.startswith("amaranth."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return real_import(name, *args, **kwargs)
    for mod in [m for m in sys.modules if m == "amaranth" or m.startswith("amaranth.")
                or m == "isa_ext.ext.swizzle.hdl"]:
        monkeypatch.delitem(sys.modules, mod)
    monkeypatch.setattr(builtins, "__import__", no_amaranth)
    assert main(["hdl", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "needs amaranth" in err and "isa_ext[hdl]" in err and "Traceback" not in err
