"""The SVP64 extension: prefix handler, sv. assembler/disassembler hooks and the
pseudocode helper SVSTATE_NEXT used by the svstep page."""
from ..isa import EXTENSION_HOOKS
from ..errors import Trap
from ..pseudocode import library
from ..svp64 import engine, asm as svasm, remap, svstate as SV


def activate(isa):
    engine.install_dispatch(isa)
    isa.sv_assemble = lambda mn, ops, pc, resolve: svasm.sv_assemble(isa, mn, ops, pc, resolve)
    isa.sv_disassemble = lambda p, s: svasm.sv_disassemble(isa, p, s)


EXTENSION_HOOKS["svp64"] = activate


def svstate_next(s, mode, vf):
    """svstep's SVSTATE_NEXT(SVi, vf).

    mode 0: advance to the next sub-element / element (:func:`engine.advance_steps`)
    under the stepping context of the instruction: a prefixed ``sv.svstep`` runs
    with its own SUBVL and predicate masks (``s.sv_loop``, set by the engine), a
    plain ``svstep`` steps whole elements without a predicate.  At the end of the
    loop the steps are reset and vertical-first mode is left.  Returns the new
    srcstep.  mode 5..8: return srcstep, dststep, ssubstep, dsubstep (no change).
    mode 1..4: the REMAP index of SVSHAPE(mode-1) at the current step
    (:func:`_remap_index`); others are reserved.
    """
    sv = s.svstate
    if mode == 0 and getattr(s, "sv_loop", None) is None:
        # plain svstep: next whole element, no predicate (advance_steps with PLAIN)
        vl = (sv >> SH_VL) & 0x7F
        src = ((sv >> SH_SRC) & 0x7F) + 1
        dst = ((sv >> SH_DST) & 0x7F) + 1
        if src >= vl or dst >= vl:
            s.svstate = sv & CLEAR_END
            s.sv_end = 1
            return 0
        s.svstate = (sv & CLEAR_STEPS) | (src << SH_SRC) | (dst << SH_DST)
        s.sv_end = 0
        return src
    if mode in (5, 6, 7, 8):
        # svstep. records in CR0.SO whether this is the loop's last position
        # (openpower-isa's test_svstep_pack: SO=1 after an HF sv.svstep./vec2 ...,5,1)
        s.sv_end = 1 if engine.advance_steps(sv, getattr(s, "sv_loop", None)
                                             or engine.PLAIN)[1] else 0
        return SV.get(sv, ("srcstep", "dststep", "ssubstep", "dsubstep")[mode - 5])
    if 1 <= mode <= 4:
        return _remap_index(s, sv, mode, vf)
    if mode != 0:
        raise Trap(f"svstep SVi={mode} is reserved", "illegal")
    ctx = getattr(s, "sv_loop", None) or engine.PLAIN
    sv, end = engine.advance_steps(sv, ctx)
    s.svstate = sv
    s.sv_end = 1 if end else 0
    return (sv >> SV.SH_SRC) & 0x7F


def _remap_index(s, sv, mode, vf):
    """svstep SVi 1..4: the element index SVSHAPE(SVi-1)'s schedule gives at
    the current step (srcstep for SVSHAPE0-2, dststep for SVSHAPE3, as
    openpower-isa's ISACaller), steps unchanged (vf=1: the read form).

    Implemented only where ISACaller's answer is unambiguous: vf=1, RMpst=1
    (ISACaller computes the indices only under persistent or just-armed
    REMAP), and no Rc=1 CR0 (which ISACaller builds from the schedule's
    loop-end flags); the rest traps."""
    if not vf:
        raise Trap("svstep REMAP index modes (SVi 1..4) with vf=0 (index and step) "
                   "are not implemented", "illegal")
    if not sv & SV.RMPST_BIT:
        raise Trap("svstep REMAP index modes (SVi 1..4) without persistent REMAP "
                   "(RMpst) are not implemented", "illegal")
    shape = (s.svshape0, s.svshape1, s.svshape2, s.svshape3)[mode - 1]
    step = SV.get(sv, "dststep" if mode == 4 else "srcstep")
    index, _ends = remap.index_at(shape, step, remap.register_reader(s.gpr))
    s.sv_end = None  # svstep. would need the loop-end flags: SVSTEP_END traps
    return index


def _sv_end(s):
    end = getattr(s, "sv_end", 0)
    if end is None:
        raise Trap("svstep. (Rc=1) with a REMAP index mode (SVi 1..4) is not "
                   "implemented", "illegal")
    return end


SH_VL, SH_SRC, SH_DST = SV.SH_VL, SV.SH_SRC, SV.SH_DST
CLEAR_STEPS = ~SV.STEPS_MASK
CLEAR_END = ~(SV.STEPS_MASK | 1)  # steps reset, vertical-first left
library.RUNTIME["_svstate_next"] = svstate_next
library.RUNTIME["_sv_end"] = _sv_end


@library.intrinsic("SVSTATE_NEXT")
def _svstate_next_intrinsic(comp, mode, vf):
    from ..pseudocode.compiler import Val
    comp.note_write()
    return Val(f"_svstate_next(s, {mode.code}, {vf.code})", 7)


@library.intrinsic("SVSTEP_END")
def _svstep_end_intrinsic(comp):
    from ..pseudocode.compiler import Val
    return Val("_sv_end(s)", 1)
