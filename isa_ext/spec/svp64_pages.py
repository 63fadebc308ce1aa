"""The spec site's SVP64 pages: the prefix, RM fields and categories, every
mode, EXTRA2/EXTRA3, SVSTATE, SVSHAPE and REMAP.

Every layout and table here is read from the code that implements it
(``svp64/rm.py``, ``svp64/extra.py``, ``svp64/svstate.py``,
``svp64/remap.py``), and ``MODES`` is checked against ``rm.decode_mode`` by
tests/tools/test_spec_svp64_pages.py, so the pages say what the simulator does.
"""
import html

from ..svp64 import extra as X
from ..svp64 import remap as R
from ..svp64 import rm as RMM
from ..svp64 import svstate as SV
from .layout import Box

# (mode table, MODE bits RM[19:23] as written in the SVP64 spec, mode name
# (rm.RM.mode; "reserved" and "not implemented" trap), the fields it gives)
MODES = [
    ("normal", "0 0 0 dz sz", "normal",
     "simple mode: dz/sz zero masked-out destination/source elements"),
    ("normal", "0 0 1 0 RG", "mapreduce", "map-reduce; RG reverse gear (steps run from VL-1 down)"),
    ("normal", "0 0 1 1 -", "reserved", "reserved (traps)"),
    ("normal", "VLi 1 inv CRbit", "ffirst", "data-dependent fail-first, Rc=1: stop (VL truncated) "
     "when CR bit CRbit of an element's CR field is not inv; VLi includes the failing element"),
    ("normal", "VLi 1 inv zz RC1", "ffirst", "data-dependent fail-first, Rc=0: the EQ bit of the "
     "result's CR (as if Rc=1) is tested; RC1 records that CR instead of the result"),
    ("normal", "1 0 N dz sz", "sat", "saturation: N=0 unsigned, N=1 signed, at the element width"),
    ("crop", "0 0 0 dz sz", "normal", "CR operations, simple mode"),
    ("crop", "0 0 1 0 RG", "mapreduce", "CR-op map-reduce, RG reverse gear"),
    ("crop", "0 0 1 1 CRM", "not implemented", "CR-op parallel reduce (traps: not implemented)"),
    ("crop", "VLi 1 inv CRbit", "ffirst", "CR-op data-dependent fail-first"),
    ("crop", "1 0 - - -", "reserved", "reserved (traps)"),
    ("ldst", "els 0 PI zz LF", "normal", "LD/ST simple: els element-strided, PI post-increment, "
     "zz zeroing, LF (immediate forms) / SEA (indexed forms)"),
    ("ldst", "VLi 1 inv els RC1", "ffirst", "LD/ST data-dependent fail-first on the data's EQ bit"),
]
MODE_TABLES = {"normal": "arithmetic and logical rows (RM-*)",
               "crop": "CR operations (crand, mcrf, ...: the CR-op table, cr_ops.mdwn)",
               "ldst": "loads and stores (LDSTRM-*: ldst.mdwn)"}

PAGES = {  # slug: (title, summary for the index and search)
    "prefix": ("SVP64 prefix", "the 32-bit prefix word and where RM sits in it"),
    "rm": ("RM fields and categories", "MASKMODE MASK ELWIDTH ELWIDTH_SRC SUBVL EXTRA MODE; "
           "predicate selectors; RM categories"),
    "modes": ("SVP64 modes", "the MODE field: simple, map-reduce, fail-first, saturation, "
              "CR-op and LD/ST modes"),
    "extra": ("EXTRA2 and EXTRA3", "register extension: scalar/vector, register numbers up to 127"),
    "svstate": ("SVSTATE", "the loop-state SPR: MAXVL VL srcstep dststep substeps REMAP fields"),
    "svshape": ("SVSHAPE0-3", "REMAP shape SPRs: dimensions, permute, invxyz, offset, skip, mode"),
    "remap": ("REMAP", "element index schedules: Matrix, Indexed, FFT/DCT, reduction"),
}


def boxes_of(fields):
    """Boxes for a {name: (first, last)} layout, unnamed gaps as reserved."""
    out, at = [], 0
    for name, (a, b) in sorted(fields.items(), key=lambda kv: kv[1]):
        if a > at:
            out.append(Box(at, a - 1, "/"))
        out.append(Box(a, b, name, field=name))
        at = b + 1
    return out, at


def layout_svg(boxes, nbits, label):
    """An inline SVG of an ``nbits``-bit register: one labelled box per field."""
    e = html.escape
    px = max(12, min(24, 1200 // nbits))
    width, height = nbits * px + 2, 66
    parts = [f'<svg class="encoding layout" xmlns="http://www.w3.org/2000/svg" width="{width}" '
             f'height="{height}" viewBox="0 0 {width} {height}" role="img" '
             f'aria-label="{e(label)} layout">']
    for b in boxes:
        x, w = 1 + b.first * px, b.width * px
        kind = "const" if b.value is not None else ("reserved" if b.field is None else "operand")
        parts.append(f'<g class="field {kind}" data-field="{e(b.label)}">'
                     f'<text class="bitno" x="{x + 2}" y="11">{b.first}</text>'
                     f'<rect x="{x}" y="15" width="{w}" height="48"/>'
                     f'<text class="name" x="{x + w / 2}" y="35" text-anchor="middle"'
                     # a label wider than its box is squeezed into it
                     + (f' textLength="{w - 2}" lengthAdjust="spacingAndGlyphs"'
                        if len(b.label) * 7.5 > w - 2 else "")
                     + f'>{e(b.label)}</text>')
        if b.value is not None:
            parts.append(f'<text class="value" x="{x + w / 2}" y="55" text-anchor="middle">'
                         f'{b.value}</text>')
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)


def _fields_table(fields, meanings=None):
    e = html.escape
    rows = ["<table><tr><th>field</th><th>bits (MSB0)</th><th>width</th><th>meaning</th></tr>"]
    for name, (a, b) in sorted(fields.items(), key=lambda kv: kv[1]):
        rows.append(f'<tr id="{e(name)}"><td><code>{e(name)}</code></td><td>{a}:{b}</td>'
                    f"<td>{b - a + 1}</td><td>{e((meanings or {}).get(name, ''))}</td></tr>")
    rows.append("</table>")
    return "".join(rows)


def prefix_html():
    boxes = [Box(a, b, name or "1", field=name or None, value=v)
             for a, b, name, v in RMM.PREFIX_FIELDS]
    example = RMM.prefix_of(0)
    return ("<h1>SVP64 prefix</h1><p>An SVP64 instruction is 64 bits: this prefix word, "
            "then the 32-bit instruction it vectorises (the suffix). The prefix has primary "
            "opcode 1 with bits 7 and 9 set; the 24-bit RM field is spread over the rest "
            '(see <a href="rm.html">RM fields</a>).</p>'
            + layout_svg(boxes, 32, "SVP64 prefix")
            + f"<p>The prefix of RM = 0 is <code>0x{example:08x}</code>.</p>")


RM_MEANINGS = {"MASKMODE": "0: integer predicate (MASK names a GPR), 1: CR predicate",
               "MASK": "destination predicate (single-predicated: both)",
               "ELWIDTH": "destination element width", "ELWIDTH_SRC": "source element width",
               "SUBVL": "sub-vector length - 1 (1 to 4)",
               "EXTRA": "register extension (EXTRA2/EXTRA3); twin-predicated: MASK_SRC in "
                        f"RM[{RMM.MASK_SRC_BITS[0]}:{RMM.MASK_SRC_BITS[1]}]",
               "MODE": "the mode (see the modes page)"}


def rm_html(infos, categories):
    e = html.escape
    boxes, _ = boxes_of(RMM.RM_FIELDS)
    out = ["<h1>RM fields</h1><p>The 24-bit RM field of the "
           '<a href="prefix.html">prefix</a>, MSB0.</p>', layout_svg(boxes, 24, "RM"),
           _fields_table(RMM.RM_FIELDS, RM_MEANINGS),
           "<h2>Element widths</h2><table><tr><th>ELWIDTH value</th><th>bits</th></tr>"]
    out += [f"<tr><td>{k}</td><td>{v}</td></tr>" for k, v in sorted(RMM.ELWIDTH_BITS.items())]
    out.append("</table><h2>Predicate selectors</h2><table><tr><th>MASK</th>"
               "<th>MASKMODE=0 (integer)</th><th>MASKMODE=1 (CR)</th></tr>")
    for k in range(8):
        out.append(f"<tr><td>{k}</td><td>{e(RMM.INT_PRED_NAMES[k] or 'all (no predicate)')}"
                   f"</td><td>{e(RMM.CR_PRED_NAMES[k])}</td></tr>")
    out.append('</table><h2 id="categories">RM categories</h2><p>The <code>sv</code> column '
               "of an instruction's table row: 1P/2P single or twin predication, nS/nD sources "
               "and destinations. Each links the instructions in it.</p><table><tr>"
               "<th>category</th><th>predication</th><th>mode table</th><th>instructions</th></tr>")
    for name, cat in sorted(categories.items()):
        members = [i for i in infos if i.row.sv == name]
        links = " ".join(f'<a href="../insn/{e(i.slug)}.html"><code>{e(i.row.mnemonic)}</code></a>'
                         for i in members)
        out.append(f'<tr id="cat-{e(name)}"><td><code>{e(name)}</code></td><td>{cat.ptype}P</td>'
                   f"<td>{e(cat.mode_kind or 'normal / crop')}</td><td>{links or 'none'}</td></tr>")
    out.append("</table>")
    return "".join(out)


def modes_html():
    e = html.escape
    out = ['<h1>SVP64 modes</h1><p>RM[19:23], the MODE field of <a href="rm.html">RM</a>, '
           "read by one of three tables. Bits are written MSB first; names are fields.</p>"]
    for table, what in MODE_TABLES.items():
        out.append(f'<h2 id="{table}">{e(table)}: {e(what)}</h2><table><tr><th>MODE bits</th>'
                   "<th>mode</th><th>meaning</th></tr>")
        for t, bits, mode, meaning in MODES:
            if t == table:
                out.append(f"<tr><td><code>{e(bits)}</code></td><td>{e(mode)}</td>"
                           f"<td>{e(meaning)}</td></tr>")
        out.append("</table>")
    return "".join(out)


def extra_html():
    out = ["<h1>EXTRA2 and EXTRA3</h1><p>RM's 9-bit EXTRA field extends the suffix's register "
           "fields to 128 registers and marks each vector or scalar. The table row's "
           "<code>extra</code> column names the register in each slot. A single-predicated row "
           "with at most 3 used slots uses EXTRA3 (three 3-bit slots), a twin-predicated one "
           "with at most 2 (MASK_SRC takes the last 3 bits); otherwise EXTRA2 (four 2-bit "
           "slots).</p>",
           "<h2>Slots</h2><table><tr><th>etype</th><th>slot</th><th>EXTRA bits</th>"
           "<th>RM bits</th></tr>"]
    for et, n, w in ((3, 3, 3), (2, 4, 2)):
        for slot in range(n):
            a = slot * w
            out.append(f"<tr><td>EXTRA{et}</td><td>{slot}</td><td>{a}:{a + w - 1}</td>"
                       f"<td>{10 + a}:{10 + a + w - 1}</td></tr>")
    out.append("</table><h2>What a slot's spec does to a register field</h2><p>The spec is "
               "read as 3 bits <code>v s1 s0</code> (EXTRA2's <code>v b</code> is "
               "<code>v b 0</code> for a vector, <code>0 0 b</code> for a scalar). For a "
               "GPR/FPR field value 5:</p><table><tr><th>spec</th><th>register</th>"
               "<th>kind</th></tr>")
    for spec in range(8):
        reg, vec = X.ext_reg(5, spec)
        out.append(f"<tr><td><code>{spec:03b}</code></td><td>{reg}</td>"
                   f"<td>{'vector' if vec else 'scalar'}</td></tr>")
    out.append("</table><p>CR fields (3-bit BF/BFA) for field value 1:</p><table><tr>"
               "<th>spec</th><th>EXTRA3</th><th>EXTRA2</th></tr>")
    for spec in range(8):
        f3, v3 = X.ext_crf(1, spec, 3)
        f2, _ = X.ext_crf(1, spec, 2)
        out.append(f"<tr><td><code>{spec:03b}</code></td><td>CR{f3}</td><td>CR{f2}</td></tr>")
    out.append("</table>")
    return "".join(out)


SVSTATE_MEANINGS = {
    "maxvl": "maximum vector length", "vl": "vector length", "srcstep": "source element step",
    "dststep": "destination element step", "dsubstep": "destination sub-element step",
    "ssubstep": "source sub-element step", "mi0": "SVSHAPE of the first input (REMAP)",
    "mi1": "SVSHAPE of the second input", "mi2": "SVSHAPE of the third input",
    "mo0": "SVSHAPE of the first output", "mo1": "SVSHAPE of the second output",
    "SVme": "which operands REMAP applies to (bit per mi0 mi1 mi2 mo0 mo1)",
    "pack": "pack sub-vectors", "unpack": "unpack sub-vectors", "hphint": "horizontal "
    "parallelism hint", "RMpst": "REMAP persists beyond the next instruction",
    "vfirst": "vertical-first mode"}


def svstate_html():
    boxes, _ = boxes_of(SV.FIELDS)
    return ("<h1>SVSTATE</h1><p>SPR 720, the SVP64 loop state (64 bits). <code>isa-ext run "
            "--trace</code> prints it decoded into these fields; REMAP fields are explained on "
            'the <a href="remap.html">REMAP page</a>.</p>'
            + layout_svg(boxes, 64, "SVSTATE") + _fields_table(SV.FIELDS, SVSTATE_MEANINGS))


SVSHAPE_MEANINGS = {"xdimsz": "x dimension size - 1", "ydimsz": "y dimension size - 1 "
                    "(butterfly modes: the schedule kind)", "zdimsz": "z dimension size - 1",
                    "permute": "dimension order (6, 7: Indexed in Matrix mode)",
                    "invxyz": "invert x (bit 0), y (bit 1), z (bit 2)",
                    "offset": "added to every index", "skip": "dimension to skip",
                    "mode": "0 Matrix, 1 FFT/DCT, 2 reduction/prefix-sum, 3 iDCT"}


def svshape_html():
    boxes, _ = boxes_of(R.FIELDS)
    nums = ", ".join(f"{k.upper()} {v}" for k, v in R.SPR_NUMBERS.items())
    return ("<h1>SVSHAPE0-3</h1><p>The REMAP shape SPRs (" + html.escape(nums)
            + "), 32 bits each, written by svshape, svindex and svshape2.</p>"
            + layout_svg(boxes, 32, "SVSHAPE") + _fields_table(R.FIELDS, SVSHAPE_MEANINGS))


def remap_html():
    e = html.escape
    out = ["<h1>REMAP</h1><p>REMAP replaces an operand's element number at each step by an "
           'index from a schedule. <a href="svstate.html">SVSTATE</a>\'s mi0-mi2/mo0-mo1 '
           "say which <a href=\"svshape.html\">SVSHAPE</a> each operand slot follows and SVme "
           "which slots are remapped; RMpst keeps it for more than the next SVP64 instruction. "
           "Instructions: "
           '<a href="../insn/svshape.html">svshape</a>, <a href="../insn/svshape2.html">'
           'svshape2</a>, <a href="../insn/svindex.html">svindex</a>, '
           '<a href="../insn/svremap.html">svremap</a>.</p>',
           "<h2>Example schedules</h2><p>Indices of the first steps, computed by "
           "<code>isa_ext/svp64/remap.py</code>:</p><table><tr><th>SVSHAPE</th>"
           "<th>indices</th></tr>"]
    examples = [("Matrix 3x2 (xdimsz=2, ydimsz=1)", R.make(xdimsz=2, ydimsz=1)),
                ("Matrix 3x2 transposed (permute=2)", R.make(xdimsz=2, ydimsz=1, permute=2)),
                ("Matrix 3x2, x inverted (invxyz=1)", R.make(xdimsz=2, ydimsz=1, invxyz=1)),
                ("FFT, 8 points (mode=1, xdimsz=7)", R.make(xdimsz=7, mode=1))]
    for what, value in examples:
        try:
            idx = R.indices(value, 12)
            shown = " ".join(str(i) for i in idx)
        except Exception as ex:  # a shape the schedule code refuses is shown as such
            shown = f"(traps: {ex})"
        out.append(f"<tr><td>{e(what)} <code>0x{value:08x}</code></td><td>{e(shown)}</td></tr>")
    out.append("</table>")
    return "".join(out)


def index_html():
    e = html.escape
    items = "".join(f'<li><a href="{slug}.html">{e(title)}</a>: {e(summary)}</li>'
                    for slug, (title, summary) in PAGES.items())
    return f"<h1>SVP64</h1><ul>{items}</ul>"


def pages(infos, categories=None):
    """{relative path: (title, body)} of the SVP64 pages; ``categories``: the
    ISA's RM categories (the base ones when None)."""
    bodies = {"prefix": prefix_html(), "rm": rm_html(infos, categories or RMM.CATEGORIES), "modes": modes_html(),
              "extra": extra_html(), "svstate": svstate_html(), "svshape": svshape_html(),
              "remap": remap_html()}
    out = {f"svp64/{slug}.html": (PAGES[slug][0], body) for slug, body in bodies.items()}
    out["svp64/index.html"] = ("SVP64", index_html())
    return out
