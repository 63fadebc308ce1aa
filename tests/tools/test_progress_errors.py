"""Progress and errors (issue 18 item 4): a progress bar only when stderr is a
terminal, Ctrl-C saying where long work stopped, one-line usage errors with
near-miss suggestions, and no traceback from any sub-command on garbage
arguments."""
import argparse
import io
import os
import re
import signal
import subprocess
import sys
import time

import pytest

from isa_ext.cli import build_parser, main
from isa_ext.progress import Progress

from conftest import ROOT

# "loop: addi 3,3,1 / b loop": two steps per iteration, so after N steps
# (N even) r3 = N / 2
LOOP = "loop:\n addi 3, 3, 1\n b loop\n"


def test_progress_message_and_interrupt_line():
    out = io.StringIO()
    with pytest.raises(KeyboardInterrupt):
        with Progress("diffcheck", total=10, unit="cases", stream=out) as p:
            assert not p.enabled  # a StringIO is not a terminal: no bar
            p.advance(3, where="1 ELF(s)")
            raise KeyboardInterrupt
    assert out.getvalue() == \
        "isa-ext: interrupted (Ctrl-C) in diffcheck after 3/10 cases (1 ELF(s))\n"


def test_no_bar_when_stderr_is_not_a_terminal(tmp_path, capsys):
    src = tmp_path / "p.s"
    src.write_text(" setvl 0, 0, 2, 0, 1, 1\n sv.add *8, *8, *16\n")
    assert main(["hfvf", str(src)]) == 0
    assert capsys.readouterr().err == ""


def _run_on_a_terminal(argv):
    """Run ``isa-ext ARGV`` with stderr on a pseudo-terminal: (exit code,
    stdout, what the terminal got)."""
    import pty
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "isa_ext.cli", *argv], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=slave, text=True)
    os.close(slave)
    out = proc.communicate(timeout=300)[0]
    seen = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the other end is closed
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    return proc.returncode, out, seen.decode("utf-8", "replace")


def test_long_run_shows_a_bar_on_a_terminal_and_the_same_result(tmp_path):
    src = tmp_path / "loop.s"
    src.write_text(LOOP)
    # 2,500,000 steps: three chunks of the progress loop (1,000,000 each), the
    # last one short; r3 = 1,250,000 = 0x1312d0; the step limit exits 124
    argv = ["run", str(src), "--max-steps", "2500000"]
    code, out, terminal = _run_on_a_terminal(argv)
    assert code == 124
    assert "steps: 2500000" in out and re.search(r"r3 +0x0 -> 0x1312d0", out)
    assert "run" in terminal and "steps" in terminal  # the bar's description and unit
    plain = subprocess.run([sys.executable, "-m", "isa_ext.cli", *argv], cwd=ROOT,
                           capture_output=True, text=True, timeout=300)
    assert plain.returncode == 124 and plain.stdout == out and plain.stderr == ""


def test_ctrl_c_in_hfvf_says_where_it_stopped(tmp_path):
    # an SVP64 loop that runs until --max-steps: Ctrl-C finds it in the loop
    src = tmp_path / "loop.s"
    src.write_text(" setvl 0, 0, 2, 0, 1, 1\nloop:\n sv.add *8, *8, *16\n b loop\n")
    proc = subprocess.Popen([sys.executable, "-m", "isa_ext.cli", "hfvf", str(src),
                             "--max-steps", str(10**9)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(5)
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    m = re.search(r"^isa-ext: interrupted \(Ctrl-C\) in hfvf after (\d+)/1000000000 steps "
                  r"\(pc 0x10(04|0c), 1 compared\)$", err, re.M)
    assert m and int(m.group(1)) > 0, err
    assert "Traceback" not in err


# -- usage errors: one line, with a suggestion for a near-miss name ------------

def _usage_error(capsys, argv):
    try:
        code = main(argv)
    except SystemExit as e:
        code = e.code
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert err.count("\n") == 1, err
    return err


@pytest.mark.parametrize("argv, hint", [
    (["pseudo", "show", "sv.addd"], "(did you mean add?)"),
    (["pseudo", "show", "lii"], "(did you mean li?)"),
    (["openpower", "check", "swizle"], "(did you mean swizzle?)"),
    (["diffcheck", "--only", "subfx", "--cases", "1"], "(did you mean subf"),
    (["diffcheck", "--against", "isacaler"], "did you mean isacaller?"),
    (["hfvf", "x.s", "--json", "--deeps"], "unrecognized arguments: --deeps"),
])
def test_near_miss_names_get_a_suggestion(capsys, argv, hint):
    assert hint in _usage_error(capsys, argv)


def test_diffcheck_isacaller_only_names_are_checked(capsys, monkeypatch):
    # the ISACaller campaign checks --only names before it needs ISACaller
    monkeypatch.setenv("ISA_EXT_ISACALLER", "/nonexistent-isacaller")
    err = _usage_error(capsys, ["diffcheck", "--against", "isacaller", "--only", "addd",
                                "--cases", "1"])
    assert "'addd' (did you mean add?)" in err


@pytest.mark.parametrize("argv", [["pseudo"], ["openpower"]])
def test_a_missing_action_is_one_line(capsys, argv):
    assert "missing" in _usage_error(capsys, argv)


# -- no traceback from any sub-command on garbage arguments ---------------------

def _leaves():
    """{"pseudo show": parser, ...}: every sub-command that runs something."""
    out = {}

    def walk(parser, name):
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if name:
            out[name] = parser
        for a in subs:
            for sub_name, sub in a.choices.items():
                walk(sub, f"{name} {sub_name}".strip())
    walk(build_parser(), "")
    return out


# a positional for each sub-command that makes it fail fast (a missing file,
# an unknown name) while the garbage under test is checked; None: it has none
MISSING = "/nonexistent-h18/prog.s"
POSITIONAL = {"asm": [MISSING], "diag": [MISSING], "disasm": [MISSING],
              "gdbserver": [MISSING], "hfvf": [MISSING], "run": [MISSING],
              "pseudo show": ["zz-no-such"], "openpower test": [MISSING],
              "openpower check": ["zz-no-such"], "openpower install": ["zz-no-such"],
              "openpower uninstall": ["zz-no-such"],
              "check-spec": None, "diffcheck": None, "hdl": None, "spec": None,
              "pseudo": None, "openpower": None}


FILE_COMMANDS = ("asm", "diag", "disasm", "gdbserver", "hfvf", "run")


def test_every_sub_command_is_in_the_garbage_table():
    assert set(_leaves()) == set(POSITIONAL)


def _garbage_argvs(name, parser):
    """Argument lists a user might type by mistake: unknown options, values
    argparse or the command must refuse, odd names and paths."""
    head = name.split()
    pos = POSITIONAL[name] or []
    argvs = [head + pos + ["--frob"], head + pos + ["-"]]
    for a in parser._actions:
        if not a.option_strings or a.nargs == 0 or isinstance(a, argparse._HelpAction):
            continue
        if a.type is None and a.choices is None:
            continue  # any text is a valid value (a name, a directory)
        for bad in ("zz", "", "-5", "0x", "1e999"):
            if POSITIONAL[name] is None and bad in ("-5",):
                continue  # a valid number would start the real work
            argvs.append(head + pos + [a.option_strings[0], bad])
    if name in FILE_COMMANDS:
        argvs += [head + ["", "--max-steps", "10"] if name in ("run", "diag") else head + [""],
                  head + ["/"], head + ["x" * 5000]]
    elif POSITIONAL[name]:
        argvs += [head + ["x" * 5000], head + ["-x"]]
    return argvs


@pytest.mark.parametrize("name", sorted(POSITIONAL))
def test_no_traceback_from_garbage_arguments(name, capsys):
    parser = _leaves()[name]
    for argv in _garbage_argvs(name, parser):
        if argv[:2] == ["openpower", "install"] or argv[:2] == ["openpower", "uninstall"]:
            if "--root" not in argv:
                argv = argv + ["--root", "/nonexistent-h18"]  # never touch a real checkout
        try:
            code = main(argv)  # any exception but SystemExit fails the test
        except SystemExit as e:
            code = e.code
        err = capsys.readouterr().err
        assert "Traceback" not in err, argv
        assert code in (1, 2), (argv, code, err)
        # one line saying what is wrong (diffcheck --c prints the suite's lines first)
        assert err.strip() and err.strip().count("\n") == 0, (argv, err)


def test_non_utf8_file_names(tmp_path):
    # a file name that is not UTF-8 (Linux allows any bytes): the error names it
    # (Python shows the byte as \udcff) without a traceback
    name = os.path.join(os.fsencode(str(tmp_path)), b"bad\xffname.s")
    with open(name, "wb") as f:
        f.write(b" li 3, 1\n frob 3\n")
    for command in ("run", "asm", "diag", "hfvf"):
        r = subprocess.run([sys.executable, "-m", "isa_ext.cli", command, name], cwd=ROOT,
                           capture_output=True, timeout=120)
        err = r.stderr.decode("utf-8", "replace")
        assert r.returncode == 2 and "Traceback" not in err, (command, err)
        assert err.count("\n") == 1 and "name.s:2:2: error: unknown mnemonic 'frob'" in err


def test_diffcheck_shows_a_bar_on_a_terminal():
    # issue 18: "diffcheck silent for 14 s".  20 cases: the bar's description
    # and unit reach the terminal; stdout keeps only the report
    from conftest import need_tool
    for name in ("powerpc64le-linux-gnu-as", "powerpc64le-linux-gnu-ld", "qemu-ppc64le"):
        need_tool(name)
    code, out, terminal = _run_on_a_terminal(["diffcheck", "--cases", "20", "--seed", "1"])
    assert code == 0 and out.startswith("cases run: 20 ")
    assert "diffcheck" in terminal and "cases" in terminal
