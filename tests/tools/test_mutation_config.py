"""tools/mutation.toml must name tests for every pseudocode page: a page without
an entry stops the mutation run (and the sampled CI check) when drawn."""
import fnmatch
import glob
import os
import pytest

tomllib = pytest.importorskip("tomllib", reason="tools/mutation.py needs Python >= 3.11 (tomllib)")

from conftest import ROOT


def test_every_page_has_tests_in_the_mutation_config():
    with open(os.path.join(ROOT, "tools", "mutation.toml"), "rb") as f:
        patterns = tomllib.load(f)["area"]["pages"]["tests"]
    pages = sorted(os.path.relpath(p, ROOT) for p in
                   glob.glob(os.path.join(ROOT, "pseudocode", "**", "*.mdwn"), recursive=True))
    assert pages
    unmapped = [p for p in pages if not any(fnmatch.fnmatch(p, pat) for pat in patterns)]
    assert unmapped == []
    for tests in patterns.values():
        for t in tests:
            assert glob.glob(os.path.join(ROOT, t)), f"mutation.toml names no file: {t}"


def test_only_selects_mutants_by_their_printed_description():
    # `tools/mutation.py --only PATTERN` runs the mutants whose description, as
    # the run prints it ("path:line: operator #occurrence"), matches a shell
    # pattern: how one survivor is re-run after a test was written for it
    import sys
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import mutation
    ms = [mutation.Mutant("svp64", "python", "isa_ext/svp64/executor.py", 431,
                          "ReplaceBinaryOperator_RShift_Sub", 16),
          mutation.Mutant("svp64", "python", "isa_ext/svp64/executor.py", 4310,
                          "ReplaceBinaryOperator_RShift_Sub", 16),
          mutation.Mutant("svp64", "python", "isa_ext/svp64/remap.py", 431, "NumberReplacer", 3)]
    assert mutation.select(ms, ["isa_ext/svp64/executor.py:431:*"]) == ms[:1]
    assert mutation.select(ms, ["*:431: *", "*#3"]) == [ms[0], ms[2]]
    assert mutation.select(ms, []) == ms
