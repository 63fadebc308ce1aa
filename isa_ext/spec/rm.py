"""SVP64 RM categories and EXTRA slots, as written in the table columns
``sv`` (``RM-1P-2S1D``) and ``extra`` (``d:RT;d:CR0 s:RA s:RB -``)."""
import re
from dataclasses import dataclass

_CATEGORY = re.compile(r"^(?P<family>[A-Z]*RM)-(?P<preds>[12])P-(?:(?P<srcs>\d)S)?(?:(?P<dests>\d)D)?$")

# CR fields an Rc=1 result is recorded in; a "d:CR0" slot entry is that record,
# not one of the destinations the category name counts.
RC_FIELDS = ("CR0", "CR1")


@dataclass
class Category:
    name: str
    family: str  # "RM" (normal), "LDSTRM" (load/store), "MVRM" (swizzle moves), ...
    predicates: int  # 1P or 2P
    sources: int
    dests: int


def parse_category(text):
    """The parts of an RM category name, or None when it is not one."""
    m = _CATEGORY.match(text)
    if not m or not (m.group("srcs") or m.group("dests")):
        return None
    return Category(text, m.group("family"), int(m.group("preds")),
                    int(m.group("srcs") or 0), int(m.group("dests") or 0))


@dataclass
class SlotEntry:
    role: str  # "s" source, "d" destination
    reg: str   # a register field (RA) or an implied register (CR0)


def parse_slots(extra):
    """[[SlotEntry, ...] per slot] from the ``extra`` column items; ``-`` is an
    unused slot.  Raises ValueError naming a malformed item."""
    slots = []
    for item in extra:
        entries = []
        if item != "-":
            for part in item.split(";"):
                role, sep, reg = part.partition(":")
                if not sep or role not in ("s", "d") or not reg:
                    raise ValueError(f"bad EXTRA slot entry {part!r} (want s:REG or d:REG)")
                entries.append(SlotEntry(role, reg))
        slots.append(entries)
    return slots
