"""The disassembler prints every VMX/VSX row's words as GNU objdump 2.40
(``-Mpower10``) does: mnemonic, extended mnemonic (``mtfprd``/``mtvrd`` for
mtvsrd below/above VSR 32, ``xxmrghd`` ... for xxpermdi, ``vnot``) and
operands, on random words of each row.

One difference is left, shared with the base rows: where an (RA|0) operand is
0, objdump writes ``0`` and isa_ext ``r0`` (both reassemble to the word)."""
import random
import re
import subprocess

from conftest import need_tool
from isa_ext.disasm import Disassembler

WORDS_PER_ROW = 6
NOP = 0x60000000


def _words(isa, rng):
    """Random words of every vector row (its fixed bits, the rest random),
    those that decode to the row; prefixed pairs at 8-byte-aligned addresses
    (never across a 64-byte boundary)."""
    out = []
    for row in isa.rows:
        if row.extension != "vector":
            continue
        got, tries = 0, 0
        while got < WORDS_PER_ROW and tries < 200:
            tries += 1
            bits = 64 if row.form.prefixed else 32
            word = row.value | (rng.getrandbits(bits) & ~row.mask)
            if row.form.prefixed:
                d = isa.decode_prefixed(word >> 32, word & 0xFFFFFFFF)
            else:
                d = isa.decode(word)
            if d is None or d.spec is not row:
                continue
            if any(d.fields[n] % 2 for n in isa.forms.even if n in row.fields_used):
                continue  # an odd VSR pair (xvf64ger's XAp): GNU as refuses it, isa_ext
                # prints .long (tests/vector/test_mma_asm.py), objdump the instruction
            if row.form.prefixed:
                if len(out) % 2:
                    out.append(NOP)
                out += [word >> 32, word & 0xFFFFFFFF]
            else:
                out.append(word)
            got += 1
    return out


def _objdump(tmp_path, data):
    path = tmp_path / "vector.bin"
    path.write_bytes(data)
    text = subprocess.run([need_tool("powerpc64le-linux-gnu-objdump"), "-D", "-b", "binary",
                           "-m", "powerpc:common64", "-EL", "-Mpower10", str(path)],
                          capture_output=True, text=True, check=True).stdout
    out = {}
    for line in text.splitlines():
        parts = line.split("\t")
        if len(parts) >= 3 and re.fullmatch(r"\s*[0-9a-f]+:", parts[0]):
            # (objdump comments a PC-relative operand with its target: "# 8768a376")
            text = " ".join(parts[2:]).split(" # ")[0]
            out[int(parts[0].strip()[:-1], 16)] = " ".join(text.split())
    return out


def _same(ours, gnu):
    """Equal, or equal but for r0 where objdump writes 0 for (RA|0)."""
    # objdump 2.40 prints the MMA rows with the future dense-math spellings:
    # dmxvi8ger4 a1,... is xvi8ger4 1,..., dmsetaccz xxsetaccz (docs/vector.md)
    gnu = re.sub(r"^(pm)?dm(\S+) a(\d)", r"\1\2 \3", gnu).replace("setaccz", "xxsetaccz", 1) \
        if re.match(r"(pm)?dm\S+ a\d", gnu) else gnu
    if ours == gnu:
        return True
    a, b = ours.split(" ", 1), gnu.split(" ", 1)
    if a[0] != b[0] or len(a) != len(b):
        return False
    ta, tb = re.split(r"([,()])", a[1]), re.split(r"([,()])", b[1])
    if a[0] == "mtvsrbmi" and len(ta) == len(tb) == 3 and ta[0] == tb[0]:
        # objdump prints the 16-bit mask signed, isa_ext unsigned (the field
        # name bm is also bmask's 5-bit unsigned one): the same bits
        return int(ta[2]) % 65536 == int(tb[2]) % 65536
    return len(ta) == len(tb) and all(x == y or (x, y) == ("r0", "0") for x, y in zip(ta, tb))


def test_every_vector_row_disassembles_as_objdump(isa, tmp_path):
    words = _words(isa, random.Random(33))
    rows = {r.mnemonic for r in isa.rows if r.extension == "vector"}
    data = b"".join(w.to_bytes(4, "little") for w in words)
    gnu = _objdump(tmp_path, data)
    bad, seen = [], set()
    for addr, _words_at, text in Disassembler(isa).lines(data):
        ours = " ".join(text.split())
        seen.add(ours.split()[0])
        if not _same(ours, gnu.get(addr, "?")):
            bad.append(f"{addr:#x}: isa_ext {ours!r}, objdump {gnu.get(addr)!r}")
    assert not bad, "\n".join(bad[:30])
    # (every row was drawn: a row printed only as an alias counts by its word)
    assert len(words) >= WORDS_PER_ROW * len(rows)


def test_vsx_move_spellings_by_hand(isa):
    """GNU objdump 2.40 prints mfvsrd/mtvsrd/mfvsrwz/mtvsrwa/mtvsrwz with the
    FPR name below VSR 32 and the VR name above (binutils' extended forms,
    Book I appendix C)."""
    dis = Disassembler(isa)
    assert dis.word(0x7C080166) == "mtfprd f0,r8"        # glibc's __tls_pre_init_tp
    assert dis.word(0x7C280167) == "mtvrd v1,r8"         # TX=1: VSR 33
    assert dis.word(0x7C230067) == "mfvrd r3,v1"
    assert dis.word(0x7C2300E6) == "mffprwz r3,f1"
