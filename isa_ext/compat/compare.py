"""Run random operands through an instruction as isa_ext's page and as an
openpower-isa checkout's page (:mod:`isa_ext.compat.root`), and compare.

The two pages share everything but the pseudocode: the encoding (isa_ext's
table row), the machine and the starting state, so a difference is a
difference between the two pages' meaning (or in how the "openpower" dialect
reads theirs).  A second oracle for every instruction both define, cheap
enough to run in CI.
"""
import random
from dataclasses import dataclass, field

from ..errors import IsaExtError, Trap
from ..machine import State

# Memory instructions get base registers pointing into a window of known
# random bytes: GPR values BASE + k*8 (k < 512), displacements within +-32 KiB
BASE = 0x10000
WINDOW = (BASE - 0x8000, BASE + 0x8000 + 0x2000)
_COMPARED = ("gpr", "fpr", "cr", "lr", "ctr", "tar", "xer", "fpscr", "msr")


# isa_ext traps for these and the other page computes something: the word is
# an invalid form or the access one the ISA makes trap (lmw in little-endian
# mode), which isa_ext's pages check and openpower-isa's do not
REFUSALS = ("illegal", "alignment")


@dataclass
class Outcome:
    mnemonic: str
    trials: int = 0
    agree: int = 0  # identical state after the instruction
    refused: int = 0  # isa_ext trapped (REFUSALS) where openpower-isa's page ran
    fpscr_only: int = 0  # differing only in the FPSCR (and CR1, its copy)
    example: str = ""  # the first other disagreement, word and what differed
    skipped: str = ""  # why no trial ran

    @property
    def differ(self):
        return self.trials - self.agree - self.refused - self.fpscr_only

    @property
    def agrees(self):
        """Every trial agreed, or differed only as a known class does."""
        return self.trials > 0 and self.differ == 0


@dataclass
class Report:
    outcomes: list = field(default_factory=list)

    @property
    def compared(self):
        return [o for o in self.outcomes if o.trials]

    @property
    def agreeing(self):
        return [o for o in self.outcomes if o.agrees]

    @property
    def disagreeing(self):
        return [o for o in self.outcomes if o.trials and not o.agrees]

    @property
    def exact(self):
        """Instructions whose every trial gave the identical state."""
        return [o for o in self.outcomes if o.trials and o.agree == o.trials]


def shared_rows(own, theirs):
    """(row of ``own``, row of ``theirs``) for each instruction whose page is
    isa_ext's in ``own`` and openpower-isa's in ``theirs``."""
    by_name = {r.mnemonic: r for r in theirs.rows}
    out = []
    for row in own.rows:
        other = by_name.get(row.mnemonic)
        if row.page is None or other is None or other.page is None:
            continue
        if row.page.dialect == "book" and other.page.dialect == "openpower":
            out.append((row, other))
    return out


def compare(own, theirs, trials=20, seed=1, rows=None, skip=()):
    """A :class:`Report` of ``trials`` random words and states per shared
    instruction (``rows``: a subset of :func:`shared_rows`)."""
    rng = random.Random(seed)
    memory = bytes(rng.getrandbits(8) for _ in range(WINDOW[1] - WINDOW[0]))
    report = Report()
    for row, other in rows if rows is not None else shared_rows(own, theirs):
        out = Outcome(row.mnemonic)
        report.outcomes.append(out)
        if row.mnemonic in skip:
            out.skipped = skip[row.mnemonic] if isinstance(skip, dict) else "skipped"
            continue
        try:
            own.compiled(row)
            theirs.compiled(other)
        except IsaExtError as e:
            out.skipped = f"does not compile: {e}"
            continue
        if other.page.dialect != "openpower":  # it fell back to isa_ext's page
            out.skipped = f"does not compile: {theirs.page_source.fell_back[other.mnemonic]}"
            continue
        for _ in range(trials):
            word = _random_word(own, row, rng)
            if word is None:
                out.skipped = "no random word decodes to this row"
                break
            touches = "MEM" in row.ins or "MEM" in row.outs
            regs = _random_registers(rng, touches)
            a = _run(own, word, regs, memory if touches else b"")
            b = _run(theirs, word, regs, memory if touches else b"")
            out.trials += 1
            if a == b:
                out.agree += 1
            elif a[0] in REFUSALS and b[0] is None:
                out.refused += 1
            elif _fpscr_only(a, b):
                out.fpscr_only += 1
            elif not out.example:
                out.example = f"word 0x{word:08x}: {_difference(a, b)}"
    return report


def _random_word(isa, row, rng, attempts=64):
    for _ in range(attempts):
        word = row.value | (rng.getrandbits(32) & ~row.mask & ~row.reserved_mask)
        d = isa.decode(word)
        if d is not None and d.spec is row:
            return word
    return None


def _random_registers(rng, memory):
    if memory:
        gpr = [BASE + 8 * rng.randrange(512) for _ in range(32)]
    else:
        gpr = [_interesting(rng) for _ in range(32)]
    return {"gpr": gpr, "fpr": [_interesting(rng) for _ in range(32)],
            "cr": [rng.getrandbits(4) for _ in range(8)],
            "xer": rng.getrandbits(64) & 0xE00C0000,  # SO OV CA OV32 CA32
            "lr": rng.getrandbits(62) << 2, "ctr": _interesting(rng),
            "tar": rng.getrandbits(62) << 2}


def _interesting(rng):
    """A 64-bit value, often at an edge (0, all ones, a sign bit alone, small)."""
    pick = rng.randrange(8)
    if pick == 0:
        return rng.choice((0, (1 << 64) - 1, 1 << 63, (1 << 63) - 1, 1 << 31, 0xFFFFFFFF))
    if pick == 1:
        return rng.randrange(64)
    if pick == 2:  # a sign-extended 32-bit value
        v = rng.getrandbits(32)
        return v | (0xFFFFFFFF00000000 if v >> 31 else 0)
    return rng.getrandbits(64)


def _run(isa, word, regs, memory, cia=0x4000):
    """The state after one instruction (or its trap), as a comparable tuple."""
    s = State()
    s.gpr[:32] = regs["gpr"]
    s.fpr[:32] = regs["fpr"]
    s.cr[:8] = regs["cr"]
    s.xer, s.lr, s.ctr, s.tar = regs["xer"], regs["lr"], regs["ctr"], regs["tar"]
    if memory:
        s.mem.load(WINDOW[0], memory)
    before = s.mem.snapshot()
    try:
        nia = isa.executable(word)(s, cia)
        trap = None
    except Trap as t:  # the kind is the behaviour; the wording is each page's own
        nia, trap = None, t.kind
    except IsaExtError as e:
        nia, trap = None, f"error: {e}"
    except (ValueError, IndexError, ZeroDivisionError, TypeError) as e:
        # a page whose generated code fails (a negative shift count from a
        # bit range running backwards): reported as such, never hidden
        nia, trap = None, f"python {type(e).__name__}: {e}"
    after = s.mem.snapshot()
    written = {k: v for k, v in after.items() if before.get(k) != v}
    state = tuple((name, tuple(v) if isinstance(v, list) else v)
                  for name, v in ((n, getattr(s, n)) for n in _COMPARED))
    return (trap, nia, state, tuple(sorted(written.items())),
            (s.mem.reserve, s.mem.reserve_length, s.mem.reserve_addr))


def _without_fpscr(result):
    trap, nia, state, written, reserve = result
    state = tuple((n, (v[:1] + v[2:]) if n == "cr" else v) for n, v in state if n != "fpscr")
    return trap, nia, state, written, reserve


def _fpscr_only(a, b):
    """openpower-isa's FP helpers leave the FPSCR as it was (so does CR1,
    which Rc=1 copies from it); a difference there alone is that class."""
    return _without_fpscr(a) == _without_fpscr(b)


def _difference(a, b):
    (ta, na, sa, wa, ra), (tb, nb, sb, wb, rb) = a, b
    if ta != tb:
        return f"trap: isa_ext {ta} / openpower-isa {tb}"
    if na != nb:
        return f"next address: isa_ext 0x{na:x} / openpower-isa 0x{nb:x}"
    for (name, va), (_, vb) in zip(sa, sb):
        if va != vb:
            if isinstance(va, tuple):
                i = next(i for i, (x, y) in enumerate(zip(va, vb)) if x != y)
                return f"{name}[{i}]: isa_ext 0x{va[i]:x} / openpower-isa 0x{vb[i]:x}"
            return f"{name}: isa_ext 0x{va:x} / openpower-isa 0x{vb:x}"
    if wa != wb:
        return "memory written differs"
    return f"reservation: isa_ext {ra} / openpower-isa {rb}"
