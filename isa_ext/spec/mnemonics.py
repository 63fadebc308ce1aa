"""Mnemonic coverage of openpower-isa's instruction pages.

openpower-isa (libre-soc) lists every instruction variant on a ``* mnemonic
operands`` syntax line of its pages ``openpower/isa/*.mdwn``.  This module
reads those lines, from a checkout or straight from its tarball, and says
which mnemonics isa_ext's tables know.  The privileged and hypervisor
instructions are left out (issue 15's scope is the user-level set).

A page may define an instruction that has no encoding: libre-soc wrote the
pages of some draft instructions (the shifted and post-increment loads and
stores, the FFT butterflies' ffadd/ffsub/ffmul/ffdiv forms) before giving
them opcodes.  Such a mnemonic cannot be assembled or decoded by anyone, so
the report puts it in its own category, "no encoding exists": a user-level
mnemonic none of the snapshot's opcode tables (``openpower/isatables/``
major.csv, minor_*.csv, extra.csv) has a row for.  docs/errata.md (SV-25)
lists each with the other sources checked.

    python -m isa_ext.spec.mnemonics PATH    # a checkout or openpower-isa.tar.gz
"""
import csv
import os
import re
import sys
import tarfile

# privileged / hypervisor instructions (MSR moves, TLB and cache-inhibited
# accesses, interrupt returns, scv): not part of a user-level instruction set
PRIVILEGED = re.compile(r"^(mtmsr.*|mfmsr|tlbie|dcbz|.*cix|rfid|hrfid|rfscv|scv)$")
PAGES = re.compile(r"(^|/)openpower/isa/[^/]+\.mdwn$")
# the opcode tables: a row's mnemonic is its "comment" column (RM-*.csv rows
# are SVP64 register maps, not encodings; *.disable tables are switched off)
OPCODE_TABLES = re.compile(r"(^|/)openpower/isatables/(major|minor_[0-9a-z_]+|extra)\.csv$")


def _page_texts(path):
    """(page file name, text) of every instruction page under ``path``."""
    if os.path.isdir(path):
        folder = os.path.join(path, "openpower", "isa")
        for name in sorted(os.listdir(folder)):
            if name.endswith(".mdwn"):
                with open(os.path.join(folder, name), encoding="utf-8") as f:
                    yield name, f.read()
        return
    with tarfile.open(path) as t:
        for m in sorted(t.getmembers(), key=lambda m: m.name):
            if m.isfile() and PAGES.search(m.name):
                yield os.path.basename(m.name), t.extractfile(m).read().decode("utf-8")


def reference_mnemonics(path):
    """{mnemonic: page file} of every ``* mnemonic`` line, privileged ones included."""
    out = {}
    for page, text in _page_texts(path):
        for line in text.splitlines():
            if line.startswith("* ") and len(line.split()) > 1:
                out.setdefault(line.split()[1], page)
    return out


def _table_texts(path):
    """The text of every opcode table under ``path`` (a checkout or tarball)."""
    if os.path.isdir(path):
        folder = os.path.join(path, "openpower", "isatables")
        for name in sorted(os.listdir(folder)):
            if OPCODE_TABLES.search("openpower/isatables/" + name):
                with open(os.path.join(folder, name), encoding="utf-8") as f:
                    yield f.read()
        return
    with tarfile.open(path) as t:
        for m in sorted(t.getmembers(), key=lambda m: m.name):
            if m.isfile() and OPCODE_TABLES.search(m.name):
                yield t.extractfile(m).read().decode("utf-8")


def table_mnemonics(path):
    """Every mnemonic an opcode table row of ``path`` encodes."""
    out = set()
    for text in _table_texts(path):
        lines = [line for line in text.splitlines() if not line.startswith("#")]
        for rec in csv.DictReader(lines):
            if rec.get("opcode") and rec.get("comment"):
                out.add(rec["comment"].strip())
    return out


def encodable(mnemonic, rows):
    """Whether a page mnemonic has a table row: its own, or its base
    instruction's (Rc=1 ``X.`` and OE=1 ``Xo`` variants share X's row; an
    ``sv.X`` form is X's row with a prefix)."""
    name = mnemonic[3:] if mnemonic.startswith("sv.") else mnemonic
    name = name.rstrip(".")
    return name in rows or (name.endswith("o") and name[:-1] in rows)


def known(isa, mnemonic):
    """Whether isa_ext has ``mnemonic``: a table variant, or ``sv.X`` for an
    SVP64-capable row X."""
    if mnemonic.startswith("sv."):
        entry = isa.by_mnemonic.get(mnemonic[3:])
        return entry is not None and bool(entry[0].sv)
    return mnemonic in isa.by_mnemonic


def coverage(isa, path):
    """(user-level mnemonics {name: page}, the ones isa_ext lacks {name: page})."""
    user = {m: p for m, p in reference_mnemonics(path).items() if not PRIVILEGED.match(m)}
    return user, {m: p for m, p in user.items() if not known(isa, m)}


def classify(isa, path):
    """(user-level mnemonics, the ones isa_ext lacks that have an encoding,
    the ones no opcode table encodes), each {name: page}; the last two are
    disjoint and together what isa_ext lacks."""
    user, missing = coverage(isa, path)
    rows = table_mnemonics(path)
    no_encoding = {m: p for m, p in missing.items() if not encodable(m, rows)}
    lacking = {m: p for m, p in missing.items() if m not in no_encoding}
    return user, lacking, no_encoding


def _by_page(names):
    by_page = {}
    for m, p in sorted(names.items()):
        by_page.setdefault(p, []).append(m)
    return sorted(by_page.items())


def report(isa, path):
    user, lacking, no_encoding = classify(isa, path)
    have = len(user) - len(lacking) - len(no_encoding)
    encodable_count = len(user) - len(no_encoding)
    lines = [f"{have} of {len(user)} user-level mnemonics ({100 * have / len(user):.1f}%)",
             f"{have} of {encodable_count} that have an encoding "
             f"({100 * have / encodable_count:.1f}%)",
             f"{len(no_encoding)} with no encoding in any opcode table (docs/errata.md SV-25)"]
    for page, names in _by_page(lacking):
        lines.append(f"  {page}: {len(names)} missing: {' '.join(names)}")
    for page, names in _by_page(no_encoding):
        lines.append(f"  {page}: {len(names)} no encoding exists: {' '.join(names)}")
    return "\n".join(lines)


def main(argv=None):
    from ..isa import ISA
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    print(report(ISA(), argv[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
