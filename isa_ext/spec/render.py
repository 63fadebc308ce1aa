"""``isa-ext spec``: the instruction set as a static HTML site and one Markdown file.

Output directory layout::

    index.html           every instruction, by extension
    insn/<name>.html     one page per table row
    svp64/<topic>.html   the prefix, RM and its modes, EXTRA, SVSTATE, SVSHAPE, REMAP
    po22.html            the primary opcode 22 map (cells and rows link their pages)
    errata.html          docs/errata.md rendered, one anchor per entry
    search.html          client-side search over search-index.js
    style.css
    spec.md              the same content as Markdown
"""
import json
import html
import os
import re
from dataclasses import dataclass, field as dc_field

from ..errors import IsaExtError, SpecError
from . import opcode_map, sources
from .layout import encoding_boxes
from .markdown import inline, render as render_markdown

BIT_PX = 24  # width of one bit in the encoding diagram


@dataclass
class InsnInfo:
    row: object
    slug: str
    boxes: list
    variants: list  # [(mnemonic, operands text, {flag: value})]
    reads: list
    writes: list
    pairs: list = dc_field(default_factory=list)  # register-pair fields (RTp ...)
    compile_error: str = None
    errata: list = dc_field(default_factory=list)
    references: dict = dc_field(default_factory=dict)  # None: no tests/ to search
    aliases: list = dc_field(default_factory=list)  # [(name, Alias)]: extended, GLSL
    tests: dict = dc_field(default_factory=dict)  # {path: [test function, ...]}

    @property
    def title(self):
        return self.row.page.title if self.row.page else self.row.mnemonic


def collect(isa, project_root):
    """One :class:`InsnInfo` per table row, in table order."""
    from ..asm import extended_mnemonics
    _errata_text, errata = sources.load_errata(project_root)
    aliases = {}
    for name, alias in sorted(extended_mnemonics(isa).items()):
        aliases.setdefault(alias.base_mnemonic, []).append((name, alias))
    every_name = {v for row in isa.rows for v in row.variants} | \
        {name for mine in aliases.values() for name, _a in mine}
    # (an installed package has no tests/ or examples/: None, not "none found")
    refs = None if project_root is None else sources.scan_references(project_root, every_name)
    covering = sources.row_coverage(project_root)
    infos, slugs = [], set()
    for row in isa.rows:
        slug = re.sub(r"[^A-Za-z0-9_.-]", "_", row.mnemonic)
        if slug in slugs:
            slug = f"{row.extension}-{slug}"
        slugs.add(slug)
        reads, writes, error, used = list(row.ins), list(row.outs), None, []
        try:
            c = isa.compiled(row)
            used = list(c.params)
            reads += [f for f in sorted(c.reads) if f not in reads]
            writes += [f for f in sorted(c.writes) if f not in writes]
        except SpecError as e:
            error = str(e)
        # a register pair (forms.txt "even") is two registers: name both
        pairs = [f for f in row.fields_used if f in isa.forms.even]
        reads, writes = _with_pair_seconds(reads, pairs), _with_pair_seconds(writes, pairs)
        operands = ",".join(str(op) for op in row.operands)
        variants = [(name, operands, flags) for name, flags in row.variants.items()]
        mine = [a for v in row.variants for a in aliases.get(v, ())]
        # errata and tests may name an instruction by an extended mnemonic or a
        # GLSL alias (shuffleNV, ballotThreadNV)
        names = list(row.variants) + [name for name, _a in mine]
        infos.append(InsnInfo(row, slug, encoding_boxes(row, used), variants, reads, writes,
                              pairs,
                              error, sources.errata_for(errata, names),
                              None if refs is None else _with_covering(
                                  sources.references_for(refs, names), covering, row, 1),
                              mine, {} if refs is None else _with_covering(
                                  sources.tests_for(refs, names), covering, row, 2)))
    return infos


def _with_covering(found, covering, row, item):
    """``found`` ({path: [lines or test names]}) with the tests that declare they
    cover every row of ``row``'s extension (sources.row_coverage)."""
    out = {p: list(v) for p, v in found.items()}
    for entry in covering.get(row.extension, ()):
        out.setdefault(entry[0], [])
        if entry[item] not in out[entry[0]]:
            out[entry[0]].append(entry[item])
    return out


def _with_pair_seconds(names, pairs):
    """``names`` with ``RTp+1`` after each pair field ``RTp``."""
    out = []
    for n in names:
        out.append(n)
        if n in pairs and f"{n}+1" not in names:
            out.append(f"{n}+1")
    return out


def _pairs_text(pairs):
    return "; ".join(f"{p} is the pair {p}, {p}+1 (even {p})" for p in pairs)


# --- HTML -----------------------------------------------------------------

def encoding_svg(boxes, mnemonic):
    """An inline SVG of the 32-bit word (a prefixed instruction's 64 bits,
    prefix first): one labelled box per field."""
    e = html.escape
    bits = max([32] + [b.last + 1 for b in boxes])
    width, height = bits * BIT_PX + 2, 66
    parts = [f'<svg class="encoding" xmlns="http://www.w3.org/2000/svg" width="{width}" '
             f'height="{height}" viewBox="0 0 {width} {height}" role="img" '
             f'aria-label="{e(mnemonic)} encoding">']
    for b in boxes:
        x, w = 1 + b.first * BIT_PX, b.width * BIT_PX
        kind = "const" if b.value is not None else ("reserved" if b.field is None else "operand")
        parts.append(f'<g class="field {kind}" data-field="{e(b.label)}">')
        parts.append(f'<text class="bitno" x="{x + 2}" y="11">{b.first}</text>')
        if b.last != b.first:
            parts.append(f'<text class="bitno" x="{x + w - 2}" y="11" text-anchor="end">{b.last}</text>')
        parts.append(f'<rect x="{x}" y="15" width="{w}" height="48"/>')
        parts.append(f'<text class="name" x="{x + w / 2}" y="35" text-anchor="middle">{e(b.label)}</text>')
        if b.value is not None:
            shown = str(b.value) if b.width > 3 else b.value_bits
            parts.append(f'<text class="value" x="{x + w / 2}" y="55" text-anchor="middle">'
                         f'{e(shown)}</text>')
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)


CSS = """body{font-family:sans-serif;margin:1.5em;max-width:60em;color:#222}
nav a{margin-right:1em}
table{border-collapse:collapse;margin:.5em 0}
td,th{border:1px solid #bbb;padding:.2em .5em;text-align:left;vertical-align:top}
pre{background:#f4f4f4;padding:.6em;overflow-x:auto}
svg.encoding rect{fill:#fff;stroke:#333}
svg.encoding .const rect{fill:#dde8ff}
svg.encoding .reserved rect{fill:#eee}
svg.encoding text{font-family:monospace;font-size:12px}
svg.encoding text.bitno{font-size:9px;fill:#666}
svg.encoding text.value{fill:#124}
svg.po22 rect.free{fill:#fff;stroke:#ddd}
svg.po22 rect.ours{fill:#4a7}
svg.po22 rect.openpower-isa{fill:#999}
svg.po22 rect.clash{fill:#d33}
.error{color:#b00}
"""


NAV = (("index.html", "Index"), ("svp64/index.html", "SVP64"), ("po22.html", "PO22 opcode map"),
       ("errata.html", "Errata"), ("search.html", "Search"), ("spec.md", "Markdown"))


def _page(title, body, depth=0, head=""):
    up = "../" * depth
    links = "".join(f'<a href="{up}{href}">{text}</a>' for href, text in NAV)
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<title>{html.escape(title)}</title><link rel="stylesheet" href="{up}style.css">'
            f'{head}</head><body><nav>{links}</nav>\n{body}\n</body></html>\n')


def _match_text(row):
    return " ".join(f"{k}={v}" for k, v in row.match.items())


def insn_html(info):
    e = html.escape
    row = info.row
    page = row.page
    out = [f"<h1><code>{e(row.mnemonic)}</code> — {e(info.title)}</h1>",
           f"<p>Extension <b>{e(row.extension)}</b>, {e(row.form.name)}-Form, "
           f"{e(_match_text(row))}. Table row <code>{e(row.where)}</code>"
           + (f", page <code>{e(page.where)}</code>" if page else "") + ".</p>",
           "<h2>Encoding</h2>", encoding_svg(info.boxes, row.mnemonic),
           "<h2>Assembly syntax</h2><table><tr><th>mnemonic</th><th>operands</th><th>flags</th></tr>"]
    for name, ops, flags in info.variants:
        fl = " ".join(f"{k}={v}" for k, v in flags.items())
        out.append(f"<tr><td><code>{e(name)}</code></td><td><code>{e(ops)}</code></td>"
                   f"<td>{e(fl)}</td></tr>")
    out.append("</table>")
    if info.pairs:
        out.append(f'<p class="pairs">Register pairs: {e(_pairs_text(info.pairs))}.</p>')
    if info.aliases:
        out.append("<h3>Extended mnemonics and aliases</h3><table><tr><th>name</th>"
                   "<th>operands</th><th>is</th><th>defined in</th></tr>")
        for name, a in info.aliases:
            out.append(f"<tr><td><code>{e(name)}</code></td><td><code>{e(', '.join(o.name for o in a.operands))}"
                       f"</code></td><td><code>{e(' '.join(a.expansion))}</code></td>"
                       f"<td>{e(a.where)}</td></tr>")
        out.append("</table>")
    if page and page.description:
        out.append(f"<p>{e(page.description)}</p>")
    out.append("<h2>Pseudocode</h2>")
    out.append(f"<pre class=\"pseudocode\">{e(page.code.rstrip())}</pre>" if page else
               '<p class="error">No pseudocode page.</p>')
    if info.compile_error:
        out.append(f'<p class="error">Does not compile: {e(info.compile_error)}</p>')
    out.append("<h2>Registers</h2><table>"
               f"<tr><th>read</th><td>{e(' '.join(info.reads) or 'none')}</td></tr>"
               f"<tr><th>written</th><td>{e(' '.join(info.writes) or 'none')}</td></tr>")
    if page and page.altered:
        out.append(f"<tr><th>special registers altered</th><td>{e('; '.join(page.altered))}</td></tr>")
    out.append("</table><h2>SVP64</h2>")
    if row.sv:
        out.append(f'<p>RM category <a href="../svp64/rm.html#cat-{e(row.sv)}"><code>'
                   f"{e(row.sv)}</code></a>, EXTRA slots "
                   f'<a href="../svp64/extra.html"><code>{e(" ".join(row.extra))}</code></a>; '
                   f'prefixed as <code>sv.{e(row.mnemonic)}</code> (<a href="../svp64/prefix.html">'
                   'prefix</a>, <a href="../svp64/modes.html">modes</a>).</p>')
    else:
        out.append("<p>Not vectorisable (no RM category).</p>")
    out.append("<h2>Errata</h2>")
    if info.errata:
        # each entry whole, rendered (its bullets are Markdown, not text)
        out.append('<ul class="errata">' + "".join(
            f'<li><a href="../errata.html#{e(x.anchor)}"><b>{inline(x.title)}</b></a> '
            f"(docs/errata.md:{x.line}){render_markdown(x.text)}</li>"
            for x in info.errata) + "</ul>")
    else:
        out.append("<p>None.</p>")
    out.append("<h2>Tests and examples</h2>")
    if info.references:
        out.append("<ul>" + "".join(f"<li><code>{e(p)}</code>{_tests_text(info.tests.get(p), e)}"
                                    f" lines {e(_lines_text(ls))}</li>"
                                    for p, ls in info.references.items()) + "</ul>")
    elif info.references is None:
        out.append("<p>Not listed: an installed package carries no tests/ or examples/ "
                   "(render the site from a checkout for them).</p>")
    else:
        out.append("<p>None found in tests/ or examples/.</p>")
    return _page(f"{row.mnemonic} — {info.title}", "\n".join(out), depth=1)


def _tests_text(names, e):
    """": test_a, test_b," naming a file's test functions that use the instruction."""
    if not names:
        return ""
    shown = ", ".join(f"<code>{e(n)}</code>" for n in names[:6])
    return f": {shown}" + (f" (+{len(names) - 6} more)" if len(names) > 6 else "") + ";"


def _lines_text(lines, limit=8):
    shown = ", ".join(map(str, lines[:limit]))
    return shown + (f" (+{len(lines) - limit} more)" if len(lines) > limit else "")


def index_html(isa, infos):
    e = html.escape
    out = [f"<h1>Instruction set</h1><p>{len(infos)} instructions; extensions "
           f"{e(', '.join(isa.extensions))}.</p>"]
    for ext in isa.extensions:
        mine = [i for i in infos if i.row.extension == ext]
        if not mine:
            continue
        out.append(f'<h2 id="ext-{e(ext)}">{e(ext)}</h2><table><tr><th>mnemonic</th><th>title</th>'
                   "<th>form</th><th>encoding</th><th>SVP64</th></tr>")
        for i in mine:
            out.append(f'<tr><td><a href="insn/{e(i.slug)}.html"><code>{e(i.row.mnemonic)}</code></a></td>'
                       f"<td>{e(i.title)}</td><td>{e(i.row.form.name)}</td>"
                       f"<td>{e(_match_text(i.row))}</td><td>{e(i.row.sv or '—')}</td></tr>")
        out.append("</table>")
    return _page("Instruction set", "\n".join(out))


def po22_html(allocs, slugs=None):
    """The PO22 map; ``slugs`` {mnemonic: page slug} links our rows' cells and
    table rows to their instruction pages."""
    e = html.escape
    slugs = slugs or {}

    def page_of(who):
        names = sorted({a.name for a in who if a.owner != "openpower-isa" and a.name in slugs})
        return f"insn/{slugs[names[0]]}.html" if names else None
    owners = opcode_map.owners_by_key(allocs)
    clashes = opcode_map.collisions(allocs)
    free = opcode_map.free_patterns(owners)
    nfree = sum(1 for o in owners if not o)
    cols, cell = 64, 11
    rows = len(owners) // cols
    svg = [f'<svg class="po22" xmlns="http://www.w3.org/2000/svg" width="{cols * cell + 2}" '
           f'height="{rows * cell + 2}" role="img" aria-label="PO22 key map">']
    for v, who in enumerate(owners):
        x, y = 1 + (v % cols) * cell, 1 + (v // cols) * cell
        kind = "free" if not who else ("clash" if len({a.name for a in who}) > 1 and
                                       len({a.owner for a in who}) > 1 else
                                       ("openpower-isa" if who[0].owner == "openpower-isa" else "ours"))
        label = ", ".join(sorted({a.name for a in who})) or "free"
        rect = (f'<rect class="{kind}" x="{x}" y="{y}" width="{cell - 1}" height="{cell - 1}">'
                f"<title>{format(v, '011b')}: {e(label)}</title></rect>")
        href = page_of(who)
        svg.append(f'<a href="{e(href)}">{rect}</a>' if href else rect)
    svg.append("</svg>")
    out = ["<h1>Primary opcode 22 (sandbox)</h1>",
           f"<p>The 11-bit key is instruction bits {opcode_map.KEY_FIRST}..{opcode_map.KEY_LAST}; "
           "“-” marks a bit the key ignores. Rows of this project are shown with their extension; "
           "openpower-isa's draft rows come from its <code>minor_22.csv</code>. "
           f"{nfree} of {len(owners)} key values are free.</p>",
           "<p>Map: one cell per key value, bits 21..26 down, 27..31 across; green ours, grey "
           "openpower-isa, red both, white free.</p>", "".join(svg)]
    if clashes:
        out.append('<h2 class="error">Collisions</h2><ul>' + "".join(
            f"<li>{e(a.name)} ({e(a.owner)}, <code>{a.key}</code>) and {e(b.name)} ({e(b.owner)}, "
            f"<code>{b.key}</code>)</li>" for a, b in clashes) + "</ul>")
    out.append("<h2>Allocations</h2><table><tr><th>key</th><th>mnemonic</th><th>form</th>"
               "<th>owner</th><th>keys</th></tr>")
    for a in sorted(allocs, key=lambda a: (a.key.replace("-", "2")[::-1], a.name)):
        name = (f'<a href="insn/{e(slugs[a.name])}.html">{e(a.name)}</a>'
                if a.owner != "openpower-isa" and a.name in slugs else e(a.name))
        out.append(f"<tr><td><code>{a.key}</code></td><td>{name}</td><td>{e(a.form)}</td>"
                   f"<td>{e(a.owner)}</td><td>{2 ** a.key.count('-')}</td></tr>")
    out.append("</table><h2>Free space</h2><table><tr><th>key pattern</th><th>keys</th></tr>")
    for p in free:
        out.append(f"<tr><td><code>{p}</code></td><td>{2 ** p.count('-')}</td></tr>")
    out.append("</table>")
    return _page("PO22 opcode map", "\n".join(out))


# --- Markdown -------------------------------------------------------------

def _md_escape(text):
    return text.replace("|", "\\|")


def encoding_md(boxes):
    head = "| " + " | ".join(f"{b.first}" if b.first == b.last else f"{b.first}:{b.last}"
                             for b in boxes) + " |"
    sep = "|" + "---|" * len(boxes)
    names = "| " + " | ".join(_md_escape(b.label) for b in boxes) + " |"
    vals = "| " + " | ".join("" if b.value is None else str(b.value) for b in boxes) + " |"
    return "\n".join([head, sep, names, vals])


def spec_markdown(isa, infos, allocs):
    out = ["# Instruction set", "", f"{len(infos)} instructions; extensions "
           f"{', '.join(isa.extensions)}.", ""]
    for ext in isa.extensions:
        mine = [i for i in infos if i.row.extension == ext]
        if mine:
            out += [f"## Extension {ext}", "", "| mnemonic | title | form | encoding | SVP64 |",
                    "|---|---|---|---|---|"]
            out += [f"| [`{i.row.mnemonic}`](#{_md_anchor(i)}) | {_md_escape(i.title)} | "
                    f"{i.row.form.name} | {_match_text(i.row)} | {i.row.sv or '—'} |" for i in mine]
            out.append("")
    for i in infos:
        row = i.row
        out += [f'<a id="{_md_anchor(i)}"></a>', "", f"### `{row.mnemonic}` — {i.title}", "",
                f"Extension {row.extension}, {row.form.name}-Form ({row.where}).", "",
                encoding_md(i.boxes), "", "Syntax:", ""]
        out += [f"* `{name} {ops}`" + (f" ({' '.join(f'{k}={v}' for k, v in fl.items())})" if fl else "")
                for name, ops, fl in i.variants]
        if i.pairs:
            out += ["", f"Register pairs: {_pairs_text(i.pairs)}."]
        out += ["", "Pseudocode:", "", "```", row.page.code.rstrip() if row.page else "(no page)", "```", ""]
        if i.compile_error:
            out += [f"**Does not compile:** {i.compile_error}", ""]
        out += [f"Registers read: {' '.join(i.reads) or 'none'}; written: {' '.join(i.writes) or 'none'}.",
                "", f"SVP64: {row.sv + ', EXTRA ' + ' '.join(row.extra) if row.sv else 'not vectorisable'}.",
                ""]
        if i.errata:
            out += ["Errata:", ""] + [f"* {x.title} (docs/errata.md:{x.line})" for x in i.errata] + [""]
        if i.references:
            out += ["Tests and examples:", ""] + [
                f"* {p}: " + ("".join(f"{t}, " for t in i.tests.get(p, ())[:6]))
                + f"lines {_lines_text(ls)}" for p, ls in i.references.items()] + [""]
    owners = opcode_map.owners_by_key(allocs)
    out += ["## Primary opcode 22", "", "Key = instruction bits 21..31.", "",
            "| key | mnemonic | form | owner |", "|---|---|---|---|"]
    out += [f"| `{a.key}` | {a.name} | {a.form} | {a.owner} |" for a in allocs]
    out += ["", f"Free: {sum(1 for o in owners if not o)} of {len(owners)} keys.", ""]
    out += [f"* `{p}`" for p in opcode_map.free_patterns(owners)]
    return "\n".join(out) + "\n"


def _md_anchor(info):
    return "insn-" + re.sub(r"[^a-z0-9]+", "-", info.slug.lower()).strip("-")


# --- errata and search -------------------------------------------------------

def errata_html(project_root, infos):
    """docs/errata.md rendered; each entry's heading carries the anchor the
    instruction pages link to, followed by links to those pages."""
    text, entries = sources.load_errata(project_root)
    if text is None:
        return _page("Errata", "<h1>Errata</h1><p>No docs/errata.md beside this spec.</p>")
    body = render_markdown(text, anchor=sources._anchor)
    users = {}
    for i in infos:
        for x in i.errata:
            users.setdefault(x.anchor, []).append(i)
    for x in entries:
        mine = users.get(x.anchor)
        if not mine:
            continue
        links = ", ".join(f'<a href="insn/{html.escape(i.slug)}.html"><code>'
                          f"{html.escape(i.row.mnemonic)}</code></a>" for i in mine)
        marker = f'id="{html.escape(x.anchor)}">'
        at = body.find(marker)
        if at >= 0:
            end = body.find("\n", at)
            end = len(body) if end < 0 else end
            body = body[:end] + f'\n<p class="insns">Instructions: {links}</p>' + body[end:]
    return _page("Errata", body)


def search_index_js(infos, sv_pages):
    """``search-index.js``: every page's title, URL and words to match, as a
    script (a file:// page cannot fetch JSON, it can load a script)."""
    entries = [{"t": f"{i.row.mnemonic} — {i.title}", "u": f"insn/{i.slug}.html",
                "k": " ".join([*i.row.variants, i.row.extension, i.row.form.name,
                               i.row.sv or ""]).lower()} for i in infos]
    entries += [{"t": title, "u": rel, "k": title.lower()} for rel, (title, _b) in sv_pages.items()]
    return "window.SEARCH_INDEX = " + json.dumps(entries, ensure_ascii=False) + ";\n"


SEARCH_HTML = _page("Search", r"""<h1>Search</h1>
<form><input id="q" name="q" type="search" placeholder="mnemonic, title, extension"
 autofocus></form><ul id="results"></ul>
<script src="search-index.js"></script>
<script>
function search(q) {
  var words = q.toLowerCase().split(/\s+/).filter(Boolean), out = [];
  (window.SEARCH_INDEX || []).forEach(function (e) {
    var text = (e.t + " " + e.k).toLowerCase();
    if (words.length && words.every(function (w) { return text.indexOf(w) >= 0; })) out.push(e);
  });
  var ul = document.getElementById("results");
  ul.innerHTML = "";
  out.slice(0, 200).forEach(function (e) {
    var li = document.createElement("li"), a = document.createElement("a");
    a.href = e.u; a.textContent = e.t; li.appendChild(a); ul.appendChild(li);
  });
  ul.setAttribute("data-count", out.length);
}
var q = new URLSearchParams(location.search).get("q") || "";
document.getElementById("q").value = q;
document.getElementById("q").addEventListener("input", function (ev) { search(ev.target.value); });
search(q);
</script>""")


# --- the site ---------------------------------------------------------------

def write_site(isa, out_dir, project_root):
    """Write the HTML site and spec.md to ``out_dir``; returns the InsnInfo list."""
    from . import svp64_pages
    infos = collect(isa, project_root)
    allocs = opcode_map.allocations(isa)
    slugs = {i.row.mnemonic: i.slug for i in infos}
    sv = svp64_pages.pages(infos, isa.categories)
    try:
        os.makedirs(os.path.join(out_dir, "insn"), exist_ok=True)
        os.makedirs(os.path.join(out_dir, "svp64"), exist_ok=True)
        files = {"style.css": CSS, "index.html": index_html(isa, infos),
                 "po22.html": po22_html(allocs, slugs), "spec.md": spec_markdown(isa, infos, allocs),
                 "errata.html": errata_html(project_root, infos),
                 "search.html": SEARCH_HTML, "search-index.js": search_index_js(infos, sv)}
        files.update({f"insn/{i.slug}.html": insn_html(i) for i in infos})
        files.update({rel: _page(title, body, depth=1) for rel, (title, body) in sv.items()})
        for rel, text in files.items():
            with open(os.path.join(out_dir, rel), "w", encoding="utf-8") as f:
                f.write(text)
    except OSError as e:
        raise IsaExtError(f"cannot write the site to {out_dir}: {e.strerror}") from None
    return infos
