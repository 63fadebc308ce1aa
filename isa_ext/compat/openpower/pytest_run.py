"""Run openpower-isa test modules under pytest with the facade's import hook
active, counting each collected test once: passed, or failed if any of its
phases (collection, setup, call or a subtest, teardown) failed."""
import os

from .hook import facade_imports, source_root_of

__all__ = ["Tally", "run_test_files"]

# openpower-isa's pyproject.toml requires plugins from no registry and adds
# xdist options; these neutralise that part of its configuration only.
PYTEST_OVERRIDES = ["-p", "no:cacheprovider", "-o", "required_plugins=", "-o", "addopts="]


class Tally:
    """A pytest plugin object: outcome per test node id."""

    def __init__(self):
        self.outcomes = {}  # nodeid -> "passed" | "failed" | "skipped"

    # a test's outcome is the strongest of its reports: any failure fails it, a
    # passing call outweighs a skipped subtest, a test with only skips is skipped
    RANK = {"skipped": 0, "passed": 1, "failed": 2}

    def _set(self, nodeid, outcome):
        old = self.outcomes.get(nodeid)
        if old is None or self.RANK[outcome] > self.RANK[old]:
            self.outcomes[nodeid] = outcome

    def pytest_runtest_logreport(self, report):
        if report.failed:
            self._set(report.nodeid, "failed")
        elif report.skipped:
            self._set(report.nodeid, "skipped")
        elif report.when == "call":
            self._set(report.nodeid, "passed")

    def pytest_collectreport(self, report):
        if report.failed:  # a module that does not import: one failure
            self._set(report.nodeid, "failed")

    def count(self, outcome):
        return sum(1 for o in self.outcomes.values() if o == outcome)


def run_test_files(paths, pytest_args=(), profile="openpower-isa"):
    """(passed, failed, pytest's exit code) of running ``paths`` with the facade,
    its simulators following ``profile``."""
    import pytest
    from .program import profile_in_use
    roots = sorted({r for r in map(source_root_of, paths) if r})
    tally = Tally()
    with facade_imports(roots), profile_in_use(profile):
        code = pytest.main([*PYTEST_OVERRIDES, *pytest_args, *map(os.fspath, paths)],
                           plugins=[tally])
    return tally.count("passed"), tally.count("failed"), int(code)
