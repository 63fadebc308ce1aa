"""Extended mnemonics: our words equal GNU as's, and the disassembler picks the
same extended mnemonic as GNU objdump for the words it prints that way."""
import subprocess

import pytest

from conftest import gnu_as_words, need_tool
from isa_ext.asm import assemble, extended_mnemonics
from isa_ext.disasm import Disassembler

# GNU as source; every line one instruction (labels on lines of their own)
LINES = """
nop
li r3,-5
li r31,0x7fff
lis r4,-2
la r5,16(r6)
subi r3,r4,7
subis r3,r4,7
subic r3,r4,7
subic. r3,r4,7
sub r3,r4,r5
subo. r3,r4,r5
subc r3,r4,r5
subco. r3,r4,r5
mr r3,r4
mr. r3,r4
not r5,r6
not. r5,r6
cmpdi r3,-1
cmpdi cr7,r3,100
cmpwi cr1,r4,5
cmpd r3,r4
cmpw cr2,r3,r4
cmpldi r3,65535
cmplwi cr3,r4,7
cmpld cr4,r5,r6
cmplw r5,r6
rotlwi r3,r4,7
rotlw r3,r4,r5
slwi r3,r4,5
slwi. r3,r4,0
srwi r3,r4,5
srwi r3,r4,0
clrlwi r3,r4,16
clrrwi r3,r4,2
extlwi r3,r4,8,4
extrwi r3,r4,8,4
inslwi r3,r4,8,4
insrwi r3,r4,8,4
rotldi r3,r4,12
rotld r3,r4,r5
sldi r3,r4,3
sldi. r3,r4,63
srdi r3,r4,3
srdi r3,r4,0
clrldi r3,r4,32
clrrdi r3,r4,12
extldi r3,r4,16,8
extrdi r3,r4,16,8
mtxer r3
mfxer r4
mtlr r5
mflr r6
mtctr r7
mfctr r8
mttar r9
mftar r10
mtcr r11
crset 4*cr1+eq
crclr so
crnot 5,6
crmove 4*cr7+lt,gt
top:
blt top
bgt cr1,top
beq+ cr2,top
bso- cr3,top
bun top
bge cr4,top
ble- top
bne+ cr5,top
bns top
bnl top
bng cr6,top
bnu top
beql cr7,top
bnela 0x100
bt 4*cr1+gt,top
bf- 7,top
bdnz top
bdnz+ top
bdnzl- top
bdz top
bdz+ top
bdnzt 4*cr3+eq,top
bdnzf lt,top
bdzt gt,top
bdzf so,top
bltlr
bgtlr cr1
beqlr+ cr2
bnelrl
bgectr cr3
blectrl
bsoctr
bnsctr- cr7
bdnzlr
bdzlr+
blr
blrl
bctr
bctrl
"""


def _available(isa, text):
    aliases = extended_mnemonics(isa)
    keep = []
    for line in text.strip().splitlines():
        mnemonic = line.split()[0]
        if line.endswith(":") or mnemonic in aliases:
            keep.append(line)
    return keep


def test_extended_mnemonics_match_gnu_as(isa, tmp_path):
    lines = _available(isa, LINES)
    # every alias above has its base row in the tables by now
    assert len(lines) == len(LINES.strip().splitlines())
    text = "".join(f"{line}\n" for line in lines)
    want = gnu_as_words(tmp_path, text)
    ours = assemble(text, isa=isa, base=0).words
    insns = [line for line in lines if not line.endswith(":")]
    bad = [f"{t}: ours {o:08x} GNU {w:08x}" for t, o, w in zip(insns, ours, want) if o != w]
    assert len(ours) == len(want)
    assert not bad, "\n".join(bad)


def test_disassembler_prefers_objdumps_extended_mnemonic(isa, tmp_path):
    text = "".join(f"{line}\n" for line in _available(isa, LINES))
    gnu_as_words(tmp_path, text, name="x")  # leaves x.o for objdump
    r = subprocess.run([need_tool("powerpc64le-linux-gnu-objdump"), "-d", "-Mpower9",
                        str(tmp_path / "x.o")], capture_output=True, text=True, check=True)
    dis = Disassembler(isa)
    mismatches = []
    compared = 0
    for line in r.stdout.splitlines():
        parts = line.split("\t")
        if len(parts) < 3 or not parts[0].strip().endswith(":"):
            continue
        addr = int(parts[0].strip()[:-1], 16)
        word = int.from_bytes(bytes.fromhex(parts[1].replace(" ", "")), "little")
        objdump_name = parts[2].split()[0]
        ours = dis.word(word, addr)
        compared += 1
        if ours.split()[0] != objdump_name:
            mismatches.append(f"{word:08x}: objdump {parts[2].strip()!r} ours {ours!r}")
    # every instruction line was parsed out of objdump's listing (not a vacuous pass)
    assert compared == len([t for t in text.splitlines() if not t.endswith(":")])
    assert not mismatches, "\n".join(mismatches)


def test_optional_cr_operand_and_hints(isa):
    # beq+ cr2,.+8: bc BO=0b01111 (branch if true, "at"=11), BI=4*2+2=10, BD=8/4
    # -> 16<<26 | 15<<21 | 10<<16 | 8 = 0x41ea0008
    assert assemble("beq+ cr2,.+8\n", isa=isa, base=0).words == [0x41EA0008]
    # bdnz- .: BO=0b11000 (decrement, branch if CTR!=0, "at"=10), BD=0
    # -> 16<<26 | 24<<21 = 0x43000000
    assert assemble("bdnz- .\n", isa=isa, base=0).words == [0x43000000]


# openpower-isa's test helper (openpower/test/util.py assemble) ends a program
# with one ".set NAME, . - 0xN" line per label; GNU as makes NAME an address
SET_LINES = """\
start:
nop
nop
b back
.set back, . - 0xc
.set ahead, . + 0x8
b ahead
nop
nop
.set seven, 3 + 4
li 3, seven
b back
"""


def test_set_with_the_location_counter_matches_gnu_as(isa, tmp_path):
    want = gnu_as_words(tmp_path, SET_LINES)
    assert assemble(SET_LINES, isa=isa, base=0).words == want


def test_set_of_a_sum_of_two_addresses_is_an_error(isa):
    from isa_ext.errors import AsmError
    with pytest.raises(AsmError, match="expected a constant or an address"):
        assemble("nop\n.set x, . + .\n", isa=isa)


@pytest.mark.parametrize("alias, plain", [
    ("sv.mr *4, *8", "sv.or *4, *8, *8"),            # mr RA,RS is or RA,RS,RS
    ("sv.li *4, 5", "sv.addi *4, 0, 5"),             # li RT,SI is addi RT,0,SI
    ("sv.mr/w=32 *4, *8", "sv.or/w=32 *4, *8, *8"),  # the modifiers carried over
])
def test_an_extended_mnemonic_under_an_svp64_prefix_is_its_instruction(alias, plain):
    # the book's extended mnemonics expand before the prefix is built: the
    # same words as the instruction written out
    from isa_ext.asm import assemble
    from isa_ext.isa import ISA
    isa = ISA()
    assert assemble(alias + "\n", isa=isa).data == assemble(plain + "\n", isa=isa).data
