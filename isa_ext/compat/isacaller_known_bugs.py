"""Differences from ISACaller that a documented ISACaller bug explains exactly
(docs/compat.md, "Where isa_ext differs from ISACaller on purpose"), so that a
live campaign draws the rows involved without raising a false alarm.

Each rule is narrow: it names the lines it applies to and accepts only the
state the bug leaves; any other difference in the same program still counts.
tests/compat/test_isacaller_known_bugs.py checks both sides of each rule.
"""
import re

# andi. andis. addic.: rc ONE rows (Book I records CR0 always; openpower-isa's
# RM-2P-1S1D.csv gives them the destination d:CR0).  ISACaller's decoder
# replaces their Rc by RM.RC1 under SVP64, which its RM decoder never sets for
# them: no CR field is written, in any mode (fail-first is left out of the
# draw instead: the CR then also steers VL).
FORCED_RC_LINE = re.compile(r"^sv\.(andi|andis|addic)\.(?!\S*/ff=)[/ ]")
FIELDS = 8  # the campaign compares CR0-CR7


def _field(cr, f):
    return (cr >> (4 * (FIELDS - 1 - f))) & 0xF


def forced_rc_unrecorded(outcome):
    """True when the only difference is CR fields that isa_ext wrote and
    ISACaller left as they were, in a program with a forced-Rc SVP64 line."""
    case, ours, theirs = outcome.case, outcome.ours, outcome.theirs
    if not any(FORCED_RC_LINE.match(ln.strip()) for ln in case.lines):
        return False
    if "error" in ours or "error" in theirs:
        return False
    if [d for d in outcome.differences if not d.startswith("cr:")]:
        return False
    fields = [f for f in range(FIELDS) if _field(ours["cr"], f) != _field(theirs["cr"], f)]
    return bool(fields) and all(_field(theirs["cr"], f) == _field(case.cr, f) for f in fields)


RULES = {"forced-rc-unrecorded": forced_rc_unrecorded}


def explained_by(outcome):
    """The name of the documented ISACaller bug that explains every
    difference of ``outcome``, or None."""
    for name, rule in RULES.items():
        if rule(outcome):
            return name
    return None
