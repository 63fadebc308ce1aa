"""sv.mv.swiz / sv.fmv.swiz in the SVP64 assembler and disassembler (MVRM-2P-2S1D
layout: Rdest_EXTRA2 RM[10:11], Rsrc_EXTRA2 RM[12:13], src_SUBVL RM[14:15] written
/svecN or /ssubvl=N, MASK_SRC RM[16:18]) and the category executor hook."""
import pytest

from isa_ext.errors import IsaExtError
from isa_ext.isa import ISA
from isa_ext.sim import Simulator
from isa_ext.svp64 import rm as rmmod, svstate as SV


@pytest.fixture(scope="module")
def isa():
    return ISA(extensions=["base", "svp64", "swizzle"])


def assemble(isa, mn, ops):
    return isa.sv_assemble(mn, ops, 0, lambda t: int(t, 0))


# Hand derivation, sv.mv.swiz/vec4/svec4 *8, *16, "WZYX":
#   RM (RM[0] = bit 23): SUBVL-1 = 3 at RM[8:9] -> 0xC000; *8 EXTRA2 vector "10"
#   (field 8>>2 = 2) at RM[10:11] -> 0x2000; *16 "10" (field 4) at RM[12:13] ->
#   0x0800; src_SUBVL-1 = 3 at RM[14:15] -> 0x0300: RM = 0xEB00.
#   prefix = PO 1 (0x04000000) | bit 7 (0x01000000) | bit 9 (0x00400000) | RM[2:23]
#          = 0x0540EB00.
#   suffix: PO 22 (0x58000000) | RTp 2 << 21 | RAp 4 << 16 | imm << 4 | XO 0b0011;
#   imm = X<-W 0b111, Y<-Z 0b110, Z<-Y 0b101, W<-X 0b100 = 0xFAC -> 0x5844FAC3.
# sv.mv.swiz/ssubvl=2/sm=r3/sz *8, *16, "YX":
#   src_SUBVL-1 = 1 -> 0x0100; MASK_SRC r3 = 0b010 at RM[16:18] -> 0x0040;
#   sz = MODE bit RM[23] -> 0x0001; EXTRA as above 0x2800: RM = 0x2941 ->
#   prefix 0x05402941; imm = X<-Y 0b101, Y<-X 0b100, skip, skip = 0xB00 -> 0x5844B003.
CASES = [
    ("sv.mv.swiz/vec4/svec4", ["*8", "*16", '"WZYX"'], [0x0540EB00, 0x5844FAC3]),
    ("sv.mv.swiz/ssubvl=2/sm=r3/sz", ["*8", "*16", '"YX"'], [0x05402941, 0x5844B003]),
]


@pytest.mark.parametrize("mn,ops,words", CASES)
def test_hand_derived_words_and_round_trip(isa, mn, ops, words):
    assert assemble(isa, mn, ops) == words
    text = isa.sv_disassemble(*words)
    mn2, _, rest = text.partition(" ")
    assert assemble(isa, mn2, rest.split(", ")) == words


def test_canonical_disassembly(isa):
    assert isa.sv_disassemble(0x0540EB00, 0x5844FAC3) == 'sv.mv.swiz/vec4/svec4 *8, *16, "WZYX"'
    # /svec1 and /ssubvl=1 are the default (src_SUBVL field 0)
    assert assemble(isa, "sv.mv.swiz/svec1", ["*8", "*16", '"XYZW"']) == \
        assemble(isa, "sv.mv.swiz/ssubvl=1", ["*8", "*16", '"XYZW"'])


def test_fmv_swiz_round_trip(isa):
    words = assemble(isa, "sv.fmv.swiz/vec2/svec4/w=32", ["*4", "*12", '"ZW"'])
    mn, _, rest = isa.sv_disassemble(*words).partition(" ")
    assert mn == "sv.fmv.swiz/vec2/svec4/w=32"
    assert assemble(isa, mn, rest.split(", ")) == words


@pytest.mark.parametrize("mn,ops", [
    ("sv.mv.swiz/mr", ["*8", "*16", '"XY"']),           # MVRM: zeroing modes only
    ("sv.mv.swiz/ff=eq", ["*8", "*16", '"XY"']),
    ("sv.mv.swiz/ssubvl=5", ["*8", "*16", '"XY"']),
    ("sv.mv.swiz", ["*8", "*16", '"XQ"']),              # bad swizzle letter
    ("sv.mv.swiz", ["*9", "*16", '"XY"']),              # odd vector: not in EXTRA2
    ("sv.add/svec2", ["*1", "*5", "*9"]),               # not a length field of RM-1P
])
def test_bad_mvrm_assembly_is_an_error(isa, mn, ops):
    with pytest.raises(IsaExtError):
        assemble(isa, mn, ops)


def test_assembled_program_runs_through_category_executor(isa):
    # VL=1, 64-bit elements, SUBVL 4 / src_SUBVL 4: X..W of the source group are
    # r16..r19; "WZYX" gives r8 = W = r19, r9 = Z = r18, r10 = Y = r17, r11 = X = r16.
    sim = Simulator(isa=isa)
    sim.load_asm('sv.mv.swiz/vec4/svec4 *8, *16, "WZYX"\n')
    sim.state.svstate = SV.make(maxvl=1, vl=1)
    for i in range(4):
        sim.state.gpr[16 + i] = 100 + i
    r = sim.run()
    assert r.stop == "end" and r.gpr[8:12] == [103, 102, 101, 100]
    cat = isa.categories["MVRM-2P-2S1D"]
    assert cat.execute is not None and cat.etype == 2


def test_executor_hook_is_generic(isa):
    # a category registered with an executor receives its rows' prefixed forms:
    # an extension gives RM-1P-2S1D (sv.add) a recording executor in an ISA of
    # its own; the shared ISA keeps the generic loop
    from isa_ext.extension import Extension
    seen = []

    def execute(sim, prefix, suffix, row, fields):
        seen.append((hex(prefix), row.mnemonic))
        return lambda s, cia: cia + 8

    recorder = Extension("recorder", setup=lambda reg: reg.category(
        rmmod.Category("RM-1P-2S1D", 1, execute=execute)))
    mine = ISA(extensions=["base", "svp64", recorder])
    words = assemble(mine, "sv.add", ["*1", "*5", "*9"])
    runs = []
    for which in (mine, isa):
        sim = Simulator(isa=which)
        sim.load_words(words)
        sim.state.svstate = SV.make(maxvl=2, vl=2)
        sim.state.gpr[5] = 7
        runs.append(sim.run())
    r, plain = runs
    assert r.stop == "end" and r.gpr[1] == 0 and seen == [(hex(words[0]), "add")]
    # sv.add *1, *5, *9 with VL=2: r1 = r5 + r9 = 7 (r9 = 0), as the generic loop does
    assert plain.gpr[1] == 7 and isa.categories["RM-1P-2S1D"].execute is None


def test_swizzle_without_svp64_extension_still_runs():
    # the swizzle extension alone installs a category-dispatching prefix handler
    isa = ISA(extensions=["base", "swizzle"])
    sim = Simulator(isa=isa)
    sim.load_words([0x0540EB00, 0x5844FAC3])
    sim.state.svstate = SV.make(maxvl=1, vl=1)
    sim.state.gpr[16] = 5
    r = sim.run()
    assert r.stop == "end" and r.gpr[11] == 5
