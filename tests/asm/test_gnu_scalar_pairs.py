"""Every scalar user-level line of tests/data/gnu_scalar_pairs.tsv (lines in
the families of GNU gas's and LLVM's PowerPC assembler tests, with the words
GNU as 2.40 wrote for them: tools/gnu_scalar_pairs.py) assembles to GNU as's
words."""
import os

from conftest import TESTS_DIR
from isa_ext.asm import assemble
from isa_ext.errors import AsmError


def pairs():
    with open(os.path.join(TESTS_DIR, "data", "gnu_scalar_pairs.tsv")) as f:
        for row in f:
            if not row.startswith("#"):
                line, words = row.rstrip("\n").split("\t")
                yield line, [int(w, 16) for w in words.split()]


def outcome(isa, line, want):
    try:
        got = assemble(f"{line}\ntarget:\n", isa=isa, base=0).words
    except AsmError as e:
        return "unknown" if "unknown mnemonic" in str(e) else "refused", str(e)
    if got != want:
        return "different", " ".join(f"{w:08x}" for w in got)
    return "same", ""


def test_pairs_cover_the_families():
    # the data file is not empty or truncated (it is rewritten by a tool)
    assert len(list(pairs())) > 1000


def test_every_line_assembles_to_gnu_as_words(isa):
    bad = {}
    for line, want in pairs():
        kind, detail = outcome(isa, line, want)
        if kind != "same":
            bad.setdefault(kind, []).append(f"{line}: {detail}")
    summary = {k: len(v) for k, v in bad.items()}
    assert not bad, f"{summary}\n" + "\n".join(x for v in bad.values() for x in v[:40])


# Words our disassembler spells with another (equally valid) mnemonic than GNU
# objdump -Mpower10: objdump names dcbt/dcbtst's TH values (dcbtct for 1..7,
# dcbtds for 8..15) and bc*tar's BH with a condition; ours prints the base
# instruction there.  (base mnemonic ours prints, objdump's)
OBJDUMP_SPELLS_OTHERWISE = {("dcbt", "dcbtct"), ("dcbt", "dcbtds"), ("dcbtst", "dcbtstct"),
                            ("dcbtst", "dcbtstds"), ("bctar", "bnetar"),
                            ("bctarl", "bnetarl")}


def test_disassembly_names_what_objdump_names(isa, tmp_path):
    import subprocess

    from conftest import need_tool
    from isa_ext.disasm import Disassembler
    words = [w for _, ws in pairs() for w in ws]
    (tmp_path / "x.bin").write_bytes(b"".join(w.to_bytes(4, "little") for w in words))
    out = subprocess.run([need_tool("powerpc64le-linux-gnu-objdump"), "-D", "-b", "binary",
                          "-m", "powerpc:common64", "-EL", "-Mpower10", str(tmp_path / "x.bin")],
                         capture_output=True, text=True, check=True).stdout
    dis = Disassembler(isa)
    compared, bad = 0, []
    for line in out.splitlines():
        parts = line.split("\t")
        if len(parts) < 3 or not parts[0].strip().endswith(":"):
            continue
        addr = int(parts[0].strip()[:-1], 16)
        theirs, ours = parts[2].split()[0], dis.word(words[addr // 4], addr).split()[0]
        compared += 1
        if ours != theirs and (ours, theirs) not in OBJDUMP_SPELLS_OTHERWISE:
            bad.append(f"{words[addr // 4]:08x}: objdump {parts[2].strip()!r} ours {ours!r}")
    assert compared == len(words)
    assert not bad, "\n".join(bad[:40])
