"""The small modules the openpower facade provides for openpower-isa's case
files: nmutil.plain_data, nmutil.prefix_sum, nmutil.sim_util,
openpower.decoder.power_enums, cached_property; and SVP64Asm's Python-style
octal operands."""
import pickle

import pytest

from isa_ext.compat.openpower.enums import FMinMaxMode
from isa_ext.compat.openpower.facts import cached_property
from isa_ext.compat.openpower.hook import facade_imports
from isa_ext.compat.openpower.plain_data import (FrozenPlainDataError, fields, plain_data,
                                                 replace)
from isa_ext.compat.openpower.prefix_sum import prefix_sum, prefix_sum_ops
from isa_ext.compat.openpower.program import SVP64Asm
from isa_ext.compat.openpower.sim_util import hash_256


# -- plain_data: the use openpower-isa's test/svp64/encodings.py makes of it -------------

@plain_data(unsafe_hash=True, frozen=True)
class Base:
    __slots__ = "a",

    def __init__(self, a):
        self.a = a


@plain_data(unsafe_hash=True, frozen=True, order=True)
class Child(Base):
    __slots__ = "b", "c"

    def __init__(self, b, c):
        self.b = b
        self.c = c
        super().__init__(b + c)  # zero-argument super() in a rebuilt class


def test_plain_data_fields_repr_eq_hash():
    x = Child(1, 2)
    assert fields(Child) == fields(x) == ("a", "b", "c")  # base fields first
    assert repr(x) == "Child(a=3, b=1, c=2)"
    assert x == Child(1, 2) and x != Child(2, 1) and hash(x) == hash(Child(1, 2))
    assert Base(3) != Child(1, 2)  # another class is never equal
    assert Child(2, 0) < Child(1, 2)  # by field tuple, a first: (2, 2, 0) < (3, 1, 2)
    assert {Child(1, 2): "x"}[Child(1, 2)] == "x"


def test_plain_data_frozen_after_init_only():
    x = Child(1, 2)
    with pytest.raises(FrozenPlainDataError, match="'b'"):
        x.b = 5
    with pytest.raises(AttributeError):  # FrozenPlainDataError is an AttributeError
        del x.a
    # replace() calls __init__ with every field by name (nmutil's contract)
    assert replace(Base(1), a=7) == Base(7)
    assert pickle.loads(pickle.dumps(x)) == x


def test_plain_data_refuses_what_nmutil_refuses():
    with pytest.raises(TypeError, match="__slots__"):
        @plain_data()
        class NoSlots:
            pass
    with pytest.raises(TypeError, match="__repr__"):
        @plain_data()
        class OwnRepr:
            __slots__ = ()

            def __repr__(self):
                return ""
    with pytest.raises(TypeError, match="unknown field"):
        replace(Base(1), z=2)


# -- prefix_sum: expected values from openpower-isa's test/svp64/parallel_prefix_sum.py ----

def test_prefix_sum_values_of_the_case_file():
    assert prefix_sum([1, 2, 4, 8, 16, 32, 64, 128], work_efficient=True) == \
        [0x1, 0x3, 0x7, 0xF, 0x1F, 0x3F, 0x7F, 0xFF]
    assert prefix_sum(range(8), fn=lambda a, b: a - b, work_efficient=True) == \
        [0, -1, -3, 0, -4, 1, -5, 0]


def test_prefix_sum_schedules():
    # work-efficient scan of 4 (Wikipedia "Prefix sum", algorithm 2): row 0 updates
    # items 3 and 1 from distance 1, row 1 item 3 from distance 2, then (down) item 2
    ops = [(o.out, o.lhs, o.rhs, o.row) for o in prefix_sum_ops(4, work_efficient=True)]
    # row 2 is the down-sweep at distance 2, empty for 4 items but counted as a row (nmutil)
    assert ops == [(3, 2, 3, 0), (1, 0, 1, 0), (3, 1, 3, 1), (2, 1, 2, 3)]
    # algorithm 1 (shorter span): every item from distance 1, then 2
    ops = [(o.out, o.lhs, o.row) for o in prefix_sum_ops(4)]
    assert ops == [(3, 2, 0), (2, 1, 0), (1, 0, 0), (3, 1, 1), (2, 0, 1)]
    assert prefix_sum([1, 1, 1, 1, 1]) == [1, 2, 3, 4, 5]


# -- the rest ------------------------------------------------------------------------

def test_hash_256_is_sha256_little_endian():
    # FIPS 180-2 test vector: SHA-256("abc") = ba7816bf...f20015ad
    digest = bytes.fromhex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    assert hash_256("abc") == int.from_bytes(digest, "little")


def test_fminmax_modes():
    # openpower-isa power_enums.FMinMaxMode
    assert (FMinMaxMode.fminnum08.value, FMinMaxMode.fmin19.value, FMinMaxMode.fmaxnum08.value,
            FMinMaxMode.fmaxmagc.value) == (0, 1, 8, 15)
    assert len(FMinMaxMode) == 16


def test_cached_property_computes_once():
    class C:
        calls = 0

        @cached_property
        def x(self):
            C.calls += 1
            return 42
    c = C()
    assert (c.x, c.x, C.calls) == (42, 42, 1)


def test_hook_provides_the_modules():
    with facade_imports():
        from nmutil.plain_data import plain_data as imported
        from nmutil.prefix_sum import prefix_sum as imported_sum
        from nmutil.sim_util import hash_256 as imported_hash
        from openpower.decoder.power_enums import FMinMaxMode as imported_enum
        from cached_property import cached_property as imported_cp
    assert (imported, imported_sum, imported_hash, imported_enum, imported_cp) == \
        (plain_data, prefix_sum, hash_256, FMinMaxMode, cached_property)


def test_svp64asm_reads_octal_as_libresoc_does():
    # libre-soc's assembler reads operands with int(text, 0): svremap 0o13 is svremap 11
    # (openpower-isa test/svp64/parallel_prefix_sum.py writes "svremap 0o13, 0, 1, 0, 1, 0, 0")
    assert list(SVP64Asm(["svremap 0o13, 0, 1, 0, 1, 0, 0"])) == \
        list(SVP64Asm(["svremap 11, 0, 1, 0, 1, 0, 0"]))
