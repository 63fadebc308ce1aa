"""tools/coverage_statement.py measures the README's coverage statement: the
Book I inventory's in-scope variants all in the tables (no gap), GNU's and
LLVM's scalar test lines all byte-exact, and every out-of-scope class named."""
import os
import sys

from conftest import ROOT

sys.path.insert(0, os.path.join(ROOT, "tools"))
import coverage_statement  # noqa: E402


def test_the_statement_holds():
    m = coverage_statement.measure()
    assert m["gaps"] == [] and m["implemented"] == m["in_scope"] > 400
    # nothing in scope only traps (hashst/hashchk were the last)
    assert m["trapping"] == []
    scalar = m["suites"]["scalar"]
    assert scalar["same"] > 1500
    assert scalar["unknown"] == scalar["refused"] == scalar["different"] == 0
    reasons = " ".join(m["out_of_scope"])
    for why in ("privileged", "decimal floating point", "transactional memory", "vmx", "vsx"):
        assert why in reasons


def test_the_readme_states_the_measured_figures():
    import re
    m = coverage_statement.measure()
    with open(os.path.join(ROOT, "README.md")) as f:
        text = " ".join(f.read().split())
    vector_same = m["suites"]["vmx"]["same"] + m["suites"]["vsx"]["same"]
    vector_lines = sum(m["suites"]["vmx"].values()) + sum(m["suites"]["vsx"].values())
    assert f"every one of the {m['in_scope']} Book I user-level scalar" in text
    assert f"all {m['suites']['scalar']['same']:,} scalar user-level lines" in text
    assert f"({vector_same} of {vector_lines})" in text
    assert "which trap as not implemented" not in text
