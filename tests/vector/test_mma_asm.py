"""VSX Matrix-Multiply Assist assembly against GNU as 2.40 (-mpower10): every
row and its pm* form, the disassembler's text reassembling to the same
words, and the invalid form the book names (a VSR operand inside the
accumulator AT): GNU as refuses it and so does isa_ext; a hand-made word of
that form traps, naming it, in the interpreter and in translated blocks."""
import os
import subprocess

import pytest

import mma_cases as mc
from conftest import gnu_as_words, need_tool
from isa_ext.asm import assemble
from isa_ext.disasm import Disassembler
from isa_ext.errors import AsmError
from isa_ext.sim import Simulator

MOVES = ["xxmfacc 0", "xxmtacc 7", "xxsetaccz 3", "xxmfacc 5"]
INTEGER_LINES = [f"{m} {at},{xa},{xb}" for m, (at, xa, xb) in
                 zip(mc.INTEGER, [(0, 4, 5), (7, 0, 63), (1, 2, 32), (2, 33, 61), (3, 62, 11),
                                  (4, 9, 10), (5, 40, 19), (6, 20, 21), (7, 27, 36)])]
PM_INTEGER_LINES = [f"pm{m} {at},{xa},{xb},{x},{y},{p}" for m, (at, xa, xb, x, y, p) in
                    zip(mc.INTEGER, [(0, 4, 5, 15, 15, 255), (7, 0, 63, 1, 2, 128),
                                     (1, 2, 32, 8, 4, 15), (2, 33, 61, 0, 0, 0),
                                     (3, 62, 11, 5, 10, 9), (4, 9, 10, 3, 12, 2),
                                     (5, 40, 19, 15, 1, 1), (6, 20, 21, 6, 9, 3),
                                     (7, 27, 36, 9, 6, 0)])]
SPELLINGS = ["xvi8ger4pp 1,vs2,vs63", "xvi16ger2 7,%vs33,vs34", "pmxvi4ger8pp 2,vs40,vs41,0xf,0b1010,0x81"]
# (AT, XA or XAp, XB) per mnemonic, none inside its accumulator
FLOAT_OPERANDS = [(0, 32, 40), (3, 39, 51), (6, 46, 62), (1, 53, 9), (4, 60, 20),
                  (7, 3, 27), (2, 14, 42), (5, 17, 53), (0, 24, 63), (3, 31, 11),
                  (6, 38, 22), (1, 45, 33), (4, 52, 44), (7, 59, 55), (2, 2, 2),
                  (5, 54, 13), (0, 4, 24), (3, 10, 35), (6, 20, 46), (1, 30, 57)]
FLOAT_LINES = [f"{m} {at},{xa},{xb}" for m, (at, xa, xb) in zip(mc.FLOAT, FLOAT_OPERANDS)]
PM_FLOAT_LINES = [f"pm{line},{k % 16},{(k * 3) % (4 if 'f64' in line else 16)}"
                  + (f",{k % 4}" if "16ger2" in line else "")
                  for k, line in enumerate(FLOAT_LINES)]
LINES = MOVES + INTEGER_LINES + PM_INTEGER_LINES + FLOAT_LINES + PM_FLOAT_LINES + SPELLINGS
OVERLAPS = ["xvf64ger 2,10,3", "xvf64gerpp 1,4,3", "xvf64gernn 1,6,3", "pmxvf32gernn 5,20,23,1,1", "xvbf16ger2pp 6,24,25",
            "xvi8ger4 1,4,3", "xvi8ger4pp 1,3,7", "xvi16ger2s 0,0,8", "xvi4ger8 7,28,31",
            "pmxvi8ger4 2,9,3,1,1,1", "pmxvi16ger2spp 0,1,2,3,3,3"]


def test_mma_lines_match_gnu_as(isa, tmp_path):
    want = gnu_as_words(tmp_path, LINES, extra_args=["-mpower10"])
    ours = assemble("".join(f"{t}\n" for t in LINES), isa=isa, base=0).words
    assert ours == want


def test_disassembly_reassembles_to_the_same_words(isa, tmp_path):
    words = gnu_as_words(tmp_path, LINES, extra_args=["-mpower10"])
    dis = Disassembler(isa)
    texts, at = [], 0
    while at < len(words):
        if words[at] >> 26 == 1:  # a prefix: the instruction is two words
            texts.append(dis.prefixed(words[at], words[at + 1]))
            at += 2
        else:
            texts.append(dis.word(words[at]))
            at += 1
    assert all(t and not t.startswith(".long") for t in texts), texts
    assert assemble("".join(f"{t}\n" for t in texts), isa=isa, base=0).words == words
    # and GNU as reads the text the same way (objdump itself prints the
    # dense-math spellings, tests/vector/test_vector_disasm_gnu.py)
    assert gnu_as_words(tmp_path, texts, extra_args=["-mpower10"], name="again") == words


@pytest.mark.parametrize("line", OVERLAPS)
def test_vsr_inside_the_accumulator_is_refused_like_gnu_as(isa, tmp_path, line):
    src = tmp_path / "bad.s"
    src.write_text(line + "\n")
    r = subprocess.run([need_tool("powerpc64le-linux-gnu-as"), "-a64", "-mpower10", "-o",
                        str(tmp_path / "bad.o"), str(src)], capture_output=True, text=True)
    assert r.returncode != 0 and "overlaps ACC" in r.stderr
    with pytest.raises(AsmError, match="overlaps AT"):
        assemble(line + "\n", isa=isa, base=0)


# xvi8ger4 1,4,3 (XA = VSR 4, inside ACC[1]); pmxvi8ger4 2,9,3,1,1,1 (XA = VSR 9
# in ACC[2]); xvf64ger 2,5,13 (an odd XAp: Book I 7.6.1.11 names a VSR pair)
BAD_WORDS = [([0xec841818], "overlaps AT"), ([0x07901011, 0xed091818], "overlaps AT"),
             ([0xed0569d8], "even XAp")]


@pytest.mark.parametrize("words,reason", BAD_WORDS)
@pytest.mark.parametrize("translate", [False, True])
def test_invalid_form_word_traps_and_writes_nothing(isa, words, reason, translate, monkeypatch):
    """Book I 7.6.1.11: a VSR operand that overlaps ACC[AT] is an invalid form."""
    if translate:
        monkeypatch.setenv("ISA_EXT_TRANSLATE", "eager")
    sim = Simulator(translate=translate)
    sim.load_asm("".join(f".long 0x{w:08x}\n" for w in words))
    for n in range(64):
        sim.state.vsr_write(n, n * 0x0101010101010101)
    before = [sim.state.vsr_read(n) for n in range(64)]
    fpscr = sim.state.fpscr
    res = sim.run(max_steps=2)
    assert res.stop == "trap" and res.trap.kind == "illegal"
    assert "invalid form" in res.trap.reason or reason == "even XAp"
    assert reason in res.trap.reason
    assert [sim.state.vsr_read(n) for n in range(64)] == before and sim.state.fpscr == fpscr
    dis = Disassembler(isa)
    text = dis.word(words[0]) if len(words) == 1 else dis.prefixed(*words)
    assert text is None or text.startswith(".long")


def test_dense_math_names_assemble_as_gnu_as(isa, tmp_path):
    # GNU objdump without -Mpower10 prints each MMA word under its "dm" name
    # (dmxvf32ger, pmdmxvf32gerpp, dmsetaccz...); that name, with our operand
    # text, must give GNU as's word in both assemblers
    lines = MOVES + INTEGER_LINES + PM_INTEGER_LINES + FLOAT_LINES + PM_FLOAT_LINES
    src, obj = tmp_path / "mma.s", tmp_path / "mma.o"
    src.write_text("".join(f"{t}\n" for t in lines))
    subprocess.run([need_tool("powerpc64le-linux-gnu-as"), "-mpower10", str(src), "-o", str(obj)],
                   check=True, capture_output=True)
    dump = subprocess.run([need_tool("powerpc64le-linux-gnu-objdump"), "-d", str(obj)],
                          check=True, capture_output=True, text=True).stdout
    names = [parts[2].split()[0] for parts in (row.split("\t") for row in dump.splitlines())
             if len(parts) > 2 and parts[2].strip() and parts[2].split()[0] != "nop"]
    # (a nop: GNU as keeps a prefixed instruction off a 64-byte boundary)
    assert len(names) == len(lines) and all(n.startswith(("dm", "pmdm")) for n in names), names
    renamed = [f"{name} {line.split(None, 1)[1]}" for name, line in zip(names, lines)]
    want = gnu_as_words(tmp_path, renamed, extra_args=["-mpower10"], name="dm")
    assert want == gnu_as_words(tmp_path, lines, extra_args=["-mpower10"], name="v31")
    assert assemble("".join(f"{t}\n" for t in renamed), isa=isa, base=0).words == want
    # the disassembler keeps the v3.1 names (objdump -Mpower10's)
    dis = Disassembler(isa)
    assert not any(dis.word(w).startswith("dm") for w in want if w >> 26 != 1)
