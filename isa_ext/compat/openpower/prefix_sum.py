"""``nmutil.prefix_sum``: the operations of a parallel prefix-sum (scan) and
the scan itself, as openpower-isa's parallel-prefix-sum cases compute their
expected values.

The two schedules are the standard ones (Wikipedia "Prefix sum", algorithm 1
"shorter span" and algorithm 2 "work-efficient"): row by row, with distance
``d`` doubling, item ``i`` becomes ``fn(item[i - d], item[i])``; the
work-efficient variant updates only every ``2d``-th item on the way up and then
fills in the rest on the way down.  Within a row, higher items come first.
"""
import operator

from .plain_data import plain_data

__all__ = ["Op", "prefix_sum_ops", "prefix_sum"]


@plain_data(order=True, unsafe_hash=True, frozen=True)
class Op:
    """``items[out] = fn(items[lhs], items[rhs])`` in row ``row`` of the diagram."""
    __slots__ = "out", "lhs", "rhs", "row"

    def __init__(self, out, lhs, rhs, row):
        self.out, self.lhs, self.rhs, self.row = out, lhs, rhs, row


def prefix_sum_ops(item_count, *, work_efficient=False):
    """The Ops of a prefix-sum of ``item_count`` items, in order (fn is assumed
    associative, not commutative)."""
    if not isinstance(item_count, int):
        raise TypeError("prefix_sum_ops: item_count must be an int")
    dist, row = 1, 0
    while dist < item_count:  # up-sweep (all of algorithm 1)
        start, step = (2 * dist - 1, 2 * dist) if work_efficient else (dist, 1)
        for i in reversed(range(start, item_count, step)):
            yield Op(out=i, lhs=i - dist, rhs=i, row=row)
        dist, row = dist * 2, row + 1
    if work_efficient:  # down-sweep: the items between the partial sums
        dist //= 2
        while dist >= 1:
            for i in reversed(range(3 * dist - 1, item_count, 2 * dist)):
                yield Op(out=i, lhs=i - dist, rhs=i, row=row)
            dist, row = dist // 2, row + 1


def prefix_sum(items, fn=operator.add, *, work_efficient=False):
    """The inclusive scan of ``items`` under ``fn``, computed by prefix_sum_ops."""
    items = list(items)
    for op in prefix_sum_ops(len(items), work_efficient=work_efficient):
        items[op.out] = fn(items[op.lhs], items[op.rhs])
    return items
