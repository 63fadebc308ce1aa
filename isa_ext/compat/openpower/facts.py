"""Constants and logging of openpower-isa's small utility modules
(``openpower.endian``, ``openpower.consts``, ``openpower.util``), as values."""

from functools import cached_property  # the cached_property package's decorator, same use

__all__ = ["bigendian", "SVP64CROffs", "log", "cached_property"]

bigendian = 0  # openpower-isa's tests run little-endian unless they say otherwise


class SVP64CROffs:
    """CR field numbers openpower-isa's SVP64 code uses (openpower.consts)."""
    CR0 = 0
    CR1 = 1
    CRPred = 4


def log(*args, kind=None, **kwargs):
    """openpower-isa's debug log; silent here (its SILENCELOG=1 behaviour)."""

