"""A small Markdown-to-HTML renderer for the project's own documents (the
errata page of the spec site): headings with anchors, paragraphs, bullet and
numbered lists (with continuation lines), fenced and indented code, tables,
and inline code, bold, italics and links.  Everything else is text, escaped:
no raw HTML from a document reaches the page."""
import html
import re

_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
_ITEM = re.compile(r"^(\s*)(?:[-*]|\d+\.)\s+(.*)$")
_INLINE = re.compile(r"`([^`]+)`|\*\*(.+?)\*\*|\[([^\]]+)\]\(([^)\s]+)\)|(?<!\w)_(.+?)_(?!\w)"
                     r"|(?<![\w*])\*([^*\s](?:[^*]*?[^*\s])?)\*(?![\w*])")


def inline(text):
    """Escaped text with `code`, **bold**, _italics_/*italics* and [links](url)."""
    out, pos = [], 0
    for m in _INLINE.finditer(text):
        out.append(html.escape(text[pos:m.start()]))
        code, bold, label, url, it1, it2 = m.groups()
        if code is not None:
            out.append(f"<code>{html.escape(code)}</code>")
        elif bold is not None:
            out.append(f"<b>{inline(bold)}</b>")
        elif label is not None:
            safe = url if re.match(r"^(https?:|#|[\w./-]+$)", url) else "#"
            out.append(f'<a href="{html.escape(safe)}">{inline(label)}</a>')
        else:
            out.append(f"<i>{inline(it1 or it2)}</i>")
        pos = m.end()
    out.append(html.escape(text[pos:]))
    return "".join(out)


def _cell(row, text):
    tag = "th" if row == 0 else "td"  # the first table row is the header
    return f"<{tag}>{inline(text)}</{tag}>"


def render(text, anchor=None):
    """HTML of a Markdown document; ``anchor(title, line)`` gives a heading's id."""
    lines = text.splitlines()
    out, para, items = [], [], []
    i = 0

    def flush():
        if para:
            out.append(f"<p>{inline(' '.join(s.strip() for s in para))}</p>")
            para.clear()
        if items:
            tag = "ol" if items[0][0] else "ul"
            out.append(f"<{tag}>" + "".join(f"<li>{inline(' '.join(t))}</li>"
                                            for _, t in items) + f"</{tag}>")
            items.clear()

    while i < len(lines):
        line = lines[i]
        h = _HEADING.match(line)
        if line.startswith("```"):
            flush()
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            out.append(f"<pre>{html.escape(chr(10).join(lines[i + 1:j]))}</pre>")
            i = j + 1
            continue
        if h:
            flush()
            level, title = len(h.group(1)), h.group(2).strip()
            ident = f' id="{html.escape(anchor(title, i + 1))}"' if anchor else ""
            out.append(f"<h{level}{ident}>{inline(title)}</h{level}>")
        elif line.startswith("|"):
            flush()
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                cells = [c.strip() for c in lines[i].strip().strip("|").split("|")]
                if not all(re.fullmatch(r":?-+:?", c) for c in cells):
                    rows.append(cells)
                i += 1
            out.append("<table>" + "".join("<tr>" + "".join(_cell(r, c) for c in cells) + "</tr>"
                                           for r, cells in enumerate(rows)) + "</table>")
            continue
        elif not line.strip():
            flush()
        elif _ITEM.match(line) and not para:
            m = _ITEM.match(line)
            items.append((bool(re.match(r"\s*\d", line)), [m.group(2)]))
        elif items and line.startswith((" ", "\t")):
            items[-1][1].append(line.strip())
        elif line.startswith("    ") and not para:
            flush()
            j = i
            while j < len(lines) and (lines[j].startswith("    ") or not lines[j].strip()):
                j += 1
            code = "\n".join(s[4:] for s in lines[i:j]).rstrip()
            out.append(f"<pre>{html.escape(code)}</pre>")
            i = j
            continue
        else:
            if items:
                flush()
            para.append(line)
        i += 1
    flush()
    return "\n".join(out)
