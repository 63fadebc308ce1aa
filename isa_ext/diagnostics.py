"""Diagnostics: UNDEFINED or reserved behaviour met during a run.

Engines append :class:`Diagnostic` records to ``Simulator.diagnostics``; the
run's :class:`~isa_ext.sim.RunResult` carries them and ``isa-ext run`` prints
them.  In strict mode an engine raises :class:`UndefinedBehaviour` instead,
which the simulator reports as a stop with the diagnostic attached.
"""
from dataclasses import dataclass, field as dc_field

from .errors import Trap


@dataclass
class Diagnostic:
    kind: str      # "hf-overlap", "inactive-lane-read", "reserved-value", ...
    pc: int
    message: str
    details: dict = dc_field(default_factory=dict)

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
