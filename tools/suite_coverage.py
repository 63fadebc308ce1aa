"""Tally GNU gas's and LLVM's own PowerPC test lines (tests/data/suite_pairs.tsv,
written by tools/suite_pairs.py) through isa-ext asm, by class: how many
assemble to the suites' words, how many are unknown, refused or different,
and the unknown mnemonics of each class.

    python tools/suite_coverage.py [--names]
"""
import collections
import os
import sys

from isa_ext.asm import assemble
from isa_ext.errors import AsmError
from isa_ext.isa import ISA

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                    "tests", "data", "suite_pairs.tsv")
CLASSES = ("scalar", "vmx", "vsx", "privileged", "other")


def rows():
    with open(DATA) as f:
        for line in f:
            if not line.startswith("#"):
                yield line.rstrip("\n").split("\t")


def expected(text):
    """[(word, mask)] of an expected-words column."""
    out = []
    for item in text.split():
        word, _, mask = item.partition("/")
        out.append((int(word, 16), int(mask, 16) if mask else 0xffffffff))
    return out


def outcome(isa, line, words, gnu):
    """same / unknown / refused / different / relocation for one pair."""
    try:
        got = assemble(f"{line}\ntarget:\n", isa=isa, base=0).words
    except AsmError as e:
        if gnu == "label":
            return "relocation"
        return "unknown" if "unknown mnemonic" in str(e) else "refused"
    wants = [expected(words)]
    if gnu not in ("refused", "relocation", "label"):
        wants.append(expected(gnu))       # GNU as 2.40's word where an older .d differs
    for want in wants:
        if len(got) == len(want) and all(g & m == w & m for g, (w, m) in zip(got, want)):
            return "same"
    return "different"


def tally(isa):
    counts = {c: collections.Counter() for c in CLASSES}
    unknown = {c: collections.Counter() for c in CLASSES}
    for suite, cls, why, line, words, gnu in rows():
        kind = outcome(isa, line, words, gnu)
        counts[cls][kind] += 1
        if kind == "unknown":
            unknown[cls][line.split()[0]] += 1
    return counts, unknown


def main():
    isa = ISA(extensions=["base", "vector"])
    counts, unknown = tally(isa)
    print("GNU gas and LLVM PowerPC test lines through isa-ext asm (tests/data/suite_pairs.tsv)")
    kinds = ("same", "unknown", "refused", "different", "relocation")
    print(f"  {'class':10} {'lines':>6} " + " ".join(f"{k:>10}" for k in kinds))
    for c in CLASSES:
        total = sum(counts[c].values())
        print(f"  {c:10} {total:6} " + " ".join(f"{counts[c][k]:10}" for k in kinds))
    if "--names" in sys.argv:
        for c in CLASSES:
            if unknown[c]:
                names = " ".join(sorted(unknown[c]))
                print(f"unknown {c} ({len(unknown[c])} mnemonics): {names}")


if __name__ == "__main__":
    main()
