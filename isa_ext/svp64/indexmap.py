"""The per-operand element index-mapping hook: where REMAP plugs into the
element-loop executor.

At each element step the executor has two element numbers in stepping order:
``ks`` on the source side (``srcstep * SUBVL + ssubstep``, reverse gear
applied) and ``kd`` on the destination side.  Without REMAP every source
operand uses element ``ks`` and every destination operand element ``kd``.
With REMAP each operand *slot* may follow a schedule instead:

* slots: ``in1 in2 in3`` (source register operands, in the order of the
  table row's ``in`` column) and ``out out2`` (destination register operands,
  in the order of its ``out`` column).  These are openpower-isa's REMAP
  targets (SVSTATE mi0 mi1 mi2 mo0 mo1).  An Rc=1 CR field follows ``out``.
* a **schedule** is a re-iterable object (``iter()`` is called once per
  instruction run) yielding element indices in stepping order: its n-th
  value is the element a slot uses at step n (an ``in`` slot's n counts
  ``ks``, an ``out`` slot's n counts ``kd``).  Pure generators of such
  schedules (``isa_ext/svp64/remap.py``) need not know the executor.

:class:`IndexMap` with no schedules is the identity (:data:`IDENTITY`); the
executor checks ``identity`` once per instruction and then keeps its plain
``ks``/``kd`` arithmetic and the generated fast loop, so the hook costs
nothing on the common path.  REMAP builds an :class:`IndexMap` from the
SVSHAPEs for each remapped run (``executor.remap_index_map``).
"""
from itertools import islice

from ..errors import Trap

IN_SLOTS = ("in1", "in2", "in3")
OUT_SLOTS = ("out", "out2")
SLOTS = IN_SLOTS + OUT_SLOTS
#: remap.SLOTS' operand names (svremap's mi0..mo1 targets) as slots here
#: (remap.py calls RT's slot out1)
HOOK_SLOT = {"in1": "in1", "in2": "in2", "in3": "in3", "out1": "out", "out2": "out2"}
#: not a register operand's slot: the memory offsets of a load under profile
#: remap_ldst_offsets "load-mi0" (svp64/remap_profile.py), a source-side slot
LOAD_OFFSETS = "ld_offsets"


def assign_slots(ops, row, ports=None):
    """Set each register operand's (:class:`record.Op`) ``slot`` to its pair
    (source slot, destination slot); an operand that is both (an update-form
    RA) has both, None where it has no role.  ``ports`` (the row's
    ``(in1, in2, in3, out, out2)`` register fields, "-" for none: the decoder
    ports of openpower-isa's RM tables, ``decoder/svp64/remap_ports.txt``)
    gives each operand the slot of its port (``rldcl``: RB in2, RS in3);
    an implicit result (FRS of the butterfly rows) takes out2 (EA/FRS); any
    other operand on no port gets no slot.  Without ``ports`` (rows libre-soc
    lacks) sources take in1 in2 in3 in the order of ``row.ins``, destinations
    out out2 in the order of ``row.outs``."""
    if ports is not None:
        for o in ops:
            name = "RA" if o.ra0 else o.field
            src = next((s for s, p in zip(IN_SLOTS, ports[:3]) if p == name), None)
            dst = next((s for s, p in zip(OUT_SLOTS, ports[3:]) if p == name), None)
            if dst is None and getattr(o, "implicit", False) and ports[4] == "-":
                dst = "out2"  # an implicit second result (FRS) is the EA/FRS slot
            o.slot = (src if o.src else None, dst if o.dst else None)
        return
    def order(names, op):
        name = "RA" if op.ra0 else op.field
        return names.index(name) if name in names else len(names)
    ins = [n if n != "RA0" else "RA" for n in row.ins]
    srcs = sorted((o for o in ops if o.src), key=lambda o: order(ins, o))
    dsts = sorted((o for o in ops if o.dst), key=lambda o: order(list(row.outs), o))
    slot_of = {}
    for o, name in zip(srcs, IN_SLOTS):
        slot_of.setdefault(id(o), [None, None])[0] = name
    for o, name in zip(dsts, OUT_SLOTS):
        slot_of.setdefault(id(o), [None, None])[1] = name
    for o in ops:
        o.slot = tuple(slot_of.get(id(o), (None, None)))


class IndexMap:
    """Element indices per operand slot (see the module docstring).

    ``schedules``: {slot: re-iterable of element indices}; slots left out use
    the identity."""

    def __init__(self, schedules=None):
        schedules = dict(schedules or {})
        bad = set(schedules) - set(SLOTS) - {LOAD_OFFSETS}
        if bad:
            raise ValueError(f"unknown index-mapping slot(s) {sorted(bad)}; slots are {SLOTS}")
        self.schedules = schedules
        self.identity = not schedules

    def tables(self, n, slots=None):
        """{slot: [index for steps 0..n-1]} for one instruction run of n
        (sub-)element steps (``slots``: only those); a schedule that ends
        early is an error."""
        out = {}
        for slot, schedule in self.schedules.items():
            if slots is not None and slot not in slots:
                continue
            t = list(islice(iter(schedule), n))
            if len(t) < n:
                raise Trap(f"SVP64 index map: the {slot} schedule gives {len(t)} of {n} "
                           "element indices", "illegal")
            out[slot] = t
        return out


IDENTITY = IndexMap()


class StepTables(dict):
    """{slot: element index per step} whose ``cross`` slots are looked up at
    the other side's step (profile ``remap_step_side`` "shape": openpower-isa
    steps SVSHAPE3 by dststep and SVSHAPE0-2 by srcstep, whichever operand
    uses them)."""

    def __init__(self, tables, cross):
        super().__init__(tables)
        self.cross = frozenset(cross)


def slot_index(tables, slot, ks, kd):
    """The element ``slot``'s table gives at step (ks, kd): a source slot's
    at ``ks``, a destination slot's at ``kd`` (:class:`StepTables`: the other
    way round for its ``cross`` slots)."""
    out = (slot in OUT_SLOTS) != (slot in getattr(tables, "cross", ()))
    return tables[slot][kd if out else ks]


def element_index(op, ks, kd, tables, write):
    """The element operand ``op`` uses at step (ks, kd): its slot's schedule
    when mapped, else ``kd`` for a destination being written / ``ks`` for a
    source being read, plus the operand's element offset ``eoff`` (MAXVL for
    the butterflies' second half, record.SVRecord.place_maxvl).  ``write``
    selects the operand's destination role
    (an operand that is both source and destination, e.g. an update-form RA,
    is read through its source slot and written through its destination
    slot)."""
    src_slot, dst_slot = op.slot
    if write or not op.src:
        return slot_index(tables, dst_slot, ks, kd) if tables and dst_slot in tables \
            else kd + op.eoff
    return slot_index(tables, src_slot, ks, kd) if tables and src_slot in tables \
        else ks + op.eoff
