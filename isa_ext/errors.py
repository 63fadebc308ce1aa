"""Error types.  Every user-facing failure is one of these, never a bare traceback."""


class IsaExtError(Exception):
    """Base class of all errors isa_ext reports to users."""


class SpecError(IsaExtError):
    """Bad spec data: a form, table row or pseudocode page is malformed.

    ``where`` names the file and line (``pseudocode/base/fixedarith.mdwn:12``).
    """

    def __init__(self, message, where=None):
        self.where = where
        super().__init__(f"{where}: {message}" if where else message)


class AsmError(IsaExtError):
    """Assembly source error, located at file:line:column."""

    def __init__(self, message, filename="<input>", line=0, column=0):
        self.filename, self.line, self.column = filename, line, column
        self.message = message
        super().__init__(f"{filename}:{line}:{column}: error: {message}")


SIGILL, SIGTRAP, SIGBUS, SIGFPE, SIGSEGV = 4, 5, 7, 8, 11
# trap kind -> the signal arch/powerpc/kernel/traps.c sends (as QEMU's linux-user)
LINUX_SIGNALS = {"illegal": SIGILL, "program": SIGTRAP, "alignment": SIGBUS, "segv": SIGSEGV}


class Trap(IsaExtError):
    """An architectural trap (illegal instruction, program interrupt, ...).

    Raised inside an instruction's semantics before any state is written;
    the simulator turns it into a reported trap with PC and instruction word.
    """

    def __init__(self, reason, kind="illegal", signal=None):
        self.reason = reason
        self.kind = kind
        # the signal Linux delivers for it to a process (a trap instruction or
        # hashchk: SIGTRAP; an FP enabled exception passes SIGFPE)
        self.signal = LINUX_SIGNALS.get(kind, SIGILL) if signal is None else signal
        super().__init__(reason)
