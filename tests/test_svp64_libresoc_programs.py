"""libre-soc's insertion-sort and SVSTATE programs on isa_ext, every path.

The programs and their expected values are those of openpower-isa 3cb597b9's
src/openpower/decoder/isa/test_caller_svp64_inssort.py and
test_caller_svstate.py (cited per case; the derivations are in the comments).
Each runs plain, traced, interrupted after every element operation and
resumed, and must end in the same state (tests/test_svp64_one_behaviour.py's
``all_modes``), under both profiles where the files' expectations do not
depend on one.  The insertion sort is also run on ISACaller when one is built.
"""
import pytest

from isa_ext.svp64 import svstate as SV
from test_svp64_one_behaviour import all_modes

VEC = [1, 2, 3]


# test_caller_svp64_inssort.py: r16..r18 = 1, 2, 3 compared with r0 = 2 (the
# middle value), VL=3, BF a vector from CR0: CR(i) = LT, EQ, GT = 8, 2, 4.
# The files' expected CR fields and VL with fail-first:
@pytest.mark.parametrize("line, crs, vl", [
    # test_sv_cmp: no fail-first, every field written
    ("sv.cmp *0, 1, *16, 0", [8, 2, 4], 3),
    # test_sv_cmp_ff: /ff=eq, the file expects CR0 = LT, CR1 = EQ, CR2 not
    # written, and VL=1
    ("sv.cmp/ff=eq *0, 1, *16, 0", [8, 2, 0], 1),
    # test_sv_cmp_ff_vli: the same with VLi: VL=2
    ("sv.cmp/ff=eq/vli *0, 1, *16, 0", [8, 2, 0], 2),
    # test_sv_cmp_ff_lt: /ff=gt: VL=2, all three fields written
    ("sv.cmp/ff=gt *0, 1, *16, 0", [8, 2, 4], 2),
])
def test_inssort_compares(svisa, line, crs, vl):
    init = {"svstate": SV.make(maxvl=3, vl=3),
            "gpr": {0: 2, **{16 + i: v for i, v in enumerate(VEC)}}}
    res = all_modes(svisa, [line], init)
    assert res.state.cr[0:3] == crs
    assert SV.get(res.state.svstate, "vl") == vl


# test_sv_insert_sort: its model (the docstring's insertion_sort) sorts
# [9, 5, 6] in place by moving each key down past the larger items:
#   i=2: key 6 stays; i=1: key 5 < 6 -> [9, 6, 5]; i=0: key 9 stays.
# The file returns before its own check, and the program does not do that:
# ISACaller and isa_ext both end with r16..r18 = 5, 6, 6 (docs/compat.md, bugs
# in the test files).  ISACaller's final state is compared live below.
INSSORT = ["addi 10, 0, 1", "addi 9, 11, 0", "slw 10, 10, 9", "addi 10, 10, -1",
           "mtspr 9, 11", "setvl 3, 0, 10, 0, 1, 1", "addi 3, 3, -1",
           "sv.addi/m=1<<r3 12, *16, 0", "sv.cmp/ff=lt/m=~r10 *0, 1, *16, 12",
           "sv.addi/m=ge *16, *17, 0", "setvl 3, 0, 1, 0, 0, 0", "addi 3, 3, -1",
           "setvl 13, 0, 10, 0, 1, 1", "sv.addi/m=1<<r3 *16, 12, 0", "slw 10, 10, 9",
           "bc 16, 0, -52"]


def insertion_sort(array):
    lim = len(array) - 1
    for i in range(lim, -1, -1):
        key = array[i]
        j = i + 1
        while j <= lim and array[j] > key:
            array[j - 1] = array[j]
            j += 1
        array[j - 1] = key
    return array


def test_insertion_sort_model():
    assert insertion_sort([9, 5, 6]) == [9, 6, 5]


def test_insertion_sort_program_live(isacaller):
    # the program as libre-soc wrote it: the same final registers and CR on
    # ISACaller and on isa_ext under the openpower-isa profile (both paths)
    from isa_ext.asm import assemble
    from isa_ext.diffcheck.isacaller import run_batch
    from isa_ext.isa import ISA
    isa = ISA(extensions=["base", "svp64"], profile="openpower-isa")
    gpr = [0] * 128
    gpr[16:19] = [9, 5, 6]
    gpr[11] = 3
    words = assemble("\n".join(INSSORT) + "\n", isa=isa, base=0).words
    theirs = run_batch(isacaller.root, [{"words": words, "gpr": gpr, "fpr": [0] * 128,
                                         "cr": 0, "svstate": 0, "max_steps": 400}])[0]
    assert "error" not in theirs, theirs
    res = all_modes(isa, INSSORT, {"gpr": {16: 9, 17: 5, 18: 6, 11: 3}}, "")
    assert list(res.gpr[:32]) == theirs["gpr"][:32]
    assert res.state.crval == theirs["cr"]


# test_caller_svstate.py test_svstate_1... (its first test): SVSTATE VL=2 with
# srcstep = dststep = 1 already: sv.add 1, *5, *9 runs element 1 only:
# r1 = r6 + r10 = 0x2223 + 0x1111 = 0x3334
def test_svstate_resumes_at_its_steps(svisa):
    init = {"svstate": SV.make(maxvl=2, vl=2, srcstep=1, dststep=1),
            "gpr": {9: 0x1234, 10: 0x1111, 5: 0x4321, 6: 0x2223}}
    res = all_modes(svisa, ["sv.add 1, *5, *9"], init)
    assert res.gpr[1] == 0x3334


# test_svstep_add_1: vertical-first, VL=2; element 0: r1 = 0x4321 + 0x1234 =
# 0x5555, r12 = r1 + 1 = 0x5556; svstep.; element 1: r1 = 0x2223 + 0x1111 =
# 0x3334, r13 = 0x3335; the second svstep. reaches VL: steps back to 0,
# vertical-first cleared, CR0 = SO only (0b0001, "end of the looping").
def test_svstep_add_1(svisa):
    lines = ["setvl 0, 0, 2, 1, 1, 1", "sv.add 1, *5, *9", "sv.addi *12, 1, 1",
             "svstep. 0, 0, 1, 0", "sv.add 1, *5, *9", "sv.addi *12, 1, 1",
             "svstep. 0, 0, 1, 0"]
    init = {"gpr": {9: 0x1234, 10: 0x1111, 5: 0x4321, 6: 0x2223}}
    res = all_modes(svisa, lines, init)
    assert (res.gpr[1], res.gpr[12], res.gpr[13]) == (0x3334, 0x5556, 0x3335)
    sv = res.state.svstate
    assert (SV.get(sv, "vl"), SV.get(sv, "maxvl"), SV.get(sv, "srcstep"),
            SV.get(sv, "dststep"), SV.get(sv, "vfirst")) == (2, 2, 0, 0, 0)
    assert res.state.cr[0] == 0b0001
