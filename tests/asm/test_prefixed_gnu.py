"""Power ISA v3.1 prefixed instructions (8LS/MLS/MRR forms) in the assembler
and the disassembler, against LLVM's and GNU binutils' encodings.

LLVM_PAIRS: lines of LLVM's MC test of the prefixed scalar instructions
(llvm/test/MC/PowerPC, "CHECK-BE ... encoding: [...]", our own extraction;
the prefix word first, each word as the big-endian bytes read), expected
values independent of this project and of GNU as.  GNU_LINES: more lines
(extended mnemonics, R=1 without a base, @pcrel, pnop, quadwords), where GNU
as 2.40 run on the same source is the oracle, and the whole program
(section alignment, the nop before a prefixed instruction that would cross a
64-byte boundary) must come out byte for byte the same.  The disassembly of
every word must read as GNU objdump prints it.
"""
import subprocess

import pytest

from conftest import gnu_as_words, need_tool
from isa_ext.asm import assemble
from isa_ext.disasm import Disassembler
from isa_ext.isa import ISA

LLVM_PAIRS = [
    ("paddi 1, 2, 8589934591, 0", 0x0601FFFF, 0x3822FFFF),
    ("paddi 1, 0, -8589934592, 1", 0x06120000, 0x38200000),
    ("pli 1, -8589934592", 0x06020000, 0x38200000),
    ("pli 1, 8589934591", 0x0601FFFF, 0x3820FFFF),
    ("pstfs 1, -134217728(3), 0", 0x0603F800, 0xD0230000),
    ("pstfs 1, 134217727(0), 1", 0x061007FF, 0xD020FFFF),
    ("pstfd 1, -134217728(3), 0", 0x0603F800, 0xD8230000),
    ("pstfd 1, 134217727(0), 1", 0x061007FF, 0xD820FFFF),
    ("plfs 1, -8589934592(3), 0", 0x06020000, 0xC0230000),
    ("plfs 1, 8589934591(0), 1", 0x0611FFFF, 0xC020FFFF),
    ("plfd 1, -8589934592(3), 0", 0x06020000, 0xC8230000),
    ("plfd 1, 8589934591(0), 1", 0x0611FFFF, 0xC820FFFF),
    ("pstb 1, -8589934592(3), 0", 0x06020000, 0x98230000),
    ("pstb 1, 8589934591(0), 1", 0x0611FFFF, 0x9820FFFF),
    ("psth 1, -8589934592(3), 0", 0x06020000, 0xB0230000),
    ("psth 1, 8589934591(0), 1", 0x0611FFFF, 0xB020FFFF),
    ("pstw 1, -8589934592(3), 0", 0x06020000, 0x90230000),
    ("pstw 1, 8589934591(0), 1", 0x0611FFFF, 0x9020FFFF),
    ("pstd 1, -8589934592(3), 0", 0x04020000, 0xF4230000),
    ("pstd 1, 8589934591(0), 1", 0x0411FFFF, 0xF420FFFF),
    ("plbz 1, 8589934591(3), 0", 0x0601FFFF, 0x8823FFFF),
    ("plbz 1, -8589934592(0), 1", 0x06120000, 0x88200000),
    ("plhz 1, 8589934591(3), 0", 0x0601FFFF, 0xA023FFFF),
    ("plhz 1, -8589934592(0), 1", 0x06120000, 0xA0200000),
    ("plha 1, 8589934591(3), 0", 0x0601FFFF, 0xA823FFFF),
    ("plha 1, -8589934592(0), 1", 0x06120000, 0xA8200000),
    ("plwz 1, 8589934591(3), 0", 0x0601FFFF, 0x8023FFFF),
    ("plwz 1, -8589934592(0), 1", 0x06120000, 0x80200000),
    ("plwa 1, -8589934592(3), 0", 0x04020000, 0xA4230000),
    ("plwa 1, 8589934591(0), 1", 0x0411FFFF, 0xA420FFFF),
    ("pld 1, -8589934592(3), 0", 0x04020000, 0xE4230000),
    ("pld 1, 8589934591(0), 1", 0x0411FFFF, 0xE420FFFF),
]

GNU_LINES = [
    "paddi 3,4,-5", "psubi 3,4,5", "pli 3,0x1ffffffff", "pli 9,-1", "pla 3,8(0)",
    "pla 3,4(5)", "pla 7,-16", "paddi 3,0,5,1", "pld 3,16(4)", "pld 3,16", "pld 3,16(0)",
    "pld 3,16(0),1", "pnop", "plq 4,0(3)", "plq 30,-4096(0),1", "pstq 4,8(5)",
    "pstq 6,32", "plwa 7,-3", "plha 2,0x7fff(31)", "pstfs 1,8(0),1", "plfd 31,-8(1)",
    "pstb 0,1(2)", "psth 31,-2", "pstw 5,0(0)", "plbz 3,x@pcrel", "plwz 5,x@pcrel",
    "pld 6,x+8@pcrel", "pstd 7,x-16@pcrel", "x:", "addi 3,3,1", "pld 8,x@pcrel",
]


@pytest.fixture(scope="module")
def base():
    return ISA(extensions=["base"])


def words_of(prog):
    data = prog.data
    return [int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data), 4)]


@pytest.mark.parametrize("line,prefix,suffix", LLVM_PAIRS)
def test_llvm_encodings(base, line, prefix, suffix):
    assert words_of(assemble(line + "\n", isa=base, base=0)) == [prefix, suffix]


def test_gnu_as_agrees_with_the_llvm_encodings(tmp_path):
    want = [w for _line, p, s in LLVM_PAIRS for w in (p, s)]
    # (gas puts nops where a pair would cross 64 bytes: none here, 32 pairs)
    assert gnu_as_words(tmp_path, [line for line, _p, _s in LLVM_PAIRS],
                        extra_args=["-mpower10"]) == want


def test_program_matches_gnu_as_byte_for_byte(base, tmp_path):
    ours = words_of(assemble("".join(f" {t}\n" if not t.endswith(":") else f"{t}\n"
                                     for t in GNU_LINES), isa=base, base=0))
    gnu = gnu_as_words(tmp_path, [f" {t}" if not t.endswith(":") else t for t in GNU_LINES],
                       extra_args=["-mpower10"])
    assert ours == gnu


@pytest.mark.parametrize("nops", range(12, 17))
def test_nop_before_a_prefixed_instruction_that_would_cross_64_bytes(base, tmp_path, nops):
    lines = [" nop"] * nops + [" pld 3,8(4)", " nop", " pli 5,7"]
    ours = words_of(assemble("\n".join(lines) + "\n", isa=base, base=0))
    assert ours == gnu_as_words(tmp_path, lines, extra_args=["-mpower10"])
    if nops == 15:  # offset 60: a nop goes first (by hand: 15 + 1 nops, then pld)
        assert ours[15] == 0x60000000 and ours[16:18] == [0x04000000, 0xE4640008]


def _objdump_texts(obj):
    """{address: "mnemonic operands"} as GNU objdump prints them (comment cut)."""
    out = subprocess.run([need_tool("powerpc64le-linux-gnu-objdump"), "-d", str(obj)],
                         capture_output=True, text=True, check=True).stdout
    texts = {}
    for line in out.splitlines():
        parts = line.split("\t")
        if len(parts) >= 3 and parts[0].strip().endswith(":"):
            text = " ".join(parts[2].split("#")[0].split())
            texts[int(parts[0].strip()[:-1], 16)] = " ".join(p for p in [text] + [
                " ".join(x.split()) for x in parts[3:4] if not parts[3].startswith("#")])
    return texts


def _gnu_object(tmp_path, source):
    src, obj = tmp_path / "d.s", tmp_path / "d.o"
    src.write_text(source)
    subprocess.run([need_tool("powerpc64le-linux-gnu-as"), "-mpower10", "-o", str(obj),
                    str(src)], check=True, capture_output=True)
    from elftools.elf.elffile import ELFFile
    with open(obj, "rb") as f:
        return obj, ELFFile(f).get_section_by_name(".text").data()


# words GNU as does not write (invalid forms, reserved bits): objdump's text
# for them is ".long"; each line here is one 8-byte pair
ODD_PAIRS = [
    (0x06100000, 0x38640005),  # paddi with R=1 and RA=4: an invalid form
    (0x04100000, 0xA4640010),  # plwa, R=1, RA=4 (the suffix alone: lhau)
    (0x06800000, 0x38640005),  # MLS prefix with ST=1
    (0x06000001 | 0x00200000, 0x38640005),  # reserved prefix bit 10
    (0x07000000, 0x60000000),  # pnop with a non-zero suffix (runs; objdump: words)
    (0x06010000, 0x80640000),  # plwz r3,4294967296(r4)
]


def test_disassembly_reads_as_gnu_objdump(base, tmp_path):
    source = "".join(f" {t}\n" if not t.endswith(":") else f"{t}\n" for t in GNU_LINES)
    source += "".join(f" .long 0x{p:08x}, 0x{s:08x}\n" for p, s in ODD_PAIRS)
    source += "".join(f" {line}\n" for line, _p, _s in LLVM_PAIRS)
    obj, data = _gnu_object(tmp_path, source)
    gnu = _objdump_texts(obj)
    ours = {a: t for a, _w, t in Disassembler(base).lines(data, 0)}
    diff = []
    for addr, text in ours.items():
        want = gnu[addr].replace(", ", ",")
        if text.startswith(".long") and want.startswith(".long"):
            want = text if int(want.split()[1], 16) == int(text.split()[1], 16) else want
        if text != want:
            diff.append(f"{addr:#x}: ours {text!r} objdump {want!r}")
    assert not diff, "\n".join(diff)
    # ... and every text is one the assembler reads back to the same bytes
    again = assemble("\n".join(ours.values()) + "\n", isa=base, base=0)
    assert again.data == bytes(data)


@pytest.mark.parametrize("text,why", [
    ("pld 3,16(4),2", "R value 2 out of range 0..1"),
    ("plq 5,0(3)", "RTp must be an even register"),
    ("pli 3,0x200000000", "out of range"),
    ("addi 3,3,x@pcrel\nx:", "@pcrel where SI is not a prefixed instruction's displacement"),
])
def test_assembler_refuses(base, text, why):
    from isa_ext.errors import AsmError
    with pytest.raises(AsmError) as e:
        assemble(text + "\n", isa=base)
    assert why in str(e.value)


def test_splat_immediates_take_either_sign_as_gnu_as(tmp_path):
    # LLVM's ppc64-encoding-ISA31.s writes `xxspltiw 63, -1` (0500ffff
    # 83e7ffff): GNU as 2.40 reads the 32-bit immediate signed or unsigned
    lines = ["xxspltiw 63,-1", "xxsplti32dx 63,1,-1", "xxspltidp 63,-1",
             "xxspltiw 63,0xffffffff", "xxspltiw 63,-2147483648", "xxsplti32dx 0,0,-7"]
    ours = assemble("".join(f"{ln}\n" for ln in lines), isa=ISA()).words
    assert ours == gnu_as_words(tmp_path, lines, ["-mpower10"])
