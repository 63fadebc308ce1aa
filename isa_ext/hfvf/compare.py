"""``compare(program, ...)``: every SVP64 instruction of a program run
horizontal-first and as its vertical-first loop, end states compared.

The program runs as written (permissive: an UNDEFINED behaviour is recorded,
not a stop).  Just before the first execution of each SVP64 instruction that
runs a horizontal-first element loop (VL > 0, SVSTATE.vfirst = 0; not
setvl / svstep / the REMAP set-up instructions / branches), the machine state
is copied and the instruction runs from it twice: once as it is, once as the
generated vertical-first loop (:mod:`.vfloop`).  Its per-element read and
write sets (:mod:`.deps`) name the overlaps; :mod:`.classify` names the cause
of each difference and gives the verdict.
"""
from dataclasses import dataclass, field as dc_field

from ..encoding import is_svp64_prefix
from ..errors import IsaExtError, Trap
from ..svp64 import svstate as SV
from . import classify, deps as depsmod, vfloop

# suffixes that set up or drive loops rather than run an element loop of their own
LOOP_CONTROL = ("setvl", "svstep", "svshape", "svshape2", "svremap", "svindex")
SPR_NAMES = ("svstate", "svshape0", "svshape1", "svshape2", "svshape3", "lr", "ctr",
             "tar", "xer", "fpscr")


@dataclass
class InstructionReport:
    """The comparison of one SVP64 instruction."""
    pc: int
    text: str
    verdict: str = None            # classify.AGREE / LEGAL / UNDEFINED / BUG, or None: skipped
    skipped: str = None            # why it was not compared
    vl: int = 0
    vf_loop: str = ""
    differences: list = dc_field(default_factory=list)
    causes: list = dc_field(default_factory=list)
    dependencies: object = None    # deps.Dependencies
    hf_trap: object = None
    vf_trap: object = None
    vf_iterations: int = 0
    notes: list = dc_field(default_factory=list)
    # the two end states (isa_ext.machine.State; not in the JSON)
    hf_state: object = dc_field(default=None, repr=False)
    vf_state: object = dc_field(default=None, repr=False)

    @property
    def exit_status(self):
        return classify.EXIT_STATUS.get(self.verdict, 0)

    def as_dict(self):
        d = self.dependencies
        return {"pc": self.pc, "instruction": self.text, "verdict": self.verdict,
                "skipped": self.skipped, "vl": self.vl, "vf_loop": self.vf_loop,
                "vf_iterations": self.vf_iterations,
                "hf_trap": _trap_dict(self.hf_trap), "vf_trap": _trap_dict(self.vf_trap),
                "differences": [x.as_dict() for x in self.differences],
                "causes": [c.as_dict() for c in self.causes],
                "dependencies": d.as_dict() if d is not None else None,
                "notes": list(self.notes)}


@dataclass
class Report:
    """What :func:`compare` found: one :class:`InstructionReport` per SVP64
    instruction met, and how the program's own run ended."""
    instructions: list = dc_field(default_factory=list)
    program_stop: str = "end"
    program_trap: object = None

    @property
    def verdict(self):
        """The worst verdict over the compared instructions (agree if none)."""
        seen = [i.verdict for i in self.instructions if i.verdict is not None]
        return max(seen, key=classify.SEVERITY.index, default=classify.AGREE)

    @property
    def exit_status(self):
        """0 agree, 3 legal difference, 4 UNDEFINED, 5 bug; 1 when everything
        compared agrees but the program itself did not run to its end."""
        status = classify.EXIT_STATUS[self.verdict]
        if status == 0 and self.program_stop not in ("end", "exit"):
            return 1
        return status

    @property
    def compared(self):
        return [i for i in self.instructions if i.verdict is not None]

    def as_dict(self):
        return {"verdict": self.verdict, "exit_status": self.exit_status,
                "program_stop": self.program_stop,
                "program_trap": _trap_dict(self.program_trap),
                "instructions": [i.as_dict() for i in self.instructions]}


def _trap_dict(t):
    if t is None:
        return None
    return {"pc": t.pc, "word": t.word, "kind": t.kind, "reason": t.reason}


def compare(program, *, gpr=None, fpr=None, spr=None, cr=None, memory=None, only=None,
            isa=None, profile=None, base=0x1000, max_steps=100_000, filename="<program>",
            big_endian=False, progress=None, argv=None):
    """Compare HF and VF for every SVP64 instruction of ``program``.

    ``program``: assembly text (str), raw instruction bytes, or a list of
    32-bit words, placed at ``base``; or an ELF file's bytes, run as a Linux
    process from its path ``filename`` with arguments ``argv``.  ``gpr`` / ``fpr`` / ``cr``: {number:
    value} set before the run; ``spr``: {name: value} for svstate, svshape0-3,
    lr, ctr, tar, xer, fpscr; ``memory``: {address: bytes}; ``only``: the
    address of the one instruction to compare; ``progress``
    (isa_ext.progress.Progress or None) hears of each step.  Returns a
    :class:`Report`.
    """
    from ..isa import ISA
    from ..sim import Simulator
    if isa is None:
        isa = ISA(profile=profile)
    little = not big_endian

    def new_sim():
        return Simulator(isa=isa, little=little, strict=False)

    sim = new_sim()
    if isinstance(program, str):
        prog = sim.load_asm(program, filename=filename, addr=base)
        sim.state.pc = prog.entry
    elif isinstance(program, (bytes, bytearray)) and bytes(program[:4]) == b"\x7fELF":
        # a Linux program (``filename`` its path): its process, its system calls
        sim.load_elf(filename, argv=[filename, *(argv or ())])
    elif isinstance(program, (bytes, bytearray)):
        sim.load_bytes(bytes(program), addr=base)
    else:
        sim.load_words(list(program), addr=base)
    _initialise(sim.state, gpr, fpr, spr, cr, memory)
    report = Report()
    seen = set()
    s = sim.state
    steps = 0
    while True:
        if s.pc == sim.end:
            report.program_stop = "end"
            break
        if steps >= max_steps:
            report.program_stop = "step_limit"
            break
        pc = s.pc
        word = s.mem.read_word(pc)
        if is_svp64_prefix(word) and pc not in seen and (only is None or pc == only):
            seen.add(pc)
            item = compare_one(isa, new_sim, s, pc, word, s.mem.read_word(pc + 4))
            if item is not None:
                report.instructions.append(item)
        res = sim.run(max_steps=1)
        steps += 1
        if progress is not None:
            progress.advance(where=f"pc 0x{pc:x}, {len(report.instructions)} compared")
        if res.stop in ("trap", "exit", "interrupt"):
            report.program_stop, report.program_trap = res.stop, res.trap
            break
    if only is not None and not report.instructions:
        raise IsaExtError(f"no SVP64 instruction ran at 0x{only:x}")
    return report


def _initialise(s, gpr, fpr, spr, cr, memory):
    M64 = (1 << 64) - 1
    for n, v in (gpr or {}).items():
        s.gpr[n] = v & M64
    for n, v in (fpr or {}).items():
        s.fpr[n] = v & M64
    for n, v in (cr or {}).items():
        s.cr[n] = v & 15
    for name, v in (spr or {}).items():
        name = name.lower()
        if name not in SPR_NAMES:
            raise IsaExtError(f"unknown SPR {name!r} (one of {', '.join(SPR_NAMES)})")
        setattr(s, name, v)
    for addr, data in (memory or {}).items():
        s.mem.write_bytes(addr, bytes(data))


def compare_one(isa, new_sim, state, pc, prefix, suffix):
    """The :class:`InstructionReport` of the SVP64 instruction at ``pc`` run
    from ``state`` (None for loop-control instructions)."""
    from ..disasm import Disassembler
    from ..svp64.asm import is_branch
    d = isa.decode(suffix)
    if d is not None and (d.mnemonic.rstrip(".") in LOOP_CONTROL or is_branch(isa, d.spec)):
        return None
    text = Disassembler(isa).prefixed(prefix, suffix, pc) or \
        f".long 0x{prefix:08x}, 0x{suffix:08x}"
    sv = state.svstate
    item = InstructionReport(pc, text, vl=SV.get(sv, "vl"))
    if sv & 1:
        item.skipped = "the program runs it vertical-first already"
        return item
    if item.vl == 0:
        item.skipped = "VL is 0: no element runs"
        return item
    snapshot = vfloop.clone(new_sim, state).state
    deps = item.dependencies = depsmod.analyse(isa, snapshot, prefix, suffix, pc)
    rec = _record_or_none(isa, prefix, suffix)
    cat = isa.categories.get(d.spec.sv) if d is not None and d.spec.sv else None
    single = cat is not None and cat.ptype == 1 or (rec is not None and rec.kind == "ldst")
    mods = vfloop.step_modifiers(rec.rm if rec is not None else None, single,
                                 deps.kind == "swizzle", text)
    item.vf_loop = vfloop.loop_text(text, mods)
    hf = vfloop.run_hf(new_sim, snapshot, pc, strict=True)
    if hf.trap is not None and hf.trap.kind == "undefined":
        # UNDEFINED in HF: the permissive run gives the values one implementation
        # (element order) produces, to show against VF
        item.notes.append(f"horizontal-first: {hf.trap.reason}")
        hf = vfloop.run_hf(new_sim, snapshot, pc, strict=False)
    subvl = rec.rm.subvl if rec is not None else 4
    vf = vfloop.run_vf(new_sim, snapshot, pc, mods, isa, item.vl * max(subvl, 1) * 4 + 4)
    item.hf_trap, item.vf_trap, item.vf_iterations = hf.trap, vf.trap, vf.iterations
    item.hf_state, item.vf_state = hf.state, vf.state
    item.differences = classify.differences(hf.state, vf.state)
    classify.attach_elements(item.differences, deps)
    item.causes = classify.causes_of(deps, rec, snapshot, hf, vf)
    mismatch = _trap_mismatch(hf, vf)
    if mismatch:
        item.notes.append(mismatch)
    elif hf.trap is not None:
        # the same trap both ways: agreement, but on a trap, not on values
        item.notes.append(f"both runs trap: {hf.trap.reason}")
    if deps.why:
        item.notes.append(f"element dependencies not analysed: {deps.why}")
    item.verdict = classify.verdict_of(item.differences, item.causes, mismatch)
    return item


def _trap_mismatch(hf, vf):
    """Why the two runs did not end alike (None when they did)."""
    if vf.ended == "no-end":
        return f"the vertical-first loop did not end after {vf.iterations} iterations"
    if (hf.trap is None) != (vf.trap is None):
        which, t = ("horizontal-first", hf.trap) if hf.trap is not None else \
            ("vertical-first", vf.trap)
        return f"only the {which} run traps: {t.reason}"
    if hf.trap is not None and hf.trap.reason != vf.trap.reason:
        return f"the runs trap differently: HF {hf.trap.reason}; VF {vf.trap.reason}"
    return None


def _record_or_none(isa, prefix, suffix):
    from ..svp64.engine import _record
    d = isa.decode(suffix)
    cat = isa.categories.get(d.spec.sv) if d is not None and d.spec.sv else None
    if d is None or cat is None or cat.execute is not None:
        return None
    try:
        return _record(isa, prefix, suffix)
    except Trap:
        return None
