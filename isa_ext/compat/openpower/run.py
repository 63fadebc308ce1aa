"""``run_tst`` (``openpower.decoder.isa.test_runner``): run a Program on
isa_ext's Simulator the way openpower-isa's ISACaller test helper does, and
answer with an object shaped like its simulator (``sim.gpr(i)``, ``sim.crl``,
``sim.svstate``, ``sim.spr``, ``sim.mem``, ``sim.fpr``, ``sim.pc.CIA``).

ISACaller keeps instructions apart from data memory and runs until the
program counter leaves the program (a branch out of it ends the run): so does
this.  The program sits at address 0; data memory holds only the initial
memory and what the program stores.
"""
from ...machine import Memory
from ...sim import Simulator
from .selectable_int import SelectableInt
from .state import (MemoryView, ProgramCounterView, RegisterFileView, SPRView,
                    SVP64State, cr_view, spr_number)

__all__ = ["run_tst", "FacadeSimulator", "process_mem"]

STEP_LIMIT = 1_000_000  # ISACaller has none; a runaway loop should fail, not hang


class RecordingMemory(Memory):
    """Data memory that remembers which 8-byte rows were written, for
    openpower-isa's ``mem`` dictionary and ``dump()``."""

    def __init__(self, little=True):
        super().__init__(little)
        self.rows_written = set()

    def write_bytes(self, addr, data):
        first = (addr & ((1 << 64) - 1)) >> 3
        last = ((addr + max(len(data), 1) - 1) & ((1 << 64) - 1)) >> 3
        self.rows_written.update(range(first, last + 1))
        super().write_bytes(addr, data)


class HarvardSimulator(Simulator):
    """isa_ext's Simulator fetching from an instruction memory of its own."""

    def __init__(self, isa):
        super().__init__(isa=isa)
        self.instruction_memory = Memory(little=True)
        self.state.mem = RecordingMemory(little=True)

    def _fetch(self, pc):
        data_memory = self.state.mem
        self.state.mem = self.instruction_memory  # the prefix handler reads the suffix too
        try:
            return super()._fetch(pc)
        finally:
            self.state.mem = data_memory


def process_mem(initial_mem, row_bytes=8):
    """openpower-isa's initial-memory forms -> {address: (value, width)}: a dict
    of address -> value or (value, width), a list of rows from 0, or
    (start address, list of rows)."""
    if not initial_mem:
        return {}
    if isinstance(initial_mem, list):
        initial_mem = (0, initial_mem)
    if isinstance(initial_mem, tuple):
        start, rows = initial_mem
        initial_mem = {start + row_bytes * i: (v, row_bytes) for i, v in enumerate(rows)}
    out = {}
    for addr, v in initial_mem.items():
        value, width = v if isinstance(v, tuple) else (v, row_bytes)
        out[int(addr)] = (int(value), int(width))
    return out


class FacadeSimulator:
    """The finished machine, viewed through openpower-isa's simulator names."""

    def __init__(self, program, initial_regs=None, initial_sprs=None, svstate=0, initial_cr=0,
                 mem=None, initial_fprs=None, initial_msr=0, initial_fpscr=0):
        self.program = program
        self.machine = HarvardSimulator(program.isa)
        s = self.machine.state
        for i, v in enumerate(program.words):
            self.machine.instruction_memory.write(4 * i, 4, v)
        self.end = 4 * len(program.words)
        for i, v in enumerate(initial_regs or []):
            s.gpr[i] = int(v) & ((1 << 64) - 1)
        for i, v in enumerate(initial_fprs or []):
            s.fpr[i] = int(v) & ((1 << 64) - 1)
        for key, v in (initial_sprs or {}).items():
            s.spr_write(spr_number(key), int(v))
        if svstate:  # else SVSTATE stays 0 or what initial_sprs set
            s.svstate = int(svstate)
        # ISACaller runs on the SVP64State object it is given: tests read the
        # final VL from their own object (test_caller_svp64_bc.py)
        self._svstate_given = svstate if isinstance(svstate, SVP64State) else None
        s.crval = int(initial_cr or 0) & 0xFFFFFFFF
        if initial_msr:
            s.msr = int(initial_msr)
        # ISACaller's MSR is a plain register holding initial_msr (0 by default)
        # while it runs 64-bit little-endian anyway; isa_ext's MSR sets the mode
        self._msr_given = int(initial_msr or 0)
        s.fpscr = int(initial_fpscr or 0)
        for addr, (value, width) in process_mem(mem).items():
            s.mem.write_bytes(addr, (value & ((1 << (8 * width)) - 1)).to_bytes(width, "little"))
        s.pc = 0
        self.gpr = RegisterFileView(s.gpr, "reg")
        self.fpr = RegisterFileView(s.fpr, "fpr")
        self.spr = SPRView(s, program.isa)
        self.mem = MemoryView(s.mem)
        self.pc = ProgramCounterView(s)
        self.steps = 0

    def run(self, stop_at_pc=None):
        """Run until the pc leaves the program (or reaches ``stop_at_pc``);
        a trap raises RuntimeError naming the instruction."""
        s = self.machine.state
        while 0 <= s.pc < self.end and s.pc != stop_at_pc:
            if self.steps >= STEP_LIMIT:
                raise RuntimeError(f"run_tst: no end after {STEP_LIMIT} instructions")
            self.machine.end = None
            res = self.machine.run(max_steps=1)
            if res.stop == "trap":
                raise RuntimeError(f"run_tst: isa_ext trapped: {res.trap}")
            if res.stop == "exit":
                break
            self.steps += res.steps
        if self._svstate_given is not None:
            self._svstate_given.value = s.svstate
        return self

    # -- views computed when read (copies: assigning into them leaves the machine) ---
    @property
    def state(self):
        return self.machine.state

    @property
    def svstate(self):
        return SVP64State(self.state.svstate)

    @property
    def cr(self):
        return SelectableInt(self.state.crval, 64)

    @property
    def crl(self):
        return cr_view(self.state).crl

    @property
    def msr(self):
        if self.program.isa.profile.msr == "register":
            return SelectableInt(self._msr_given, 64)
        return SelectableInt(self.state.msr, 64)

    @property
    def fpscr(self):
        return SelectableInt(self.state.fpscr, 64)

    def __getattr__(self, name):
        if name.startswith("_"):  # copy, pickle and hasattr probe dunders: plain absence
            raise AttributeError(name)
        raise NotImplementedError(f"sim.{name} is not provided by isa_ext's openpower facade")


def run_tst(generator, initial_regs, initial_sprs=None, svstate=0, mmu=False, initial_cr=0,
            mem=None, initial_fprs=None, initial_msr=0, pdecode2=None, state=None,
            use_mmap_mem=False, use_syscall_emu=False):
    """Run ``generator`` (a Program) from the given state; the simulator after it."""
    for flag, name in ((mmu, "mmu"), (use_mmap_mem, "use_mmap_mem"),
                       (use_syscall_emu, "use_syscall_emu"), (pdecode2, "pdecode2"),
                       (state, "state")):
        if flag:
            raise NotImplementedError(f"run_tst({name}=...) is not supported by isa_ext's facade")
    return FacadeSimulator(generator, initial_regs, initial_sprs, svstate, initial_cr, mem,
                           initial_fprs, initial_msr).run()

