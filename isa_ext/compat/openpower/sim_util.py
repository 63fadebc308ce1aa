"""``nmutil.sim_util.hash_256``: the pseudo-random test values openpower-isa's
case files derive from strings."""
from hashlib import sha256

__all__ = ["hash_256"]


def hash_256(text):
    """The SHA-256 digest of ``text`` (UTF-8) read as a little-endian integer."""
    return int.from_bytes(sha256(text.encode("utf-8")).digest(), "little")
