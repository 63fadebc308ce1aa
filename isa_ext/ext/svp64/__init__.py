"""The SVP64 extension: prefix handler, sv. assembler/disassembler hooks and the
pseudocode helpers SVSTATE_NEXT, SVSTEP_END and SVSTEP_LOOPENDS of the svstep page.

Its tables and pages are ``decoder/svp64/`` and ``pseudocode/svp64/``; the
engine the prefix handler runs is :mod:`isa_ext.svp64` (shared with the
extensions that add RM categories of their own: swizzle, gpu).
"""
from ...errors import Trap
from ...extension import Extension
from ...svp64 import remap, svstate as SV
from ...svp64.dispatch import install_dispatch
from ...svp64.steps import PLAIN, advance_steps


def svstate_next(s, mode, vf):
    """svstep's SVSTATE_NEXT(SVi, vf): the value SVi asks for, read before any
    step (the libre-soc svstep appendix: SVi=1..4 the REMAP index of
    SVSHAPE0..3, 5..8 srcstep, dststep, ssubstep, dsubstep, otherwise 0), and
    the step.

    A plain (unprefixed) svstep steps when vf=0 and only reads when vf=1,
    except that a read at the loop's last position ends the loop as a step
    would (openpower-isa's simulator and test_caller_setvl.py: ``svstep
    0,0,1,0`` steps, ``svstep 12,0,6,0`` returns srcstep and steps).  A prefixed
    ``sv.svstep`` steps under its own SUBVL and predicate masks (``s.sv_loop``,
    set by the engine) for SVi=0, and for vf=0 in vertical-first mode whatever
    SVi (as the plain form); in horizontal-first its other modes read, the
    element loop moving the steps.  Stepping (:func:`steps.advance_steps`) resets the
    steps and leaves vertical-first mode at the end of the loop.  ``s.sv_end``
    (CR0.SO of ``svstep.``) is whether the step ended the loop, or for a read
    whether a step would; ``s.sv_loopends`` (CR0 LT/GT/EQ, inverted) the REMAP
    schedule's loop-end flags at the position read (0b111 outside REMAP)."""
    sv = s.svstate
    ctx = getattr(s, "sv_loop", None)
    if mode > 8:
        raise Trap(f"svstep SVi={mode} is reserved", "illegal")
    s.sv_loopends = ALL_ENDS
    if mode == 0 and ctx is None and not vf:
        # fast path of advance_steps with PLAIN: next whole element, no predicate
        vl = (sv >> SH_VL) & 0x7F
        src = ((sv >> SH_SRC) & 0x7F) + 1
        dst = ((sv >> SH_DST) & 0x7F) + 1
        if src >= vl or dst >= vl:
            s.svstate = sv & CLEAR_END
            s.sv_end = 1
            return 0
        s.svstate = (sv & CLEAR_STEPS) | (src << SH_SRC) | (dst << SH_DST)
        s.sv_end = 0
        return 0
    if 1 <= mode <= 4:
        value = _remap_index(s, sv, mode)
    elif mode >= 5:
        value = SV.get(sv, ("srcstep", "dststep", "ssubstep", "dsubstep")[mode - 5])
    else:
        value = 0
    stepped, end = advance_steps(sv, ctx or PLAIN)
    if ctx is not None:
        # prefixed: SVi=0 steps; other modes step on vf=0 in vertical-first
        # mode (as the scalar form); in horizontal-first the element loop steps
        moves = mode == 0 or (not vf and sv & 1)
    else:  # a read at the loop's last position ends the loop too (openpower-isa)
        moves = not vf or end
    if moves:
        s.svstate = stepped
    s.sv_end = 1 if end else 0
    return value


def _remap_index(s, sv, mode):
    """svstep SVi 1..4: the element index SVSHAPE(SVi-1)'s schedule gives at
    the current step (srcstep for SVSHAPE0-2, dststep for SVSHAPE3, as
    openpower-isa's simulator), and its loop-end flags into ``s.sv_loopends``.

    The index is the SVSHAPE's schedule at the step whether or not REMAP is
    persistent (RMpst) or applied to any operand (SVme): the svstep appendix
    defines it from the SVSHAPE alone (openpower-isa returns the indices it last
    computed, stale without RMpst: docs/compat.md)."""
    shape = (s.svshape0, s.svshape1, s.svshape2, s.svshape3)[mode - 1]
    step = SV.get(sv, "dststep" if mode == 4 else "srcstep")
    index, ends = remap.index_at(shape, step, remap.register_reader(s.gpr))
    # a prefixed sv.svstep. writes CR0 (the page's CR[32:35]) per element:
    # in horizontal-first the last element's flags stand, as in openpower-isa
    s.sv_loopends = ends
    return index


def _sv_end(s):
    return getattr(s, "sv_end", 0)


def _sv_loopends(s):
    return getattr(s, "sv_loopends", ALL_ENDS)


ALL_ENDS = remap.END_INNER | remap.END_MIDDLE | remap.END_ALL  # no REMAP: CR0 LT/GT/EQ = 0
SH_VL, SH_SRC, SH_DST = SV.SH_VL, SV.SH_SRC, SV.SH_DST
CLEAR_STEPS = ~SV.STEPS_MASK
CLEAR_END = ~(SV.STEPS_MASK | 1)  # steps reset, vertical-first left


def _svstate_next_inline(target, s, mode, vf):
    """svstate_next's fast path (mode 0, vf 0, no prefixed stepping context)
    as statements for translated blocks; the call where the context is set."""
    if (s, mode, vf) != ("s", 0, 0):
        return None
    return f"""if s.sv_loop is None:
    v__sv = s.svstate
    s.sv_loopends = {ALL_ENDS}
    v__vl = v__sv >> {SH_VL} & 127
    v__src = (v__sv >> {SH_SRC} & 127) + 1
    v__dst = (v__sv >> {SH_DST} & 127) + 1
    if v__src >= v__vl or v__dst >= v__vl:
        s.svstate = v__sv & {CLEAR_END & M64}
        s.sv_end = 1
    else:
        s.svstate = v__sv & {CLEAR_STEPS & M64} | v__src << {SH_SRC} | v__dst << {SH_DST}
        s.sv_end = 0
    {target} = 0
else:
    {target} = _svstate_next(s, 0, 0)
"""


M64 = (1 << 64) - 1
assert ALL_ENDS == 7  # State.sv_loopends starts at 7


def _svstate_next_intrinsic(comp, mode, vf):
    from ...pseudocode.compiler import Val
    comp.note_write()
    return Val(f"_svstate_next(s, {mode.code}, {vf.code})", 7)


def _svstep_end_intrinsic(comp):
    from ...pseudocode.compiler import Val
    return Val("_sv_end(s)", 1)


def _svstep_loopends_intrinsic(comp):
    from ...pseudocode.compiler import Val
    return Val("_sv_loopends(s)", 3)


def _sv_assemble(*args):
    # isa_ext.svp64.asm imported at the first sv. line, not by every ISA
    from ...svp64 import asm
    return asm.sv_assemble(*args)


def _sv_disassemble(*args):
    from ...svp64 import asm
    return asm.sv_disassemble(*args)


class Svp64(Extension):
    name = "svp64"

    def setup(self, reg):
        install_dispatch(reg)
        reg.svp64_syntax(_sv_assemble, _sv_disassemble)
        reg.runtime("_svstate_next", svstate_next)
        reg.runtime("_sv_end", _sv_end)
        reg.runtime("_sv_loopends", _sv_loopends)
        reg.inline_assign("_svstate_next", _svstate_next_inline)
        # translated blocks read the two as attributes (State starts them at 0 and 7)
        reg.inline("_sv_end", lambda s: "s.sv_end" if s == "s" else None)
        reg.inline("_sv_loopends", lambda s: "s.sv_loopends" if s == "s" else None)
        reg.intrinsic("SVSTATE_NEXT", _svstate_next_intrinsic)
        reg.intrinsic("SVSTEP_END", _svstep_end_intrinsic)
        reg.intrinsic("SVSTEP_LOOPENDS", _svstep_loopends_intrinsic)


EXTENSION = Svp64()
