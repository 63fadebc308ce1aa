"""tools/mutation.toml must name tests for every pseudocode page: a page without
an entry stops the mutation run (and the sampled CI check) when drawn."""
import fnmatch
import glob
import os
import pytest

tomllib = pytest.importorskip("tomllib", reason="tools/mutation.py needs Python >= 3.11 (tomllib)")

ROOT = os.path.join(os.path.dirname(__file__), "..")


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
