"""The golden SVP64 encodings (libre-soc's assembler + GNU as 2.40) through the
assembler's full path (labels/expressions -> sv_assemble hook), and back through
the disassembler: disassembly reassembles to the golden words."""
import os


from isa_ext.asm import assemble
from isa_ext.disasm import Disassembler


def golden(shared_dir):
    rows = []
    with open(os.path.join(shared_dir, "golden", "svp64_encodings.tsv"), encoding="utf-8") as f:
        for line in f:
            if line.strip():
                text, words = line.rstrip("\n").split("\t")
                rows.append((text, [int(w, 16) for w in words.split()]))
    return rows


def check(isa, rows):
    dis = Disassembler(isa)
    problems = []
    for text, want in rows:
        got = assemble(text + "\n", isa=isa, base=0).words
        if got != want:
            problems.append(f"{text}: ours {[hex(w) for w in got]} golden {[hex(w) for w in want]}")
            continue
        data = b"".join(w.to_bytes(4, "little") for w in want)
        back = [t for _, _, t in dis.lines(data, 0)]
        again = assemble("\n".join(back) + "\n", isa=isa, base=0).words
        if again != want:
            problems.append(f"{text} -> {back} -> {[hex(w) for w in again]}")
    return problems


def test_golden_encodings(isa, shared_dir):
    rows = [r for r in golden(shared_dir) if not r[0].startswith("setvl")]
    assert len(rows) > 50
    problems = check(isa, rows)
    assert not problems, "\n".join(problems)


def test_golden_setvl(isa, shared_dir):
    rows = [r for r in golden(shared_dir) if r[0].startswith("setvl")]
    assert rows
    assert not check(isa, rows)


# svstep words from libre-soc's SVP64Asm (openpower-isa 3cb597b9), run on this
# machine: scalar svstep writes SVi as the field plus one (as setvl's VLi: a
# "non-zero operand", so "svstep 0,0,0,0" is rejected there), sv.svstep writes
# the field as it is.
SVSTEP_GOLDEN = [
    ("svstep. 0,0,1,0", [0x58000027]),
    ("svstep 0,0,1,0", [0x58000026]),
    ("svstep 0,0,2,0", [0x58000226]),
    ("svstep 0,0,5,0", [0x58000826]),
    ("svstep 0,0,6,0", [0x58000a26]),
    ("svstep 0,0,9,0", [0x58001026]),
    ("svstep 0,0,14,0", [0x58001a26]),
    ("svstep 0,0,15,0", [0x58001c26]),
    ("svstep 0,0,16,0", [0x58001e26]),
    ("svstep 3,0,5,1", [0x58600866]),
    ("sv.svstep *0,0,5,1", [0x05402000, 0x58000a66]),
    ("sv.svstep. *0,0,5,1", [0x05402000, 0x58000a67]),
    ("sv.svstep./vec2 *0,0,5,1", [0x05406000, 0x58000a67]),
    ("sv.svstep 0,0,1,0", [0x05400000, 0x58000226]),
    ("sv.svstep 0,0,0,0", [0x05400000, 0x58000026]),
    ("sv.svstep. 0,0,0,0", [0x05400000, 0x58000027]),
    ("sv.svstep 0,0,6,0", [0x05400000, 0x58000c26]),
    ("sv.svstep 0,0,15,0", [0x05400000, 0x58001e26]),
    ("sv.setvl 0,0,8,0,1,1", [0x05400000, 0x58000fb6]),
]


def test_golden_svstep(isa):
    assert not check(isa, SVSTEP_GOLDEN)


def test_svstep_disassembles_as_written(isa):
    # the disassembly spells SVi as the source did (not the raw field)
    dis = Disassembler(isa)
    for text, words in SVSTEP_GOLDEN:
        data = b"".join(w.to_bytes(4, "little") for w in words)
        (_, _, back), = dis.lines(data, 0)
        assert back.replace(" ", "").replace("r", "") == text.replace(" ", ""), (text, back)


def test_scalar_svstep_rejects_svi_zero(isa):
    # libre-soc's SVP64Asm: "svstep 0,0,0,0" -> ValueError "non-zero operand"
    import pytest
    from isa_ext.errors import IsaExtError
    with pytest.raises(IsaExtError, match="SVi value 0 out of range"):
        assemble("svstep. 0,0,0,0\n", isa=isa, base=0)
