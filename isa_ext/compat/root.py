"""An openpower-isa checkout's own instruction pages, read unchanged.

``ISA(page_source=read(PATH))`` (``isa-ext run --openpower-root PATH``) reads the
pages under ``PATH/openpower/isa/*.mdwn`` exactly as that project writes them
and compiles them in its pseudocode dialect ("openpower": its parser's
operator precedence, names and helpers; see :mod:`isa_ext.compat.dialect`).  Its form tables
(``openpower/isatables/fields.text``) supply the field names its pages use
that isa_ext's forms do not have (``d0``, ``d1``, ``d2`` of DX-form).

``mode`` says which page an instruction both define runs:

* ``"replace"``: openpower-isa's page replaces isa_ext's;
* ``"beside"``: isa_ext's page stays; openpower-isa's pages serve only the
  instructions isa_ext has no page for.

Encodings stay isa_ext's (its decoder tables) for the instructions isa_ext
has; the others get rows from the checkout's own opcode tables
(:mod:`.tables`: scalar only).  A page with neither is read
and compiled (so its errors are reported) but cannot run:
:attr:`OpenpowerPages.unplaced` lists them, ``table_skips`` says why.
"""
import os
import re
from dataclasses import dataclass, field

from ..errors import SpecError
from ..forms import Field, Form
from ..pseudocode.pages import parse_pages
from . import dialect
from .fields import parse_fields_text

MODES = ("replace", "beside")
OPENPOWER_ORDER = dialect.OPENPOWER_ORDER  # (see form_for)
PAGES_DIR = os.path.join("openpower", "isa")
FIELDS_TEXT = os.path.join("openpower", "isatables", "fields.text")


@dataclass
class OpenpowerPages:
    root: str
    mode: str
    pages: list  # every page read, in file order
    fields: dict  # fields.text: form -> {field -> pieces}
    placed: dict = field(default_factory=dict)  # mnemonic -> page (runs)
    unplaced: list = field(default_factory=list)  # mnemonics with no table row
    table_rows: list = field(default_factory=list)  # rows made from its opcode tables
    table_skips: dict = field(default_factory=dict)  # mnemonic -> why no row was made
    own_pages: dict = field(default_factory=dict)  # isa_ext's pages, before the overlay
    fell_back: dict = field(default_factory=dict)  # mnemonic -> why isa_ext's page runs

    # the page source protocol of isa_ext.isa.ISA (ISA(page_source=...)):
    # one OpenpowerPages serves one ISA

    def apply(self, isa):
        """Lay the pages over ``isa``'s (``mode``), adding rows from the
        checkout's tables for the instructions isa_ext has none for."""
        if self.own_pages:
            raise SpecError(f"{self.root}: these pages are already applied to an ISA; "
                            "read() them again for another")
        from .tables import rows_for
        have = {name for row in isa.rows for name in row.variants}
        self.table_rows = rows_for(self, isa.forms, have, isa.rows, isa.registry.categories)
        isa.rows += self.table_rows
        self.own_pages = dict(isa.pages)
        overlay(self, isa.pages, {name for row in isa.rows for name in row.variants})

    def form_for(self, row, cache):
        """The form ``row``'s page compiles against (see :func:`form_for`)."""
        if row.page.dialect != dialect.NAME:
            return row.form
        return form_for(self, row.form, row.page, cache)

    def fall_back(self, isa, row, error):
        return fall_back(isa, row, error)

    def trap_reason(self, row, error):
        """Why an instruction whose page does not compile traps (None: not
        one of these pages, the error stands)."""
        if row.page is None or row.page.dialect != dialect.NAME:
            return None
        return f"openpower-isa's page does not compile: {error}"


def read(root, mode="replace"):
    """The pages and form fields of the openpower-isa checkout at ``root``."""
    if mode not in MODES:
        raise SpecError(f"openpower pages mode {mode!r}: use one of {', '.join(MODES)}")
    folder = os.path.join(root, PAGES_DIR)
    if not os.path.isdir(folder):
        raise SpecError(f"{root}: no {PAGES_DIR}/ (not an openpower-isa checkout)")
    pages = []
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".mdwn"):
            continue
        path = os.path.join(folder, name)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for page in parse_pages(text, _where(path), "openpower", html_comments=True):
            page.dialect = dialect.NAME
            pages.append(page)
    fields = {}
    ftext = os.path.join(root, FIELDS_TEXT)
    if os.path.isfile(ftext):
        with open(ftext, encoding="utf-8") as f:
            fields = parse_fields_text(f.read(), _where(ftext))
    return OpenpowerPages(root, mode, pages, fields)


def _where(path):
    """How messages name a file: relative when under the current directory."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def overlay(op, pages, known):
    """Put openpower-isa's pages into ``pages`` (mnemonic -> Page, isa_ext's)
    as ``op.mode`` says; ``known``: the mnemonics isa_ext's tables have."""
    for page in op.pages:
        for syn in page.syntaxes:
            name = syn[0]
            if name not in known:
                if name not in op.unplaced:
                    op.unplaced.append(name)
                continue
            if op.mode == "beside" and name in pages:
                continue
            if name in op.placed:  # a later page of the same mnemonic: the first wins
                continue
            mine = pages.get(name)
            if mine is not None:
                page.extension = mine.extension
            pages[name] = page
            op.placed[name] = page


def fall_back(isa, row, error):
    """An openpower-isa page of ``row`` that does not compile: run isa_ext's
    own page instead when there is one (recorded in ``fell_back`` with the
    reason), so "replace" never loses an instruction isa_ext can run.
    Returns that page, or None."""
    op = isa.page_source
    if op is None or row.page is None or row.page.dialect != dialect.NAME:
        return None
    own = op.own_pages.get(row.mnemonic)
    if own is None:
        return None
    op.fell_back[row.mnemonic] = str(error)
    row.page = own
    return own


def form_for(op, form, page, cache):
    """``form`` with the fields the page names that openpower-isa's table of
    its form has and ``form`` lacks (a copy; isa_ext's own form is left as it
    is, and no field the page does not name is added, so that nothing else
    reading the form's fields, SVP64's register operands, sees a change)."""
    named = set(re.findall(r"[A-Za-z_]\w*", page.code))
    extra = {}
    for name, pieces in op.fields.get(page.form, {}).items():
        if name not in named:
            continue
        if name not in form.fields:
            extra[name] = pieces
        elif form.fields[name].pieces != pieces and \
                form.fields[name].bits == {b for a, z in pieces for b in range(a, z + 1)}:
            # the same bits in another order ("sh": isa_ext's is sh5 || sh0:4,
            # the number assembly writes; openpower-isa's is the word's order,
            # its pages permute it): the page reads openpower-isa's
            extra[OPENPOWER_ORDER + name] = pieces
    if not extra:
        return form
    key = (id(form), tuple(sorted(extra.items())))
    if key not in cache:
        fields = dict(form.fields)
        for name, pieces in extra.items():
            fields[name] = Field(name, pieces)
        cache[key] = Form(form.name, fields, form.where)
    return cache[key]


def compile_pages(isa):
    """[(page, error text or None)] for every page of ``isa.page_source``: each
    compiled for the table row of its first mnemonic isa_ext has, else for
    isa_ext's form of the page's form name (so that a page isa_ext cannot run
    yet is still checked)."""
    from ..pseudocode import compiler as pcompiler
    op = isa.page_source
    out, cache = [], {}
    for page in op.pages:
        row = next((isa.by_mnemonic[s[0]][0] for s in page.syntaxes
                    if s[0] in isa.by_mnemonic), None)
        form = row.form if row is not None else isa.forms.forms.get(page.form)
        if form is None:
            out.append((page, f"form {page.form!r} is not in isa_ext's decoder/forms.txt"))
            continue
        form = form_for(op, form, page, cache)
        rc = row.rc if row is not None else ""
        try:
            pcompiler.compile_page(
                page, form, isa.forms.regclass, rc=rc,
                rc_target=isa.rc_target(row) if row is not None and rc == "CR0" else None,
                implicit=tuple(row.implicit) if row is not None else (),
                library=isa.library)
            out.append((page, None))
        except SpecError as e:
            out.append((page, str(e)))
    return out
