"""isa_ext.records: a record class behaves as the same class made by
dataclasses (the oracle: the standard library's own), without its cost."""
import dataclasses
import pickle

import pytest

from isa_ext import records
from isa_ext.records import factory, record


def _pair(frozen):
    """The same class made both ways: (record's, dataclass's)."""
    made = []
    for deco, default_list in ((record(frozen=frozen), factory(list)),
                               (dataclasses.dataclass(frozen=frozen),
                                dataclasses.field(default_factory=list))):
        class Point:
            """A point."""
            x: int
            y: int = 2
            tags: list = default_list

            def norm(self):
                return abs(self.x) + abs(self.y)
        made.append(deco(Point))
    return made


@pytest.mark.parametrize("frozen", [False, True])
def test_a_record_behaves_as_the_dataclass(frozen):
    ours, theirs = _pair(frozen)
    for args, kwargs in (((1,), {}), ((1, 5), {}), ((), {"x": 3, "tags": [1]}),
                         ((4,), {"y": -1})):
        a, b = ours(*args, **kwargs), theirs(*args, **kwargs)
        assert repr(a) == repr(b)
        assert (a.x, a.y, a.tags, a.norm()) == (b.x, b.y, b.tags, b.norm())
    assert ours(1) == ours(1) and ours(1) != ours(1, 3)
    assert ours(1) != theirs(1)            # another class: never equal
    assert records.fields(ours) == tuple(f.name for f in dataclasses.fields(theirs))
    assert ours.__match_args__ == theirs.__match_args__
    # each instance its own default list
    a, b = ours(1), ours(1)
    a.tags.append(1)
    assert b.tags == [] and not hasattr(ours, "tags")
    assert ours.y == theirs.y == 2         # a plain default stays on the class
    for bad_args, bad_kwargs in (((), {}), ((1, 2, [], 4), {}), ((1,), {"x": 1}),
                                 ((1,), {"z": 1})):
        with pytest.raises(TypeError):
            theirs(*bad_args, **bad_kwargs)
        with pytest.raises(TypeError):
            ours(*bad_args, **bad_kwargs)


def test_frozen_records_refuse_assignment_and_hash_by_value():
    ours, theirs = _pair(True)
    a = ours(1, 2, ())
    with pytest.raises(AttributeError):
        a.x = 5
    with pytest.raises(AttributeError):
        a.other = 5                     # (as dataclasses: nothing is set)
    with pytest.raises(AttributeError):
        del a.x
    assert hash(a) == hash(ours(1, 2, ())) == hash((1, 2, ()))
    assert hash(theirs(1, 2, ())) == hash((1, 2, ()))
    unfrozen, _ = _pair(False)
    with pytest.raises(TypeError):      # mutable and compared by value: unhashable
        hash(unfrozen(1, 2, ()))
    b = unfrozen(1)
    b.x = 7
    assert b.x == 7


def test_replace_post_init_pickle_and_recursion():
    @record
    class Checked:
        n: int
        seen: list = factory(list)

        def __post_init__(self):
            if self.n < 0:
                raise ValueError("negative")

    with pytest.raises(ValueError):
        Checked(-1)
    c = Checked(3)
    d = records.replace(c, n=4)
    assert (d.n, type(d)) == (4, Checked) and c.n == 3
    with pytest.raises(ValueError):
        records.replace(c, n=-2)        # through __init__, so checked again
    c.seen.append(c)                    # a record holding itself prints
    assert repr(c) == "test_replace_post_init_pickle_and_recursion.<locals>.Checked" \
                      "(n=3, seen=[...])"


@record(frozen=True)
class Pickled:
    a: int
    b: tuple = ()


def test_a_frozen_record_pickles():
    p = Pickled(1, (2, 3))
    assert pickle.loads(pickle.dumps(p)) == p


def test_a_non_default_field_after_a_default_is_refused():
    with pytest.raises(TypeError):
        @record
        class Bad:
            a: int = 1
            b: int
