"""Mnemonic coverage of openpower-isa's instruction pages.

openpower-isa (libre-soc) lists every instruction variant on a ``* mnemonic
operands`` syntax line of its pages ``openpower/isa/*.mdwn``.  This module
reads those lines, from a checkout or straight from its tarball, and says
which mnemonics isa_ext's tables know.  The privileged and hypervisor
instructions are left out (issue 15's scope is the user-level set).

    python -m isa_ext.spec.mnemonics PATH    # a checkout or openpower-isa.tar.gz
"""
import os
import re
import sys
import tarfile

# privileged / hypervisor instructions (MSR moves, TLB and cache-inhibited
# accesses, interrupt returns, scv): not part of a user-level instruction set
PRIVILEGED = re.compile(r"^(mtmsr.*|mfmsr|tlbie|dcbz|.*cix|rfid|hrfid|rfscv|scv)$")
PAGES = re.compile(r"(^|/)openpower/isa/[^/]+\.mdwn$")


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


def report(isa, path):
    user, missing = coverage(isa, path)
    have = len(user) - len(missing)
    lines = [f"{have} of {len(user)} user-level mnemonics ({100 * have / len(user):.1f}%)"]
    by_page = {}
    for m, p in sorted(missing.items()):
        by_page.setdefault(p, []).append(m)
    for page, names in sorted(by_page.items()):
        lines.append(f"  {page}: {len(names)} missing: {' '.join(names)}")
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
