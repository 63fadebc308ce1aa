"""``Program`` (``openpower.simulator.program``) and ``SVP64Asm``
(``openpower.insndb.asm``), assembling with isa_ext's assembler.

openpower-isa's SVP64Asm turns each ``sv.`` instruction into two lines, the
prefix as ``.long 0x...`` and then the suffix, and each instruction GNU
binutils does not know (``setvl``, ``svstep`` ...) into one ``.long`` line;
Program then assembles the lines with GNU ``as``.  Here both steps use
isa_ext's assembler, so Program accepts the same input (a list of lines or
one text).  One difference: the suffix of an ``sv.`` instruction is yielded as
``.long 0x...`` too, not as re-printed assembly (the words are the same).
"""
import contextlib
import functools
import contextvars
import re

from ...asm import assemble
from ...errors import IsaExtError

__all__ = ["Program", "SVP64Asm", "profile_in_use"]

# The facade stands in for openpower-isa, so by default it behaves as ISACaller
# does (isa_ext/profile.py); ``isa-ext openpower test --profile spec`` runs the
# same tests against the specification's reading instead.
_PROFILE = contextvars.ContextVar("isa_ext_openpower_profile", default="openpower-isa")


@contextlib.contextmanager
def profile_in_use(name):
    """Programs assembled inside run with profile ``name``."""
    from ...profile import get
    token = _PROFILE.set(get(name).name)
    try:
        yield
    finally:
        _PROFILE.reset(token)


def new_isa():
    """All of isa_ext's extensions, with the facade's profile: one ISA per
    profile, shared by every Program (an ISA holds no machine state, only its
    decode and compiled-page caches, which a case file with thousands of
    programs would otherwise rebuild for each)."""
    return _isa_for(_PROFILE.get())


@functools.lru_cache(maxsize=None)
def _isa_for(profile):
    from ...isa import ISA
    return ISA(profile=profile)


def _lines(instructions):
    if isinstance(instructions, str):
        return instructions.splitlines()
    if isinstance(instructions, (list, tuple)) or hasattr(instructions, "__iter__") \
            and not isinstance(instructions, (bytes, bytearray)):
        lines = list(instructions)
        if all(isinstance(x, str) for x in lines):
            return lines
    raise NotImplementedError(
        "Program: only assembly (a list of lines or a string) is supported by isa_ext's "
        f"openpower facade, not {type(instructions).__name__} (binary or ELF programs)")


class Program:
    """An assembled program, loaded at address 0 as openpower-isa's is."""

    def __init__(self, instructions, bigendian=False, orig_filename=None):
        if bigendian:
            raise NotImplementedError("Program(bigendian=True): the facade runs little-endian only")
        if orig_filename is not None:
            raise NotImplementedError("Program(orig_filename=...): ELF programs are not supported")
        self.bigendian = bool(bigendian)
        self.assembly = "\n".join(_lines(instructions)) + "\n"
        self.isa = new_isa()  # run_tst runs the program with the same ISA
        try:
            self._program = assemble(self.assembly, filename="<Program>", isa=self.isa,
                                     base=0, little=True)
        except IsaExtError as e:
            raise ValueError(f"Program: isa_ext cannot assemble it: {e}") from None
        self.words = self._program.words

    def generate_instructions(self):
        yield from self.words

    @property
    def binfile(self):
        raise NotImplementedError("Program.binfile: the facade keeps no binary file")

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


class SVP64Asm:
    """Iterate over assembly lines, yielding lines GNU ``as`` would accept:
    ``sv.`` instructions and instructions outside the Power v3.0B base set
    become ``.long`` words; everything else passes through unchanged."""

    def __init__(self, lines, bigendian=False, macros=None):
        if bigendian:
            raise NotImplementedError("SVP64Asm(bigendian=True): the facade is little-endian only")
        if macros:
            raise NotImplementedError("SVP64Asm(macros=...) is not supported by the facade")
        self.lines = list(lines)

    def __iter__(self):
        isa = new_isa()
        for line in self.lines:
            yield from self.translate_one(isa, line)

    @staticmethod
    def translate_one(isa, line):
        text = line.strip()
        mnemonic = text.split(None, 1)[0] if text else ""
        if not mnemonic or mnemonic.startswith(".") or \
                not mnemonic.startswith("sv.") and _in_base_set(isa, mnemonic):
            yield line
            return
        try:
            words = assemble(_libresoc_spelling(text) + "\n", filename="<SVP64Asm>",
                             isa=isa, base=0).words
        except IsaExtError as e:
            raise ValueError(f"SVP64Asm: cannot assemble {line!r}: {e}") from None
        for w in words:
            yield f".long 0x{w:08x}"


# libre-soc's assembler reads operands with Python's int(text, 0), so it also
# takes 0o octal, which GNU as and isa_ext's assembler do not.
_PYTHON_OCTAL = re.compile(r"(?<![\w.])0[oO]([0-7]+)\b")


def _octal_to_decimal(text):
    return _PYTHON_OCTAL.sub(lambda m: str(int(m.group(1), 8)), text)


# libre-soc's assembler writes /ff= and /mr (or /mrr) into the one MODE field
# and the map-reduce bits win: `sv.minmax./ff=le/m=ge/mr 4,*10,4,1` is
# 0x07500604 0x4c822107, the words of the line without /ff=le.  isa_ext's own
# assembler rejects the pair (two modes); the facade gives SVP64Asm's words.
_FF_WITH_MAPREDUCE = re.compile(r"^(\S*?)/ff=[^/\s]+(?=\S*/mrr?\b)|^(\S*/mrr?\b\S*?)/ff=[^/\s]+")


def _libresoc_spelling(text):
    """``text`` as isa_ext's assembler reads what libre-soc's accepts."""
    text = _octal_to_decimal(text)
    return _FF_WITH_MAPREDUCE.sub(lambda m: m.group(1) or m.group(2), text)


def _in_base_set(isa, mnemonic):
    """Whether GNU as (Power v3.0B) knows the mnemonic: isa_ext's base extension."""
    found = isa.by_mnemonic.get(mnemonic.rstrip(".") if mnemonic.endswith(".") else mnemonic)
    if found is None:
        found = isa.by_mnemonic.get(mnemonic)
    if found is None:
        return True  # an extended mnemonic or unknown: let the assembler judge it
    spec = found[0] if isinstance(found, tuple) else found
    return spec.extension == "base"

