"""``isa-ext run --interrupt-after K [--resume]`` and ``--trace`` element events
for horizontal-first and vertical-first SVP64 programs."""
import re

from isa_ext.cli import main
from isa_ext.isa import ISA
from isa_ext.sim import Simulator
from isa_ext.svp64 import svstate as SV

# setvl 0,0,4,0,1,1: ms=vs=1 and RA=RT=0, so MVL = VL = the immediate, 4 (the
# assembly operand is the length; the VLi field holds 3)
PROG = " setvl 0, 0, 4, 0, 1, 1\n sv.add *1, *8, *16\n"


def write(tmp_path, text):
    p = tmp_path / "p.s"
    p.write_text(text)
    return str(p)


def test_interrupt_after_stops_and_prints_steps(tmp_path, capsys):
    src = write(tmp_path, PROG)
    # r8.. = 1 2 3 4, r16.. = 10 20 30 40; interrupt before element op 3 (K=2):
    # elements 0, 1 done (r1 = 11, r2 = 22), SVSTATE srcstep = dststep = 2, PC at
    # the sv.add (0x1004, after the 4-byte setvl)
    args = ["run", src, "--gpr", "r8=1,r9=2,r10=3,r11=4,r16=10,r17=20,r18=30,r19=40",
            "--interrupt-after", "2"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "stop: interrupt" in out
    assert re.search(r"interrupt: pc=0x1004 .*srcstep=2 dststep=2 ssubstep=0 dsubstep=0", out)
    assert re.search(r"r2 +0x0 -> 0x16", out) and not re.search(r"\br3 ", out)
    # --resume: runs on from the saved steps to the end: r3 = 33, r4 = 44
    assert main(args + ["--resume"]) == 0
    out = capsys.readouterr().out
    assert "stop: end" in out and re.search(r"r4 +0x0 -> 0x2c", out)
    assert re.search(r"r1 +0x0 -> 0xb", out)  # changes counted from the first run


def test_interrupt_after_bad_values(tmp_path, capsys):
    src = write(tmp_path, PROG)
    assert main(["run", src, "--interrupt-after", "-1"]) != 0
    assert main(["run", src, "--resume"]) != 0
    err = capsys.readouterr().err
    assert "--interrupt-after" in err and "Traceback" not in err


def test_trace_prints_element_events(tmp_path, capsys):
    src = write(tmp_path, PROG)
    assert main(["run", src, "--trace", "--gpr", "r8=1"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    # the sv.add line (at 0x1004, after the 4-byte setvl), then its four
    # element lines indented under it: r1 = r8 + r16 = 1 at element 0 only
    at = next(i for i, line in enumerate(lines) if line.startswith("00001004"))
    elements = lines[at + 1:at + 5]
    assert [re.match(r" +elem src=(\d+) dst=(\d+) ", e).groups() for e in elements] == \
        [(str(k), str(k)) for k in range(4)]
    assert elements[0].split("  ")[-1] == "RA[8]=0x1 RB[16]=0x0 -> RT[1]=0x1"
    assert "r1=0x0->0x1" in lines[at]


def _writes(isa, text, vf):
    sim = Simulator(isa=isa)
    sim.load_asm(text)
    sim.state.svstate = SV.make(maxvl=4, vl=4, vfirst=vf)
    sim.state.gpr[30] = 0b1101
    for i in range(8):
        sim.state.gpr[8 + i] = i + 1
    events = []
    sim.tracer = events.append
    r = sim.run(max_steps=200)
    assert r.stop == "end", r.trap
    return [(e["mnemonic"], e["writes"]) for e in events
            if e["type"] == "element"], r


def test_hf_and_vf_traces_write_in_the_same_order():
    # two instructions, predicate r30 = 0b1101 (elements 0, 2, 3).  HF writes all
    # of sv.add's elements, then all of sv.subf's; VF interleaves per element.
    # The per-instruction write order (element 0, 2, 3) and the final registers
    # are the same.
    isa = ISA(extensions=["base", "svp64"])
    body = " sv.add/m=r30 *20, *8, *12\n sv.subf/m=r30 *24, *20, *8\n"
    hf, rh = _writes(isa, body, 0)
    vf, rv = _writes(isa, "loop:\n" + body + " svstep. 0, 0, 1, 0\n bc 4, 3, loop\n", 1)
    assert [w["RT"] for m, w in hf if m == "sv.add"] == [20, 22, 23]
    assert [w["RT"] for m, w in hf if m == "sv.subf"] == [24, 26, 27]
    for mn in ("sv.add", "sv.subf"):
        assert [w for m, w in hf if m == mn] == [w for m, w in vf if m == mn]
    assert [m for m, _ in vf] == ["sv.add", "sv.subf"] * 3
    assert rh.gpr == rv.gpr
