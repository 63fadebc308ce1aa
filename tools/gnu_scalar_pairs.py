"""Regenerate tests/data/gnu_scalar_pairs.tsv: each line of
tests/data/gnu_scalar_lines.txt assembled alone by GNU as 2.40
(powerpc64le-linux-gnu-as -a64 -mpower10 -mregnames), kept with its words
when GNU as takes it without a relocation.

The lines follow the families of GNU gas's (gas/testsuite/gas/ppc) and
LLVM's (llvm/test/MC/PowerPC/ppc64-encoding*.s) PowerPC tests; a line
branching to ``target`` has ``target:`` placed right after it.  Lines left
out (GNU as refuses them, they need a relocation, or they are outside
Book I's scalar user level) are written to tests/data/gnu_scalar_left_out.tsv
with the reason.

    python tools/gnu_scalar_pairs.py
"""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data")
AS = "powerpc64le-linux-gnu-as"

# Mnemonics outside this work (issue 32's scalar part): why each is left out
OUT_OF_SCOPE = {
    "privileged (Book III)": "mtmsr mfmsr rfid hrfid tlbie slbia mtsr stop msgsnd "
                             "lbzcix ldcix stbcix mfspefscr",
    "embedded (Book E)": "wrtee msync mbar dcbna",
    "implementation-specific (PowerPC 970's dcbz of 128 bytes)": "dcbzl",
    "hardware transactional memory": "tbegin. tend. tabort.",
    "decimal floating point": "dadd",
    "VMX/VSX (helper s30-vsx)": "vaddubm lxvl mfvscr",
    "v3.1 prefixed (helper s30-prefix)": "pnop",
}
LEFT_OUT = {m: why for why, names in OUT_OF_SCOPE.items() for m in names.split()}


def gnu_words(line, tmp):
    """GNU as's words for ``line`` alone, or (None, reason)."""
    src, obj = os.path.join(tmp, "l.s"), os.path.join(tmp, "l.o")
    with open(src, "w") as f:
        f.write(f"{line}\ntarget:\n")
    r = subprocess.run([AS, "-a64", "-mpower10", "-mregnames", "-o", obj, src],
                       capture_output=True, text=True)
    if r.returncode != 0 or r.stderr.strip():
        return None, "GNU as refuses it: " + r.stderr.strip().splitlines()[-1].split(": ", 2)[-1]
    from elftools.elf.elffile import ELFFile
    with open(obj, "rb") as f:
        elf = ELFFile(f)
        if elf.get_section_by_name(".rela.text") is not None:
            return None, "needs a relocation (isa-ext asm writes no object files)"
        data = elf.get_section_by_name(".text").data()
    return [int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data), 4)], None


def main():
    with open(os.path.join(DATA, "gnu_scalar_lines.txt")) as f:
        lines = [line.rstrip("\n") for line in f if line.strip() and not line.startswith("#")]
    pairs, left = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for line in lines:
            mnemonic = line.split()[0]
            if mnemonic in LEFT_OUT:
                left.append((line, LEFT_OUT[mnemonic]))
                continue
            words, why = gnu_words(line, tmp)
            if words is None:
                left.append((line, why))
            else:
                pairs.append((line, " ".join(f"{w:08x}" for w in words)))
    with open(os.path.join(DATA, "gnu_scalar_pairs.tsv"), "w") as f:
        f.write("# line\tGNU as 2.40 words (little-endian 32-bit, hex); "
                "tools/gnu_scalar_pairs.py writes this file\n")
        f.writelines(f"{a}\t{b}\n" for a, b in pairs)
    with open(os.path.join(DATA, "gnu_scalar_left_out.tsv"), "w") as f:
        f.write("# line\twhy it is not in gnu_scalar_pairs.tsv; tools/gnu_scalar_pairs.py\n")
        f.writelines(f"{a}\t{b}\n" for a, b in left)
    print(f"{len(pairs)} pairs, {len(left)} left out", file=sys.stderr)


if __name__ == "__main__":
    main()
