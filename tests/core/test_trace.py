"""``isa-ext run --trace``: the text, commit-log and JSON formats (docs/trace.md).

Every expected line is derived by hand from the program (encodings from the
Power ISA field layouts, values from the instruction semantics), and the
commit log is lined up against QEMU's own instruction log of the same ELF.
"""
import json
import re
import subprocess
import sys

from conftest import need_tool
from isa_ext.cli import main
from isa_ext.sim import Simulator
from isa_ext.trace_qemu import commit_lines

# r4 = 0x2000; r3 = -2; store r3's low word at 0x2004; load the byte at 0x2005
# (little-endian: byte 1 of 0xfffffffe, 0xff); CTR = r5.
#   addi 4,0,0x2000 = PO 14 | RT 4 | RA 0 | SI   = 0x38000000|4<<21|0x2000 = 0x38802000
#   addi 3,0,-2     = 0x38000000 | 3<<21 | 0xfffe                        = 0x3860fffe
#   stw 3,4(4)      = PO 36 (0x90000000) | RS 3<<21 | RA 4<<16 | 4      = 0x90640004
#   lbz 5,5(4)      = PO 34 (0x88000000) | RT 5<<21 | RA 4<<16 | 5      = 0x88a40005
#   mtctr 5         = PO 31 | RS 5<<21 | spr 9 (split: 9<<16) | 467<<1 = 0x7ca903a6
PROG = " addi 4, 0, 0x2000\n addi 3, 0, -2\n stw 3, 4(4)\n lbz 5, 5(4)\n mtctr 5\n"
WORDS = [0x38802000, 0x3860fffe, 0x90640004, 0x88a40005, 0x7ca903a6]


def run_lines(tmp_path, capsys, text, *args):
    src = tmp_path / "p.s"
    src.write_text(text)
    assert main(["run", str(src), *args]) == 0
    out = capsys.readouterr().out
    return out.split("stop:")[0].splitlines()  # the trace, before the report


def test_text_lines_derived_by_hand(tmp_path, capsys):
    lines = run_lines(tmp_path, capsys, PROG, "--trace")
    assert len(lines) == 5
    effects = ["r4=0x0->0x2000",
               "r3=0x0->0xfffffffffffffffe",
               "store4 [0x2004]=0xfffffffe",
               "r5=0x0->0xff load1 [0x2005]=0xff",
               "ctr=0x0->0xff"]
    for i, (line, word, effect) in enumerate(zip(lines, WORDS, effects)):
        assert line.startswith(f"{0x1000 + 4 * i:08x}  {word:08x}  ")
        assert line.endswith("  " + effect) or line.endswith(" " + effect), line


def test_commit_lines_derived_by_hand(tmp_path, capsys):
    lines = run_lines(tmp_path, capsys, PROG, "--trace-format", "commit")
    # Spike --log-commits shape: core, privilege (3: MSR[PR]=0), pc (16 digits),
    # (word), "<reg> 0x<16 digits>" per register written, "mem <addr>" for a
    # load and "mem <addr> 0x<value, 2 digits a byte>" for a store
    assert lines == [
        "core   0: 3 0x0000000000001000 (0x38802000) r4  0x0000000000002000",
        "core   0: 3 0x0000000000001004 (0x3860fffe) r3  0xfffffffffffffffe",
        "core   0: 3 0x0000000000001008 (0x90640004) mem 0x0000000000002004 0xfffffffe",
        "core   0: 3 0x000000000000100c (0x88a40005) r5  0x00000000000000ff "
        "mem 0x0000000000002005",
        "core   0: 3 0x0000000000001010 (0x7ca903a6) ctr 0x00000000000000ff",
    ]


def test_json_events_hold_what_the_text_shows(tmp_path, capsys):
    src = tmp_path / "p.s"
    src.write_text(PROG)
    assert main(["run", str(src), "--trace", "--json"]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()][:-1]
    assert [e["word"] for e in events] == [f"0x{w:x}" for w in WORDS]
    assert events[1]["changes"] == {"r3": "0xfffffffffffffffe"}
    assert events[1]["old"] == {"r3": "0x0"}
    assert events[2]["mem"] == [{"op": "store", "addr": "0x2004", "size": 4,
                                 "value": "0xfffffffe"}]
    assert events[3]["mem"] == [{"op": "load", "addr": "0x2005", "size": 1, "value": "0xff"}]
    # --trace-format json is the same stream
    assert main(["run", str(src), "--trace-format", "json", "--json"]) == 0
    again = [json.loads(line) for line in capsys.readouterr().out.splitlines()][:-1]
    assert again == events


# setvl 0,0,4,0,1,1: MAXVL = VL = 4.  Predicate r30 = 0b1011: elements 0, 1, 3.
# sv.add *1, *8, *16 with r8.. = 1 2 3 4 and r16.. = 10 20 30 40: r1 = 11 (0xb),
# r2 = 22 (0x16), r4 = 44 (0x2c); element 2 is skipped (no line).  The /dz form
# into r20..: element 2 is zeroed (r22 = 0) and has a line saying so.
SV_PROG = (" setvl 0, 0, 4, 0, 1, 1\n sv.add/m=r30 *1, *8, *16\n"
           " sv.add/m=r30/dz *20, *8, *16\n")
SV_GPRS = "r30=0b1011,r8=1,r9=2,r10=3,r11=4,r16=10,r17=20,r18=30,r19=40,r22=7"


def test_svp64_element_lines_under_their_instruction(tmp_path, capsys):
    lines = run_lines(tmp_path, capsys, SV_PROG, "--trace", "--gpr", SV_GPRS)
    assert lines[0].endswith("svstate=0x0->0x810000000000000 svstate{maxvl=4 vl=4}")
    # SVSTATE: MAXVL (bits 0:6) = 4 -> 4 << 57, VL (bits 7:13) = 4 -> 4 << 50
    assert (4 << 57) | (4 << 50) == 0x810000000000000
    assert lines[1].startswith("00001004  ")
    assert lines[1].endswith("r1=0x0->0xb r2=0x0->0x16 r4=0x0->0x2c")
    assert [line.strip() for line in lines[2:5]] == [
        "elem src=0 dst=0 sub=0/0 pred=1/1  RA[8]=0x1 RB[16]=0xa -> RT[1]=0xb",
        "elem src=1 dst=1 sub=0/0 pred=1/1  RA[9]=0x2 RB[17]=0x14 -> RT[2]=0x16",
        "elem src=3 dst=3 sub=0/0 pred=1/1  RA[11]=0x4 RB[19]=0x28 -> RT[4]=0x2c",
    ]
    assert all(line.startswith("      elem ") for line in lines[2:5])
    assert lines[5].startswith("0000100c  ")
    assert "r22=0x7->0x0" in lines[5]
    assert lines[8].strip() == "elem src=2 dst=2 sub=0/0 pred=0/0 zeroed -> RT[22]=0x0"


def test_svstate_fields_in_json(tmp_path, capsys):
    src = tmp_path / "p.s"
    src.write_text(SV_PROG)
    assert main(["run", str(src), "--trace-format", "json", "--gpr", SV_GPRS]) == 0
    out = capsys.readouterr().out.splitlines()
    first = json.loads(out[0])
    assert first["svstate_fields"] == {"maxvl": 4, "vl": 4}
    elements = [json.loads(line) for line in out if '"element"' in line]
    assert elements[0]["read_values"] == {"RA": "0x1", "RB": "0xa"}
    assert elements[0]["write_values"] == {"RT": "0xb"}


def test_reservation_survives_the_recording_memory():
    # lwarx sets the reservation (machine.Memory.reserve), stwcx. then succeeds
    # (CR0 EQ set: 0b0010); a traced run must see the same as an untraced one
    text = (" addi 4, 0, 0x3000\n lwarx 5, 0, 4\n addi 5, 5, 1\n stwcx. 5, 0, 4\n"
            " lwz 6, 0(4)\n")
    results = []
    for trace in (False, True):
        sim = Simulator()
        sim.load_asm(text)
        r = sim.run(trace=trace)
        results.append((r.gpr[6], r.crf[0] >> 1 & 1))
    assert results == [(1, 1), (1, 1)]


def test_trace_of_an_exit_shows_the_sc(tmp_path, capsys):
    # li 0,1 (exit); li 3,0 (status 0); sc = 0x44000002 (PO 17, bit 30 set)
    lines = run_lines(tmp_path, capsys, " li 0, 1\n li 3, 0\n sc\n", "--trace-format", "commit")
    assert lines[-1] == "core   0: 3 0x0000000000001008 (0x44000002)"


QEMU_PROG = """\
    .abiversion 2
    .globl _start
_start:
    lis 4, buf@ha
    addi 4, 4, buf@l
    addi 3, 0, -2
    stw 3, 4(4)
    lbz 5, 5(4)
    mtctr 5
    add. 6, 5, 3
    mtlr 6
    li 0, 1
    li 3, 0
    sc
    .data
buf: .quad 0, 0
"""


def test_commit_log_lines_up_with_qemu(tmp_path):
    as_, ld = need_tool("powerpc64le-linux-gnu-as"), need_tool("powerpc64le-linux-gnu-ld")
    qemu = need_tool("qemu-ppc64le")
    (tmp_path / "p.s").write_text(QEMU_PROG)
    subprocess.run([as_, "-a64", "-o", str(tmp_path / "p.o"), str(tmp_path / "p.s")],
                   check=True)
    exe = tmp_path / "p"
    subprocess.run([ld, "-static", "-o", str(exe), str(tmp_path / "p.o")], check=True)
    log = tmp_path / "qemu.log"
    subprocess.run([qemu, "-singlestep", "-d", "in_asm,cpu,nochain", "-D", str(log), str(exe)],
                   check=True)
    theirs = commit_lines(log.read_text())
    out = subprocess.run([sys.executable, "-m", "isa_ext.cli", "run", "--trace-format", "commit",
                          str(exe)], capture_output=True, text=True, check=True).stdout
    ours = [re.sub(r" mem .*", "", line) for line in out.splitlines()
            if line.startswith("core")]
    # QEMU's log has no memory accesses: compare pc, word and register writes
    assert len(ours) == 11
    assert ours == theirs


def test_elements_of_an_interrupted_instruction_have_its_header(tmp_path, capsys):
    # setvl VL=4; sv.add *1, *8, *16 with r8.. = 1 2 3 4, r16.. = 0: an interrupt
    # before element operation 3 leaves elements 0 and 1 done (r1 = 1, r2 = 2);
    # --resume runs elements 2 and 3 (r3 = 3, r4 = 4) as the instruction's line
    src = tmp_path / "p.s"
    src.write_text(" setvl 0, 0, 4, 0, 1, 1\n sv.add *1, *8, *16\n")
    assert main(["run", str(src), "--trace", "--interrupt-after", "2", "--resume",
                 "--gpr", "r8=1,r9=2,r10=3,r11=4"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("00001004  ") and lines[1].endswith("(did not complete)")
    assert [line.split("  ")[-1] for line in lines[2:4]] == [
        "RA[8]=0x1 RB[16]=0x0 -> RT[1]=0x1", "RA[9]=0x2 RB[17]=0x0 -> RT[2]=0x2"]
    assert lines[4].startswith("interrupt: pc=0x1004")
    assert lines[5].startswith("00001004  ") and "r3=0x0->0x3 r4=0x0->0x4" in lines[5]


def test_interrupt_counts_the_same_traced_and_untraced():
    # interrupt before element operation 3: two operations done on either path
    # (the traced loop used to report 0)
    counts = []
    for trace in (False, True):
        sim = Simulator()
        sim.load_asm(" setvl 0, 0, 4, 0, 1, 1\n sv.add *1, *8, *16\n")
        sim.interrupt_after = 2
        r = sim.run(trace=trace)
        counts.append((r.stop, sim.element_ops, r.trap.reason))
    assert counts[0] == counts[1]
    assert counts[0][:2] == ("interrupt", 2)
