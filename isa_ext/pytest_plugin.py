"""pytest plugin: ``--isa-coverage`` records which pseudocode statements of which
instruction pages the tests ran, and writes an HTML report.

    python -m pytest --isa-coverage [--isa-coverage-dir isa-coverage]

Registered by ``tests/conftest.py`` (``pytest_plugins``); elsewhere use
``-p isa_ext.pytest_plugin``.

``assert_hf_equals_vf(program, ...)`` (from :mod:`isa_ext.hfvf`, re-exported
here) fails a test unless every SVP64 instruction of ``program`` ends the same
horizontal-first and vertical-first (docs/hfvf.md).
"""
import os

from .hfvf import assert_hf_equals_vf  # noqa: F401  (the helper for users' suites)

_STATE = {}


def pytest_addoption(parser):
    group = parser.getgroup("isa-coverage", "pseudocode coverage of instruction pages")
    group.addoption("--isa-coverage", action="store_true", default=False,
                    help="record which pseudocode lines ran; report per page and extension")
    group.addoption("--isa-coverage-dir", default="isa-coverage", metavar="DIR",
                    help="where the HTML report goes (default: isa-coverage)")


def pytest_configure(config):
    if not config.getoption("isa_coverage", False):
        return
    from .spec.coverage import Coverage
    cov = Coverage()
    cov.activate()  # before any test builds an ISA, so all compiled code has probes
    _STATE["coverage"] = cov


def pytest_sessionfinish(session, exitstatus):
    cov = _STATE.get("coverage")
    if cov is None:
        return
    from .errors import IsaExtError
    from .spec.coverage import complete, summary_lines, write_report
    try:
        results = complete(cov)
        out_dir = session.config.getoption("isa_coverage_dir")
        _STATE["report"] = write_report(results, out_dir)
        _STATE["summary"] = summary_lines(results)
    except (IsaExtError, OSError) as e:
        _STATE["summary"] = [f"no report: {e}"]
    finally:
        cov.deactivate()


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if "summary" not in _STATE:
        return
    terminalreporter.write_sep("-", "pseudocode coverage (isa-coverage)")
    for line in _STATE["summary"]:
        terminalreporter.write_line(line)
    if "report" in _STATE:
        terminalreporter.write_line(f"report: {os.path.abspath(_STATE['report'])}")
