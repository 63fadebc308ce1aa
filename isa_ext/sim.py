"""The simulator: fetch, decode once per address, execute compiled pseudocode.

The hot loop keeps a per-address cache of bound semantic functions; each step
is one dict lookup and one call.  With translation on (the default; see
isa_ext.translate) it runs a translated block of straight-line code where one
exists and falls back to that per-instruction step elsewhere and for a tail
that would pass the step limit.  Everything else (traps, exits, step limits,
tracing) sits outside the loop.
"""
import os
import sys
from .records import record, factory

from .prefix import is_prefix, kind as prefix_kind, SVP64, crosses_boundary
from . import profile as profiles
from .errors import SIGILL, IsaExtError, Trap
from .isa import ISA
from .machine import State, ProgramExit, DEFAULT_MEM_LIMIT

DEFAULT_MAX_STEPS = 10_000_000
# "0" turns block translation off by default; "eager" translates every block the
# first time it is reached (how the test suite runs everything through blocks)
TRANSLATE_ENV = "ISA_EXT_TRANSLATE"
MAX_BLOCKS = 20_000  # translated blocks kept before the cache starts again
# a new block's runs through the dispatcher recorded (where each one went)
# before the blocks of a loop through it are chained into one region function:
# a region takes milliseconds to compile and saves about a microsecond a
# transition between blocks, so only code that goes through the dispatcher
# this often is worth it (a block looping inside itself rarely comes back).
# A region's compiled code is kept across runs (code_store, block_store), so
# 256: Embench's nsichneu (one loop of 253 blocks, each run a few hundred
# times) and statemate chain only then (docs/benchmarks.md); PyPy's cold runs
# too were faster at 256 than at 1,024
_PYPY = sys.implementation.name == "pypy"
REGION_AFTER = 256
# blocks in one region: compiling a region costs time too (kept across runs,
# translate/code_store.py), but a loop of more blocks than this is never
# chained (Embench's statemate, sglib, slre, qrduino: 16 left most of their
# blocks going through the dispatcher; 64 ran them 10-50% faster; nsichneu's
# loop is 253 blocks).  PyPy keeps 64: a longer region's passes trace past
# its JIT's trace limit
MAX_REGION_BLOCKS = 64 if _PYPY else 256
# a block is translated when its start address is reached this many times
# (translating costs milliseconds: code run a few times runs faster without).
# On CPython 16: with the specialised bodies and compiled code kept across
# runs a block costs a fraction of a millisecond, less than 16 runs of its
# instructions one at a time (about 2 microseconds each).  On PyPy 64: it was
# 2,000 while the translator itself ran cold there (a block's first
# translation in a process took 100-400 ms); with whole blocks and regions
# read from the block store (translate/block_store.py) a lower threshold puts
# the JIT on block code sooner: Embench cold runs at 64 were 1.2-2x as fast
# as at 2,000 on 5 of 6 programs, 16 no better than 64 (docs/benchmarks.md)
HOT_AFTER = 64 if _PYPY else 16


def translate_default():
    """Whether a Simulator translates blocks unless told: on, except when the
    environment variable ISA_EXT_TRANSLATE is "0" (or "off", "no", "false")."""
    return os.environ.get(TRANSLATE_ENV, "1").strip().lower() not in ("0", "off", "no", "false")
REPR_CHANGES = 8  # changed registers a RunResult's repr names before "+N more"


@record
class TrapInfo:
    pc: int
    word: int
    reason: str
    kind: str = "illegal"
    words: tuple = ()
    signal: int = SIGILL   # what Linux would send a process (errors.LINUX_SIGNALS)

    def __str__(self):
        return f"trap ({self.kind}) at pc=0x{self.pc:x} word=0x{self.word:08x}: {self.reason}"


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during ``Simulator.run``: where it was.  ``pc`` is the instruction that
    was running (it may be partly done), ``steps`` the instructions completed."""

    def __init__(self, pc, steps):
        super().__init__(f"interrupted at pc=0x{pc:x} after {steps} steps")
        self.pc, self.steps = pc, steps


@record
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
    events: list = factory(list)
    diagnostics: list = factory(list)

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
    # decoded instructions kept per address before the cache is emptied and
    # refilled (as a store into code does): bounds memory whatever the program
    CODE_CACHE_LIMIT = 1 << 16

    def __init__(self, isa=None, little=True, extensions=None, strict=True, profile=None,
                 mem_limit=None, translate=None, gpu=None):
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
            # the GPU identity and geometry the gpu pages read (the gpu
            # extension's machine option, isa_ext/ext/gpu/identity.py)
            isa.configure_machine(self, "gpu", gpu)
        self.end = None  # address at which the program is finished
        self._cache = {}
        # block translation (isa_ext.translate): start pc -> Block, or None where
        # the first instruction is not translatable; built for the end address
        # self._blocks_end
        self.translate = translate_default() if translate is None else bool(translate)
        self._blocks = {}
        # (pc, reason) of each block the translator failed on (run unblocked)
        self.translation_failures = []
        self._heat = {}  # start pc -> times reached while not yet translated
        # times a block start is reached before it is translated (0: at once)
        self.hot_after = 0 if os.environ.get(TRANSLATE_ENV, "").strip().lower() == "eager" \
            else HOT_AFTER
        self._blocks_end = None
        # the program's block starts kept across runs (translate/hot_starts.py):
        # its list's key, the starts it holds (None before the first run), and
        # those translated since
        self._hot_key = None
        self._hot_known = None
        self._hot_new = set()
        # runs of a new block before chaining the loop through it (0: no chaining)
        self.region_after = REGION_AFTER
        self.tracer = None  # callable(event dict) for --trace
        self.diagnostics = []
        self.interrupt_after = None  # element operations before an injected interrupt
        self.element_ops = 0
        self.retired_before = 0  # instructions completed by earlier runs (retired())
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
        self.program_loaded()
        return self

    def load_bytes(self, data, addr=0x1000, entry=None):
        self.state.mem.load(addr, data)
        self.end = addr + len(data)
        self.state.pc = addr if entry is None else entry
        self.state.lr = self.end
        self.program_loaded()
        return self

    def load_elf(self, path, argv=None, env=None, **linux):
        """Load a ppc64 ELF and start it as a Linux process: ``argv`` (default
        [path]), ``env`` (a dict; default the clean environment of
        docs/linux.md), and any LinuxOptions field (read=, write=, cwd=,
        seed=, clock=, stdin=, stdout=, stderr=)."""
        from .elf import load_elf
        from .linux import LinuxOptions
        opts = LinuxOptions(argv=list(argv) if argv is not None else None, **linux)
        if env is not None:
            opts.env = dict(env)
        load_elf(self, path, opts)
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
        if is_prefix(word):
            if prefix_kind(word) != SVP64 and crosses_boundary(pc):
                raise Trap(f"prefixed instruction at 0x{pc:x} crosses a 64-byte boundary",
                           "alignment")
            return self.isa.prefixed(self, word, mem.read_word(pc + 4)), 8, word
        return self.isa.executable(word), 4, word

    def invalidate(self):
        """Forget decoded instructions (stores into decoded code do it already)."""
        self._forget_decoded()
        self.state.mem.forget_code()

    def program_loaded(self):
        """A new program is in memory (the loaders call this): forget decoded
        code, and which program's block starts are kept (translate/hot_starts.py)."""
        if self._hot_new:   # (only ever added to under a key)
            self._keep_hot_starts()
        self._hot_key = self._hot_known = None   # (before invalidate: none stay hot)
        self._hot_new = set()
        self.invalidate()

    def _forget_decoded(self):
        """Memory.on_code_write: a store hit decoded code, forget all of it
        (but not which starts this program's runs made hot: translate/hot_starts.py)."""
        self._cache.clear()
        self._blocks.clear()
        self._heat.clear()
        if self._hot_known:
            self._heat.update(dict.fromkeys(self._hot_known, self.hot_after))

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
        if self.translate:
            return self._run_blocks(max_steps, initial)
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

    def _run_blocks(self, max_steps, initial):
        """run() with translated blocks: the same loop, a block where one
        exists and fits in the steps left, else one instruction."""
        s = self.state
        steps = 0
        stop = "step_limit"
        trap = exit_status = None
        cache = self._cache
        end = self.end if self.end is not None else -1
        if self._blocks_end != end:  # blocks stop at the end address they were built for
            self._blocks.clear()
            self._blocks_end = end
        blocks, heat, hot_after = self._blocks, self._heat, self.hot_after
        pc = s.pc
        if self._hot_known is None:
            self._recall_hot_starts(pc, end)
        try:
            while steps < max_steps:
                if pc == end:
                    stop = "end"
                    break
                b = blocks.get(pc, False)
                if b is False:
                    hits = heat.get(pc, 0)
                    if hits >= hot_after:
                        b = self._translate_at(pc, end)
                    else:
                        heat[pc] = hits + 1
                        b = None
                if b is not None and b.length <= max_steps - steps:
                    pc, n = b.run(s, max_steps - steps)
                    if n:   # (none: it left at once; one instruction here then)
                        steps += n
                        if b.watch:  # a new block: where it goes, for chaining
                            b.succ.add(pc)
                            b.watch -= 1
                            if not b.watch:
                                self._chain_at(b)
                        continue
                f = cache.get(pc)
                if f is None:
                    f = self._decode_into_cache(pc)
                nia = f(s, pc)
                steps += 1
                pc = nia
        except (Trap, ProgramExit) as e:
            pc, steps = _block_exit(e, pc, steps)
            stop, trap, exit_status, counted = self._ended_by(e, pc)
            steps += counted
        except KeyboardInterrupt as e:
            pc, steps = _block_exit(e, pc, steps)
            raise Interrupted(pc, steps) from None
        if self._hot_new:
            self._keep_hot_starts()
        return self._result(pc, steps, stop, trap, exit_status, initial)

    def _recall_hot_starts(self, pc, end):
        """Count the block starts an earlier run of this program (from ``pc``
        to ``end``) translated as hot already: they are translated at their
        first visit, from the block store (translate/hot_starts.py)."""
        from .translate import hot_starts
        self._hot_known = set()
        if self.hot_after <= 0:
            return
        self._hot_key = hot_starts.program_key(self, pc, end)
        if self._hot_key is None:
            return
        self._hot_known = hot_starts.load(self, self._hot_key)
        for start in self._hot_known:
            self._heat[start] = self.hot_after

    def _keep_hot_starts(self):
        from .translate import hot_starts
        if not self._hot_new <= self._hot_known:
            self._hot_known |= self._hot_new
            hot_starts.save(self, self._hot_key, self._hot_known)
        self._hot_new = set()

    def _translate_at(self, pc, end):
        """Translate the block at ``pc`` (None: run it an instruction at a time)
        and watch its words as decoded code."""
        from .translate.block import translate
        blocks = self._blocks
        if len(blocks) >= MAX_BLOCKS:
            blocks.clear()
        if len(self._heat) >= 4 * MAX_BLOCKS:
            self._heat.clear()
        try:
            b = translate(self, pc, end)
        except Exception as e:  # noqa: BLE001 - any failure to translate: run it unblocked
            # a block is an optimisation: a page the translator cannot handle
            # (a Python limit reached compiling its source, an unforeseen
            # construct) runs an instruction at a time, as with translate=False;
            # the reason is kept for `translation_failures`
            b = None
            self.translation_failures.append((pc, f"{type(e).__name__}: {e}"))
        if b is not None:
            b.watch = self.region_after
            if self._hot_key is not None:
                self._hot_new.add(pc)
        blocks[pc] = b
        mem = self.state.mem
        last = b.end if b is not None else pc + 4
        mem.watch_code(pc, last)
        mem.on_code_write = self._forget_decoded
        return b

    def _chain_at(self, b):
        """Chain the blocks of a loop through ``b``: the translated blocks
        ``b`` reaches (by the exits seen while they were new, and those seen
        leaving a region since it was made) that reach ``b`` again become one
        region function (translate.block.translate_region), entered at any of
        them, so the loop runs with its registers in locals and without the
        dispatcher between its blocks.  ``b`` may be a region's entry: a loop
        through a block outside it (an exit its blocks did not take while they
        were new) then joins the region."""
        from .translate.block import code_cache_of, translate_region
        blocks = self._blocks

        def successors(e):
            # a region's exits, seen by any of its entries, may be any member's
            return e.plain.succ | e.succ if e.plain is not e else e.succ

        first = b.plain
        reach, succ, todo = {first.start: first}, {first.start: successors(b)}, [first.start]
        while todo and len(reach) < MAX_REGION_BLOCKS:
            for pc in succ[todo.pop()]:
                e = blocks.get(pc)
                if e is not None and pc not in reach and len(reach) < MAX_REGION_BLOCKS:
                    reach[pc], succ[pc] = e.plain, successors(e)
                    todo.append(pc)
        # keep the loop: the members from which b is reached again
        back, grew = {first.start}, True
        while grew:
            grew = False
            for pc in reach:
                if pc not in back and succ[pc] & back:
                    back.add(pc)
                    grew = True
        members = [first] + [m for pc, m in reach.items() if pc in back and m is not first]
        if len(members) < 2 or {m.start for m in members} <= set(b.members):
            # no loop through other translated blocks yet (or one that loops
            # in its own function already, or none a region does not hold
            # already): look again after more runs, ever less often
            b.tries += 1
            b.watch = self.region_after << min(b.tries, 12)
            return
        try:
            entries = translate_region(members, code_cache_of(self.isa))
        except Exception as e:  # noqa: BLE001 - as for a block: the blocks run unchained
            self.translation_failures.append((b.start, f"region: {type(e).__name__}: {e}"))
            return
        if entries is not None:
            exits = set()   # where the region leaves to, seen by any entry
            for entry in entries:
                entry.succ, entry.watch = exits, self.region_after
                blocks[entry.start] = entry

    def _ended_by(self, exc, pc):
        """(stop, trap info, exit status, steps to add) for what ended a run."""
        if isinstance(exc, ProgramExit):
            return "exit", None, exc.status, 1  # the sc itself completed
        stop = "interrupt" if exc.kind == "interrupt" else "trap"
        return stop, self._trapinfo(pc, exc), None, 0

    def retired(self):
        """Instructions completed so far by this simulator's runs, up to (not
        including) the one executing now when asked mid-run (a system call's
        virtual clock, isa_ext/linux).  Mid-run the count is read from the
        running loop's ``steps`` and, inside a translated block, from the
        block's ``_n`` and the line it is at (as its exception handler reads
        them), so that the loops keep no counter for it."""
        inner = 0
        f = sys._getframe(1)
        while f is not None:
            if f.f_code in _RUN_LOOPS and f.f_locals.get("self") is self:
                return self.retired_before + f.f_locals["steps"] + inner
            g = f.f_globals
            if f.f_code.co_name == "run" and "_LINES" in g and "_n" in f.f_locals:
                inner = f.f_locals["_n"] + g["_LINES"].get(f.f_lineno, g["_AFTER"])[0]
            f = f.f_back
        return self.retired_before

    def _result(self, pc, steps, stop, trap, exit_status, initial, events=()):
        self.retired_before += steps
        self.state.pc = pc
        self.isa.save_cache()
        res = RunResult(self.state, steps, stop, trap, exit_status, initial,
                        diagnostics=list(self.diagnostics))
        res.events = list(events)
        return res

    def _decode_into_cache(self, pc):
        fn, length, word = self._fetch(pc)
        if len(self._cache) >= self.CODE_CACHE_LIMIT:
            self._cache.clear()
        self._cache[pc] = fn  # prefixed (8-byte) handlers return CIA + 8 themselves
        # a store into these bytes forgets every decoded instruction (machine.Memory)
        mem = self.state.mem
        mem.watch_code(pc, pc + length)
        mem.on_code_write = self._forget_decoded
        return fn

    def _trapinfo(self, pc, t):
        try:
            word = self.state.mem.read_word(pc)
        except Exception:
            word = 0
        return TrapInfo(pc, word, t.reason, t.kind, signal=getattr(t, "signal", SIGILL))

    def _run_traced(self, max_steps, initial):
        """The step loop with an event per instruction (isa_ext.trace gives the
        event format): registers before and after, data memory accesses
        through a recording view, and the instruction's SVP64 element events
        held back so that they follow its own event."""
        from .trace import RecordingMemory
        s = self.state
        steps = 0
        stop = "step_limit"
        trap = exit_status = None
        end = self.end if self.end is not None else -1
        pc = s.pc
        events = []
        emit = self.tracer or events.append
        elements = []
        self._sv_emit = elements.append
        memory = s.mem
        s.mem = recording = RecordingMemory(memory)
        try:
            while steps < max_steps:
                if pc == end:
                    stop = "end"
                    break
                fn, length, word = self._fetch(pc)
                before = s.copy_registers()
                recording.take()
                try:
                    nia = fn(s, pc)
                except ProgramExit:
                    # the exit system call completed: its line is the last one
                    self._emit_insn(emit, pc, word, length, before, recording, steps)
                    raise
                except BaseException:
                    # a trapped or interrupted instruction has no event; the
                    # element operations it completed still show
                    for e in elements:
                        emit(e)
                    elements.clear()
                    raise
                self._emit_insn(emit, pc, word, length, before, recording, steps)
                for e in elements:
                    emit(e)
                elements.clear()
                steps += 1
                pc = nia
        except (Trap, ProgramExit) as e:
            stop, trap, exit_status, counted = self._ended_by(e, pc)
            steps += counted
        except KeyboardInterrupt:
            raise Interrupted(pc, steps) from None
        finally:
            self._sv_emit = None
            s.mem = memory
        return self._result(pc, steps, stop, trap, exit_status, initial, events)

    def _emit_insn(self, emit, pc, word, length, before, recording, step):
        from .trace import svstate_fields
        s = self.state
        if length == 4:
            d = self.isa.decode(word)
            mnemonic = d and d.mnemonic
        else:
            suffix = s.mem.read_word(pc + 4)
            if prefix_kind(word) == SVP64:
                d = self.isa.decode(suffix)
                mnemonic = d and "sv." + d.mnemonic
            else:  # a v3.1 row, or an extension's form of the suffix's row
                d = self.isa.decode_prefixed(word, suffix) or self.isa.decode(suffix)
                mnemonic = d and d.mnemonic
        changes = register_changes(before, s.copy_registers(), TRACED_SPECIALS)
        event = {"type": "insn", "pc": pc, "word": word, "length": length,
                 "mnemonic": mnemonic,
                 "changes": {k: new for k, (_old, new) in changes.items()},
                 "old": {k: old for k, (old, _new) in changes.items()},
                 "mem": recording.take(), "step": step}
        if "svstate" in changes:
            event["svstate_fields"] = svstate_fields(s.svstate)
        emit(event)


# the loops whose ``steps`` Simulator.retired() reads
_RUN_LOOPS = (Simulator.run.__code__, Simulator._run_blocks.__code__,
              Simulator._run_traced.__code__)

# the SPRs a trace event reports (MSR left out: only the syscall to set FP
# exception modes changes it)
TRACED_SPECIALS = ("lr", "ctr", "tar", "xer", "fpscr", "svstate", "svshape0", "svshape1",
                   "svshape2", "svshape3", "vscr", "vrsave", "ppr")


def _block_exit(exc, pc, steps):
    """(pc, steps) where an exception left a run: a translated block says which
    of its instructions raised it and how many it completed before."""
    where = exc.__dict__.pop("isa_ext_block", None) if hasattr(exc, "__dict__") else None
    if where is None:
        return pc, steps
    done, at = where
    return at, steps + done


def register_changes(before, after, specials=("lr", "ctr", "tar", "xer", "msr", "fpscr",
                                               "svstate", "svshape0", "svshape1",
                                               "svshape2", "svshape3", "vscr", "vrsave",
                                               "ppr")):
    """{register name: (before, after)} between two State.copy_registers() snapshots.
    A change to doubleword 1 of VSR i < 32 shows as vs<i> (all 128 bits; a
    change to doubleword 0 alone shows as f<i>), a VR's as v<i>."""
    out = {}
    for kind, prefix in (("gpr", "r"), ("fpr", "f"), ("cr", "cr"), ("vr", "v")):
        for i, (a, b) in enumerate(zip(before[kind], after[kind])):
            if a != b:
                out[f"{prefix}{i}"] = (a, b)
    for i, (a, b) in enumerate(zip(before["vsr_dw1"], after["vsr_dw1"])):
        if a != b:
            out[f"vs{i}"] = (before["fpr"][i] << 64 | a, after["fpr"][i] << 64 | b)
    for k in specials:
        if before[k] != after[k]:
            out[k] = (before[k], after[k])
    return out
