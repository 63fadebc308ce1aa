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


class Trap(IsaExtError):
    """An architectural trap (illegal instruction, program interrupt, ...).

    Raised inside an instruction's semantics before any state is written;
    the simulator turns it into a reported trap with PC and instruction word.
    """

    def __init__(self, reason, kind="illegal"):
        self.reason = reason
        self.kind = kind
        super().__init__(reason)
