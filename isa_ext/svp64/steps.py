"""The SVP64 stepping order: how srcstep/ssubstep and dststep/dsubstep move
through a loop, shared by the element-loop executor (HF and VF) and by
``svstep`` (SVSTATE_NEXT).

Each side (source, destination) has a position (step, substep).  Normally the
sub-element is the inner loop; SVSTATE.pack (source) / .unpack (destination)
make it the outer loop (openpower-isa's src_iterate / dst_iterate).  A side
that is predicated without zeroing moves over masked-out elements.
"""
from . import svstate as SV
from .predication import ALL


class LoopContext:
    """How ``svstep`` advances the steps on behalf of a prefixed instruction:
    ``subvl``, source/destination masks (bit i = element i) and whether masked-out
    elements are skipped on each side (predicated without zeroing).  An unprefixed
    svstep uses :data:`PLAIN` (SUBVL 1, no predicate)."""
    __slots__ = ("subvl", "smask", "dmask", "sskip", "dskip")

    def __init__(self, subvl=1, smask=ALL, dmask=ALL, sskip=False, dskip=False):
        self.subvl, self.smask, self.dmask = subvl, smask, dmask
        self.sskip, self.dskip = sskip, dskip


PLAIN = LoopContext()


def next_enabled(mask, step, vl, skip):
    """The first step >= ``step`` whose mask bit is set (``step`` itself when not
    skipping); ``vl`` when none is left."""
    if not skip:
        return step
    while step < vl and not (mask >> step) & 1:
        step += 1
    return step


def settle_mid_element(mask, step, sub, vl, skip, sub_outer):
    """As :func:`settle` for a predicate read again mid-element (profile
    switch ``mask_read``, openpower-isa): a position inside an element whose bit
    is now clear moves to the next enabled element at the same sub-element
    (openpower-isa's skip_dst/skip_src move the step, not the substep)."""
    if sub_outer or not sub or not skip or step >= vl or (mask >> step) & 1:
        return step, sub
    step = next_enabled(mask, step + 1, vl, True)
    return (step, sub) if step < vl else (vl, 0)


def settle(mask, step, sub, vl, subvl, skip, sub_outer):
    """The first position at or after (step, sub), in stepping order, whose
    element is enabled in ``mask`` (bit i = step i); (step, sub) itself when
    not skipping.  ``sub_outer`` is SVSTATE's pack (source side) / unpack
    (destination side): sub-elements become the outer loop and every step is
    an element move; otherwise a masked element is only entered at sub 0.
    ``step >= vl`` means no position is left."""
    if not skip or step >= vl or (mask >> step) & 1:
        return step, sub
    if not sub_outer:
        if sub:
            return step, sub
        return next_enabled(mask, step + 1, vl, True), 0
    step = next_enabled(mask, step + 1, vl, True)
    while step >= vl:
        sub += 1
        if sub >= subvl:
            return vl, 0
        step = next_enabled(mask, 0, vl, True)
    return step, sub


def step_on(step, sub, vl, subvl, sub_outer):
    """The position after (step, sub) in stepping order (no predicate): the
    sub-element inner (normal) or outer (pack / unpack, openpower-isa's
    src_iterate / dst_iterate).  ``step >= vl`` at the end."""
    if sub_outer:
        step += 1
        if step < vl:
            return step, sub
        sub += 1
        return (vl, 0) if sub >= subvl else (0, sub)
    sub += 1
    if sub >= subvl:
        return step + 1, 0
    return step, sub


def advance_steps(sv, ctx):
    """SVSTATE after one ``svstep`` advance under ``ctx``, and whether the loop
    ended.  Each side moves to its next position in stepping order (see
    :func:`step_on`; SVSTATE.pack / .unpack make the sub-element the outer
    loop of the source / destination side), then on to the next enabled
    element (:func:`settle`).  At the end (srcstep or dststep reaches VL) the
    steps are reset and vertical-first mode is left."""
    vl = (sv >> SV.SH_VL) & 0x7F
    subvl = ctx.subvl
    pack = subvl > 1 and (sv >> SV.SH_PACK) & 1
    unpack = subvl > 1 and (sv >> SV.SH_UNPACK) & 1
    src, ssub = step_on((sv >> SV.SH_SRC) & 0x7F, (sv >> SV.SH_SSUB) & 3, vl, subvl, pack)
    src, ssub = settle(ctx.smask, src, ssub, vl, subvl, ctx.sskip, pack)
    dst, dsub = step_on((sv >> SV.SH_DST) & 0x7F, (sv >> SV.SH_DSUB) & 3, vl, subvl, unpack)
    dst, dsub = settle(ctx.dmask, dst, dsub, vl, subvl, ctx.dskip, unpack)
    if src >= vl or dst >= vl:
        return (sv & ~SV.STEPS_MASK) & ~1, True
    return SV.with_steps(sv, src, dst, ssub, dsub), False


def reverse_mask(mask, vl):
    """Mask bit i moved to bit vl-1-i (reverse gear: steps count from the top)."""
    out = 0
    for i in range(vl):
        if (mask >> i) & 1:
            out |= 1 << (vl - 1 - i)
    return out
