"""Vector (VMX/VSX) assembly against GNU binutils 2.40: register spellings,
extended mnemonics, the disassembler's text (GNU objdump's own), and the
refusals.  The per-row encodings are tests/asm/test_asm_roundtrip.py's."""
import subprocess

import pytest

from conftest import gnu_as_words, need_tool
from isa_ext.asm import assemble
from isa_ext.disasm import Disassembler
from isa_ext.errors import AsmError
from isa_ext.sim import Simulator

SPELLINGS = [
    "xxlor vs1,vs2,vs3", "xxlor 33,34,35", "xxlor %vs33,%vs34,%vs63", "xxlor vs0,f1,vs2",
    "vaddubm v1,v2,v3", "vaddubm 1,2,3", "vaddubm %v1,%v2,%v31",
    "lxvd2x vs40,r3,r4", "lxv vs63,-32(r9)", "stxv 33,4080(1)", "lxsd v5,8(r1)",
    "xxpermdi vs1,vs2,vs3,2", "vsldoi v1,v2,v3,15", "xxspltib vs40,255", "vspltisb v1,-16",
    "vcmpequb. v1,v2,v3", "vcmpnezb 4,5,6", "xsmaddadp vs1,vs2,vs3", "xscvdpsxws 63,62",
]
EXTENDED = [  # GNU objdump prints each of these words with this mnemonic
    "xxspltd vs1,vs2,0", "xxspltd vs1,vs2,1", "xxmrghd vs1,vs2,vs3", "xxmrgld vs1,vs2,vs3",
    "xxswapd vs1,vs2", "xxmr vs1,vs2", "xxlnot vs1,vs2", "vmr v1,v2", "vnot v1,v2",
    "mfvrsave r3", "mtvrsave r3",
]
FPR_VR_FORMS = ["mtfprd f0,r8", "mtvrd v1,r8", "mfvrd r3,v1", "mffprd r3,f1", "mtvrwa v31,r3",
                "mtfprwa f1,r3", "mtvrwz v1,r3", "mtfprwz f31,r3", "mfvrwz r3,v1", "mffprwz r3,f2"]


def test_spellings_and_extended_mnemonics_match_gnu_as(isa, tmp_path):
    lines = SPELLINGS + EXTENDED + FPR_VR_FORMS
    want = gnu_as_words(tmp_path, lines, extra_args=["-mpower10"])
    ours = assemble("".join(f"{t}\n" for t in lines), isa=isa, base=0).words
    assert len(ours) == len(want) == len(lines)
    bad = [f"{t}: ours {o:08x} GNU {w:08x}" for t, o, w in zip(lines, ours, want) if o != w]
    assert not bad, "\n".join(bad)


def _objdump_texts(tmp_path, lines):
    need_tool("powerpc64le-linux-gnu-objdump")
    gnu_as_words(tmp_path, lines, extra_args=["-mpower10"], name="dis")
    out = subprocess.run(["powerpc64le-linux-gnu-objdump", "-d", "-Mpower10",
                          str(tmp_path / "dis.o")], capture_output=True, text=True, check=True).stdout
    return [" ".join(l.split("\t")[2].split()) for l in out.splitlines()
            if l.count("\t") >= 2 and l.strip().split(":")[0].strip().isalnum()]


def test_disassembler_prints_gnu_extended_mnemonics(isa, tmp_path):
    texts = _objdump_texts(tmp_path, EXTENDED)
    words = assemble("".join(f"{t}\n" for t in EXTENDED), isa=isa, base=0).words
    dis = Disassembler(isa)
    ours = [" ".join(dis.word(w, 4 * i).split()) for i, w in enumerate(words)]
    assert ours == texts


def test_fpr_and_vr_forms_disassemble_to_text_that_reassembles(isa):
    words = assemble("".join(f"{t}\n" for t in FPR_VR_FORMS), isa=isa, base=0).words
    dis = Disassembler(isa)
    for w in words:
        assert assemble(dis.word(w) + "\n", isa=isa, base=0).words == [w]


@pytest.mark.parametrize("line,why", [
    ("xxlor v1,vs2,vs3", "wrong register class"),      # v1 would be VSR 1 to GNU, not VR 1
    ("vaddubm vs1,v2,v3", "wrong register class"),
    ("mtvsrd r1,r2", "wrong register class"),
    ("xxlor vs64,vs1,vs2", "out of range"),
    ("vaddubm v32,v1,v2", "out of range"),
    ("vspltisb v1,16", "range"),
    ("lxv vs1,8(r1)", "multiple of 16"),
])
def test_bad_operands_are_refused(isa, line, why):
    with pytest.raises(AsmError, match=why):
        assemble(line + "\n", isa=isa)


def test_svp64_prefix_on_a_vector_row_traps(isa):
    """VMX/VSX rows have no SVP64 RM category (libre-soc's tables do not make
    them SVP64-capable): the assembler refuses sv.<vector>, and a prefixed
    word traps as illegal, naming why."""
    with pytest.raises(AsmError, match="not SVP64-capable"):
        assemble("sv.xxlor 1,2,3\n", isa=isa)
    prefix = assemble("sv.add 1,2,3\n", isa=isa, base=0).words[0]
    for suffix in (0xF0221490, 0x10221484):  # xxlor vs1,vs2,vs2 ; vor v1,v2,v2
        sim = Simulator(isa=isa)
        sim.load_words([prefix, suffix])
        res = sim.run(max_steps=5)
        assert res.stop == "trap" and res.trap.kind == "illegal"
        assert "not SVP64-capable" in res.trap.reason


def test_vector_extension_switches_off(tmp_path):
    from isa_ext.isa import ISA
    off = ISA(extensions=["base"])
    sim = Simulator(isa=off)
    sim.load_words([0xF0221490])
    res = sim.run(max_steps=5)
    assert res.stop == "trap" and "no instruction matches" in res.trap.reason
