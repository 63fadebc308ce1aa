"""Measure the scalar user-level coverage the README states: how many of the
GNU scalar pairs (tests/data/gnu_scalar_pairs.tsv, written by
tools/gnu_scalar_pairs.py) isa-ext asm assembles to GNU as's words, how many
are unknown, refused or different, and what was left out and why
(tests/data/gnu_scalar_left_out.tsv).

    python tools/scalar_coverage.py
"""
import collections
import os

from isa_ext.asm import assemble
from isa_ext.errors import AsmError
from isa_ext.isa import ISA

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests", "data")


def rows(name):
    with open(os.path.join(DATA, name)) as f:
        for line in f:
            if not line.startswith("#"):
                yield line.rstrip("\n").split("\t")


def main():
    isa = ISA(extensions=["base"])
    outcome = collections.Counter()
    mnemonics = set()
    for line, words in rows("gnu_scalar_pairs.tsv"):
        mnemonics.add(line.split()[0])
        try:
            got = assemble(f"{line}\ntarget:\n", isa=isa, base=0).words
            kind = "same" if got == [int(w, 16) for w in words.split()] else "different"
        except AsmError as e:
            kind = "unknown" if "unknown mnemonic" in str(e) else "refused"
        outcome[kind] += 1
    total = sum(outcome.values())
    print(f"GNU as 2.40 scalar user-level lines: {total} ({len(mnemonics)} mnemonics)")
    for kind in ("same", "unknown", "refused", "different"):
        print(f"  {kind:9} {outcome[kind]}")
    variants = sum(len(r.variants) for r in isa.rows)
    print(f"base instruction variants in the tables: {variants}")
    print("left out:")
    for why, n in collections.Counter(why for _, why in rows("gnu_scalar_left_out.tsv")).most_common():
        print(f"  {n:3}  {why}")


if __name__ == "__main__":
    main()
