"""pytest plugin: fixtures for testing programs, and ``--isa-coverage``.

Fixtures:

* ``sim``: a fresh :class:`isa_ext.sim.Simulator` (all extensions, strict), its
  ISA built once per session.
* ``asm_run``: ``asm_run(source, gpr=None, fpr=None, spr=None, mem=None,
  max_steps=..., addr=0x1000, trace=False)`` assembles ``source``, sets GPRs
  (``{3: 5}``), FPRs (``{1: 1.5}``: a float is stored as a double, an int is
  the raw bits), special registers (``{"ctr": 5}``) and memory (``{0x2000:
  b"..."}``), runs it and returns the :class:`isa_ext.sim.RunResult`::

      pytest_plugins = ["isa_ext.pytest_plugin"]   # in your conftest.py

      def test_add(asm_run):
          res = asm_run("add r5, r3, r4", gpr={3: 2, 4: 40})
          assert res.stop == "end" and res.gpr[5] == 42

* ``elf_run``: ``elf_run(path, argv=None, env=None, stdin=b"", read=(),
  write=(), max_steps=...)`` runs a Linux ELF program (docs/linux.md) and
  returns an :class:`ElfRun` with ``stdout``, ``stderr`` (bytes), ``status``
  (the exit status; 128+N when a trap would have killed it with signal N, as
  a shell reports it: 139 a memory fault, 133 a trap instruction, 132 an
  illegal instruction; None if it ran out of steps) and
  ``result`` (the RunResult: stop, trap, diagnostics)::

      def test_hello(elf_run):
          r = elf_run("hello", argv=["hello", "you"])
          assert (r.stdout, r.status) == (b"hello you\n", 0)

``--isa-coverage`` records which pseudocode statements of which instruction
pages the tests ran, and writes an HTML report:

    python -m pytest --isa-coverage [--isa-coverage-dir isa-coverage]

Registered by ``tests/conftest.py`` (``pytest_plugins``); elsewhere use
``-p isa_ext.pytest_plugin`` or ``pytest_plugins`` as above.

``assert_hf_equals_vf(program, ...)`` (from :mod:`isa_ext.hfvf`, re-exported
here) fails a test unless every SVP64 instruction of ``program`` ends the same
horizontal-first and vertical-first (docs/hfvf.md).
"""
import os
import struct

import pytest

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


# -- fixtures ------------------------------------------------------------------------

@pytest.fixture(scope="session")
def isa_ext_isa():
    """The ISA (all extensions), built once per test session."""
    from .isa import ISA
    return ISA()


@pytest.fixture
def sim(isa_ext_isa):
    """A fresh Simulator (strict: UNDEFINED behaviour traps)."""
    from .sim import Simulator
    return Simulator(isa=isa_ext_isa)


@pytest.fixture
def asm_run(isa_ext_isa):
    """``asm_run(source, gpr=, fpr=, spr=, mem=, ...)`` -> RunResult (module docstring)."""
    from .commands.machine_options import SPECIAL_REGS
    from .sim import DEFAULT_MAX_STEPS, Simulator

    def run(source, gpr=None, fpr=None, spr=None, mem=None, max_steps=DEFAULT_MAX_STEPS,
            addr=0x1000, trace=False):
        machine = Simulator(isa=isa_ext_isa)
        machine.load_asm(source, filename="<asm_run>", addr=addr)
        s = machine.state
        for where, data in (mem or {}).items():
            s.mem.load(where, data)
        for i, v in (gpr or {}).items():
            s.gpr[i] = v & (2**64 - 1)
        for i, v in (fpr or {}).items():
            s.fpr[i] = (struct.unpack("<Q", struct.pack("<d", v))[0] if isinstance(v, float)
                        else v & (2**64 - 1))
        for name, v in (spr or {}).items():
            if name not in SPECIAL_REGS:
                raise ValueError(f"asm_run: unknown special register {name!r}; known: "
                                 + ", ".join(SPECIAL_REGS))
            if name == "cr":
                s.crval = v
            else:
                setattr(s, name, v)
        return machine.run(max_steps=max_steps, trace=trace)

    return run


class ElfRun:
    """What ``elf_run`` returns: the program's output, exit status and run."""

    def __init__(self, stdout, stderr, status, result):
        self.stdout, self.stderr, self.status, self.result = stdout, stderr, status, result

    def __repr__(self):
        return (f"ElfRun(status={self.status!r}, stop={self.result.stop!r}, "
                f"stdout={self.stdout[:60]!r}, stderr={self.stderr[:60]!r})")


@pytest.fixture
def elf_run(isa_ext_isa):
    """``elf_run(path, argv=, env=, stdin=, read=, write=, ...)`` -> ElfRun."""
    from .sim import DEFAULT_MAX_STEPS, Simulator

    def run(path, argv=None, env=None, stdin=b"", read=(), write=(),
            max_steps=DEFAULT_MAX_STEPS, **options):
        machine = Simulator(isa=isa_ext_isa)
        machine.load_elf(path, argv=argv, env=env, stdin=stdin, read=tuple(read),
                         write=tuple(write), **options)
        res = machine.run(max_steps=max_steps)
        s = machine.state
        status = res.exit_status
        if res.trap is not None:
            status = 128 + res.trap.signal   # as a shell reports a fatal signal
        return ElfRun(bytes(s.stdout), bytes(s.stderr), status, res)

    return run
