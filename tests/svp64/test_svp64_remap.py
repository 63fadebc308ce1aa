"""REMAP schedules (isa_ext/svp64/remap.py).

Expected values come from hand derivation (shown beside each case) and from
libre-soc's own REMAP generators: tests/data/remap_schedules.json was recorded
by tests/tools/remap_oracle.py under openpower-isa's Python, and
test_live_against_openpower_isa re-runs that oracle on fresh random shapes when
the ISACaller venv is present."""
import json
import os
import random
import subprocess

import pytest

from isa_ext.errors import Trap
from isa_ext.svp64 import remap
from conftest import TESTS_DIR

HERE = TESTS_DIR
ORACLE = os.path.join(HERE, "tools", "remap_oracle.py")


def shape(xd=1, yd=1, zd=1, permute=0, inv=0, offset=0, skip=0, mode=0):
    """SVSHAPE from dimension sizes (the fields hold size - 1)."""
    return remap.make(xdimsz=xd - 1, ydimsz=yd - 1, zdimsz=zd - 1, permute=permute,
                      invxyz=inv, offset=offset, skip=skip, mode=mode)


def index_gpr_byte(position):
    # the same test register file as tests/tools/remap_oracle.py
    return (position * 37 + 11) % 29


def read_index(gpr, element, width):
    start = gpr * 8 + element * width // 8
    return sum(index_gpr_byte(start + b) << (8 * b) for b in range(width // 8))


def run(value, count, predicate=None, reader=read_index):
    out = []
    for pair in remap.schedule(value, reader, predicate):
        if len(out) == count:
            break
        out.append(list(pair))
    return out


# -- the SVSHAPE layout ------------------------------------------------------------

def test_layout_matches_remap_table():
    # remap.mdwn's SVSHAPE table, MSB0 of the 32-bit SPR: xdimsz 0:5, ydimsz 6:11,
    # zdimsz 12:17, permute 18:20, invxyz 21:23, offset 24:27, skip 28:29, mode 30:31.
    # A field at MSB0 a:b sits at LSB0 shift 31-b.
    assert remap.make(xdimsz=0b111111) == 0x3F << 26
    assert remap.make(ydimsz=1) == 1 << 20
    assert remap.make(zdimsz=1) == 1 << 14
    assert remap.make(permute=0b101) == 0b101 << 11
    assert remap.make(invxyz=0b001) == 1 << 8
    assert remap.make(offset=0xF) == 0xF << 4
    assert remap.make(skip=0b11) == 0b11 << 2
    assert remap.make(mode=0b10) == 0b10
    v = 0x12345678
    assert remap.make(**remap.decode(v)) == v


def test_field_out_of_range_is_an_error():
    with pytest.raises(ValueError):
        remap.make(offset=16)


def test_decoded_shape_sizes_and_inversion_bits():
    # fields hold size-1; invxyz bit 0 (LSB) inverts x (svshape's DCT sets
    # SVSHAPE[21:23] = 0b001 "inverse on outer loop" = the x (size) loop)
    s = remap.Shape.of(remap.make(xdimsz=2, ydimsz=0, zdimsz=5, invxyz=0b001))
    assert (s.xdim, s.ydim, s.zdim, s.invxyz) == (3, 1, 6, (1, 0, 0))


def test_spr_numbers():
    # openpower-isa isatables/sprs.csv: 705..708 SVSHAPE0..3
    assert remap.SPR_NUMBERS == {"svshape0": 705, "svshape1": 706, "svshape2": 707,
                                 "svshape3": 708}


# -- hand-derived schedules ----------------------------------------------------------

def test_matrix_row_major():
    # x=3, y=2, order xyz: x innermost, index = x + 3*y -> 0 1 2 3 4 5, then repeats.
    # loopends: bit0 at each x end (x=2), bit1 at x end of y end, bit2 at the very end
    got = run(shape(3, 2), 7)
    assert [i for i, _ in got] == [0, 1, 2, 3, 4, 5, 0]
    assert [e for _, e in got] == [0, 0, 1, 0, 0, 7, 0]


def test_matrix_transposed_order():
    # permute 0b010 = order (y, x, z): y is least significant:
    # index = y + 2*x for (x, y) in x-innermost loop order
    # (0,0)=0 (1,0)=2 (2,0)=4 (0,1)=1 (1,1)=3 (2,1)=5
    assert [i for i, _ in run(shape(3, 2, permute=0b010), 6)] == [0, 2, 4, 1, 3, 5]


def test_matrix_inverted_x_with_offset():
    # x reversed: x = 2,1,0 per row; index = x + 3*y + offset 4
    assert [i for i, _ in run(shape(3, 2, inv=0b001, offset=4), 6)] == [6, 5, 4, 9, 8, 7]


def test_matrix_skip_drops_a_dimension():
    # skip=1 drops the first dimension of the order (x): index = y, and the
    # next weight does not count x's size: 0 0 0 1 1 1
    assert [i for i, _ in run(shape(3, 2, skip=1), 6)] == [0, 0, 0, 1, 1, 1]


def test_fft_n4():
    # libre-soc's FFT loop: size 2: i=0,2 j=i (k=0, tablestep 2); size 4: i=0, j=0,1,
    # k=0,1 (tablestep 1).  skip 0 -> j: 0 2 0 1; skip 1 -> j+half: 1 3 2 3;
    # skip 2 -> k: 0 0 0 1
    assert [i for i, _ in run(shape(4, mode=1), 4)] == [0, 2, 0, 1]
    assert [i for i, _ in run(shape(4, mode=1, skip=1), 4)] == [1, 3, 2, 3]
    assert [i for i, _ in run(shape(4, mode=1, skip=2), 4)] == [0, 0, 0, 1]
    # loopends: every step of size 2 ends its j loop; i=2 ends the i loop of
    # size 2 (0b011); the last j of size 4 ends everything (0b111)
    assert [e for _, e in run(shape(4, mode=1), 4)] == [1, 3, 0, 7]


def test_fft_stride():
    # zdim is a register stride: indices times 2
    assert [i for i, _ in run(shape(4, zd=2, mode=1), 4)] == [0, 4, 0, 2]


def test_parallel_reduction_n5():
    # step 2: pairs (0,1) (2,3), 4 has no partner; step 4: (0,2); step 8: (0,4)
    # skip 0 -> left operand 0 2 0 0; skip 1 -> right operand 1 3 2 4
    got = run(shape(5, mode=2), 10)
    assert [i for i, _ in got] == [0, 2, 0, 0]
    assert [e for _, e in got] == [0, 1, 1, 3]     # end of each step; last: 0b011
    assert [i for i, _ in run(shape(5, mode=2, skip=1), 10)] == [1, 3, 2, 4]


def test_parallel_reduction_skips_masked_out_elements():
    # n=4, element 0 masked out: step 2: (0,1) skipped, slot 0 takes 1's place;
    # (2,3) runs; step 4: (slot0=1, 2) -> left 1 right 2
    got = run(shape(4, mode=2), 10, predicate=[0, 1, 1, 1])
    assert [i for i, _ in got] == [2, 1]
    got = run(shape(4, mode=2, skip=1), 10, predicate=[0, 1, 1, 1])
    assert [i for i, _ in got] == [3, 2]


def test_prefix_sum_n4():
    # work-efficient scan, n=4: up-sweep dist 1: i = 3, 1 (reversed(range(1,4,2)));
    # dist 2: i = 3; down-sweep dist 1: i in range(2, 4, 2) = 2.
    # right operand i: 3 1 3 2; left operand i - dist: 2 0 1 1
    assert [i for i, _ in run(shape(4, mode=2, skip=0b11), 10)] == [3, 1, 3, 2]
    got = run(shape(4, mode=2, skip=0b10), 10)
    assert [i for i, _ in got] == [2, 0, 1, 1]
    # loop ends: dist 1 (inner), dist 2 (inner + end of up-sweep), last: all
    assert [e for _, e in got] == [0, 1, 3, 7]


def test_indexed_reads_indices_through_the_callback():
    # svindex-style: permute 6 (xy), x=4, y=1, SVG field 3 -> GPR 6, 8-bit indices
    # (skip field = 3).  Only indexing (x=y=1 is not the case), index = x:
    # element e of the 8-bit vector at GPR 6 -> a stub register file.
    regs = {6: 0x0000000002050109}

    def reader(gpr, element, width):
        assert (gpr, width) == (6, 8)
        return regs[gpr] >> (8 * element) & 0xFF
    value = shape(4, 1, 4, permute=6, skip=3)
    assert [i for i, _ in run(value, 4, reader=reader)] == [9, 1, 5, 2]


def test_indexed_needs_a_reader():
    with pytest.raises(ValueError):
        remap.schedule(shape(4, permute=6))


def test_reserved_butterfly_kind_traps():
    # ydimsz selects the butterfly schedule; size 7 (field 6) is none of them
    with pytest.raises(Trap, match="reserved"):
        remap.schedule(shape(8, 7, mode=1))


def test_undefined_combination_traps_not_silent():
    # FFT has three operand schedules (skip 0..2); skip 3 has no meaning
    with pytest.raises(Trap, match="not defined"):
        run(shape(4, mode=1, skip=3), 4)


# -- recorded libre-soc schedules ----------------------------------------------------

def recorded():
    with open(os.path.join(HERE, "data", "remap_schedules.json")) as f:
        return json.load(f)


def compare(cases):
    problems = []
    for c in cases:
        desc = f"{remap.Shape.of(c['shape'])} pred={c['predicate']}"
        try:
            got = run(c["shape"], c["count"], c["predicate"])
        except Trap as t:
            if "error" not in c:
                problems.append(f"{desc}: trapped ({t}) where libre-soc gives "
                                f"{c['expected'][:8]}")
            continue
        if "error" in c:
            problems.append(f"{desc}: libre-soc fails ({c['error']}), we give {got[:8]}")
        elif got != c["expected"]:
            problems.append(f"{desc}:\n  ours {got[:16]}\n  ref  {c['expected'][:16]}")
    return problems


def test_recorded_libresoc_schedules():
    cases = recorded()
    kinds = set()
    for c in cases:
        try:
            kinds.add(remap.Shape.of(c["shape"]).kind)
        except Trap:
            kinds.add("reserved")
    assert {"matrix", "indexed", "fft", "dct-inner", "dct-outer", "dct-costable",
            "halfswap", "reduce", "prefix", "reserved"} <= kinds
    assert len(cases) > 1500
    problems = compare(cases)
    assert not problems, "\n".join(problems[:20])


def test_live_against_openpower_isa(tmp_path, isacaller):
    python = isacaller.python
    rng = random.Random()
    cases = []
    for _ in range(300):
        mode = rng.randrange(4)
        xd = rng.randrange(16) if mode in (0, 2) else rng.choice([0, 1, 3, 7, 15])
        yd = rng.randrange(4) if mode == 0 else rng.choice([0, 1, 2, 3, 4, 5, 12, 13, 14])
        fields = dict(xdimsz=xd, ydimsz=yd, zdimsz=rng.randrange(4),
                      permute=rng.randrange(8) if mode == 0 else rng.choice([0, 1, 3, 4]),
                      invxyz=rng.randrange(8), offset=rng.randrange(16),
                      skip=rng.randrange(4), mode=mode)
        cases.append({"shape": remap.make(**fields), "count": 40, "predicate": None})
    src, out = tmp_path / "cases.json", tmp_path / "out.json"
    src.write_text(json.dumps(cases))
    r = subprocess.run([python, ORACLE, "--cases", str(src), str(out)],
                       capture_output=True, text=True, env={**os.environ, "SILENCELOG": "1"},
                       timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    problems = compare(json.loads(out.read_text()))
    assert not problems, "\n".join(problems[:20])


# -- operand slots ------------------------------------------------------------------

def test_operand_shapes_follow_svme_and_mi_mo():
    # svremap 0b01011,1,2,3,0,2,0: SVme bits (LSB first) RA, RB, RT enabled;
    # RA uses SVSHAPE1 (mi0), RB SVSHAPE2 (mi1), RT SVSHAPE0 (mo0); RC (mi2=3)
    # and EA (mo1=2) are not enabled
    from isa_ext.svp64 import svstate as SV
    st = SV.make(SVme=0b01011, mi0=1, mi1=2, mi2=3, mo0=0, mo1=2)
    shapes = [0x10, 0x20, 0x30, 0x40]
    assert remap.operand_shapes(st, shapes) == {"in1": 0x20, "in2": 0x30, "out1": 0x10}


def test_index_at_and_past_the_end():
    # reduction over 4 elements: step 2 pairs (0,1) (2,3), step 4 pairs (0,2):
    # left operands 0 2 0, then the schedule ends
    value = shape(4, mode=2)
    assert remap.index_at(value, 2)[0] == 0 and remap.index_at(value, 1)[0] == 2
    with pytest.raises(Trap, match="past the end"):
        remap.index_at(value, 3)
    # matrix schedules repeat: step 7 of a 3x2 matrix is step 1
    assert remap.index_at(shape(3, 2), 7)[0] == 1


def test_register_reader_packs_elements_little_endian():
    # the test register file of the recorded cases, as 64-bit registers: GPR r
    # holds bytes 8r..8r+7, byte 0 least significant
    regs = [sum(index_gpr_byte(8 * r + b) << (8 * b) for b in range(8)) for r in range(128)]
    reader = remap.register_reader(regs)
    for gpr in (0, 2, 6, 62):
        for width in (8, 16, 32, 64):
            for element in range(0, 40, 3):
                assert reader(gpr, element, width) == read_index(gpr, element, width)
    # 16-bit element 5 of the vector at GPR 2: register 3, bits 16..31
    assert reader(2, 5, 16) == regs[3] >> 16 & 0xFFFF
    with pytest.raises(Trap, match="past the last register"):
        reader(126, 40, 32)
