"""Rendering a :class:`.compare.Report` as text (for people) or JSON (for tools)."""
import json

from . import classify


def _hex(v):
    return f"0x{v:x}" if isinstance(v, int) and not isinstance(v, bool) else str(v)


def text(report, dependencies=False):
    """The report as lines of text; ``dependencies`` adds every element step's
    read and write sets."""
    out = []
    for item in report.instructions:
        out.append(f"0x{item.pc:x}: {item.text}")
        if item.verdict is None:
            out.append(f"  skipped: {item.skipped}")
            continue
        out.append(f"  VL={item.vl}; vertical-first loop ({item.vf_iterations} iteration(s)):")
        out += ["    " + line for line in item.vf_loop.splitlines()]
        for note in item.notes:
            out.append(f"  note: {note}")
        if item.differences:
            out.append(f"  {len(item.differences)} difference(s), HF -> VF:")
            for d in item.differences:
                why = ", ".join(classify.CAUSE_LABELS[c] for c in d.causes) or "no cause found"
                who = f"HF {', '.join(d.elements)}; " if d.elements else ""
                out.append(f"    {d.name:<10} {_hex(d.hf)} / {_hex(d.vf)}  ({who}{why})")
        else:
            out.append("  HF and VF end in the same state")
        # with no difference a cause only says where the two forms could part
        head = "cause" if item.differences or item.verdict == classify.UNDEFINED \
            else "could differ by"
        for c in item.causes:
            out.append(f"  {head}: {c.label} [{c.verdict}]: {c.detail}")
        deps = item.dependencies
        if dependencies and deps is not None and deps.why is None:
            out += ["  " + line for line in dependency_lines(deps)]
        out.append(f"  verdict: {item.verdict}")
    if not report.compared:
        out.append("no SVP64 element loop was compared")
    if report.program_stop not in ("end", "exit"):
        t = report.program_trap
        out.append(f"program: stopped ({report.program_stop})"
                   + (f" at pc=0x{t.pc:x}: {t.reason}" if t is not None else ""))
    out.append(f"result: {report.verdict} (exit status {report.exit_status})")
    return "\n".join(out)


def dependency_lines(deps):
    """Each element step's reads and writes, then the overlaps."""
    out = [f"element dependencies ({deps.kind}):"]
    if deps.predicate:
        out.append("  predicate read from " + ", ".join(sorted({a.name for a in deps.predicate})))
    for st in deps.steps:
        reads = ", ".join(f"{a.field}[{a.element}]={a.name}" + _bits(a) for a in st.reads)
        writes = ", ".join(f"{a.field}[{a.element}]={a.name}" + _bits(a) for a in st.writes)
        z = " (zeroed)" if st.zeroed else ""
        out.append(f"  step {st.index} (src {st.srcstep}.{st.ssubstep} dst {st.dststep}."
                   f"{st.dsubstep}){z}: reads {reads or '-'}; writes {writes or '-'}")
    for o in deps.overlaps:
        out.append(f"  {o.kind}: {o}")
    if not deps.overlaps:
        out.append("  no element overlaps another")
    return out


def _bits(a):
    return "" if (a.lo, a.hi) in ((0, 63), (0, 3)) else f"[{a.lo}:{a.hi}]"


def as_json(report):
    return json.dumps(report.as_dict(), indent=2)
