"""Run the same programs on isa_ext and on libre-soc's ISACaller (one batch) and
compare the final registers: the live check of the tests for new instructions.

    for lines, ours, theirs in run_on_both(isacaller.root, isa, programs):
        assert_same_registers(lines, ours, theirs)

``programs``: [(lines, gpr, fpr, cr)], fpr None for all zero.
"""
from isa_ext.asm import assemble
from isa_ext.sim import Simulator


def run_on_both(root, isa, programs, max_steps=10):
    from isa_ext.compat.isacaller import run_batch
    batch, ours = [], []
    for lines, gpr, fpr, cr in programs:
        fpr = fpr if fpr is not None else [0] * 128
        words = list(assemble("\n".join(lines) + "\n", isa=isa, base=0).words)
        batch.append({"words": words, "gpr": gpr, "fpr": fpr, "cr": cr, "svstate": 0,
                      "max_steps": max_steps})
        sim = Simulator(isa=isa)
        sim.load_words(words)
        sim.state.gpr[:] = gpr + [0] * (len(sim.state.gpr) - len(gpr))
        sim.state.fpr[:] = fpr + [0] * (len(sim.state.fpr) - len(fpr))
        sim.state.crval = cr
        ours.append(sim.run(max_steps=max_steps))
    theirs = run_batch(root, batch)
    return [(p[0], res, t) for p, res, t in zip(programs, ours, theirs)]


def assert_same_registers(lines, res, t, fpr=False, cr=True):
    assert "error" not in t, (lines, t)
    assert res.stop == "end", (lines, res.trap)
    assert list(res.gpr[:128]) == t["gpr"][:128], lines
    if fpr:
        assert list(res.fpr[:128]) == t["fpr"][:128], lines
    if cr:
        assert res.state.crval == t["cr"], lines


def live_differences(isa, root, cases):
    """Run :class:`isa_ext.compat.isacaller.Case` s on both simulators (one
    ISACaller batch); "lines: differences" for each that differs, an ISACaller
    crash included (so an empty list means every case agreed)."""
    from isa_ext.compat import isacaller as D
    theirs = D.run_isacaller(root, cases)
    bad = []
    for case, t in zip(cases, theirs):
        diffs = D.compare(D.run_isa_ext(isa, case), t)
        if diffs:
            bad.append(f"{case.lines}: {diffs[:4]}")
    return bad
