"""Measure the coverage statement the README makes: which Power ISA v3.1
user-level instructions isa_ext implements and what is out of scope, from
the Book I inventory (isa_ext/diffcheck/book1_inventory.txt) and GNU gas's
and LLVM's own test lines (tests/data/suite_pairs.tsv).

    python tools/coverage_statement.py

Prints the figures and the sentence they support.
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from isa_ext.diffcheck import book1                 # noqa: E402
from isa_ext.diffcheck.generate import targets        # noqa: E402
from isa_ext.isa import ISA                            # noqa: E402
import suite_coverage                                  # noqa: E402


def measure():
    base = ISA(extensions=["base"])
    table = {t.mnemonic for t in targets(base)}
    skipped = {t.mnemonic: t.reason for t in targets(base) if t.family == "skip"}
    drawn = table - set(skipped)
    c = book1.coverage(drawn, skipped, table)
    in_scope = len(c["exercised"]) + len(c["not sandwichable"]) + len(c["not in the tables"])
    counts, _ = suite_coverage.tally(ISA(extensions=["base", "vector"]))
    # rows that only trap (their reason says so): in the tables, not implemented
    trapping = sorted(n for n, why in c["not sandwichable"].items() if "not implemented" in why)
    return {"in_scope": in_scope, "implemented": in_scope - len(c["not in the tables"]),
            "trapping": trapping,
            "gaps": c["not in the tables"], "not_sandwichable": c["not sandwichable"],
            "out_of_scope": c["out of scope"], "suites": counts}


def main():
    m = measure()
    scalar = m["suites"]["scalar"]
    lines = scalar["same"] + scalar["unknown"] + scalar["refused"] + scalar["different"]
    print(f"Book I user-level scalar variants (v3.1 inventory): {m['in_scope']}; "
          f"in isa_ext's tables: {m['implemented']}; gaps: {' '.join(m['gaps']) or 'none'}")
    print(f"  the QEMU differential draws all but {len(m['not_sandwichable'])}: "
          + "; ".join(f"{k}" for k in sorted(m["not_sandwichable"])))
    print("  out of scope: " + "; ".join(f"{n} {why}" for why, n in
                                          sorted(m["out_of_scope"].items())))
    print(f"GNU gas and LLVM test lines, scalar user level: {lines} assemble to the suites' "
          f"words: {scalar['same']} same, {scalar['unknown']} unknown, {scalar['refused']} "
          f"refused, {scalar['different']} different ({scalar['relocation']} more need a "
          f"relocation)")
    for cls in ("vmx", "vsx"):
        k = m["suites"][cls]
        print(f"  {cls}: {k['same']} of {sum(k.values())} lines known and the same, "
              f"{k['unknown']} unknown, {k['different']} different")
    print()
    but = (f" but {' and '.join(m['trapping'])}, which trap as not implemented"
           if m["trapping"] else "")
    print(f"Statement: Power ISA v3.1 Book I user level, scalar: all {m['implemented']} "
          f"instruction variants of the inventory{but} (fixed point, floating point, branch, "
          f"v3.1 prefixed, storage/cache as a single thread sees it), byte-exact with GNU "
          f"as 2.40 on GNU's and LLVM's tests; out of scope: privileged (Book III), "
          f"decimal floating point, transactional memory, embedded and removed "
          f"instructions (VMX/VSX: docs/vector.md).")


if __name__ == "__main__":
    main()
