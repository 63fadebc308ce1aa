"""GNU gas's and LLVM's own PowerPC assembler tests, line by line through
isa_ext's assembler: tests/data/suite_pairs.tsv (tools/suite_pairs.py) pairs
each suite line with the words the suite itself expects (gas's .d dumps,
LLVM's ``# CHECK-BE: ... encoding:`` comments), cross-checked with GNU as 2.40.

* every scalar user-level line assembles to the suite's words: 0 unknown,
  0 refused, 0 different, except the lines listed below with their reason;
* no VMX/VSX line isa_ext knows assembles to a different word (the unknown
  ones are tallied by tools/scalar_coverage.py);
* the disassembler prints every word isa_ext assembles back as text that
  reassembles to the same word.
"""
import os
import sys

import pytest

from conftest import ROOT
from isa_ext.asm import assemble
from isa_ext.errors import AsmError

sys.path.insert(0, os.path.join(ROOT, "tools"))
from suite_coverage import rows, expected  # noqa: E402  (the pairs file's reader)


# Where GNU as 2.40 (-mpower10) writes another word than an older expectation:
# isa_ext follows GNU as 2.40 (Power ISA v3.1) there.  (suite, line): why
GNU_240_DIFFERS = {
    **{("gas/power7.s", line): "POWER7's wait (XO 62) in a -mpower7 test; v3.0 moved wait "
       "to XO 30, which GNU as 2.40 writes" for line in
       ("wait", "wait 0", "waitrsv", "wait 1", "wait 2")},
    **{("gas/power8.s", line): "the hint written in the old y-bit form by the .d this "
       "extraction read (binutils 12e87fa); GNU as 2.40 writes v3.1's at bits"
       for line in ("bctar- 12,21", "bctarl- 4,7", "bctar+ 12,12", "bctarl+ 4,2")},
    ("gas/power8.s", "rfebb"): "rfebb without operand: S=0 in the older .d, S=1 in GNU as 2.40",
    **{("gas/power8.s", line): "-mpower8 makes lxvx/stxvx spellings of lxvd2x/stxvd2x; "
       "from v3.0 (GNU as 2.40 -mpower10) they are v3.0's own instructions"
       for line in ("lxvx 40,0,5", "lxvx 10,20,6", "stxvx 41,0,7", "stxvx 11,21,8")},
}


# Lines naming a symbol of another section or an external one (``lq 4,dsym0@l(3)``):
# GNU as leaves a relocation; isa-ext asm writes no relocatable objects, so it
# refuses them with the reason (never a wrong word).  GNU column "label".
NEEDS_RELOCATION = "label"



def matches(got, want):
    return len(got) == len(want) and all(g & m == w & m for g, (w, m) in zip(got, want))


def outcome(isa, line, want):
    try:
        got = assemble(f"{line}\ntarget:\n", isa=isa, base=0).words
    except AsmError as e:
        return ("unknown" if "unknown mnemonic" in str(e) else "refused"), str(e), None
    return ("same" if matches(got, want) else "different"), " ".join(f"{w:08x}" for w in got), got


@pytest.fixture(scope="module")
def base_isa():
    from isa_ext.isa import ISA
    return ISA(extensions=["base"])


@pytest.fixture(scope="module")
def vector_isa():
    from isa_ext.isa import ISA
    return ISA(extensions=["base", "vector"])


def test_the_extraction_covers_both_suites():
    # the data file is rewritten by a tool: not empty, not truncated, both suites there
    suites = {r[0].split("/")[0] for r in rows()}
    scalar = [r for r in rows() if r[1] == "scalar"]
    assert suites == {"gas", "llvm"} and len(scalar) > 1400


def test_the_listed_exceptions_are_where_gnu_as_differs():
    # an exception is listed exactly where GNU as 2.40 writes a word the suite does not
    differs = {(r[0], r[3]) for r in rows()
               if r[5] not in ("refused", "relocation", "label")
               and not matches([int(w, 16) for w in r[5].split()], expected(r[4]))}
    assert differs == set(GNU_240_DIFFERS)


def test_every_scalar_line_assembles_to_the_suites_words(base_isa):
    bad = {}
    for suite, cls, _, line, words, gnu in rows():
        if cls != "scalar":
            continue
        want = expected(words)
        if (suite, line) in GNU_240_DIFFERS:
            want = expected(gnu)
        kind, detail, _ = outcome(base_isa, line, want)
        if gnu == NEEDS_RELOCATION:
            if kind != "refused" or "symbol" not in detail and "'@'" not in detail:
                bad.setdefault("not refused", []).append(f"{suite}: {line}: {detail}")
            continue
        if kind != "same":
            bad.setdefault(kind, []).append(f"{suite}: {line}: {detail} (want {words})")
    summary = {k: len(v) for k, v in bad.items()}
    assert not bad, f"{summary}\n" + "\n".join(x for v in bad.values() for x in v[:40])


def test_no_known_vector_line_assembles_to_another_word(vector_isa):
    # other helpers are adding VMX/VSX rows: unknown lines are tallied by
    # tools/scalar_coverage.py; a line isa_ext knows must give the suite's word
    bad, known = [], 0
    for suite, cls, _, line, words, gnu in rows():
        if cls not in ("vmx", "vsx"):
            continue
        want = expected(gnu if (suite, line) in GNU_240_DIFFERS else words)
        kind, detail, _ = outcome(vector_isa, line, want)
        known += kind == "same"
        if kind == "different":
            bad.append(f"{suite}: {line}: {detail} (want {words})")
    assert known > 200
    assert not bad, "\n".join(bad[:40])


@pytest.mark.slow
def test_disassembly_reassembles_to_the_same_word(vector_isa):
    from isa_ext.disasm import Disassembler
    dis = Disassembler(vector_isa)
    bad, checked, seen = [], 0, set()
    for suite, cls, _, line, words, gnu in rows():
        kind, _, got = outcome(vector_isa, line, expected(words))
        if got is None or tuple(got) in seen:
            continue
        seen.add(tuple(got))
        # one address for the word and its reassembly: relative branches keep their target
        text = dis.word(got[0], 0) if len(got) == 1 else dis.prefixed(got[0], got[1], 0)
        try:
            again = assemble(f"{text}\n", isa=vector_isa, base=0).words
        except AsmError as e:
            bad.append(f"{line}: {text!r}: {e}")
            continue
        checked += 1
        if again != got:
            bad.append(f"{line}: {text!r} -> {' '.join(f'{w:08x}' for w in again)}")
    assert checked > 1000
    assert not bad, "\n".join(bad[:40])
