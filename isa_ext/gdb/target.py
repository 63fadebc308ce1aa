"""The register file as gdb sees it, and the target description that names it.

gdb's rs6000 architecture requires the features ``org.gnu.gdb.power.core``
(r0-r31, pc, msr, cr, lr, ctr, xer) and ``org.gnu.gdb.power.fpu`` (f0-f31,
fpscr), numbered as in gdb's ``features/rs6000/power64-core.xml`` and
``power-fpu.xml``: r0-r31 = 0-31, f0-f31 = 32-63, pc 64, msr 65, cr 66, lr 67,
ctr 68, xer 69, fpscr 70.  A feature of its own follows: SVSTATE (SPR 720) as
register 71, SVSHAPE0-3, TAR, and SVP64's extended register files r32-r127 and
f32-f127, so ``p $svstate``, ``info registers svstate`` and ``p $r40`` work.
Then gdb's ``org.gnu.gdb.power.altivec`` (vr0-vr31 as 128-bit ``vec128``,
vscr, vrsave: ``features/rs6000/power-altivec.xml``) and
``org.gnu.gdb.power.vsx`` (vs0h-vs31h, doubleword 1 of VSRs 0-31:
``power-vsx.xml``), from which gdb composes its vs0-vs63 pseudo registers
(docs/vector.md).
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
ALTIVEC_REGNUM = len(REGISTERS)
REGISTERS += (
    [Reg(f"vr{i}", 128, "vr", i, "vec128", "vector") for i in range(32)]
    + [Reg("vscr", 32, "vscr", type="int", group="vector"),
       Reg("vrsave", 32, "vrsave", type="int", group="vector")])
VSX_REGNUM = len(REGISTERS)
REGISTERS += [Reg(f"vs{i}h", 64, "vsr_dw1", i) for i in range(32)]

# gdb's power-altivec.xml vector types
VEC128_TYPES = """\
    <vector id="v4f" type="ieee_single" count="4"/>
    <vector id="v4i32" type="int32" count="4"/>
    <vector id="v8i16" type="int16" count="8"/>
    <vector id="v16i8" type="int8" count="16"/>
    <union id="vec128">
      <field name="v4_float" type="v4f"/>
      <field name="v4_int32" type="v4i32"/>
      <field name="v8_int16" type="v8i16"/>
      <field name="v16_int8" type="v16i8"/>
    </union>"""


# gdb's feature names, and the registers (numbers in REGISTERS) each holds
FEATURES = (
    ("org.gnu.gdb.power.core", [*range(32), *range(64, 70)]),
    ("org.gnu.gdb.power.fpu", [*range(32, 64), 70]),
    ("org.libre-soc.svp64", list(range(SVSTATE_REGNUM, ALTIVEC_REGNUM))),
    ("org.gnu.gdb.power.altivec", list(range(ALTIVEC_REGNUM, VSX_REGNUM))),
    ("org.gnu.gdb.power.vsx", list(range(VSX_REGNUM, len(REGISTERS)))),
)


def target_xml():
    """The target description gdb reads through ``qXfer:features:read:target.xml``."""
    lines = ['<?xml version="1.0"?>', '<!DOCTYPE target SYSTEM "gdb-target.dtd">',
             "<target>", "  <architecture>powerpc:common64</architecture>"]
    for name, numbers in FEATURES:
        lines.append(f'  <feature name="{name}">')
        if name == "org.gnu.gdb.power.altivec":
            lines.append(VEC128_TYPES)
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
