"""Extract (line, words) pairs from GNU gas's and LLVM's PowerPC assembler
tests, with the words the suites themselves expect, cross-checked with GNU as
2.40, and write tests/data/suite_pairs.tsv.

    python tools/suite_pairs.py SUITES_DIR

SUITES_DIR holds copies of the suite files (never committed: they are read
with the search tools or fetched by hand, see docs/gnu_scalar.md):

* ``SUITES_DIR/gas/NAME.s`` with ``SUITES_DIR/gas/NAME.d`` from binutils'
  ``gas/testsuite/gas/ppc``: the ``.s`` instruction lines, in order, are paired
  with the instruction words of the ``.d`` objdump expectation, in order (a
  word whose primary opcode is 1, a v3.1 prefix, takes its suffix with it).
  A ``.d`` line gives the bytes as ``(be|le)`` alternatives (some dumps
  ``(le|be)``: a file's order is the one GNU objdump can name); the pair keeps
  the alternative GNU as 2.40 writes (big-endian), else the file's order;
* ``SUITES_DIR/llvm/NAME.s`` from LLVM's ``llvm/test/MC/PowerPC``: each
  source line is paired with the ``# CHECK-BE: ... # encoding: [..]`` comment
  before it.  Bytes written ``A`` or ``0bAAAAAA10`` (a fixup: the branch
  target) are not part of the expectation: the pair's mask leaves them out.

Each pair is classified by its mnemonic (and, for mtspr/mfspr, by the SPR
number in the word): scalar (Book I and the problem-state part of Book II),
vmx, vsx, privileged (Book III: hypervisor or supervisor state), or other
(decimal floating point, transactional memory, embedded, removed or
implementation-specific instructions), with the reason.

Output columns: suite file, class, why (for other), line, expected words
(``word`` or ``word/mask``, hex, big-endian order of bytes), GNU as 2.40's
words for the line alone (or ``refused``/``relocation``/``label``).
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "data", "suite_pairs.tsv")
AS = "powerpc64le-linux-gnu-as"
OBJDUMP = "powerpc64le-linux-gnu-objdump"

# -- classification -----------------------------------------------------------

VMX_NAMES = set("lvx lvxl stvx stvxl lvebx lvehx lvewx stvebx stvehx stvewx lvsl lvsr "
                "mfvscr mtvscr dss dssall dst dstt dstst dststt".split())
VSX_PREFIXES = ("xs", "xv", "xx", "lxs", "lxv", "stxs", "stxv", "mfvsr", "mtvsr", "mfvrd",
                "mtvrd", "mfvrwz", "mtvrwa", "mtvrwz", "mffprd", "mtfprd", "mffprwz", "mtfprwa",
                "mtfprwz", "plxs", "plxv", "pstxs", "pstxv", "pmx", "lxsd", "lxssp", "xxm",
                "dmxx", "dmsetdmrz", "dmmr", "dmxor", "lxvp", "stxvp")
DFP_NAMES = set("dadd dsub dmul ddiv dcmpo dcmpu dtstdc dtstdg dtstex dtstsf dtstsfi dquai "
                "dqua drrnd drintx drintn dctdp dctqpq drsp drdpq dcffix dcffixq dctfix "
                "ddedpd denbcd dxex diex dscli dscri dcffixqq dctfixqq".split())
HTM_NAMES = set("tbegin tend tendall tabort tabortwc tabortwci tabortdc tabortdci tcheck tsr "
                "tsuspend tresume trechkpt treclaim".split())
PRIVILEGED_NAMES = set(
    "mtmsr mtmsrd mfmsr rfid hrfid urfid rfscv rfi rfci rfmci rfdi tlbie tlbiel tlbia "
    "tlbsync slbie slbieg slbia slbiag slbmte slbmfee slbmfev slbfee slbsync mtsr mtsrin "
    "mfsr mfsrin mtsrd mtsrdin stop nap sleep rvwinkle doze msgsnd msgclr msgsndp msgclrp "
    "msgsync lbzcix lhzcix lwzcix ldcix stbcix sthcix stwcix stdcix rmieg hashstp "
    "hashchkp mtsle dcbi msgclru msgsndu tlbld tlbli".split())
EMBEDDED_NAMES = set("wrtee wrteei mbar msync dcbna tlbre tlbwe tlbsx tlbivax icbtls dcbtls "
                     "mfdcr mtdcr mfpmr mtpmr ehpriv dnh dcread icread dcbtstls icblc dcblc "
                     "mfdcrx mtdcrx mfdcrux mtdcrux".split())
REMOVED = {
    "lfdp": "removed in v3.1 (GNU as 2.40 refuses it with -mpower10)",
    "stfdp": "removed in v3.1 (GNU as 2.40 refuses it with -mpower10)",
    "lfdpx": "removed in v3.1 (GNU as 2.40 refuses it with -mpower10)",
    "stfdpx": "removed in v3.1 (GNU as 2.40 refuses it with -mpower10)",
    "ldmx": "removed in v3.0C",
    "waitasec": "POWER8's wait form (GNU as 2.40 refuses it with -mpower10)",
    "waitimpl": "wait WC=2, reserved since v3.0 (GNU as 2.40 refuses it with -mpower10)",
    "cntlz": "POWER (pre-PowerPC) spelling of cntlzw (GNU as 2.40 refuses it with -mpower10)",
    "mfrtcu": "POWER/601 real-time clock SPR 4 (not in v3.x)",
    "mfrtcl": "POWER/601 real-time clock SPR 5 (not in v3.x)",
    "pbt": "POWER8 implementation-specific (not in v3.1)",
    "mffgpr": "POWER6's FPR/GPR move (GNU as 2.40 refuses it with -mpower10)",
    "mftgpr": "POWER6's FPR/GPR move (GNU as 2.40 refuses it with -mpower10)",
    "eciwx": "external control facility (removed in v3.0)",
    "ecowx": "external control facility (removed in v3.0)",
    "icswx": "coprocessor store word indexed (removed in v3.0)",
    "icswepx": "coprocessor store word indexed (removed in v3.0)",
    "attn": "implementation-specific (POWER's processor attention)",
    "dcbzl": "implementation-specific (PowerPC 970's 128-byte dcbz)",
    "mfbhrbe": "branch history rolling buffer (implementation-dependent, performance monitor)",
    "clrbhrb": "branch history rolling buffer (implementation-dependent, performance monitor)",
    "rfebb": "event-based branch return (performance monitor facility)",
}


def base_mnemonic(line):
    """The line's mnemonic without its branch hint, record bit or DFP q."""
    name = line.split()[0].lower()
    return name.rstrip("+-").rstrip(".")


def spr_number(word):
    """SPR number of an mtspr/mfspr word, else None."""
    if word >> 26 == 31 and (word >> 1) & 0x3ff in (339, 467):
        return ((word >> 16) & 0x1f) | (((word >> 11) & 0x1f) << 5)
    return None


def classify(line, word):
    """(class, why) of a suite line whose first word is ``word``."""
    name = base_mnemonic(line)
    if name in REMOVED:
        return "other", REMOVED[name]
    spr = spr_number(word)
    if spr is not None:
        # Book III: SPR numbers with the 0x10 bit set are privileged
        return ("privileged", f"SPR {spr}") if spr & 0x10 else ("scalar", "")
    if name in PRIVILEGED_NAMES:
        return "privileged", "Book III"
    if name in HTM_NAMES:
        return "other", "transactional memory (HTM)"
    if name in DFP_NAMES or name.rstrip("q") in DFP_NAMES:
        return "other", "decimal floating point"
    if name in EMBEDDED_NAMES:
        return "other", "embedded (Book E)"
    if name in REMOVED:
        return "other", REMOVED[name]
    if name.startswith("dm"):
        return "other", "dense math facility (after v3.1)"
    if name.startswith(VSX_PREFIXES) and name not in ("xsync",):
        return "vsx", ""
    if word >> 26 == 4 and word & 0x3f not in (48, 49, 51):   # maddhd, maddhdu, maddld
        return "vmx", ""
    if name in VMX_NAMES:
        return "vmx", ""
    return "scalar", ""


# -- the suites' files --------------------------------------------------------

def source_lines(path):
    """Instruction lines of an assembler source's .text (comments, labels,
    directives and other sections out); a ``.p2align N`` in .text gives the
    integer N (the dump pads there)."""
    in_text = True
    with open(path) as f:
        for raw in f:
            line = raw.split("#")[0].strip()
            while re.match(r"^[A-Za-z_.$][\w.$]*:", line):
                line = line.split(":", 1)[1].strip()
            m = re.match(r"^\.(text|data|bss|section)\b\s*\"?([\w.]*)", line)
            if m:
                in_text = m.group(1) == "text" or m.group(2) == ".text"
                continue
            m = re.match(r"^\.p2align\s+(\d+)", line)
            if not in_text:
                continue
            if m:
                yield int(m.group(1))
            elif line and not line.startswith("."):
                yield line


def dump_words(path):
    """Each instruction word of a gas .d expectation: (first reading, second
    reading, mask); a byte written with a ``.`` wildcard nibble is masked."""
    words = []
    with open(path) as f:
        for raw in f:
            m = re.match(r"^\.\*:\s*\(((?:[0-9a-f.]{2} ?){4})\|", raw)
            if m is None:
                m = re.match(r"^\s*[0-9a-f]+:\s+((?:[0-9a-f]{2} ){4})", raw)
            if m:
                text = m.group(1).replace(" ", "")
                b = bytes.fromhex(text.replace(".", "0"))
                mask = int("".join("0" if c == "." else "f" for c in text), 16)
                words.append((int.from_bytes(b, "big"), int.from_bytes(b, "little"), mask))
    return words


def undecodable(words):
    """How many of ``words`` GNU objdump 2.40 (-Mpower10, big-endian) cannot name."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "w.bin")
        with open(path, "wb") as f:
            f.write(b"".join(w.to_bytes(4, "big") for w in words))
        out = subprocess.run([OBJDUMP, "-D", "-b", "binary", "-m", "powerpc:common64", "-EB",
                              "-Mpower10", path], capture_output=True, text=True).stdout
    return sum(1 for line in out.splitlines() if ".long" in line or "(bad)" in line)


def gas_pairs(s_path, d_path):
    """(line, [(word, alternative)...]) pairs of a gas test by order."""
    words = dump_words(d_path)
    # most dumps print the big-endian bytes first, some (simpshft.d) the
    # little-endian ones: the file's order is the one GNU objdump can name
    if words and undecodable([w[1] for w in words]) < undecodable([w[0] for w in words]):
        words = [(b, a, int.from_bytes(m.to_bytes(4, "big"), "little"))
                 for a, b, m in words]
    pairs, i = [], 0
    for line in source_lines(s_path):
        if isinstance(line, int):               # padding words up to 2**line bytes
            while i < len(words) and (4 * i) % (1 << line):
                i += 1
            continue
        if i >= len(words):
            break
        n = 2 if words[i][0] >> 26 == 1 else 1     # a v3.1 prefix (first reading)
        pairs.append((line, words[i:i + n]))
        i += n
    return pairs, len(words) - i


def llvm_pairs(path):
    """(line, [(word, mask)]) pairs of an LLVM MC test."""
    pairs, pending = [], None
    with open(path) as f:
        for raw in f:
            s = raw.strip()
            m = re.search(r"CHECK-BE:.*#\s*encoding:\s*\[([^\]]*)(\]?)", s)
            if m:
                pending, complete = m.group(1), bool(m.group(2))
                continue
            m = re.search(r"CHECK-BE-SAME:\s*([^\]]*)(\]?)", s)
            if m and pending is not None and not complete:
                # an 8-byte encoding continues on the next line
                pending, complete = pending.rstrip(", ") + "," + m.group(1), bool(m.group(2))
                continue
            if not s or s.startswith(("#", ";", "//")) or s.startswith("."):
                continue
            line = s.split("#")[0].strip()
            if pending is not None and line and not line.endswith(":"):
                pairs.append((line, llvm_encoding(pending)))
            pending = None
    return pairs


def llvm_encoding(text):
    """[(word, mask)] of an LLVM ``encoding: [..]`` list (A bits are fixups)."""
    value = mask = 0
    nbytes = 0
    for item in text.split(","):
        item = item.strip()
        if item.startswith("0x"):
            v, m = int(item, 16), 0xff
        elif item.startswith("0b"):
            bits = item[2:]
            v = int(bits.replace("A", "0"), 2)
            m = int("".join("0" if c == "A" else "1" for c in bits), 2)
        else:                       # a whole fixup byte
            v, m = 0, 0
        value, mask, nbytes = (value << 8) | v, (mask << 8) | m, nbytes + 1
    out = []
    for k in range(nbytes // 4):
        shift = 32 * (nbytes // 4 - 1 - k)
        out.append(((value >> shift) & 0xffffffff, (mask >> shift) & 0xffffffff))
    return out


# -- GNU as 2.40 --------------------------------------------------------------

def gnu_words(line, tmp):
    """GNU as 2.40's big-endian words for ``line`` alone, or a reason."""
    src, obj = os.path.join(tmp, "l.s"), os.path.join(tmp, "l.o")
    with open(src, "w") as f:
        f.write(f"{line}\ntarget:\n")
    r = subprocess.run([AS, "-a64", "-mbig", "-mpower10", "-mregnames", "-o", obj, src],
                       capture_output=True, text=True)
    if r.returncode != 0 or r.stderr.strip():
        return "refused"
    from elftools.elf.elffile import ELFFile
    with open(obj, "rb") as f:
        elf = ELFFile(f)
        if elf.get_section_by_name(".rela.text") is not None:
            return "relocation"
        data = elf.get_section_by_name(".text").data()
    return [int.from_bytes(data[i:i + 4], "big") for i in range(0, len(data), 4)]


def refers_to_label(line):
    """Whether an operand names a symbol other than ``target`` (or a register)."""
    ops = line.split(None, 1)[1] if " " in line.strip() else ""
    for tok in re.findall(r"(?<![\w.$])[A-Za-z_.$][\w.$@]*", ops):
        if tok == "target" or re.fullmatch(r"(%?[rfv]s?\d+|cr\d|lt|gt|eq|so|un|vs\d+|r\d+)",
                                           tok.lower()):
            continue
        return True
    return False


def main(suites):
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for kind in ("gas", "llvm"):
            folder = os.path.join(suites, kind)
            if not os.path.isdir(folder):
                continue
            for name in sorted(os.listdir(folder)):
                if not name.endswith(".s"):
                    continue
                path = os.path.join(folder, name)
                if kind == "gas":
                    d = path[:-2] + ".d"
                    if not os.path.exists(d):
                        continue
                    pairs, left = gas_pairs(path, d)
                    if left:
                        print(f"{kind}/{name}: {left} words of the .d left unpaired",
                              file=sys.stderr)
                else:
                    pairs = llvm_pairs(path)
                for line, words in pairs:
                    rows.append(pair_row(kind, name, line, words, tmp))
    with open(OUT, "w") as f:
        f.write("# suite\tclass\twhy\tline\texpected words (hex word or word/mask)\t"
                "GNU as 2.40 (line alone, -a64 -mbig -mpower10); tools/suite_pairs.py\n")
        for r in rows:
            f.write("\t".join(r) + "\n")
    print(f"{len(rows)} pairs -> {OUT}", file=sys.stderr)


def pair_row(kind, name, line, words, tmp):
    line = " ".join(line.split()) if kind == "llvm" else re.sub(r"\s+", " ", line, count=1)
    label = refers_to_label(line)
    gnu = "label" if label else gnu_words(line, tmp)
    if kind == "gas":
        # pick the reading GNU as 2.40 agrees with, else the first (big-endian) one
        chosen = [(w[0], w[2]) for w in words]
        if isinstance(gnu, list) and gnu == [w[1] for w in words]:
            chosen = [(g, 0xffffffff) for g in gnu]     # the dump's other reading
        expected = " ".join(f"{w:08x}" if m == 0xffffffff else f"{w:08x}/{m:08x}"
                            for w, m in chosen)
        first = chosen[0][0]
    else:
        expected = " ".join(f"{w:08x}" if m == 0xffffffff else f"{w:08x}/{m:08x}"
                            for w, m in words)
        first = words[0][0]
    cls, why = classify(line, first)
    gnu_text = gnu if isinstance(gnu, str) else " ".join(f"{w:08x}" for w in gnu)
    return [f"{kind}/{name}", cls, why, line, expected, gnu_text]


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
