"""The differential's coverage counted against Power ISA v3.1's Book I
(problem-state) scalar instruction variants, not against isa_ext's own tables:
``book1_inventory.txt`` (written by tools/book1_inventory.py from openpower-isa's
Book I pages, GNU objdump's names of GNU gas's and LLVM's test words, and
binutils' opcode table) lists each variant in scope, or out of scope with the
reason (VMX/VSX, privileged, DFP, HTM, removed).  A variant missing from the
tables shows up as a gap."""
import collections
import os

INVENTORY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "book1_inventory.txt")


def inventory():
    """{variant: None (in scope) or the out-of-scope reason}."""
    out = {}
    with open(INVENTORY) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            name, _sources, scope = line.rstrip("\n").split("\t")
            out[name] = None if scope == "in" else scope[len("out: "):]
    return out


def coverage(exercised, skipped, table_variants):
    """{"exercised": [...], "not sandwichable": {name: why}, "not drawn": [...],
    "not in the tables": [...], "out of scope": Counter of reasons}."""
    inv = inventory()
    result = {"exercised": [], "not sandwichable": {}, "not drawn": [],
              "not in the tables": [], "out of scope": collections.Counter()}
    for name, out in sorted(inv.items()):
        if out is not None:
            # VMX, VSX, privileged by class; the others by their reason (DFP, HTM, ...)
            cls, _, why = out.partition(" (")
            result["out of scope"][why[:-1] if cls == "other" and why else cls] += 1
        elif name in exercised:
            result["exercised"].append(name)
        elif name in skipped:
            result["not sandwichable"][name] = skipped[name]
        elif name in table_variants:
            result["not drawn"].append(name)
        else:
            result["not in the tables"].append(name)
    return result


def summary_lines(exercised, skipped, table_variants):
    c = coverage(exercised, skipped, table_variants)
    in_scope = (len(c["exercised"]) + len(c["not sandwichable"]) + len(c["not drawn"])
                + len(c["not in the tables"]))
    outs = "; ".join(f"{n} {why}" for why, n in sorted(c["out of scope"].items()))
    lines = [f"Book I inventory: {in_scope} user-level scalar variants: "
             f"{len(c['exercised'])} exercised, {len(c['not sandwichable'])} not sandwichable, "
             f"{len(c['not drawn'])} not drawn in this run, "
             f"{len(c['not in the tables'])} not in the tables; out of scope: {outs}"]
    if c["not in the tables"]:
        lines.append("  GAP (not in the tables): " + " ".join(c["not in the tables"]))
    return lines
