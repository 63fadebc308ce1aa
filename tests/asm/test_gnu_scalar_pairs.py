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
