"""The simulator: fetch, decode once per address, execute compiled pseudocode.

The hot loop keeps a per-address cache of bound semantic functions; each step
is one dict lookup and one call.  Everything else (traps, exits, step limits,
tracing) sits outside the loop.
"""
from dataclasses import dataclass, field as dc_field

from .encoding import is_svp64_prefix
from . import profile as profiles
from .errors import IsaExtError, Trap
from .isa import ISA
from .machine import State, ProgramExit, DEFAULT_MEM_LIMIT

DEFAULT_MAX_STEPS = 10_000_000
REPR_CHANGES = 8  # changed registers a RunResult's repr names before "+N more"


@dataclass
class TrapInfo:
    pc: int
    word: int
    reason: str
    kind: str = "illegal"
    words: tuple = ()

    def __str__(self):
        return f"trap ({self.kind}) at pc=0x{self.pc:x} word=0x{self.word:08x}: {self.reason}"


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during ``Simulator.run``: where it was.  ``pc`` is the instruction that
    was running (it may be partly done), ``steps`` the instructions completed."""

    def __init__(self, pc, steps):
        super().__init__(f"interrupted at pc=0x{pc:x} after {steps} steps")
        self.pc, self.steps = pc, steps


@dataclass
class RunResult:
    """What a run ended with.  ``stop`` is one of ``end`` (reached the end
    address), ``exit`` (exit system call), ``trap``, ``step_limit``,
    ``interrupt`` (an injected element-level interrupt)."""
    state: State
    steps: int
    stop: str
    trap: TrapInfo = None
    exit_status: int = None
    initial: dict = None
    events: list = dc_field(default_factory=list)
    diagnostics: list = dc_field(default_factory=list)

    @property
    def gpr(self):
        return self.state.gpr

    @property
    def fpr(self):
        return self.state.fpr

    @property
    def cr(self):
        return self.state.crval

    @property
    def crf(self):
        return self.state.cr

    @property
    def xer(self):
        return self.state.xer

    @property
    def memory(self):
        return self.state.mem

    @property
    def pc(self):
        return self.state.pc

    @property
    def stdout(self):
        return bytes(self.state.stdout)

    def __repr__(self):
        """One line: how it stopped and what it changed (not all 128 registers)."""
        parts = [f"stop={self.stop!r}", f"steps={self.steps}", f"pc=0x{self.pc:x}"]
        if self.exit_status is not None:
            parts.append(f"exit_status={self.exit_status}")
        if self.trap is not None:
            parts.append(f"trap={str(self.trap)!r}")
        changed = self.changed()
        shown = [f"{k}=0x{after:x}" for k, (_before, after) in list(changed.items())[:REPR_CHANGES]]
        if len(changed) > REPR_CHANGES:
            shown.append(f"+{len(changed) - REPR_CHANGES} more")
        if shown:
            parts.append("changed={" + ", ".join(shown) + "}")
        if self.diagnostics:
            parts.append(f"diagnostics={len(self.diagnostics)}")
        return f"RunResult({', '.join(parts)})"

    def changed(self):
        """{register name: (before, after)} for every register the run changed."""
        if self.initial is None:
            return {}
        return register_changes(self.initial, self.state.copy_registers())


class Simulator:
    """Build a machine, load a program, run it.

    >>> sim = Simulator()
    >>> sim.load_words([0x38630001])          # addi 3,3,1
    >>> sim.state.gpr[3] = 41
    >>> sim.run().gpr[3]
    42
    """

    def __init__(self, isa=None, little=True, extensions=None, strict=True, profile=None,
                 mem_limit=None, gpu=None):
        if isa is None:
            isa = ISA(extensions=extensions, profile=profile)
        elif profile is not None and profiles.get(profile) != isa.profile:
            raise IsaExtError(f"profile {profiles.get(profile).name!r} asked for, but the ISA "
                              f"given was built with {isa.profile.name!r} "
                              f"(ISA(profile=...) builds one)")
        self.isa = isa
        self.profile = isa.profile
        # guest memory bound (bytes of pages a program may write); machine.DEFAULT_MEM_LIMIT
        self.state = State(little=little, mem_limit=mem_limit or DEFAULT_MEM_LIMIT)
        self.strict = strict
        if gpu is not None:
            # the GPU identity and geometry the gpu pages read (isa_ext/gpu/identity.py)
            from .gpu.identity import GpuIdentity
            self.state.gpu = GpuIdentity.of(gpu)
        self.end = None  # address at which the program is finished
        self._cache = {}
        self._mem_writes_seen = 0
        self.tracer = None  # callable(event dict) for --trace
        self.diagnostics = []
        self.interrupt_after = None  # element operations before an injected interrupt
        self.element_ops = 0
        self._sv_emit = None  # element-event sink while tracing (SVP64 engine)

    # -- loading ------------------------------------------------------------
    def load_words(self, words, addr=0x1000, entry=None):
        """Place 32-bit instruction words at ``addr`` (in the memory's byte order)."""
        s = self.state
        for i, w in enumerate(words):
            s.mem.write(addr + 4 * i, 4, w)
        self.end = addr + 4 * len(words)
        s.pc = addr if entry is None else entry
        s.lr = self.end
        self._cache.clear()
        return self

    def load_bytes(self, data, addr=0x1000, entry=None):
        self.state.mem.load(addr, data)
        self.end = addr + len(data)
        self.state.pc = addr if entry is None else entry
        self.state.lr = self.end
        self._cache.clear()
        return self

    def load_elf(self, path):
        from .elf import load_elf
        load_elf(self, path)
        return self

    def load_asm(self, text, filename="<asm>", addr=0x1000):
        from .asm import assemble
        prog = assemble(text, filename=filename, isa=self.isa, base=addr,
                        little=self.state.mem.little)
        self.load_bytes(prog.data, addr=addr)
        return prog

    # -- decoding -------------------------------------------------------------
    def _fetch(self, pc):
        """(callable, length, word) for the instruction at ``pc``; traps if illegal."""
        mem = self.state.mem
        word = mem.read_word(pc)
        if self.isa.prefix_handler is not None and is_svp64_prefix(word):
            suffix = mem.read_word(pc + 4)
            fn = self.isa.prefix_handler(self, word, suffix)
            return fn, 8, word
        return self.isa.executable(word), 4, word

    def invalidate(self):
        """Forget decoded instructions (stores into decoded code do it already)."""
        self._cache.clear()
        self.state.mem.code_words.clear()

    # -- running --------------------------------------------------------------
    def run(self, max_steps=DEFAULT_MAX_STEPS, trace=False):
        s = self.state
        initial = s.copy_registers()
        steps = 0
        stop = "step_limit"
        trap = exit_status = None
        cache = self._cache
        end = self.end if self.end is not None else -1
        pc = s.pc
        if self.tracer is not None or trace:
            return self._run_traced(max_steps, initial)
        try:
            while steps < max_steps:
                if pc == end:
                    stop = "end"
                    break
                f = cache.get(pc)
                if f is None:
                    f = self._decode_into_cache(pc)
                nia = f(s, pc)
                steps += 1
                pc = nia
        except (Trap, ProgramExit) as e:
            stop, trap, exit_status, counted = self._ended_by(e, pc)
            steps += counted
        except KeyboardInterrupt:
            raise Interrupted(pc, steps) from None
        return self._result(pc, steps, stop, trap, exit_status, initial)

    def _ended_by(self, exc, pc):
        """(stop, trap info, exit status, steps to add) for what ended a run."""
        if isinstance(exc, ProgramExit):
            return "exit", None, exc.status, 1  # the sc itself completed
        stop = "interrupt" if exc.kind == "interrupt" else "trap"
        return stop, self._trapinfo(pc, exc), None, 0

    def _result(self, pc, steps, stop, trap, exit_status, initial, events=()):
        self.state.pc = pc
        self.isa.save_cache()
        res = RunResult(self.state, steps, stop, trap, exit_status, initial,
                        diagnostics=list(self.diagnostics))
        res.events = list(events)
        return res

    def _decode_into_cache(self, pc):
        fn, length, word = self._fetch(pc)
        self._cache[pc] = fn  # prefixed (8-byte) handlers return CIA + 8 themselves
        # a store into these bytes forgets every decoded instruction (machine.Memory)
        mem = self.state.mem
        mem.code_words.update(range(pc >> 2, (pc + length + 3) >> 2))
        mem.on_code_write = self._cache.clear
        return fn

    def _trapinfo(self, pc, t):
        try:
            word = self.state.mem.read_word(pc)
        except Exception:
            word = 0
        return TrapInfo(pc, word, t.reason, t.kind)

    def _run_traced(self, max_steps, initial):
        s = self.state
        steps = 0
        stop = "step_limit"
        trap = exit_status = None
        end = self.end if self.end is not None else -1
        pc = s.pc
        events = []
        emit = self.tracer or events.append
        self._sv_emit = emit
        try:
            while steps < max_steps:
                if pc == end:
                    stop = "end"
                    break
                fn, length, word = self._fetch(pc)
                before = s.copy_registers()
                d = self.isa.decode(word) if length == 4 else None
                nia = fn(s, pc)
                after = s.copy_registers()
                emit({"type": "insn", "pc": pc, "word": word, "length": length,
                      "mnemonic": d.mnemonic if d else None,
                      "changes": _diff(before, after), "step": steps})
                steps += 1
                pc = nia
        except (Trap, ProgramExit) as e:
            stop, trap, exit_status, counted = self._ended_by(e, pc)
            steps += counted
        except KeyboardInterrupt:
            raise Interrupted(pc, steps) from None
        finally:
            self._sv_emit = None
        return self._result(pc, steps, stop, trap, exit_status, initial, events)


def register_changes(before, after, specials=("lr", "ctr", "tar", "xer", "msr", "fpscr",
                                               "svstate", "svshape0", "svshape1",
                                               "svshape2", "svshape3")):
    """{register name: (before, after)} between two State.copy_registers() snapshots."""
    out = {}
    for kind, prefix in (("gpr", "r"), ("fpr", "f"), ("cr", "cr")):
        for i, (a, b) in enumerate(zip(before[kind], after[kind])):
            if a != b:
                out[f"{prefix}{i}"] = (a, b)
    for k in specials:
        if before[k] != after[k]:
            out[k] = (before[k], after[k])
    return out


def _diff(before, after):
    """The new values of what one traced instruction changed (MSR left out)."""
    changes = register_changes(before, after, ("lr", "ctr", "tar", "xer", "fpscr", "svstate",
                                               "svshape0", "svshape1", "svshape2",
                                               "svshape3"))
    return {name: new for name, (_old, new) in changes.items()}
