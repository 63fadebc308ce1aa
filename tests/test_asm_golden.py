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
