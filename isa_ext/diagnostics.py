"""Diagnostics: UNDEFINED or reserved behaviour met during a run.

Engines append :class:`Diagnostic` records to ``Simulator.diagnostics``; the
run's :class:`~isa_ext.sim.RunResult` carries them and ``isa-ext run`` prints
them.  In strict mode an engine raises :class:`UndefinedBehaviour` instead,
which the simulator reports as a stop with the diagnostic attached.
"""
from .records import record, factory

from .errors import Trap


@record
class Diagnostic:
    kind: str      # "hf-overlap", "inactive-lane-read", "reserved-value", ...
    pc: int
    message: str
    details: dict = factory(dict)

    def __str__(self):
        return f"{self.kind} at pc=0x{self.pc:x}: {self.message}"


class UndefinedBehaviour(Trap):
    """Strict mode: the program relied on UNDEFINED behaviour."""

    def __init__(self, diagnostic):
        self.diagnostic = diagnostic
        super().__init__(str(diagnostic), "undefined")


def report(sim, kind, pc, message, **details):
    """Record a diagnostic; in strict mode stop the run with it."""
    d = Diagnostic(kind, pc, message, details)
    if getattr(sim, "strict", False):
        raise UndefinedBehaviour(d)
    sim.diagnostics.append(d)
    return d


# --- reporting ----------------------------------------------------------------
# ``isa-ext run`` and ``isa-ext diag`` print ``format_diagnostics(result.diagnostics)``;
# API users read ``result.diagnostics`` or ``diagnostics_as_dicts(...)`` (JSON-ready).

def summarize(diagnostics):
    """[(kind, count, first pc)] in order of first appearance."""
    seen = {}
    for d in diagnostics:
        kind, count, first = seen.get(d.kind, (d.kind, 0, d.pc))
        seen[d.kind] = (kind, count + 1, first)
    return list(seen.values())


def format_diagnostics(diagnostics, limit=20):
    """Text for a run's diagnostics: a count per kind, then the first ``limit``
    records with their pc and message.  One line "diagnostics: none" if empty."""
    diagnostics = list(diagnostics)
    if not diagnostics:
        return "diagnostics: none"
    lines = [f"diagnostics: {len(diagnostics)} (UNDEFINED or reserved behaviour met)"]
    for kind, count, first in summarize(diagnostics):
        lines.append(f"  {kind}: {count} time(s), first at pc=0x{first:x}")
    for d in diagnostics[:limit]:
        extra = " ".join(f"{k}={_show(v)}" for k, v in sorted(d.details.items()))
        lines.append(f"  pc=0x{d.pc:x} {d.kind}: {d.message}" + (f" [{extra}]" if extra else ""))
    if len(diagnostics) > limit:
        lines.append(f"  ... {len(diagnostics) - limit} more")
    return "\n".join(lines)


def diagnostics_as_dicts(diagnostics):
    return [{"kind": d.kind, "pc": d.pc, "message": d.message, "details": dict(d.details)}
            for d in diagnostics]


def _show(v):
    return f"0x{v:x}" if isinstance(v, int) and not isinstance(v, bool) and v > 9 else str(v)
