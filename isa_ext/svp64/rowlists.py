"""The row lists of ``decoder/svp64/*.txt``: which rows sign-extend their
sources, depend on XLEN, or name REMAP ports; read once, on demand."""
from .. import specdata
from ..errors import Trap

_SIGNED = None


def _name_list(fname, tags=False):
    names = {}
    for line in specdata.source().read("decoder", "svp64", fname)[1].splitlines():
        words = line.split("#", 1)[0].split()
        if words:
            names[words[0]] = tuple(words[1:])
    return names if tags else frozenset(names)


def signed_sources():
    """{base mnemonic: conditions}: rows whose source elements are sign-extended
    under ELWIDTH_SRC (``decoder/svp64/signed_sources.txt``), when the word's
    fields meet the conditions (:func:`fields_hold`)."""
    global _SIGNED
    if _SIGNED is None:
        _SIGNED = _name_list("signed_sources.txt", tags=True)
    return _SIGNED


def fields_hold(conditions, fields):
    """Whether every ``FIELD&MASK`` condition (a table's tags) has a bit of MASK
    set in the instruction's field; no condition always holds."""
    for c in conditions:
        name, _, mask = c.partition("&")
        if name not in fields or not mask:
            raise Trap(f"decoder/svp64: bad field condition {c!r} (FIELD&MASK)", "illegal")
        if not fields[name] & int(mask, 0):
            return False
    return True


_XLEN = None


def xlen_rows():
    """{base mnemonic: conditions}: rows whose page depends on XLEN
    (``decoder/svp64/xlen_rows.txt``) when the word's fields meet the
    conditions (its ``FIELD&MASK`` tags; ``sources=mixed`` marks sources of
    different signedness): under element-width overrides a page written in
    XLEN runs at the operation width, any other traps."""
    global _XLEN
    if _XLEN is None:
        _XLEN = _name_list("xlen_rows.txt", tags=True)
    return _XLEN


_PORTS = None


def remap_ports():
    """{base mnemonic: (in1, in2, in3, out, out2) register field or "-"}: the
    decoder ports REMAP's operand slots name (``decoder/svp64/remap_ports.txt``,
    openpower-isa's RM tables)."""
    global _PORTS
    if _PORTS is None:
        _PORTS = _name_list("remap_ports.txt", tags=True)
    return _PORTS
