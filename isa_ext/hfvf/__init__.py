"""Horizontal-first against vertical-first: ``compare(program, ...)`` runs every
SVP64 instruction of a program both ways and names why the end states differ
(docs/hfvf.md).

* :mod:`.vfloop` -- the instruction run HF, and as the VF loop generated from it;
* :mod:`.deps` -- per-element read/write sets and the overlaps between elements;
* :mod:`.classify` -- state differences, cause classes, verdicts, exit statuses;
* :mod:`.compare` -- the program walk and the structured report;
* :mod:`.report` -- text and JSON; :mod:`.picture` -- the element-step x register grid;
* :func:`assert_hf_equals_vf` -- for users' test suites (also exported by the
  pytest plugin ``isa_ext.pytest_plugin``).
"""
from .classify import AGREE, LEGAL, UNDEFINED, BUG, EXIT_STATUS
from .compare import compare, Report, InstructionReport
from .deps import analyse as dependencies


def assert_hf_equals_vf(program, allow=(), **kwargs):
    """Fail (AssertionError with the text report) unless every SVP64 instruction
    of ``program`` ends the same horizontal-first and vertical-first.  ``allow``:
    verdicts accepted besides agreement (e.g. ``("legal difference",)``).
    Keyword arguments are :func:`compare`'s.  Returns the report."""
    from .report import text
    report = compare(program, **kwargs)
    bad = [i for i in report.compared if i.verdict not in (AGREE,) + tuple(allow)]
    if bad or report.program_stop not in ("end", "exit"):
        raise AssertionError("horizontal-first and vertical-first differ:\n" + text(report))
    return report


__all__ = ["compare", "Report", "InstructionReport", "dependencies", "assert_hf_equals_vf",
           "AGREE", "LEGAL", "UNDEFINED", "BUG", "EXIT_STATUS"]
