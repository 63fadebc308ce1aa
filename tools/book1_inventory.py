"""Write isa_ext/diffcheck/book1_inventory.txt: the Book I (and problem-state
Book II) scalar instruction variants of Power ISA v3.1, from sources that are
not isa_ext's own tables.

    python tools/book1_inventory.py OPENPOWER_ISA_DIR

Sources (names are facts; nothing else is taken):

* openpower-isa's pages of Book I's chapters (``openpower/isa/*.mdwn``: branch,
  condition register, fixed point, floating point, byte reverse, BCD assist,
  SPR moves, string, storage/cache, prefixed loads and stores, bit
  manipulation): every ``* mnemonic operands`` variant line.  libre-soc's draft
  instructions share those pages; a name GNU as 2.40 (-mpower10) does not know
  as an opcode is left out, and so are Book III (privileged) names;
* GNU objdump 2.40's raw names (``-Mpower10,raw``: base instructions, no
  extended mnemonics) of every word of the scalar user-level lines of GNU
  gas's and LLVM's tests (tests/data/suite_pairs.tsv);
* binutils' opcode table, read through GNU objdump 2.40 (``-Mpower10,raw``):
  every primary opcode with its operand fields zero, and for the opcodes with
  an extended opcode (19, 30, 31, 58, 59, 62, 63) every extended-opcode value
  and record bit.  Names the suites' classification (tools/suite_pairs.py)
  puts outside the scalar user level (VMX, VSX, privileged, DFP, HTM, removed)
  are kept, marked out of scope with the reason.

Each line: variant, where it comes from (``openpower``, ``suites``,
``binutils``), and ``in`` or ``out: CLASS (why)`` (the suites' classification).
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "isa_ext", "diffcheck", "book1_inventory.txt")
PAIRS = os.path.join(ROOT, "tests", "data", "suite_pairs.tsv")
AS, OBJDUMP = "powerpc64le-linux-gnu-as", "powerpc64le-linux-gnu-objdump"

BOOK1_PAGES = ("branch condition fixedarith fixedload fixedstore fixedlogical fixedshift "
               "fixedtrap comparefixed fixedsync fixedldstcache byterev bcd sprset stringldst "
               "system fparith fpcvt fpload fpstore fpmove pifixedload pifixedstore pifpload "
               "pifpstore bitmanip").split()

sys.path.insert(0, os.path.join(ROOT, "tools"))
from suite_pairs import PRIVILEGED_NAMES, base_mnemonic  # noqa: E402


def page_variants(isa_dir):
    names = set()
    for page in BOOK1_PAGES:
        with open(os.path.join(isa_dir, "openpower", "isa", page + ".mdwn")) as f:
            for line in f:
                m = re.match(r"^\* (\S+)", line)
                if m:
                    names.add(m.group(1))
    return names


def gnu_knows(names, tmp):
    """The names GNU as 2.40 (-mpower10) knows as opcodes (an operand error is
    fine: only "unrecognized opcode" means it does not)."""
    src = os.path.join(tmp, "n.s")
    with open(src, "w") as f:
        f.writelines(f"{n}\n" for n in sorted(names))
    r = subprocess.run([AS, "-a64", "-mpower10", "-o", os.path.join(tmp, "n.o"), src],
                       capture_output=True, text=True)
    unknown = set(re.findall(r"unrecognized opcode: `([^'`\s]+)", r.stderr))
    return {n for n in names if n not in unknown}


def suite_variants(tmp):
    words = []
    with open(PAIRS) as f:
        for row in f:
            if row.startswith("#"):
                continue
            cols = row.rstrip("\n").split("\t")
            if cols[1] == "scalar":
                words.append([int(w.split("/")[0], 16) for w in cols[4].split()])
    blob = b"".join(w.to_bytes(4, "big") for ws in words for w in ws)
    path = os.path.join(tmp, "w.bin")
    with open(path, "wb") as f:
        f.write(blob)
    out = subprocess.run([OBJDUMP, "-D", "-b", "binary", "-m", "powerpc:common64", "-EB",
                          "-Mpower10,raw", path], capture_output=True, text=True,
                         check=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split("\t")
        if len(parts) >= 3 and parts[0].strip().endswith(":") and parts[2].strip():
            name = parts[2].split()[0]
            if not name.startswith(("."),) and name != "<unknown>":
                names.add(name)
    return names


def sweep_words():
    """One word per opcode-table slot: operand fields zero."""
    words = [po << 26 for po in range(64) if po not in (1, 4, 19, 30, 31, 57, 58, 59, 60,
                                                         61, 62, 63)]
    for po in (19, 31, 59, 63):                 # X/XO/XFX/A forms: bits 21-30, Rc
        words += [(po << 26) | (xo << 1) | rc for xo in range(1024) for rc in (0, 1)]
    words += [(30 << 26) | (xo << 1) | rc for xo in range(16) for rc in (0, 1)]   # MD/MDS
    for po in (58, 62):                         # DS forms: bits 30-31
        words += [(po << 26) | xo for xo in range(4)]
    return words


def binutils_variants(tmp):
    from suite_pairs import classify
    words = sweep_words()
    path = os.path.join(tmp, "s.bin")
    with open(path, "wb") as f:
        f.write(b"".join(w.to_bytes(4, "big") for w in words))
    out = subprocess.run([OBJDUMP, "-D", "-b", "binary", "-m", "powerpc:common64", "-EB",
                          "-Mpower10,raw", path], capture_output=True, text=True,
                         check=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split("\t")
        if len(parts) >= 3 and parts[0].strip().endswith(":") and parts[2].strip():
            name = parts[2].split()[0]
            word = words[int(parts[0].strip()[:-1], 16) // 4]
            if name.startswith(".") or name == "<unknown>":
                continue
            names.add((name, word))
    return names


def main(isa_dir):
    with tempfile.TemporaryDirectory() as tmp:
        pages = {n for n in gnu_knows(page_variants(isa_dir), tmp)
                 if base_mnemonic(n) not in PRIVILEGED_NAMES and n not in ("hrfid", "rfid")}
        suites = suite_variants(tmp)
        swept = binutils_variants(tmp)
    from suite_pairs import classify
    first_word = {}
    for name, word in sorted(swept):
        first_word.setdefault(name, word)
    binutils = set(first_word)
    rows = []
    sources = (("openpower", pages), ("suites", suites), ("binutils", binutils))
    for name in sorted(pages | suites | binutils):
        src = " ".join(s for s, names in sources if name in names)
        cls, why = classify(name, first_word.get(name, 0))
        scope = "in" if cls == "scalar" else f"out: {cls}" + (f" ({why})" if why else "")
        rows.append(f"{name}\t{src}\t{scope}\n")
    with open(OUT, "w") as f:
        f.write("# Power ISA v3.1 Book I (and problem-state Book II) scalar variants, from\n"
                "# openpower-isa's Book I pages (names GNU as 2.40 knows), GNU objdump\n"
                "# 2.40's raw names of the suites' scalar words, and binutils' opcode\n"
                "# table swept through objdump; tools/book1_inventory.py\n")
        f.writelines(rows)
    print(f"{len(rows)} variants -> {OUT}", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
