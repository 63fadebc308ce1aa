"""The asm / disasm / run sub-commands, end to end through isa_ext.cli.main."""
import os
import struct


from isa_ext.cli import main

from conftest import ROOT
EXAMPLES = os.path.join(ROOT, "examples")

# addi r3,r3,1 = PO 14 | RT 3 | RA 3 | SI 1 = 14<<26 | 3<<21 | 3<<16 | 1
ADDI_3_3_1 = 0x38630001
# add r4,r3,r3 = PO 31 | RT 4 | RA 3 | RB 3 | XO 266<<1
ADD_4_3_3 = 31 << 26 | 4 << 21 | 3 << 16 | 3 << 11 | 266 << 1


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def test_asm_writes_raw_little_and_big_endian(tmp_path):
    src = write(tmp_path, "a.s", "addi r3,r3,1\nadd r4,r3,r3\n")
    out = tmp_path / "a.bin"
    assert main(["asm", src, "-o", str(out)]) == 0
    assert out.read_bytes() == struct.pack("<II", ADDI_3_3_1, ADD_4_3_3)
    assert main(["asm", src, "-o", str(out), "--big-endian"]) == 0
    assert out.read_bytes() == struct.pack(">II", ADDI_3_3_1, ADD_4_3_3)


def test_asm_listing(tmp_path, capsys):
    src = write(tmp_path, "a.s", "start: addi r3,r3,1\n  .long 0xdeadbeef\n")
    assert main(["asm", src]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["00001000", "38630001", "start:", "addi", "r3,r3,1"]
    assert lines[1].split()[:2] == ["00001004", "efbeadde"]  # data bytes, little-endian


def test_disasm_raw_words(tmp_path, capsys):
    raw = tmp_path / "w.bin"
    raw.write_bytes(struct.pack(">III", ADDI_3_3_1, ADD_4_3_3, 0))
    assert main(["disasm", str(raw), "--big-endian"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["00001000", "38630001", "addi", "r3,r3,1"]
    assert lines[1].split() == ["00001004", f"{ADD_4_3_3:08x}", "add", "r4,r3,r3"]
    assert lines[2].split() == ["00001008", "00000000", ".long", "0x00000000"]


def test_run_sum_example(capsys):
    # 1 + 2 + ... + 10 = 55 = 0x37
    assert main(["run", os.path.join(EXAMPLES, "sum.s"), "--gpr", "r3=10"]) == 0
    out = capsys.readouterr().out
    assert "stop: end" in out
    assert "r3       0xa -> 0x37" in out


def test_run_hello_example(capsys):
    assert main(["run", os.path.join(EXAMPLES, "hello.s")]) == 0
    out = capsys.readouterr().out
    assert "stop: exit" in out and "exit status: 0" in out
    assert out.endswith("stdout:\nhello, world\n")


def test_run_trace_lines(tmp_path, capsys):
    src = write(tmp_path, "t.s", "addi r3,r3,1\nadd r4,r3,r3\n")
    assert main(["run", src, "--gpr", "r3=5", "--trace"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # r3 = 5 + 1 = 6, then r4 = 6 + 6 = 12
    assert lines[0].split() == ["00001000", "38630001", "addi", "r3,r3,1", "r3=0x5->0x6"]
    assert lines[1].split() == ["00001004", f"{ADD_4_3_3:08x}", "add", "r4,r3,r3",
                                "r4=0x0->0xc"]


def test_run_trap_exits_132(tmp_path, capsys):
    # a trap exits 128 + SIGILL (4), as a shell reports a process an illegal
    # instruction killed (QEMU's own death by SIGILL), never a guest status 0..127
    src = write(tmp_path, "t.s", "addi r3,r3,1\n.long 0\n")
    assert main(["run", src]) == 132
    out = capsys.readouterr().out
    assert "stop: trap" in out
    assert "trap: pc=0x1004 word=0x00000000" in out


def test_run_step_limit(tmp_path, capsys):
    src = write(tmp_path, "t.s", "b .\n")
    # exit 124 when the step limit ran out, as timeout(1) does
    assert main(["run", src, "--max-steps", "7"]) == 124
    out = capsys.readouterr().out
    assert "stop: step_limit" in out and "steps: 7" in out


def test_run_fpr_float_and_raw_values(tmp_path, capsys):
    src = write(tmp_path, "t.s", "fadd f2,f1,f1\nfmr f4,f3\n")
    assert main(["run", src, "--fpr", "f1=1.5", "--fpr", "f3=0x3ff0000000000000"]) == 0
    out = capsys.readouterr().out
    # f1 = 1.5 as a double, so f2 = 1.5 + 1.5 = 3.0 = 1.5 * 2^1: sign 0, biased exponent
    # 1023 + 1 = 0x400, fraction .1000... -> 0x4008000000000000 (-3.0 would be 0xC008...)
    assert "f2       0x0 -> 0x4008000000000000" in out
    # a 0x... value is the raw bit pattern (1.0), copied unchanged by fmr
    assert "f4       0x0 -> 0x3ff0000000000000" in out


def test_run_raw_binary_and_bad_option(tmp_path, capsys):
    raw = tmp_path / "p.bin"
    raw.write_bytes(struct.pack("<I", ADDI_3_3_1))
    assert main(["run", str(raw), "--gpr", "r3=0x29"]) == 0
    assert "r3       0x29 -> 0x2a" in capsys.readouterr().out
    assert main(["run", str(raw), "--gpr", "x3=1"]) == 2
    assert "bad register setting" in capsys.readouterr().err


def test_missing_file_exits_2(tmp_path, capsys):
    assert main(["run", str(tmp_path / "nope.s")]) == 2
    assert "Traceback" not in capsys.readouterr().err
