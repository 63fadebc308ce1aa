"""One SVP64 instruction run horizontal-first, and as the equivalent
vertical-first loop generated from the instruction itself.

Both runs start from the same machine state (a copy of the program's state
just before the instruction).  The vertical-first loop is the one users
write by hand::

    loop:   <the instruction>              # SVSTATE.vfirst = 1
            sv.svstep.<mods> 0, 0, 0, 0    # next (sub-)element, same SUBVL / predicates
            bc 4, 3, loop                  # until svstep. sets CR0.SO (end)

``<mods>`` repeats what makes svstep step as the instruction does: SUBVL
(``/vecN``) and the predicate and zeroing modifiers (svstep is
twin-predicated: a single-predicated instruction's zeroing becomes ``/sz/dz``).
Without any, the loop steps with a plain ``svstep. 0, 0, 1, 0`` as libre-soc's
own VF programs do; an ``sv.mv.swiz`` group is one step, so its loop does too.
Under REMAP the loop runs with REMAP persistent (RMpst=1), so that every
iteration is remapped as the single HF instruction is.

The loop is driven from Python, one instruction at a time, so that the
loop's own bookkeeping (svstep.'s RT=r0 and CR0) is put back after each
svstep and never mixes with the instruction's results.  The loop ends when
svstep leaves vertical-first mode, or when the steps stand at or past VL
after the instruction ran (a fail-first truncation: a prefixed svstep would
not run again, so the hand-written loop would never end).
"""
from dataclasses import dataclass

from ..svp64 import svstate as SV

STEP_ADDR = 0x7FFF0000  # where the loop's svstep is placed (no program lives there)


@dataclass
class Run:
    """The end of one run: the machine state, and how it ended."""
    state: object
    trap: object = None        # TrapInfo of a trap (None if none)
    iterations: int = 0        # VF: loop iterations run
    ended: str = "end"         # end / trap / truncated / no-end
    diagnostics: tuple = ()


def clone(sim_factory, state):
    """A fresh simulator holding a copy of ``state`` (registers, SPRs, memory)."""
    sim = sim_factory()
    s = sim.state
    s.restore_registers(state.copy_registers())
    s.so, s.ov, s.ca, s.ov32, s.ca32 = state.so, state.ov, state.ca, state.ov32, state.ca32
    # a read-only page (held as bytes: a Linux program's mprotect, its ELF
    # segments' flags) stays read-only, and pages outside the map fault as
    # they do in the program (its Memory.fault)
    s.mem.pages = {k: v if type(v) is bytes else bytearray(v)
                   for k, v in state.mem.pages.items()}
    s.mem.fault = state.mem.fault
    s.mem.little = state.mem.little
    s.remap_next = state.remap_next
    s.pc = state.pc
    return sim


def step_modifiers(r, single_predicated, swizzle, text=""):
    """The ``sv.svstep.`` modifiers that step as the instruction does, from its
    decoded RM ``r`` (:class:`isa_ext.svp64.rm.RM`; None: taken from its
    disassembly ``text``); None for a plain ``svstep.``."""
    if swizzle:
        return None
    if r is None:
        mods = [m for m in text.split()[0].split("/")[1:]
                if m.startswith(("vec", "m=", "sm=", "dm=")) or m in ("sz", "dz", "zz")]
        zeroing = [m for m in mods if m in ("sz", "dz", "zz")]
        mods = [m for m in mods if m not in zeroing]
    else:
        from ..svp64 import rm as rmmod
        mods = [f"vec{r.subvl}"] if r.subvl > 1 else []
        names = rmmod.CR_PRED_NAMES if r.mmode else rmmod.INT_PRED_NAMES
        if r.predicated and r.ptype == 1:
            mods.append(f"m={names[r.mask]}")
        elif r.predicated:
            mods += [f"{k}={names[c]}" for k, c in (("sm", r.smask), ("dm", r.mask))
                     if c or r.mmode]
        # zeroing matters to stepping only under a predicate
        zeroing = [z for z, on in (("sz", r.sz), ("dz", r.dz)) if on and r.predicated]
    if zeroing and (single_predicated or "zz" in zeroing):
        zeroing = ["sz", "dz"]  # svstep is twin-predicated: both sides stop skipping
    return "".join("/" + m for m in mods + zeroing)


def step_line(mods):
    """The loop's stepping instruction for :func:`step_modifiers`' answer."""
    return "svstep. 0, 0, 1, 0" if not mods else f"sv.svstep.{mods} 0, 0, 0, 0"


def loop_text(text, mods):
    """The VF loop as assembly (for reports and docs)."""
    step = step_line(mods)
    return f"loop:\n    {text}\n    {step}\n    bc 4, 3, loop"


def run_hf(sim_factory, state, pc, strict=True):
    """The instruction at ``pc`` run once, horizontal-first."""
    sim = clone(sim_factory, state)
    sim.strict = strict
    sim.state.pc = pc
    sim.end = pc + 8
    res = sim.run(max_steps=1)
    return Run(sim.state, res.trap, 1, "trap" if res.trap is not None else "end",
               tuple(res.diagnostics))


def run_vf(sim_factory, state, pc, mods, isa, max_iterations):
    """The instruction at ``pc`` as the vertical-first loop (see the module
    docstring)."""
    from ..asm import assemble
    sim = clone(sim_factory, state)
    s = sim.state
    sv = s.svstate | 1
    if SV.remap_active(s, sv, pc):
        sv |= SV.RMPST_BIT
    s.svstate = sv
    prog = assemble(step_line(mods) + "\n", isa=isa, base=STEP_ADDR, little=s.mem.little)
    fault, s.mem.fault = s.mem.fault, None   # (our scaffolding, outside a program's map)
    s.mem.load(STEP_ADDR, prog.data)
    s.mem.fault = fault
    step_end = STEP_ADDR + len(prog.data)
    vl0 = SV.get(s.svstate, "vl")
    n = 0
    while n < max_iterations:
        n += 1
        s.pc, sim.end = pc, pc + 8
        res = sim.run(max_steps=1)
        if res.trap is not None:
            return Run(s, res.trap, n, "trap", tuple(res.diagnostics))
        vl = SV.get(s.svstate, "vl")
        if SV.get(s.svstate, "srcstep") >= vl or SV.get(s.svstate, "dststep") >= vl:
            s.svstate &= ~1 & ~SV.STEPS_MASK
            return Run(s, None, n, "truncated" if vl != vl0 else "end",
                       tuple(res.diagnostics))
        r0, cr0 = s.gpr[0], s.cr[0]
        s.pc, sim.end = STEP_ADDR, step_end
        res = sim.run(max_steps=1)
        if res.trap is not None:
            return Run(s, res.trap, n, "trap", tuple(res.diagnostics))
        done = s.cr[0] & 1  # CR0.SO: svstep. reached the end
        s.gpr[0], s.cr[0] = r0, cr0
        if done:
            return Run(s, None, n, "end", tuple(res.diagnostics))
    return Run(s, None, n, "no-end")


def loop_error(run):
    """Why a VF run is not a result (None when it is)."""
    if run.ended == "no-end":
        return f"the vertical-first loop did not end after {run.iterations} iterations"
    return None


