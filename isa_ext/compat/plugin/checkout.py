"""Facts read from an openpower-isa checkout, and reversible edits to it.

The plugin (:mod:`isa_ext.compat.plugin`) finds the checkout (:func:`locate`) and asks these before installing, so that
it installs nothing openpower-isa already defines and nothing it cannot read:
the mnemonics its pages define, its instruction forms and their fields
(``openpower/isatables/fields.text``), the members of its typed table columns
(``In1Sel`` ... in ``power_enums.py``) and the helper functions its generated
code can call.  :class:`Edits` remembers every file's original bytes, so
uninstall restores the checkout byte-exact.
"""
import json
import os
import re

from ...errors import IsaExtError

ENUMS_PY = os.path.join("src", "openpower", "decoder", "power_enums.py")
HELPERS_PY = os.path.join("src", "openpower", "decoder", "helpers.py")
CALLER_PY = os.path.join("src", "openpower", "decoder", "isa", "caller.py")
HELPER_MODULE = os.path.join("src", "openpower", "decoder", "isa_ext_helpers.py")
FIELDS_TEXT = os.path.join("openpower", "isatables", "fields.text")
MINOR22 = os.path.join("openpower", "isatables", "minor_22.csv")
MANIFEST = os.path.join("openpower", "isa_ext_installed.json")
# caller.py's list of instructions binutils cannot assemble (names it takes from
# the decoder instead of the program's ".long" text)
CALLER_NAME_LIST = r"^( *)if dotstrp in \[\*FPTRANS_INSNS,\n.*?^( *)\]:"
# caller.py's call(): the line that starts the SVP64 element loop (it reads the
# predicates and may skip the instruction); the decode-time check hook goes before it
CALLER_LOOP_START = "        if (self.is_svp64_mode or ins_name in ['svstep']):\n"

# minor_22.csv / RM-*.csv column -> openpower-isa enum whose member names it holds
TYPED_COLUMNS = {"in1": "In1Sel", "in2": "In2Sel", "in3": "In3Sel", "out": "OutSel",
                 "CR in": "CRInSel", "CR out": "CROutSel"}
# names openpower-isa's parser turns into something other than self.NAME(...) calls
# (parser.SPECIAL_HELPERS) or that the simulator defines outside helpers.py
_BUILTIN_CALLS = {"concat", "MEM", "GPR", "FPR", "SPR", "pow", "CR", "EXTS", "EXTZ",
                  "ROTL32", "ROTL64", "MASK", "length", "ne", "eq", "gt", "ge", "lt", "le",
                  "ltu", "gtu", "RANGE", "SINGLE", "DOUBLE"}


class Checkout:
    def __init__(self, root):
        self.root = root
        self.isa_dir = os.path.join(root, "openpower", "isa")
        self.tables = os.path.join(root, "openpower", "isatables")

    def path(self, rel):
        return os.path.join(self.root, rel)

    def read(self, rel):
        with open(self.path(rel), encoding="utf-8") as f:
            return f.read()

    def has(self, rel):
        return os.path.isfile(self.path(rel))

    def mnemonics(self, skip=()):
        """Mnemonics openpower-isa's own pages define ("* name operands" lines)."""
        out = set()
        for fn in sorted(os.listdir(self.isa_dir)):
            if fn.endswith(".mdwn") and fn not in skip:
                with open(os.path.join(self.isa_dir, fn), encoding="utf-8") as f:
                    out |= set(re.findall(r"^\* ?([\w.]+)", f.read(), re.M))
        return out

    def enum_members(self, name):
        """Member names of ``class name(Enum)`` in power_enums.py (aliases included)."""
        if not self.has(ENUMS_PY):
            return None
        m = re.search(rf"^class {name}\(Enum\):\n((?:    .*\n|\n)*)", self.read(ENUMS_PY), re.M)
        return set(re.findall(r"^    (\w+) *=", m.group(1), re.M)) if m else set()

    def registered_insns(self):
        """power_enums._insns: the names its decoder can report (else "NONE")."""
        if not self.has(ENUMS_PY):
            return None
        m = re.search(r"^_insns = \[\n(.*?)^\]", self.read(ENUMS_PY), re.M | re.S)
        return set(re.findall(r'"([^"]+)"', m.group(1))) if m else set()

    def forms(self):
        """{FORM: {field: bits}} as openpower-isa's DecodeFields builds its forms:
        from the "Instruction Fields" section of fields.text (the last one), an
        entry "NAME (first:last,bit...)" belonging to every form of its
        "Formats:" line.  ``bits`` is a tuple of (first, last) pieces."""
        out = {}
        text = self.read(FIELDS_TEXT)
        section = text[text.rindex("\n# "):]
        for m in re.finditer(r"^    (\S+) \(([^)]*)\)\n(?:        (?!Formats).*\n)*"
                             r"        Formats: (.*)$", section, re.M):
            bits = tuple(tuple(int(x) for x in piece.split(":")) if ":" in piece
                         else (int(piece), int(piece)) for piece in m.group(2).split(","))
            for form in m.group(3).replace(" ", "").split(","):
                for name, piece in zip(m.group(1).split(","), bits) if "," in m.group(1) \
                        else [(m.group(1), bits)]:
                    piece = piece if isinstance(piece[0], tuple) else (piece,)
                    out.setdefault(form, {}).setdefault(name, piece)
        return out

    def layout_problems(self):
        """The places install edits, missing from this checkout's files (another
        openpower-isa version): install refuses rather than half-install."""
        out = []
        if not re.search(r"^_insns = \[\n.*?^\]", self.read(ENUMS_PY), re.M | re.S):
            out.append(f"{ENUMS_PY}: no '_insns = [' list to register mnemonics in")
        if not re.search(r"^class ISACallerHelper\b", self.read(HELPERS_PY), re.M):
            out.append(f"{HELPERS_PY}: no class ISACallerHelper to attach helpers to")
        if not re.search(CALLER_NAME_LIST, self.read(CALLER_PY), re.M | re.S):
            out.append(f"{CALLER_PY}: no 'if dotstrp in [*FPTRANS_INSNS,' list of "
                       "instructions binutils cannot assemble")
        if self.read(CALLER_PY).count(CALLER_LOOP_START) != 1:
            out.append(f"{CALLER_PY}: no single {CALLER_LOOP_START.strip()!r} line (the start "
                       "of the SVP64 element loop, where the group-walk hook goes)")
        if "\n# " not in self.read(FIELDS_TEXT):
            out.append(f"{FIELDS_TEXT}: no sections")
        return out

    def helper_names(self):
        """Functions a generated page may call: helpers.py's defs, isafunctions
        pages' defs, ISACaller methods, and the parser's special names."""
        names = set(_BUILTIN_CALLS)
        for rel in (HELPERS_PY, CALLER_PY, HELPER_MODULE):
            if self.has(rel):
                names |= set(re.findall(r"^\s*def (\w+)\(", self.read(rel), re.M))
        fn_dir = self.path(os.path.join("openpower", "isafunctions"))
        if os.path.isdir(fn_dir):
            for fn in os.listdir(fn_dir):
                if fn.endswith(".mdwn"):
                    with open(os.path.join(fn_dir, fn), encoding="utf-8") as f:
                        names |= set(re.findall(r"^\s*def (\w+)\(", f.read(), re.M))
        return names


def field_entry(name, pieces, form, why):
    """A fields.text "Instruction Fields" entry adding field ``name`` to ``form``."""
    bits = ",".join(f"{a}:{b}" if a != b else f"{a}" for a, b in pieces)
    return f"    {name} ({bits})\n        {why}\n        Formats: {form}\n"


class Edits:
    """Changes to a checkout, remembered in a manifest so that :meth:`restore`
    puts back every original byte and removes every created file."""

    def __init__(self, co):
        self.co = co
        self.manifest = co.path(MANIFEST)
        self.saved = {}
        if os.path.exists(self.manifest):
            with open(self.manifest, encoding="utf-8") as f:
                self.saved = json.load(f)["files"]

    def installed(self):
        if not os.path.exists(self.manifest):
            return []
        with open(self.manifest, encoding="utf-8") as f:
            return json.load(f)["extensions"]

    def write(self, rel, text):
        self.snapshot(rel)
        with open(self.co.path(rel), "w", encoding="utf-8") as f:
            f.write(text)

    def snapshot(self, rel):
        """Remember ``rel``'s original bytes (or its absence) once."""
        path = self.co.path(rel)
        if rel not in self.saved:
            if os.path.exists(path):
                with open(path, "rb") as f:
                    self.saved[rel] = f.read().decode("latin-1")
            else:
                self.saved[rel] = None

    def commit(self, extensions):
        with open(self.manifest, "w", encoding="utf-8") as f:
            json.dump({"extensions": list(extensions), "files": self.saved}, f)

    def restore(self):
        for rel, text in self.saved.items():
            path = self.co.path(rel)
            if text is None:
                if os.path.exists(path):
                    os.remove(path)
            else:
                with open(path, "wb") as f:
                    f.write(text.encode("latin-1"))
        self.saved = {}
        if os.path.exists(self.manifest):
            os.remove(self.manifest)


class OpenPowerError(IsaExtError):
    pass


# --- locating openpower-isa ---------------------------------------------------

def locate(root=None):
    """(isa_dir, tables_dir) of openpower-isa: under ``root`` (a checkout) if
    given, else of the importable ``openpower`` package (installed from a checkout)."""
    if root is None:
        try:
            from openpower.decoder.power_enums import find_wiki_dir
        except ImportError:
            raise OpenPowerError("openpower-isa is not importable (install it from a "
                                 "checkout, or pass --root CHECKOUT)") from None
        tables = find_wiki_dir()
        root = os.path.dirname(os.path.dirname(tables))
    isa_dir = os.path.join(root, "openpower", "isa")
    tables = os.path.join(root, "openpower", "isatables")
    if not os.path.isdir(isa_dir) or not os.path.isfile(os.path.join(tables, "minor_22.csv")):
        raise OpenPowerError(f"{root}: not an openpower-isa checkout "
                             "(no openpower/isa/ or openpower/isatables/minor_22.csv)")
    lacking = [rel for rel in (FIELDS_TEXT, ENUMS_PY, HELPERS_PY, CALLER_PY)
               if not os.path.isfile(os.path.join(root, rel))]
    if lacking:
        raise OpenPowerError(f"{root}: not a complete openpower-isa checkout (no "
                             f"{', '.join(lacking)}: install edits them)")
    return isa_dir, tables
