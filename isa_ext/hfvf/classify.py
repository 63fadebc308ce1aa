"""Comparing the HF and VF end states, and naming why they differ.

Cause classes (``Cause.kind``) and what the spec says of each:

* ``swizzle-overlap`` -- an ``sv.mv.swiz`` whose source and destination
  elements overlap anywhere in groups 0..VL-1: UNDEFINED in horizontal-first
  mode (seed 001), while vertical-first keeps strict order.
* ``predicate-changed`` -- an element writes the register its predicate is
  read from, with elements after it: HF reads the mask once, each VF
  iteration reads it again.  A legal difference.
* ``fail-first`` -- data-dependent fail-first truncated VL: HF stops inside
  the instruction, the VF loop at the iteration that failed.  A legal
  difference (the truncation point is where the loops can part).
* ``map-reduce`` -- a scalar destination fed by vector sources: HF ends at
  the first element written (without ``/mr``) or reduces in its own order,
  the VF loop writes it once per iteration.  A legal difference.
* ``cross-element-overlap`` -- an element reads (RAW) or overwrites (WAR,
  WAW) what an earlier element touched: HF order is observable there.  A
  legal difference when the runs part there.

A difference no cause covers is a ``bug``: the two forms of one instruction
should not disagree there.
"""
from dataclasses import dataclass, field as dc_field

from ..svp64 import svstate as SV
from .vfloop import STEP_ADDR

AGREE, LEGAL, UNDEFINED, BUG = "agree", "legal difference", "UNDEFINED", "bug"
# exit statuses of `isa-ext hfvf` (the worst instruction decides); 1: the
# program itself did not run to its end, 2: bad input
EXIT_STATUS = {AGREE: 0, LEGAL: 3, UNDEFINED: 4, BUG: 5}
SEVERITY = [AGREE, LEGAL, UNDEFINED, BUG]

CAUSE_LABELS = {
    "swizzle-overlap": "swizzle group overlap",
    "predicate-changed": "predicate or VL changed inside the loop",
    "fail-first": "fail-first truncation",
    "map-reduce": "map-reduce order",
    "cross-element-overlap": "cross-element read-after-write / write-after-read overlap",
}


@dataclass
class Difference:
    name: str           # r5, f3, cr2, xer, fpscr, vl, mem[0x...]
    hf: object
    vf: object
    causes: list = dc_field(default_factory=list)  # kinds of the causes covering it
    elements: list = dc_field(default_factory=list)  # HF element steps writing it:
    #                                                  "step 3 RT[3]"

    def as_dict(self):
        return {"register": self.name, "hf": self.hf, "vf": self.vf, "causes": self.causes,
                "elements": self.elements}


@dataclass
class Cause:
    kind: str
    verdict: str        # UNDEFINED or legal difference
    detail: str
    registers: list = dc_field(default_factory=list)   # registers it can explain
    elements: list = dc_field(default_factory=list)    # element steps involved
    covers_all: bool = False   # explains any difference (memory, XER, VL...)

    @property
    def label(self):
        return CAUSE_LABELS[self.kind]

    def as_dict(self):
        return {"class": self.kind, "label": self.label, "verdict": self.verdict,
                "detail": self.detail, "registers": self.registers,
                "elements": self.elements}


def differences(hf, vf):
    """Where two end states differ: registers, CR fields, XER, FPSCR, LR/CTR/TAR,
    SVSTATE's VL and MAXVL (the steps and vfirst belong to the loop), memory
    (doublewords; the VF loop's own svstep is left out)."""
    out = []
    for prefix, a, b in (("r", hf.gpr, vf.gpr), ("f", hf.fpr, vf.fpr), ("cr", hf.cr, vf.cr)):
        out += [Difference(f"{prefix}{i}", x, y) for i, (x, y) in enumerate(zip(a, b))
                if x != y]
    for name in ("xer", "fpscr", "lr", "ctr", "tar"):
        x, y = getattr(hf, name), getattr(vf, name)
        if x != y:
            out.append(Difference(name, x, y))
    for name in ("vl", "maxvl"):
        x, y = SV.get(hf.svstate, name), SV.get(vf.svstate, name)
        if x != y:
            out.append(Difference(name, x, y))
    skip = STEP_ADDR >> 12
    for key in sorted(set(hf.mem.pages) | set(vf.mem.pages)):
        if key == skip:
            continue
        a, b = hf.mem.pages.get(key), vf.mem.pages.get(key)
        a = bytes(a) if a is not None else bytes(4096)
        b = bytes(b) if b is not None else bytes(4096)
        if a == b:
            continue
        for off in range(0, 4096, 8):
            if a[off:off + 8] != b[off:off + 8]:
                addr = (key << 12) + off
                out.append(Difference(f"mem[0x{addr:x}]", int.from_bytes(a[off:off + 8], "little"),
                                      int.from_bytes(b[off:off + 8], "little")))
    return out


# status registers accumulate (sticky SO, FPSCR exception bits) over whichever
# elements ran: a legal cause that changes the elements run covers them too
STATUS = ["xer", "fpscr"]


def causes_of(deps, rec, state, hf, vf):
    """The causes that apply to this instruction (see the module docstring)."""
    out = []
    later_writes = _writes_from(deps)
    if deps.swizzle_overlap:
        file = "f" if any(a.file == "f" for s in deps.steps for a in s.writes) else "r"
        regs = [f"{file}{n}" for n in deps.swizzle_overlap]
        groups = sorted({s.index for s in deps.steps
                         if any(a.name in regs for a in s.reads + s.writes)})
        out.append(Cause("swizzle-overlap", UNDEFINED,
                         "source and destination elements of groups 0..VL-1 share "
                         f"{', '.join(regs)}: {_group_accesses(deps, regs)} (seed 001: "
                         "UNDEFINED in horizontal-first mode; vertical-first keeps strict "
                         "order)", regs, groups, covers_all=True))
    preds = [o for o in deps.overlaps if o.kind == "PRED"]
    vl0 = SV.get(state.svstate, "vl")
    if preds:
        out.append(Cause("predicate-changed", LEGAL,
                         "; ".join(str(o) for o in preds)
                         + ": horizontal-first reads the mask once, each vertical-first "
                         "iteration reads it again", deps.reach, [o.earlier for o in preds],
                         covers_all=True))
    if rec is not None and rec.rm.mode == "ffirst":
        hv, vv = SV.get(hf.state.svstate, "vl"), SV.get(vf.state.svstate, "vl")
        if hv != vl0 or vv != vl0 or vf.ended == "truncated":
            out.append(Cause("fail-first", LEGAL,
                             f"fail-first truncated VL {vl0} to {hv} horizontal-first and to "
                             f"{vv} vertical-first (after {vf.iterations} iteration(s))",
                             deps.reach, [min(hv, vv)], covers_all=True))
    if rec is not None and _reduces(rec):
        dst = [a.name for s in deps.steps[:1] for a in s.writes]
        out.append(Cause("map-reduce", LEGAL,
                         f"scalar destination {', '.join(dst) or '?'} fed by vector sources: "
                         + ("horizontal-first reduces into it in its own order"
                            if rec.rm.mode == "mapreduce" else
                            "horizontal-first ends at the first element written")
                         + ", the vertical-first loop writes it at every iteration",
                         sorted(set(dst) | set(deps.reach)) + STATUS, [0]))
    order = [o for o in deps.overlaps if o.kind != "PRED"]
    if order:
        first = min(o.later for o in order)
        regs = sorted({a for i, names in later_writes.items() if i >= first for a in names})
        shown = "; ".join(str(o) for o in order[:6]) + (
            f"; ... ({len(order)} in all)" if len(order) > 6 else "")
        out.append(Cause("cross-element-overlap", LEGAL,
                         f"horizontal-first element order is observable: {shown}",
                         regs + STATUS,
                         sorted({o.later for o in order} | {o.earlier for o in order})))
    return out


def _group_accesses(deps, regs):
    """Which group reads and which writes each shared register: ``r9 read by
    group 1 (RAp[1]), written by group 0 (RTp[1])``."""
    parts = []
    for reg in regs:
        def who(kind):
            return ", ".join(f"group {s.index} ({a.field}[{a.element}])" for s in deps.steps
                             for a in getattr(s, kind) if a.name == reg)
        parts.append(f"{reg} read by {who('reads')}, written by {who('writes')}")
    return "; ".join(parts)


def _reduces(rec):
    """A scalar destination with a vector source (map-reduce, or the HF loop's
    early end at the first written element)."""
    vec_src = any(o.vec and o.src for o in rec.ops)
    scalar_dst = rec.dstops and not any(o.vec for o in rec.dstops)
    return bool(vec_src and scalar_dst and rec.kind != "ldst")


def _writes_from(deps):
    return {s.index: [a.name for a in s.writes] for s in deps.steps}


def attach_elements(diffs, deps):
    """Name, for each differing register, the HF element steps that write it."""
    for d in diffs:
        d.elements = [f"step {s.index} {a.field}[{a.element}]" for s in deps.steps
                      for a in s.writes if a.name == d.name]


def verdict_of(diffs, causes, trap_mismatch=None):
    """Attach covering causes to each difference; the verdict: UNDEFINED when the
    spec leaves HF undefined, else bug when a difference (or a trap on one side
    only) has no cause, else legal difference when anything differs, else agree."""
    for d in diffs:
        d.causes = [c.kind for c in causes if c.covers_all or d.name in c.registers]
    if any(c.verdict == UNDEFINED for c in causes):
        return UNDEFINED
    if trap_mismatch is not None and not any(c.covers_all for c in causes):
        return BUG
    if any(not d.causes for d in diffs):
        return BUG
    return LEGAL if diffs or trap_mismatch else AGREE
