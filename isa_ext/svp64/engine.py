"""The SVP64 engine: one executor per (prefix, suffix) pair.

:func:`build` returns ``f(s, CIA) -> NIA`` for a prefixed instruction: a
category's own executor (``rm.register_category(..., execute=...)``), else the
generic element-loop executor.  The engine is split by idea:

* :mod:`.record` -- :class:`SVRecord`, everything decided once per prefixed
  word (operands and their vector/scalar-ness, EXTRA, element widths, SUBVL,
  predicate sources, mode, the compiled page and its fast loop);
* :mod:`.executor` -- :class:`SVInsn`, the HF/VF element loops (predication,
  stepping, zeroing, interrupts, trace events) running a record;
* :mod:`.indexmap` -- the per-operand index-mapping hook (identity until
  REMAP);
* :mod:`.steps` -- the stepping order shared with ``svstep``;
* :mod:`.elements` -- packed element access in a register file.

The names other modules import from here are re-exported.
"""
from ..errors import Trap
from . import rm as rmmod
from . import svstate as SV
from .asm import is_branch
from .extra import parse_slots, etype, reserved_extra
from ..diagnostics import report
from .elements import M64, read_elem, write_elem  # noqa: F401 (re-exported)
from .executor import SVInsn, ElementInterrupt  # noqa: F401
from .indexmap import IndexMap, IDENTITY, SLOTS  # noqa: F401
from .record import SVRecord, Op, LdSt, signed_sources  # noqa: F401
from .steps import LoopContext, PLAIN, next_enabled, advance_steps  # noqa: F401
from .dispatch import install_dispatch  # noqa: F401 (re-exported)


def build(isa, sim, prefix, suffix):
    """The executor of one prefixed instruction: the category's ``execute`` hook
    when it has one (``rm.register_category(..., execute=...)``), else the
    generic loop engine :class:`SVInsn`; a branch suffix (its page assigns NIA)
    runs the SVP64 branch loop (:mod:`.branch`)."""
    d = isa.decode(suffix)
    if d is not None:
        if is_branch(isa, d.spec):
            if not d.spec.sv:
                raise Trap(f"{d.mnemonic} is not SVP64-capable (no RM category)", "illegal")
            from .branch import SVBranch, reserved_bits, reserved_why
            reserved = reserved_bits(rmmod.rm_of(prefix))
            why = reserved and reserved_why(d.mnemonic, prefix, reserved)
            if reserved and getattr(sim, "strict", False):
                return _reserved_trap(why)
            run = SVBranch(isa, sim, prefix, suffix)
            return _reported(sim, run, why, "reserved-rm") if reserved else run
        if d.spec.sv:
            cat = isa.categories.get(d.spec.sv)
            reserved = _reserved_extra(cat, d.spec, prefix, d.fields) if cat is not None else 0
            if reserved and getattr(sim, "strict", False):
                return _reserved_trap(_reserved_why(d.mnemonic, prefix, reserved))
            if cat is not None and cat.execute is not None:
                run = _guarded(cat.execute(sim, prefix, suffix, d.spec, d.fields),
                               _has_subvectors(cat, prefix), d.mnemonic)
            else:
                run = SVInsn(isa, sim, prefix, suffix, record=_record(isa, prefix, suffix))
            return _reported(sim, run, _reserved_why(d.mnemonic, prefix, reserved)) \
                if reserved else run
    return SVInsn(isa, sim, prefix, suffix, record=_record(isa, prefix, suffix))


def _reserved_extra(cat, row, prefix, fields):
    """EXTRA bits set outside the row's used slots (docs/svp64.md "Reserved
    EXTRA bits"): MASK_SRC of twin predication, the category's length fields (MVRM's src_SUBVL) and, for a
    row with an implicit operand, EXTRA2's last bit (svfixedarith.mdwn's
    RS=RT+MAXVL, which the record traps as not implemented) are not reserved;
    nor is any in the RM-immediate form (rm.RMImmediate), whose EXTRA is its
    immediate."""
    if cat.immediate_form(row, fields) is not None:
        return 0
    slots = parse_slots(row.extra)
    et = cat.etype or etype(slots, cat.ptype)
    # twin predication: RM[16:18] is MASK_SRC, EXTRA only RM[10:15]
    claimed = 0b111 if cat.ptype == 2 else 0
    for a, b in cat.length_fields.values():
        for bit in range(a, b + 1):
            if 10 <= bit <= 18:  # RM[10:18] is EXTRA; RM bit b is EXTRA bit 18-b
                claimed |= 1 << (18 - bit)
    if row.implicit and et == 2:
        claimed |= 1
    extra9 = rmmod.bits(rmmod.rm_of(prefix), 10, 18)
    return reserved_extra(extra9, slots, et, claimed)


def _reserved_why(mnemonic, prefix, reserved):
    return (f"sv.{mnemonic}: reserved EXTRA bit(s) 0x{reserved:03x} set outside the "
            f"instruction's EXTRA slots (prefix 0x{prefix:08x})")


def _reserved_trap(why):
    """Strict mode: reserved RM bits (unused EXTRA slots, a branch's "/" bits)
    make the instruction illegal, as reserved bits do in a 32-bit word (an
    invalid form)."""
    def trap(s, CIA):
        raise Trap(why, "illegal")
    return trap


def _reported(sim, run, why, kind="reserved-extra"):
    """Permissive mode: the bits are ignored, each run records a diagnostic."""
    def reported(s, CIA):
        report(sim, kind, CIA, why)
        return run(s, CIA)
    return reported


def _record(isa, prefix, suffix):
    """The decoded record of these two words, one per ISA: a record holds no
    machine state, so every address (and simulator) running the same words
    shares it and its generated loops instead of decoding them again."""
    cache = isa.__dict__.setdefault("_sv_records", {})
    rec = cache.get((prefix, suffix))
    if rec is None:
        if len(cache) >= _RECORDS_KEPT:  # a fuzzer's stream of distinct words
            cache.clear()
        rec = cache[(prefix, suffix)] = SVRecord(isa, prefix, suffix)
    return rec


_RECORDS_KEPT = 8192


PACK_BITS = (1 << SV.SH_PACK) | (1 << SV.SH_UNPACK)


def _has_subvectors(cat, prefix):
    """Whether the RM gives a SUBVL (or a category length field such as
    MVRM's src_SUBVL) above 1: then SVSTATE pack/unpack would reorder it."""
    rm = rmmod.rm_of(prefix)
    spans = [(8, 9)] + list(cat.length_fields.values())
    return any(rmmod.bits(rm, a, b) for a, b in spans)


def _guarded(run, subvectors, mnemonic):
    """A category executor that first traps on SVSTATE it does not implement
    (the generic executor checks these itself): REMAP active (no SVP64
    instruction runs un-remapped while REMAP applies to it), and pack/unpack
    with sub-vectors (category executors step whole groups in one order)."""
    order_bits = PACK_BITS if subvectors else 0

    def guarded(s, CIA):
        sv = s.svstate
        if SV.remap_active(s, sv, CIA):
            raise Trap(f"REMAP is not implemented for sv.{mnemonic}", "illegal")
        if sv & order_bits:
            raise Trap(f"SVSTATE pack/unpack with sv.{mnemonic} sub-vectors is not "
                       "implemented", "illegal")
        return run(s, CIA)
    return guarded
