"""The register file as gdb sees it, and the target description that names it.

gdb's rs6000 architecture requires the features ``org.gnu.gdb.power.core``
(r0-r31, pc, msr, cr, lr, ctr, xer) and ``org.gnu.gdb.power.fpu`` (f0-f31,
fpscr), numbered as in gdb's ``features/rs6000/power64-core.xml`` and
``power-fpu.xml``: r0-r31 = 0-31, f0-f31 = 32-63, pc 64, msr 65, cr 66, lr 67,
ctr 68, xer 69, fpscr 70.  A feature of its own follows: SVSTATE (SPR 720) as
register 71, SVSHAPE0-3, TAR, and SVP64's extended register files r32-r127 and
f32-f127, so ``p $svstate``, ``info registers svstate`` and ``p $r40`` work.
Register values travel in the target's byte order (little-endian for ppc64le).
"""
from dataclasses import dataclass


@dataclass(frozen=True)
class Reg:
    name: str
    bits: int
    kind: str   # attribute of State, or "gpr"/"fpr" with an index
    index: int = None
    type: str = "uint64"
    group: str = None

    def get(self, state):
        if self.index is not None:
            return getattr(state, self.kind)[self.index]
        if self.kind == "cr":
            return state.crval
        return getattr(state, self.kind)

    def set(self, state, value):
        value &= (1 << self.bits) - 1
        if self.index is not None:
            getattr(state, self.kind)[self.index] = value
        elif self.kind == "cr":
            state.crval = value
        else:
            setattr(state, self.kind, value)


REGISTERS = (
    [Reg(f"r{i}", 64, "gpr", i) for i in range(32)]
    + [Reg(f"f{i}", 64, "fpr", i, "ieee_double", "float") for i in range(32)]
    + [Reg("pc", 64, "pc", type="code_ptr"), Reg("msr", 64, "msr"),
       Reg("cr", 32, "cr", type="uint32"), Reg("lr", 64, "lr", type="code_ptr"),
       Reg("ctr", 64, "ctr"), Reg("xer", 32, "xer", type="uint32"),
       Reg("fpscr", 64, "fpscr", group="float"),
       Reg("svstate", 64, "svstate")]
    + [Reg(f"svshape{i}", 32, f"svshape{i}", type="uint32") for i in range(4)]
    + [Reg("tar", 64, "tar", type="code_ptr")]
    # SVP64's extended register files: vectors often live above r31 / f31
    # (gdb lists r32-r127 under ``info registers`` too: it puts every integer
    # register of a description in its general group)
    + [Reg(f"r{i}", 64, "gpr", i) for i in range(32, 128)]
    + [Reg(f"f{i}", 64, "fpr", i, "ieee_double", "float") for i in range(32, 128)]
)
SVSTATE_REGNUM = 71
assert REGISTERS[SVSTATE_REGNUM].name == "svstate"


# gdb's feature names, and the registers (numbers in REGISTERS) each holds
FEATURES = (
    ("org.gnu.gdb.power.core", [*range(32), *range(64, 70)]),
    ("org.gnu.gdb.power.fpu", [*range(32, 64), 70]),
    ("org.libre-soc.svp64", list(range(SVSTATE_REGNUM, len(REGISTERS)))),
)


def target_xml():
    """The target description gdb reads through ``qXfer:features:read:target.xml``."""
    lines = ['<?xml version="1.0"?>', '<!DOCTYPE target SYSTEM "gdb-target.dtd">',
             "<target>", "  <architecture>powerpc:common64</architecture>"]
    for name, numbers in FEATURES:
        lines.append(f'  <feature name="{name}">')
        for n in numbers:
            r = REGISTERS[n]
            group = f' group="{r.group}"' if r.group else ""
            lines.append(f'    <reg name="{r.name}" bitsize="{r.bits}" type="{r.type}" '
                         f'regnum="{n}"{group}/>')
        lines.append("  </feature>")
    lines.append("</target>")
    return "\n".join(lines) + "\n"


def encode(value, bits, little):
    return (value & ((1 << bits) - 1)).to_bytes(bits // 8, "little" if little else "big").hex()


def decode(text, little):
    return int.from_bytes(bytes.fromhex(text), "little" if little else "big")


def read_all(state):
    little = state.mem.little
    return "".join(encode(r.get(state), r.bits, little) for r in REGISTERS)


def write_all(state, text):
    little = state.mem.little
    pos = 0
    for r in REGISTERS:
        n = r.bits // 4
        if pos + n > len(text):
            break
        r.set(state, decode(text[pos:pos + n], little))
        pos += n
