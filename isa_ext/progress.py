"""Progress of long work (diffcheck, hfvf, long runs): a bar on stderr when
stderr is a terminal (``rich``), nothing otherwise, and where the work was
when Ctrl-C stopped it.

    with Progress("diffcheck", total=10000, unit="cases") as p:
        for batch in batches:
            ...
            p.advance(len(batch), where=f"batch {k}")

Ctrl-C inside the ``with`` prints one line on stderr
(``isa-ext: interrupted (Ctrl-C) in diffcheck after 1500/10000 cases (batch
3)``) and lets the KeyboardInterrupt go on (isa_ext.cli exits 130).
"""
import sys


class Progress:
    def __init__(self, what, total=None, unit="steps", stream=None, enabled=None,
                 report_interrupt=True):
        self.what, self.total, self.unit = what, total, unit
        self.report_interrupt = report_interrupt  # False: the caller says where itself
        self.done = 0
        self.where = None
        self.stream = sys.stderr if stream is None else stream
        self.enabled = _is_terminal(self.stream) if enabled is None else enabled
        self._bar = self._task = None

    def __enter__(self):
        if self.enabled:
            from rich.console import Console
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress as Bar,
                                       SpinnerColumn, TextColumn, TimeElapsedColumn)
            columns = [SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                       MofNCompleteColumn() if self.total else TextColumn("{task.completed}"),
                       TextColumn(self.unit), TimeElapsedColumn()]
            self._bar = Bar(*columns, console=Console(file=self.stream), transient=True)
            self._bar.start()
            self._task = self._bar.add_task(self.what, total=self.total)
        return self

    def advance(self, n=1, where=None):
        self.done += n
        if where is not None:
            self.where = where
        if self._bar is not None:
            desc = self.what if self.where is None else f"{self.what} ({self.where})"
            self._bar.update(self._task, advance=n, description=desc)

    def message(self):
        """Where the work is: ``1500/10000 cases (batch 3)``."""
        count = f"{self.done}/{self.total}" if self.total else f"{self.done}"
        return f"{count} {self.unit}" + (f" ({self.where})" if self.where else "")

    def __exit__(self, kind, exc, tb):
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
        if kind is not None and issubclass(kind, KeyboardInterrupt) and self.report_interrupt:
            print(f"isa-ext: interrupted (Ctrl-C) in {self.what} after {self.message()}",
                  file=self.stream)
            self.stream.flush()
        return False


def _is_terminal(stream):
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
