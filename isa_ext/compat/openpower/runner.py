"""openpower-isa's case-file machinery: ``TestAccumulatorBase`` collects cases
(``openpower.test.common``), ``ExpectedState`` states what a case should end
with (``openpower.test.state``), ``TestRunnerBase`` runs every case as a
subtest and compares (``openpower.test.runner``), ``FHDLTestCase`` is the
unittest base class (``nmutil.formaltest``).

The comparison follows openpower-isa's runner: GPRs (None in the expected list
skips one), FPRs, CR fields 0-7, XER SO/OV/CA and the rest of XER, the final
PC, FPSCR, the SPRs named in the expectation and memory (rows missing on one
side count as 0).  MSR is not compared: isa_ext does not model the MSR bits
ISACaller's DEFAULT_MSR holds (docs/compat.md).
"""
import contextlib
import os
import sys
import unittest

from .run import FacadeSimulator

__all__ = ["FHDLTestCase", "TestAccumulatorBase", "TestCase", "ExpectedState", "TestRunnerBase",
           "SkipCase", "skip_case", "skip_case_if"]


class FHDLTestCase(unittest.TestCase):
    """unittest.TestCase; the formal-verification helpers need nmigen."""

    def assertFormal(self, *args, **kwargs):
        raise NotImplementedError("FHDLTestCase.assertFormal needs nmigen and a formal "
                                  "solver; isa_ext's facade has neither")

    assertFormal.__test__ = False


class SkipCase(Exception):
    pass


def skip_case(reason):
    """Decorator: the case_* method is skipped (raises SkipCase)."""
    def decorate(fn):
        def skipped(self, *args, **kwargs):
            raise SkipCase(reason)
        skipped.__name__ = fn.__name__
        return skipped
    return decorate


def skip_case_if(condition, reason):
    return skip_case(reason) if condition else (lambda fn: fn)


class TestCase:
    __test__ = False  # not a pytest test class

    def __init__(self, program, name, regs=None, sprs=None, cr=0, mem=None, msr=None,
                 do_sim=True, extra_break_addr=None, svstate=None, expected=None,
                 stop_at_pc=None, test_file=None, subtest_args=None, fpregs=None,
                 initial_fpscr=None):
        self.program, self.name = program, name
        self.regs = [0] * 32 if regs is None else regs
        self.sprs = {} if sprs is None else sprs
        self.cr, self.mem, self.msr = cr, ({} if mem is None else mem), msr
        self.do_sim, self.extra_break_addr = do_sim, extra_break_addr
        self.svstate, self.expected, self.stop_at_pc = svstate, expected, stop_at_pc
        self.test_file = test_file
        self.subtest_args = dict(subtest_args or {})
        self.fpregs = [0] * 32 if fpregs is None else fpregs
        self.initial_fpscr = initial_fpscr or 0


class TestAccumulatorBase:
    """Calls every ``case_*`` method defined on the class (in definition
    order); each calls ``add_case`` to append a TestCase to ``test_data``."""
    __test__ = False

    def __init__(self, flags=()):
        self.flags = frozenset(flags)
        self.test_data = []
        self._subtest_args = {}
        for name, fn in type(self).__dict__.items():
            if name.startswith("case_") and callable(fn):
                try:
                    fn(self)
                except SkipCase:
                    pass  # as openpower-isa: a skipped case adds nothing

    @contextlib.contextmanager
    def subTest(self, **kwargs):
        saved = self._subtest_args
        self._subtest_args = {**saved, **kwargs}
        try:
            yield
        finally:
            self._subtest_args = saved

    def add_case(self, prog, initial_regs=None, initial_sprs=None, initial_cr=0,
                 initial_msr=None, initial_mem=None, initial_svstate=0, expected=None,
                 stop_at_pc=None, fpregs=None, initial_fpscr=None, src_loc_at=0):
        caller = sys._getframe(1 + src_loc_at).f_code  # the case_* method's name names the case
        self.test_data.append(TestCase(
            prog, caller.co_name, regs=initial_regs, sprs=initial_sprs, cr=initial_cr,
            msr=initial_msr, mem=initial_mem, svstate=initial_svstate, expected=expected,
            stop_at_pc=stop_at_pc, fpregs=fpregs, initial_fpscr=initial_fpscr,
            test_file=os.path.splitext(os.path.basename(caller.co_filename))[0],
            subtest_args=self._subtest_args))


def _list_of(value, n, what):
    if value is None:
        return [0] * n
    if isinstance(value, int):
        return [0] * value
    if not isinstance(value, list):
        raise TypeError(f"ExpectedState {what}: int, list or None")
    return list(value)


class ExpectedState:
    """The state a case should end in; unspecified registers are expected 0."""

    def __init__(self, int_regs=None, pc=0, crregs=None, so=0, ov=0, ca=0, fp_regs=None,
                 fpscr=0, sprs=None, msr=None, xer_other=0, mem=None):
        self.intregs = _list_of(int_regs, 32, "int_regs")
        self.fpregs = _list_of(fp_regs, 32, "fp_regs")
        self.crregs = _list_of(crregs, 8, "crregs")
        self.pc, self.so, self.ov, self.ca = pc, so, ov, ca
        self.fpscr, self.xer_other, self.msr = fpscr, xer_other, msr
        self.sprs = dict(sprs or {})
        self.mem = mem


class MachineState:
    """What a finished run holds, in ExpectedState's terms."""

    def __init__(self, sim):
        s = sim.state
        self.intregs = list(s.gpr[:32])
        self.fpregs = list(s.fpr[:32])
        self.crregs = list(s.cr[:8])
        self.pc = s.pc
        # as openpower-isa's SimState: OV and CA carry OV32/CA32 as their bit 1
        self.so, self.ov, self.ca = s.so, s.ov | (s.ov32 << 1), s.ca | (s.ca32 << 1)
        self.xer_other = s.xer & ~((1 << 31) | (1 << 30) | (1 << 29) | (1 << 19) | (1 << 18))
        self.fpscr = s.fpscr
        self.sim = sim
        self.mem = sim.mem.mem


def compare(dut, got, want, name):
    where = f"case {name}"
    for i, (g, w) in enumerate(zip(got.fpregs, want.fpregs)):
        dut.assertEqual(g, w, f"{where}: fp reg {i} got {g:#x} expected {w:#x}")
    for i, (g, w) in enumerate(zip(got.intregs, want.intregs)):
        if w is not None:
            dut.assertEqual(g, w, f"{where}: int reg {i} got {g:#x} expected {w:#x}")
    for i, (g, w) in enumerate(zip(got.crregs, want.crregs)):
        dut.assertEqual(g, w, f"{where}: cr reg {i} got {g:#x} expected {w:#x}")
    for flag in ("so", "ov", "ca"):
        w = getattr(want, flag)
        if w is not None:
            dut.assertEqual(getattr(got, flag), w, f"{where}: {flag} mismatch")
    if want.xer_other is not None:
        dut.assertEqual(hex(got.xer_other), hex(want.xer_other), f"{where}: xer_other mismatch")
    dut.assertEqual(got.pc, want.pc, f"{where}: pc mismatch")
    if want.fpscr is not None:
        dut.assertEqual(hex(got.fpscr), hex(want.fpscr), f"{where}: fpscr mismatch")
    for key, w in want.sprs.items():
        if w is not None:
            g = int(got.sim.spr[key])
            dut.assertEqual(hex(g), hex(int(w)), f"{where}: SPR {key} mismatch")
    if want.mem is not None:
        for row in set(got.mem) | set(want.mem):
            g, w = got.mem.get(row, 0), want.mem.get(row, 0)
            dut.assertEqual(hex(g), hex(w), f"{where}: mem mismatch at row {row:#x}")


class TestRunnerBase(FHDLTestCase):
    """Runs every TestCase of ``tst_data`` on isa_ext, one subtest each.

    openpower-isa's runner classes take only the method name ``"test"``
    (``assert test == 'test'``); pytest 8.2 and later make their instance with
    ``"runTest"``.  A class with a ``test`` method (its own or inherited) is
    therefore given ``"test"`` when pytest asks for ``"runTest"``, so such
    files run under current pytest.

    ``use_mmap_mem=True`` (ISACaller's memory of mapped regions) runs on the
    facade's one sparse memory: programs that stay inside their data see the
    same values; an access outside any region does not fault here.
    """

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        init = cls.__dict__.get("__init__")
        if init is None:
            return

        def __init__(self, *args, **kw):
            if args[:1] == ("runTest",) and callable(getattr(type(self), "test", None)):
                args = ("test",) + args[1:]
            init(self, *args, **kw)
        __init__.__wrapped__ = init
        cls.__init__ = __init__

    def __init__(self, tst_data, microwatt_mmu=False, rom=None, svp64=True, run_hdl=None,
                 run_sim=True, allow_overlap=False, inorder=False, fp=False,
                 use_mmap_mem=False, use_syscall_emu=False):
        super().__init__("run_all")
        self.test_data = tst_data
        unsupported = {"microwatt_mmu": microwatt_mmu, "rom": rom, "run_hdl": run_hdl,
                       "use_syscall_emu": use_syscall_emu}
        self.unsupported = [k for k, v in unsupported.items() if v]
        self.run_sim = run_sim

    def run_all(self):
        if self.unsupported:
            raise NotImplementedError(f"TestRunnerBase({', '.join(self.unsupported)}=...) is "
                                      "not supported by isa_ext's openpower facade")
        if not self.run_sim:
            return
        for test in self.test_data:
            with self.subTest(test.name, **test.subtest_args):
                sim = FacadeSimulator(test.program, test.regs, test.sprs, test.svstate or 0,
                                      test.cr, test.mem, test.fpregs, test.msr or 0,
                                      test.initial_fpscr)
                sim.run(stop_at_pc=test.stop_at_pc)
                if test.expected is not None:
                    compare(self, MachineState(sim), test.expected, test.name)
