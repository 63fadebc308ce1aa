"""Instruction pages in openpower-isa's Markdown format::

    # Add

    XO-Form

    * add RT,RA,RB (OE=0 Rc=0)
    * add. RT,RA,RB (OE=0 Rc=1)

    Pseudo-code:

        RT <- (RA) + (RB)

    Special Registers Altered:

        CR0                     (if Rc=1)

One ``.mdwn`` file holds any number of pages.
"""
import re
from ..records import record

from ..errors import SpecError


@record
class Page:
    title: str
    form: str
    syntaxes: list  # [(mnemonic, operands_text, {flag: value})]
    code: str  # the pseudocode block, dedented
    code_line: int  # line number in the file of the first pseudocode line
    altered: list  # "Special Registers Altered" lines
    filename: str
    line: int  # line of the "# Title"
    extension: str = ""
    description: str = ""
    # the pseudocode's operator precedence and naming: "book" (isa_ext's own
    # pages) or "openpower" (pages read from an openpower-isa checkout)
    dialect: str = "book"

    @property
    def mnemonic(self):
        return self.syntaxes[0][0] if self.syntaxes else ""

    @property
    def where(self):
        return f"{self.filename}:{self.line}"


# "* add. RT,RA,RB (OE=0 Rc=1)": the trailing parenthesis holds flag=value items;
# a parenthesis without "=" belongs to the operands ("RT,D(RA)").
_SYNTAX = re.compile(r"^\*\s+(\S+)\s*(.*?)\s*(?:\(([^()]*=[^()]*)\))?\s*$")


def parse_pages(text, filename, extension="", html_comments=False):
    """``html_comments``: a "<!-- ... -->" line inside a pseudocode block is
    a comment (openpower-isa's page reader skips them, at any indentation)."""
    if html_comments:  # blank, so line numbers stay
        text = "\n".join("" if line.lstrip().startswith("<!--") else line
                         for line in text.split("\n"))
    pages = []
    lines = text.splitlines()
    i = 0
    n = len(lines)
    while i < n:
        line = lines[i]
        if line.startswith("# "):
            page, i = _parse_one(lines, i, filename, extension)
            pages.append(page)
        else:
            i += 1
    return pages


def _parse_one(lines, i, filename, extension):
    title = lines[i][2:].strip()
    start = i + 1
    page = Page(title=title, form="", syntaxes=[], code="", code_line=0, altered=[],
                filename=filename, line=i + 1, extension=extension)
    i += 1
    n = len(lines)
    desc = []
    while i < n and not lines[i].startswith("# "):
        line = lines[i]
        s = line.strip()
        if s.endswith("-Form") and not page.form and not line.startswith(" "):
            page.form = s[: -len("-Form")]
        elif s.startswith("* ") and not line.startswith("    "):
            m = _SYNTAX.match(s)
            if not m:
                raise SpecError(f"bad syntax line {s!r}", f"{filename}:{i + 1}")
            flags = {}
            for item in (m.group(3) or "").split():
                if "=" in item:
                    k, v = item.split("=", 1)
                    flags[k] = int(v, 0)
            page.syntaxes.append((m.group(1), m.group(2).replace(" ", ""), flags))
        elif s == "Pseudo-code:":
            i += 1
            block = []
            first = None
            while i < n and (not lines[i].strip() or lines[i].startswith((" ", "\t"))):
                if lines[i].strip() and first is None:
                    first = i + 1
                if first is not None:  # code line 1 is file line code_line
                    block.append(lines[i])
                i += 1
            page.code = _dedent(block)
            page.code_line = first or i
            continue
        elif s == "Special Registers Altered:":
            i += 1
            while i < n and (not lines[i].strip() or lines[i].startswith((" ", "\t"))):
                if lines[i].strip():
                    page.altered.append(lines[i].strip())
                i += 1
            continue
        elif s and not s.startswith("<!--"):
            desc.append(s)
        i += 1
    page.description = "\n".join(desc)
    if not page.form:
        raise SpecError(f"page {title!r} has no 'X-Form' line", f"{filename}:{start}")
    return page, i


def _dedent(block):
    while block and not block[-1].strip():
        block.pop()
    width = min((len(l) - len(l.lstrip()) for l in block if l.strip()), default=0)
    return "\n".join(l[width:] for l in block) + "\n"
