"""Which function of an ELF an address lies in (``--trace`` names the
function control enters, on a call and on a return): the function symbols'
``[start, start + size)`` ranges, a symbol without a size reaching to the
next one."""
import bisect


class FunctionMap:
    """``at(pc)``: ``(start, name)`` of the function holding pc, or None."""

    def __init__(self, ranges):
        """``ranges``: ``(start, size, name)`` triples; of the symbols that
        share a start (aliases) the first names it, the largest size counts."""
        names, sizes = {}, {}
        for start, size, name in ranges:
            names.setdefault(start, name)
            sizes[start] = max(sizes.get(start, 0), size)
        self.starts = sorted(names)
        self.names = [names[s] for s in self.starts]
        # a symbol without a size (hand-written assembly) reaches the next one
        nexts = self.starts[1:] + [None]
        self.ends = [s + sizes[s] if sizes[s] else n for s, n in zip(self.starts, nexts)]

    def at(self, pc):
        i = bisect.bisect_right(self.starts, pc) - 1
        if i < 0 or (self.ends[i] is not None and pc >= self.ends[i]):
            return None
        return self.starts[i], self.names[i]
