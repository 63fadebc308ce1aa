"""The command-line frictions of issue 18, each pinned: FPR floats, SPRs,
memory preload/dump, the guest's exit status and the documented exit codes,
--json, plain-text assembly, option range checks, clear errors with suggestions.

Expected values are hand-derived from the programs' semantics (Power ISA Book I),
stated beside each assertion."""
import json
import re
import struct

import pytest

from isa_ext.cli import main
from conftest import ROOT


def write(tmp_path, name, text):
    p = tmp_path / name
    if isinstance(text, bytes):
        p.write_bytes(text)
    else:
        p.write_text(text)
    return str(p)


def double_bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def usage_error(capsys, argv):
    """Run argv expecting a usage error: exit 2, one message, no traceback."""
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    # one line naming the problem and where help is, not argparse's usage block
    assert err.count("\n") == 1 and "--help)" in err, err
    return err


# -- FPRs ----------------------------------------------------------------------

def test_fpr_decimal_integer_is_a_float(tmp_path, capsys):
    # --fpr f1=1 means the double 1.0 (sign 0, biased exponent 1023 = 0x3ff,
    # fraction 0: 0x3ff0000000000000), not the raw bit pattern 0x1
    src = write(tmp_path, "t.s", "fmr f2, f1\n")
    assert main(["run", src, "--fpr", "f1=1"]) == 0
    assert "f2       0x0 -> 0x3ff0000000000000" in capsys.readouterr().out


def test_fpr_changes_are_shown_as_floats_too(tmp_path, capsys):
    # 1.5 + 1.5 = 3.0 (0x4008000000000000)
    src = write(tmp_path, "t.s", "fadd f2, f1, f1\n")
    assert main(["run", src, "--fpr", "f1=1.5"]) == 0
    assert "f2       0x0 -> 0x4008000000000000  (0.0 -> 3.0)" in capsys.readouterr().out


def test_fpr_bad_value(tmp_path, capsys):
    src = write(tmp_path, "t.s", "nop\n")
    assert main(["run", src, "--fpr", "f1=one"]) == 2
    assert "neither a float nor 0x raw bits" in capsys.readouterr().err


# -- special registers ---------------------------------------------------------------

def test_spr_settings_reach_the_program(tmp_path, capsys):
    # mfctr/mflr/mfxer read what --spr set; mfspr 720 reads SVSTATE.  XER CA is
    # MSB0 bit 34 of 64 = bit 2 of the low word: 0x20000000.  SVSTATE with
    # MAXVL = VL = 4 is (4 << 57) | (4 << 50) (MSB0 bits 0:6 and 7:13).
    sv = (4 << 57) | (4 << 50)
    src = write(tmp_path, "t.s", "mfctr r3\nmflr r4\nmfxer r5\nmfspr r6, 720\n")
    assert main(["run", src, "--spr", "ctr=5", "--spr", "lr=0x2000,xer=0x20000000",
                 "--spr", f"svstate={sv:#x}", "--json"]) == 0
    regs = json.loads(capsys.readouterr().out)["changed_registers"]
    assert regs["r3"]["after"] == "0x5" and regs["r4"]["after"] == "0x2000"
    assert regs["r5"]["after"] == "0x20000000" and regs["r6"]["after"] == hex(sv)


def test_gpr_option_names_the_spr_option(tmp_path, capsys):
    src = write(tmp_path, "t.s", "nop\n")
    assert main(["run", src, "--gpr", "ctr=5"]) == 2
    assert "use --spr ctr=5" in capsys.readouterr().err
    assert main(["run", src, "--spr", "ctrl=5"]) == 2
    assert "did you mean ctr?" in capsys.readouterr().err
    assert main(["run", src, "--spr", "xer=0x100000000"]) == 2  # XER is 32 bits here
    assert "does not fit in 32 bits" in capsys.readouterr().err


# -- memory -----------------------------------------------------------------------

def test_mem_preload_dump_and_changed_memory(tmp_path, capsys):
    data = write(tmp_path, "d.bin", b"ABCDEFGHIJKLMNOPQRST")
    # lis r6,2 -> 0x20000; ld (little-endian) of "ABCDEFGH" = 0x4847464544434241,
    # stored again 16 bytes further on
    src = write(tmp_path, "t.s", "lis r6, 2\nld r3, 0(r6)\nstd r3, 16(r6)\n")
    assert main(["run", src, "--mem", f"0x20000={data}", "--dump", "0x20000:24"]) == 0
    out = capsys.readouterr().out
    assert "r3       0x0 -> 0x4847464544434241" in out
    # only the run's own store is a change; the preload is the starting point
    assert "changed memory:\n  0x20010  8 byte(s)  now 4142434445464748\n" in out
    # hexdump -C layout: 8 + 8 bytes, then the printable characters
    assert ("  00020000  41 42 43 44 45 46 47 48  49 4a 4b 4c 4d 4e 4f 50  "
            "|ABCDEFGHIJKLMNOP|") in out
    assert "  00020010  41 42 43 44 45 46 47 48" + " " * 27 + "|ABCDEFGH|" in out


def test_mem_and_dump_bad_values(tmp_path, capsys):
    src = write(tmp_path, "t.s", "nop\n")
    assert main(["run", src, "--mem", "0x1000"]) == 2
    assert "expected ADDR=FILE" in capsys.readouterr().err
    assert main(["run", src, "--dump", "0x1000"]) == 2
    assert "expected ADDR:LEN" in capsys.readouterr().err
    assert main(["run", src, "--mem", f"zz={src}"]) == 2
    assert "'zz' is not an address" in capsys.readouterr().err


# -- exit status ----------------------------------------------------------------------

EXIT_3 = "li r0, 1\nli r3, 3\nsc\n"  # Linux exit(3): syscall 1 in r0, status in r3


def test_exit_status_is_the_guests(tmp_path, capsys):
    assert main(["run", write(tmp_path, "t.s", EXIT_3)]) == 3
    assert "exit status: 3" in capsys.readouterr().out


def test_exit_codes_are_distinct(tmp_path, capsys, monkeypatch):
    # trap 132 (128 + SIGILL), step limit 124 (timeout(1)), usage 2, Ctrl-C 130
    assert main(["run", write(tmp_path, "a.s", ".long 0\n")]) == 132
    assert main(["run", write(tmp_path, "b.s", "b .\n"), "--max-steps", "3"]) == 124
    assert main(["run", write(tmp_path, "c.s", "nop\n"), "--gpr", "r3"]) == 2
    from isa_ext.sim import Simulator

    def interrupted(self, *a, **k):
        raise KeyboardInterrupt
    monkeypatch.setattr(Simulator, "run", interrupted)
    assert main(["run", write(tmp_path, "d.s", "nop\n")]) == 130


def test_json_result(tmp_path, capsys):
    src = write(tmp_path, "t.s", "lis r6, 2\nstd r6, 0(r6)\n" + EXIT_3)
    assert main(["run", src, "--json"]) == 3
    res = json.loads(capsys.readouterr().out)
    assert res["stop"] == "exit" and res["exit_status"] == 3
    assert res["process_exit_code"] == 3 and res["steps"] == 5
    assert res["changed_registers"]["r6"] == {"before": "0x0", "after": "0x20000"}
    # std of 0x20000 little-endian at 0x20000: bytes 00 00 02 00 ...; the one
    # that changed is 0x20002
    assert res["changed_memory"] == [{"addr": "0x20002", "before": "00", "after": "02"}]
    assert res["trap"] is None


def test_json_trace_events_then_result(tmp_path, capsys):
    src = write(tmp_path, "t.s", "addi r3, r3, 1\n.long 0\n")
    assert main(["run", src, "--json", "--trace"]) == 132
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    # addi r3,r3,1 = 0x38630001 (PO 14, RT 3, RA 3, SI 1)
    assert lines[0]["type"] == "insn" and lines[0]["pc"] == "0x1000"
    assert lines[0]["word"] == "0x38630001" and lines[0]["changes"] == {"r3": "0x1"}
    assert lines[-1]["stop"] == "trap" and lines[-1]["trap"]["pc"] == "0x1004"


def test_version(capsys):
    import isa_ext  # pyproject.toml takes the version from isa_ext.__version__
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    assert capsys.readouterr().out.strip() == f"isa-ext {isa_ext.__version__}"


# -- program formats and bad input ---------------------------------------------------

def test_text_program_without_s_suffix_is_assembly(tmp_path, capsys):
    # "li r3, 7" as ASCII bytes would be garbage words; as assembly r3 = 7
    assert main(["run", write(tmp_path, "prog.txt", "li r3, 7\n")]) == 0
    out = capsys.readouterr().out
    assert "stop: end" in out and "r3       0x0 -> 0x7" in out


def test_format_raw_forces_bytes(tmp_path, capsys):
    # --format raw runs the text's bytes as words: 'l' 'i' ' ' 'r' little-endian is
    # 0x7220696c: PO 0x72 >> 2 = 28 (andi.), RS = (0x7220696c >> 21) & 31 = 17,
    # RA = (>> 16) & 31 = 0, UI = 0x696c: r0 = r17 & 0x696c = 0, CR0 = EQ (0x2)
    src = write(tmp_path, "prog.txt", "li r3, 7\n")
    assert main(["run", src, "--format", "raw", "--max-steps", "1"]) == 124
    out = capsys.readouterr().out
    assert "cr0      0x0 -> 0x2" in out and "r3 " not in out


def test_negative_counts_and_addresses_rejected(tmp_path, capsys):
    src = write(tmp_path, "t.s", "nop\n")
    assert "--max-steps: -5 is negative" in usage_error(capsys, ["run", src, "--max-steps", "-5"])
    assert "--base: address -4 is outside" in usage_error(capsys, ["run", src, "--base", "-4"])
    err = usage_error(capsys, ["run", src, "--base", "zz"])
    assert "'zz' is not an address" in err and "lambda" not in err
    assert "lambda" not in usage_error(capsys, ["asm", src, "--base", "zz"])


def test_register_number_and_value_ranges(tmp_path, capsys):
    src = write(tmp_path, "t.s", "nop\n")
    assert main(["run", src, "--gpr", "r128=1"]) == 2
    assert "no register r128 (registers are r0..r127)" in capsys.readouterr().err
    # 2**65 - 1 does not fit: rejected, not truncated to 2**64 - 1
    assert main(["run", src, "--gpr", "r3=0x1ffffffffffffffff"]) == 2
    assert "does not fit in 64 bits" in capsys.readouterr().err
    # -1 is two's complement all-ones; so is 2**64 - 1 written out
    assert main(["run", src, "--gpr", "r3=-1,r4=0xffffffffffffffff"]) == 0
    out = capsys.readouterr().out
    assert "r3       0x0 -> 0xffffffffffffffff" not in out  # set before the run
    assert main(["run", write(tmp_path, "m.s", "mr r5, r3\nmr r6, r4\n"),
                 "--gpr", "r3=-1,r4=0xffffffffffffffff"]) == 0
    out = capsys.readouterr().out
    assert "r5       0x0 -> 0xffffffffffffffff" in out and "r6       0x0 -> 0xffffffffffffffff" in out


def test_bad_elf_message(tmp_path, capsys):
    bad = write(tmp_path, "bad.elf", b"\x7fELF\x02\x01")
    assert main(["run", bad]) == 2
    err = capsys.readouterr().err
    assert "truncated ELF file: 6 bytes" in err and "expected" not in err


def test_diag_takes_register_options(tmp_path, capsys):
    # r3 == 5 branches over the illegal word; without --gpr r3=5 the run traps
    src = write(tmp_path, "t.s", "cmpdi r3, 5\nbeq ok\n.long 0\nok: nop\n")
    assert main(["diag", src, "--gpr", "r3=5", "--fpr", "f1=2.0"]) == 0
    assert "stop: end" in capsys.readouterr().out
    assert main(["diag", src]) == 1


def test_asm_non_utf8_source(tmp_path, capsys):
    # the 0xff follows "li r3, 1 # " (11 characters) on line 2: column 12
    src = write(tmp_path, "bad.s", b"nop\nli r3, 1 # \xff\n")
    assert main(["asm", src]) == 2
    err = capsys.readouterr().err
    assert f"{src}:2:12: error: not UTF-8 text (byte 0xff)" in err
    assert "Traceback" not in err


# -- names: extended mnemonics, sv. forms, suggestions ----------------------------------

@pytest.mark.parametrize("name, title", [
    # li RT,SI is addi RT,0,SI (Power ISA Book I, extended mnemonics)
    ("li", "# Add Immediate  "),
    ("sv.add", "# Add  "),          # an SVP64 form shows its suffix's page
    ("sv.mv.swiz", "# Move Swizzle  "),
])
def test_pseudo_show_resolves_extended_and_sv_names(name, title, capsys):
    assert main(["pseudo", "show", name]) == 0
    assert title in capsys.readouterr().out


def test_pseudo_show_suggests_a_near_miss(capsys):
    assert main(["pseudo", "show", "subfik"]) == 2
    assert "unknown mnemonic 'subfik' (did you mean subfic?)" in capsys.readouterr().err


def test_diffcheck_only_unknown_name_fails(capsys):
    assert main(["diffcheck", "--only", "frob", "addd", "--cases", "1"]) == 2
    err = capsys.readouterr().err
    assert "'frob'" in err and "'addd' (did you mean add?)" in err


# -- the README and docs/cli.md say what the code does ------------------------------

def _readme(name="README.md"):
    import os
    root = ROOT
    with open(os.path.join(root, name), encoding="utf-8") as f:
        return f.read()


def _cli_doc():
    import os
    return _readme(os.path.join("docs", "cli.md"))


def _options(command):
    import argparse
    from isa_ext.cli import build_parser
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return {s for a in sub.choices[command]._actions for s in a.option_strings}


@pytest.mark.parametrize("doc", ["README.md", "docs/cli.md"])
def test_readme_run_and_gdbserver_flags_exist(doc):
    import re
    text = _readme(doc)
    for command in ("run", "gdbserver", "diag"):
        row = next(line for line in text.splitlines()
                   if line.startswith(f"| `isa-ext {command} "))
        flags = set(re.findall(r"--[a-z][a-z-]*", row))
        assert flags and flags <= _options(command), (command, flags - _options(command))


def test_readme_exit_codes_are_the_codes():
    from isa_ext.commands.run import EXIT_INTERRUPTED, EXIT_STEP_LIMIT, EXIT_TRAP, EXIT_USAGE
    table = _cli_doc().split("Exit status of `isa-ext run`", 1)[1].split("A guest may", 1)[0]
    for code, what in ((EXIT_TRAP, "a trap"), (EXIT_STEP_LIMIT, "`--max-steps` ran out"),
                       (EXIT_INTERRUPTED, "Ctrl-C"), (EXIT_USAGE, "usage errors")):
        assert f"| {code} | {what}" in table
    # and the README's one-line summary of them
    summary = " ".join(_readme().split())
    assert (f"a trap exits {EXIT_TRAP}, `--max-steps` {EXIT_STEP_LIMIT}, Ctrl-C "
            f"{EXIT_INTERRUPTED}, bad input {EXIT_USAGE}") in summary


def test_ctrl_c_says_where_the_program_was(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time
    root = ROOT
    # "b ." at 0x1000 loops for ever: Ctrl-C finds it at pc 0x1000
    src = write(tmp_path, "loop.s", "b .\n")
    # on a loaded machine the imports can outlast a fixed wait (the run then
    # stops "after 0 steps"): longer waits are tried before the test fails
    for wait in (4, 10, 25):
        # SIGINT back to its default in the child: a test run started in the
        # background of a non-interactive shell inherits SIGINT ignored, and
        # Python then installs no handler (the program would never see Ctrl-C)
        proc = subprocess.Popen([sys.executable, "-m", "isa_ext.cli", "run", src,
                                 "--max-steps", str(10**12)], cwd=root,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        time.sleep(wait)  # imports and loading done; the loop is running
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        m = re.search(r"^isa-ext: interrupted \(Ctrl-C\) at pc=0x1000 after (\d+) steps$",
                      err, re.M)
        if proc.returncode == 130 and m and int(m.group(1)) > 0:
            break
    assert proc.returncode == 130, err
    assert m and int(m.group(1)) > 0, err
    assert "Traceback" not in err


def test_near_miss_command_and_choice_names_get_a_suggestion(tmp_path, capsys):
    assert "invalid choice: 'rn'" in (err := usage_error(capsys, ["rn", "x.s"]))
    assert "; did you mean run? (see isa-ext --help)" in err
    err = usage_error(capsys, ["run", "x.s", "--profile", "opnpower-isa"])
    assert "; did you mean openpower-isa? (see isa-ext run --help)" in err


def test_every_argument_has_help():
    import argparse
    from isa_ext.cli import build_parser
    missing = []

    def walk(parser, name):
        for a in parser._actions:
            if isinstance(a, argparse._SubParsersAction):
                for sub_name, sub in a.choices.items():
                    walk(sub, f"{name} {sub_name}")
            elif a.help is None and not isinstance(a, argparse._HelpAction):
                missing.append(f"{name} {'/'.join(a.option_strings) or a.dest}")
    walk(build_parser(), "isa-ext")
    assert not missing


# bytes no command may answer with a traceback: empty, random (fixed seed), an ELF
# header whose fields point past the end, a truncated header, a directory
def _garbage_inputs(tmp_path):
    import random
    rng = random.Random(18)
    elf_bad_offsets = (b"\x7fELF\x02\x01\x01" + bytes(9) + b"\x02\x00\x15\x00"
                       + bytes(rng.randrange(256) for _ in range(70)))
    files = {"empty.s": b"", "empty.bin": b"",
             "random.bin": bytes(rng.randrange(256) for _ in range(1000)),
             "random.s": bytes(rng.randrange(256) for _ in range(300)),
             "offsets.elf": elf_bad_offsets, "short.elf": b"\x7fELF\x02"}
    paths = [write(tmp_path, name, data) for name, data in files.items()]
    (tmp_path / "adir").mkdir()
    return paths + [str(tmp_path / "adir"), str(tmp_path / "missing")]


@pytest.mark.parametrize("command", ["run", "diag", "asm", "disasm"])
def test_no_traceback_on_any_input(tmp_path, capsys, command):
    for path in _garbage_inputs(tmp_path):
        extra = ["--max-steps", "1000"] if command in ("run", "diag") else []
        code = main([command, path, *extra])  # an exception here fails the test
        err = capsys.readouterr().err
        assert "Traceback" not in err
        # an error is one line naming the file
        assert code in (0, 1, 2, 124, 132), (path, code)
        if code == 2:
            assert err.count("\n") == 1 and path in err, (path, err)


# -- limits of the register and address options ---------------------------------

def test_base_address_beyond_64_bits_is_a_usage_error(tmp_path, capsys):
    # an address is 64 bits: 2**64 - 8 is the last doubleword, 2**64 is none
    src = write(tmp_path, "a.s", "nop\n")
    err = usage_error(capsys, ["run", src, "--base", hex(1 << 64)])
    assert "outside 0 .. 0xffffffffffffffff" in err
    assert main(["run", src, "--base", hex((1 << 64) - 0x1000), "--json"]) == 0


def test_a_gpr_named_in_fpr_is_pointed_at_gpr(tmp_path, capsys):
    src = write(tmp_path, "a.s", "nop\n")
    assert main(["run", src, "--fpr", "r3=1"]) == 2
    assert "use --gpr r3=1" in capsys.readouterr().err
    assert main(["run", src, "--gpr", "f2=1"]) == 2
    assert "use --fpr f2=1" in capsys.readouterr().err
    # a name that is neither rN nor fN gets no pointer to another option
    for bad in ("x3=1", "rx=1", "3r=1"):
        assert main(["run", src, "--fpr", bad]) == 2
        err = capsys.readouterr().err
        assert "bad register setting --fpr " + bad in err and "use --" not in err, err


def test_linux_options_on_raw_words_are_refused(tmp_path, capsys):
    # --linux and program arguments belong to ELF programs; raw words and
    # assembly are refused alike (exit 2 with the reason)
    raw = write(tmp_path, "p.bin", struct.pack("<I", 0x60000000))
    for argv in (["run", raw, "--format", "raw", "--linux"],
                 ["run", write(tmp_path, "a.s", "nop\n"), "--linux"]):
        assert main(argv) == 2
        assert "program arguments and --linux are for ELF programs" in capsys.readouterr().err

