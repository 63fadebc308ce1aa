"""Fixed-point loads and stores on little- and big-endian machines.

Memory holds the bytes 0x80, 0x81, ... from 0x2000; every expected register
value below is read off those bytes by hand (LE: the byte at the lowest address
is least significant; BE: most significant; the byte-reversed forms swap that).
"""
import pytest

from isa_ext.encoding import encode
from isa_ext.isa import ISA
from isa_ext.sim import Simulator

M64 = (1 << 64) - 1
PC = 0x1000
BASE = 0x2000
PATTERN = bytes(range(0x80, 0x90))


@pytest.fixture(scope="module")
def isa():
    return ISA(extensions=["base"])


def machine(isa, words, little=True, memory=((BASE, PATTERN),), **regs):
    sim = Simulator(isa=isa, little=little)
    sim.load_words(words, addr=PC)
    for addr, data in memory:
        sim.state.mem.load(addr, data)
    for name, value in regs.items():
        sim.state.gpr[int(name[1:])] = value
    return sim


def operands(isa, mnemonic, offset):
    """Fields for "RT,offset(r4)" or "RT,r4,r5" (r5 then holds the offset)."""
    row, _ = isa.by_mnemonic[mnemonic]
    reg = "RS" if "RS" in row.fields_used else "RT"
    form = row.form.name
    if form == "X":
        return {reg: 3, "RA": 4, "RB": 5}
    if form == "DS":
        return {reg: 3, "RA": 4, "DS": offset // 4}
    return {reg: 3, "RA": 4, "D": offset}


LOADS = [
    # mnemonic, offset, little-endian result, big-endian result
    ("lbz", 1, 0x81, 0x81),
    ("lhz", 2, 0x8382, 0x8283),
    ("lha", 2, 0xFFFFFFFFFFFF8382, 0xFFFFFFFFFFFF8283),
    ("lwz", 4, 0x87868584, 0x84858687),
    ("lwa", 4, 0xFFFFFFFF87868584, 0xFFFFFFFF84858687),
    ("ld", 8, 0x8F8E8D8C8B8A8988, 0x88898A8B8C8D8E8F),
    ("lbzx", 1, 0x81, 0x81),
    ("lhzx", 2, 0x8382, 0x8283),
    ("lhax", 2, 0xFFFFFFFFFFFF8382, 0xFFFFFFFFFFFF8283),
    ("lwzx", 4, 0x87868584, 0x84858687),
    ("lwax", 4, 0xFFFFFFFF87868584, 0xFFFFFFFF84858687),
    ("ldx", 8, 0x8F8E8D8C8B8A8988, 0x88898A8B8C8D8E8F),
    # byte-reversed: the opposite of the machine's own order
    ("lhbrx", 2, 0x8283, 0x8382),
    ("lwbrx", 4, 0x84858687, 0x87868584),
    ("ldbrx", 8, 0x88898A8B8C8D8E8F, 0x8F8E8D8C8B8A8988),
]

UPDATE_LOADS = [
    ("lbzu", 1, 0x81, 0x81),
    ("lhzu", 2, 0x8382, 0x8283),
    ("lhau", 2, 0xFFFFFFFFFFFF8382, 0xFFFFFFFFFFFF8283),
    ("lwzu", 4, 0x87868584, 0x84858687),
    ("ldu", 8, 0x8F8E8D8C8B8A8988, 0x88898A8B8C8D8E8F),
    ("lbzux", 1, 0x81, 0x81),
    ("lhzux", 2, 0x8382, 0x8283),
    ("lhaux", 2, 0xFFFFFFFFFFFF8382, 0xFFFFFFFFFFFF8283),
    ("lwzux", 4, 0x87868584, 0x84858687),
    ("lwaux", 4, 0xFFFFFFFF87868584, 0xFFFFFFFF84858687),
    ("ldux", 8, 0x8F8E8D8C8B8A8988, 0x88898A8B8C8D8E8F),
]


@pytest.mark.parametrize("little", [True, False], ids=["LE", "BE"])
@pytest.mark.parametrize("mnemonic,offset,le,be", LOADS)
def test_load(isa, mnemonic, offset, le, be, little):
    word = encode(isa, mnemonic, **operands(isa, mnemonic, offset))
    res = machine(isa, [word], little, r3=M64, r4=BASE, r5=offset).run()
    assert res.stop == "end"
    assert res.gpr[3] == (le if little else be)
    assert res.gpr[4] == BASE and res.gpr[5] == offset


@pytest.mark.parametrize("little", [True, False], ids=["LE", "BE"])
@pytest.mark.parametrize("mnemonic,offset,le,be", UPDATE_LOADS)
def test_load_with_update(isa, mnemonic, offset, le, be, little):
    word = encode(isa, mnemonic, **operands(isa, mnemonic, offset))
    res = machine(isa, [word], little, r3=M64, r4=BASE, r5=offset).run()
    assert res.gpr[3] == (le if little else be)
    assert res.gpr[4] == BASE + offset  # RA <- EA


def test_load_update_negative_displacement(isa):
    # ldu 3,-8(4) with r4 = 0x2010: EA = 0x2008, r4 becomes 0x2008
    res = machine(isa, [encode(isa, "ldu", RT=3, RA=4, DS=-2)], r4=BASE + 16).run()
    assert res.gpr[3] == 0x8F8E8D8C8B8A8988
    assert res.gpr[4] == BASE + 8


def test_sign_extension_of_positive_values(isa):
    # 0x7F.. at the top byte: lha/lwa keep the value positive
    mem = ((BASE, bytes([0x34, 0x72, 0x78, 0x56, 0x34, 0x72])),)
    words = [encode(isa, "lha", RT=3, RA=4, D=0), encode(isa, "lwa", RT=6, RA=4, DS=0)]
    res = machine(isa, words, memory=mem, r4=BASE).run()
    assert res.gpr[3] == 0x7234
    assert res.gpr[6] == 0x56787234


def test_ra_zero_means_no_base(isa):
    # (RA|0): RA=0 adds 0, not the contents of r0
    words = [encode(isa, "lwz", RT=3, RA=0, D=BASE + 4),
             encode(isa, "lbzx", RT=6, RA=0, RB=5),
             encode(isa, "stb", RS=7, RA=0, D=BASE + 0x20)]
    res = machine(isa, words, r0=0x999999, r5=BASE + 1, r7=0x5A).run()
    assert res.gpr[3] == 0x87868584
    assert res.gpr[6] == 0x81
    assert res.memory.read_bytes(BASE + 0x20, 1) == b"\x5a"


def test_indexed_address_wraps(isa):
    # EA = (RA) + (RB) modulo 2**64: 0x2010 + (-8) = 0x2008
    res = machine(isa, [encode(isa, "ldx", RT=3, RA=4, RB=5)], r4=BASE + 16,
                  r5=(-8) & M64).run()
    assert res.gpr[3] == 0x8F8E8D8C8B8A8988


# ---------------------------------------------------------------------------
# stores: r3 = 0x0102030405060708; surrounding bytes stay 0xEE

RS_VALUE = 0x0102030405060708
STORES = [
    # mnemonic, little-endian bytes, big-endian bytes
    ("stb", "08", "08"),
    ("sth", "0807", "0708"),
    ("stw", "08070605", "05060708"),
    ("std", "0807060504030201", "0102030405060708"),
    ("stbx", "08", "08"),
    ("sthx", "0807", "0708"),
    ("stwx", "08070605", "05060708"),
    ("stdx", "0807060504030201", "0102030405060708"),
    ("sthbrx", "0708", "0807"),
    ("stwbrx", "05060708", "08070605"),
    ("stdbrx", "0102030405060708", "0807060504030201"),
]
UPDATE_STORES = [
    ("stbu", "08", "08"),
    ("sthu", "0807", "0708"),
    ("stwu", "08070605", "05060708"),
    ("stdu", "0807060504030201", "0102030405060708"),
    ("stbux", "08", "08"),
    ("sthux", "0807", "0708"),
    ("stwux", "08070605", "05060708"),
    ("stdux", "0807060504030201", "0102030405060708"),
]
FILL = ((BASE, b"\xee" * 32),)


@pytest.mark.parametrize("little", [True, False], ids=["LE", "BE"])
@pytest.mark.parametrize("mnemonic,le,be", STORES + UPDATE_STORES)
def test_store(isa, mnemonic, le, be, little):
    offset = 8
    word = encode(isa, mnemonic, **operands(isa, mnemonic, offset))
    res = machine(isa, [word], little, memory=FILL, r3=RS_VALUE, r4=BASE, r5=offset).run()
    data = bytes.fromhex(le if little else be)
    want = b"\xee" * offset + data + b"\xee" * (24 - len(data))
    assert res.memory.read_bytes(BASE, 32) == want
    updates = mnemonic in dict((m, 0) for m, _, _ in UPDATE_STORES)
    assert res.gpr[4] == (BASE + offset if updates else BASE)
    assert res.gpr[3] == RS_VALUE


def test_store_with_update_push(isa):
    # stdu 1,-16(1): the stack-push idiom; stores the old r1 at the new r1
    res = machine(isa, [encode(isa, "stdu", RS=1, RA=1, DS=-4)], memory=FILL,
                  r1=BASE + 0x20).run()
    assert res.gpr[1] == BASE + 0x10
    assert res.memory.read(BASE + 0x10, 8) == BASE + 0x20


# ---------------------------------------------------------------------------
# misaligned and page-crossing accesses (4 KiB pages)


def test_misaligned_loads(isa):
    words = [encode(isa, "lwz", RT=3, RA=4, D=1), encode(isa, "ld", RT=6, RA=4, DS=0),
             encode(isa, "lhbrx", RT=7, RA=4, RB=5)]
    # r4 = 0x2003: lwz reads from 0x2004, ld from 0x2003, lhbrx from r4+r5 = 0x2005
    res = machine(isa, words, r4=BASE + 3, r5=2).run()
    assert res.gpr[3] == 0x87868584           # bytes 84 85 86 87 from 0x2004
    assert res.gpr[6] == 0x8A89888786858483   # bytes 83..8A from 0x2003
    assert res.gpr[7] == 0x8586               # bytes 85 86, reversed


PAGE_EDGE = 0x3000
EDGE_BYTES = ((PAGE_EDGE - 8, bytes(range(0xA0, 0xB0))),)  # A0 at 0x2FF8 .. AF at 0x3007


@pytest.mark.parametrize("little,want", [(True, 0xACABAAA9A8A7A6A5),
                                         (False, 0xA5A6A7A8A9AAABAC)], ids=["LE", "BE"])
def test_load_across_page_boundary(isa, little, want):
    # ld from 0x2FFD reads A5 A6 A7 (page 2) and A8..AC (page 3)
    res = machine(isa, [encode(isa, "ldx", RT=3, RA=4, RB=5)], little, memory=EDGE_BYTES,
                  r4=PAGE_EDGE, r5=(-3) & M64).run()
    assert res.gpr[3] == want


def test_byte_reversed_load_across_page_boundary(isa):
    res = machine(isa, [encode(isa, "lwbrx", RT=3, RA=4, RB=0)], memory=EDGE_BYTES,
                  r4=PAGE_EDGE - 2).run()
    assert res.gpr[3] == 0xA6A7A8A9  # bytes A6 A7 | A8 A9, most significant first


@pytest.mark.parametrize("little,data", [(True, "08070605"), (False, "05060708")],
                         ids=["LE", "BE"])
def test_store_across_page_boundary(isa, little, data):
    res = machine(isa, [encode(isa, "stw", RS=3, RA=4, D=-2)], little, memory=FILL,
                  r3=RS_VALUE, r4=PAGE_EDGE).run()
    assert res.memory.read_bytes(PAGE_EDGE - 3, 6) == b"\x00" + bytes.fromhex(data) + b"\x00"


# ---------------------------------------------------------------------------
# lq / stq: the register pair is one 16-byte value, even register high-order

QBASE = 0x2100  # quadword aligned
QBYTES = ((QBASE, bytes(range(16))),)


@pytest.mark.parametrize("little,even,odd", [
    # LE: the even register gets bytes 15..8 (EA+8 byte-reversed), odd bytes 7..0
    (True, 0x0F0E0D0C0B0A0908, 0x0706050403020100),
    # BE: the even register gets the doubleword at EA
    (False, 0x0001020304050607, 0x08090A0B0C0D0E0F),
], ids=["LE", "BE"])
def test_lq(isa, little, even, odd):
    words = [encode(isa, "lq", RTp=6, RA=4, DQ=1),          # EA = r4 + 16
             encode(isa, "lq", RTp=10, RA=0, DQ=QBASE // 16)]  # EA = QBASE
    res = machine(isa, words, little, memory=QBYTES, r4=QBASE - 16).run()
    assert (res.gpr[6], res.gpr[7]) == (even, odd)
    assert (res.gpr[10], res.gpr[11]) == (even, odd)
    assert res.gpr[4] == QBASE - 16


@pytest.mark.parametrize("little,data", [
    # r6 = 0x1011..17 (even), r7 = 0x2021..27 (odd)
    (True, "2726252423222120" "1716151413121110"),
    (False, "1011121314151617" "2021222324252627"),
], ids=["LE", "BE"])
def test_stq(isa, little, data):
    word = encode(isa, "stq", RSp=6, RA=4, DS=-4)  # EA = r4 - 16
    res = machine(isa, [word], little, memory=FILL, r4=BASE + 24,
                  r6=0x1011121314151617, r7=0x2021222324252627).run()
    assert res.memory.read_bytes(BASE + 8, 16) == bytes.fromhex(data)
    assert res.memory.read_bytes(BASE, 8) == b"\xee" * 8


@pytest.mark.parametrize("little", [True, False], ids=["LE", "BE"])
def test_stq_lq_round_trip(isa, little):
    words = [encode(isa, "stq", RSp=8, RA=4, DS=0), encode(isa, "lq", RTp=12, RA=4, DQ=0)]
    res = machine(isa, words, little, r4=QBASE, r8=0x1122334455667788,
                  r9=0x99AABBCCDDEEFF00).run()
    assert (res.gpr[12], res.gpr[13]) == (0x1122334455667788, 0x99AABBCCDDEEFF00)


# ---------------------------------------------------------------------------
# invalid forms trap before writing anything

INVALID = [
    ("lbzu", dict(RT=3, RA=0, D=1)),        # update with RA=0
    ("lhau", dict(RT=4, RA=4, D=2)),        # update with RA=RT
    ("lwzu", dict(RT=0, RA=0, D=4)),
    ("ldu", dict(RT=4, RA=4, DS=2)),
    ("lhzux", dict(RT=3, RA=0, RB=5)),
    ("lwzux", dict(RT=3, RA=3, RB=5)),
    ("lwaux", dict(RT=3, RA=0, RB=5)),
    ("ldux", dict(RT=5, RA=5, RB=4)),
    ("stbu", dict(RS=3, RA=0, D=1)),        # store update with RA=0
    ("sthu", dict(RS=3, RA=0, D=2)),
    ("stwux", dict(RS=3, RA=0, RB=5)),
    ("stdux", dict(RS=3, RA=0, RB=5)),
    ("stdu", dict(RS=3, RA=0, DS=1)),
    ("lq", dict(RTp=5, RA=4, DQ=0)),        # odd RTp
    ("lq", dict(RTp=4, RA=4, DQ=0)),        # RTp = RA
    ("lq", dict(RTp=0, RA=0, DQ=0)),        # RTp = RA = 0
    ("stq", dict(RSp=7, RA=4, DS=0)),       # odd RSp
]


@pytest.mark.parametrize("mnemonic,fields", INVALID)
def test_invalid_forms_trap_with_state_intact(isa, mnemonic, fields):
    sim = machine(isa, [encode(isa, mnemonic, **fields)], memory=FILL,
                  r3=RS_VALUE, r4=QBASE, r5=8, r6=0x66, r7=0x77)
    before = sim.state.mem.snapshot()
    res = sim.run()
    assert res.stop == "trap" and res.trap.kind == "illegal"
    assert res.trap.pc == PC and res.state.pc == PC
    assert res.state.copy_registers() == res.initial
    assert res.state.mem.snapshot() == before


def test_update_store_with_rs_equal_ra_is_valid(isa):
    # only RA=0 is invalid for stores: stwu 4,4(4) stores the old r4
    res = machine(isa, [encode(isa, "stwu", RS=4, RA=4, D=4)], memory=FILL, r4=BASE).run()
    assert res.stop == "end"
    assert res.gpr[4] == BASE + 4
    assert res.memory.read(BASE + 4, 4) == BASE


# ---------------------------------------------------------------------------
# SVP64 columns of the rows the golden SVP64 encodings use: category and EXTRA
# slots as openpower-isa's LDSTRM-*/RM-* tables give them (slot 0 first).

OPENPOWER_SV = {
    "ld": ("LDSTRM-2P-1S1D", "d:RT s:RA - -"),
    "lwz": ("LDSTRM-2P-1S1D", "d:RT s:RA - -"),
    "lbz": ("LDSTRM-2P-1S1D", "d:RT s:RA - -"),
    "lbzu": ("LDSTRM-2P-1S2D", "d:RT d:RA;s:RA - -"),
    "std": ("LDSTRM-2P-2S", "s:RS s:RA - -"),
    "stw": ("LDSTRM-2P-2S", "s:RS s:RA - -"),
    "stdx": ("LDSTRM-2P-3S", "s:RS s:RA s:RB -"),
    "mcrf": ("RM-2P-1S1D", "d:BF s:BFA - -"),
    "crand": ("RM-1P-2S1D", "d:BT s:BA s:BB -"),
}


@pytest.mark.parametrize("mnemonic", sorted(OPENPOWER_SV))
def test_svp64_columns_match_openpower(isa, mnemonic):
    row, _ = isa.by_mnemonic[mnemonic]
    assert (row.sv, " ".join(row.extra)) == OPENPOWER_SV[mnemonic]
