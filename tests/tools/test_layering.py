"""The layering check (isa_ext/tools/layering.py): the core imports nothing
from isa_ext.compat, the word "isacaller" stays under compat/ (no
exceptions), and no function in svp64/ or translate/ runs over 80 lines
unless listed with a reason."""
import shutil
import subprocess
import sys

from conftest import ROOT


def _run(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "isa_ext.tools.layering", *args],
                          capture_output=True, text=True, cwd=cwd)


def test_the_package_passes():
    r = _run()
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.rstrip().endswith("layering: ok")


def _copy(tmp_path):
    shutil.copytree(f"{ROOT}/isa_ext", tmp_path / "isa_ext",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def _append(path, text):
    with open(path, "a", encoding="utf-8") as f:
        f.write(text)


def test_a_direct_import_from_compat_fails(tmp_path):
    root = _copy(tmp_path)
    # a lazy import inside a function counts too
    _append(root / "isa_ext/pseudocode/fp.py",
            "\n\ndef _planted():\n    from ..compat.dialect import helpers\n")
    r = _run("--root", str(root))
    assert r.returncode == 1
    assert "isa_ext.pseudocode.fp -> isa_ext.compat.dialect.helpers" in r.stdout.splitlines()


def test_an_import_through_a_non_core_module_fails(tmp_path):
    root = _copy(tmp_path)
    # machine_options (a CLI module) imports compat.root: the core reaching it
    # through that module is reported with the chain
    _append(root / "isa_ext/svp64/steps.py", "\nfrom ..commands import machine_options\n")
    r = _run("--root", str(root))
    assert r.returncode == 1
    assert "isa_ext.svp64.steps -> isa_ext.commands.machine_options -> isa_ext.compat.root" \
        in r.stdout.splitlines()
    # reported once, by the core module that leaves the core, not by every
    # core module importing steps
    assert not any(line.startswith("isa_ext.sim ->") for line in r.stdout.splitlines())


def test_absolute_imports_count(tmp_path):
    root = _copy(tmp_path)
    _append(root / "isa_ext/machine.py", "\nimport isa_ext.compat.root\n")
    r = _run("--root", str(root))
    assert r.returncode == 1
    assert "isa_ext.machine -> isa_ext.compat.root" in r.stdout.splitlines()


def test_the_word_outside_compat_fails(tmp_path):
    root = _copy(tmp_path)
    _append(root / "isa_ext/sim.py", "\n# as ISACaller does\n")
    r = _run("--root", str(root))
    assert r.returncode == 1
    assert "isa_ext/sim.py: isacaller (only isa_ext/compat/ may name it)" in r.stdout
    # compat/ itself may name it
    (root / "isa_ext/sim.py").write_text(
        (root / "isa_ext/sim.py").read_text().replace("# as ISACaller does\n", ""))
    _append(root / "isa_ext/compat/root.py", "\n# ISACaller\n")
    assert _run("--root", str(root)).returncode == 0


def test_the_word_list_is_compats(tmp_path):
    # the words come from compat's OWNED_WORDS: a new one is enforced at once
    root = _copy(tmp_path)
    _append(root / "isa_ext/compat/__init__.py", '\nOWNED_WORDS = ("isacaller", "gem5")\n')
    _append(root / "isa_ext/svp64/steps.py", "\n# as gem5 does\n")
    r = _run("--root", str(root))
    assert r.returncode == 1
    assert "isa_ext/svp64/steps.py: gem5 (only isa_ext/compat/ may name it)" in r.stdout


def _long_function(lines):
    body = "".join(f"    x{i} = {i}\n" for i in range(lines - 2))
    return f"\n\ndef _planted():\n{body}    return 0\n"


def test_a_long_function_fails_unless_listed(tmp_path, monkeypatch, capsys):
    # in-process: the tool's main() on a copy (no subprocess per run)
    from isa_ext.tools import layering
    root = _copy(tmp_path)

    def run():
        status = layering.main(["--root", str(root)])
        return status, capsys.readouterr().out

    # 80 lines pass, 81 fail
    _append(root / "isa_ext/svp64/steps.py", _long_function(80))
    assert run()[0] == 0
    _append(root / "isa_ext/translate/svp64.py", _long_function(81).replace("_planted", "_long"))
    status, out = run()
    assert status == 1
    assert any(line.startswith("isa_ext/translate/svp64.py:") and " _long: 81 lines" in line
               for line in out.splitlines()), out
    # a method counts with its class's name
    _append(root / "isa_ext/svp64/steps.py",
            "\n\nclass _Planted:" + _long_function(90).replace("\n", "\n    ").rstrip() + "\n")
    status, out = run()
    assert any(" _Planted._planted: 90 lines" in line for line in out.splitlines()), out
    # listed with a reason, it passes; an entry that matches nothing is a note
    monkeypatch.setattr(layering, "LONG_FUNCTIONS", {
        **layering.LONG_FUNCTIONS, "isa_ext/translate/svp64.py:_long": "planted",
        "isa_ext/svp64/steps.py:_Planted._planted": "planted",
        "isa_ext/svp64/steps.py:_gone": "planted"})
    status, out = run()
    assert status == 0, out
    assert "note: isa_ext/svp64/steps.py:_gone is no longer over 80 lines" in out


def test_bad_root_is_one_line(tmp_path):
    r = _run("--root", str(tmp_path))
    assert r.returncode == 2
    assert r.stderr.strip().endswith("no isa_ext/ folder") and "Traceback" not in r.stderr
