"""Pseudocode statement coverage: which lines of which instruction pages ran.

While a :class:`Coverage` is active, the pseudocode compiler reports every
statement it compiles and the generated code reports every statement it runs
(``isa_ext.pseudocode.compiler.COVERAGE``); the ISA skips its disk cache of
compiled code meanwhile, since cached code carries no probes.
"""
import html
import json
import os
from dataclasses import dataclass

from ..pseudocode import compiler


class Coverage:
    def __init__(self):
        self.statements = {}  # page key -> {code line}
        self.hits = {}  # page key -> {code line}

    def statement(self, key, line):
        self.statements.setdefault(key, set()).add(line)

    def hit(self, key, line):
        lines = self.hits.get(key)
        if lines is None:
            lines = self.hits[key] = set()
        lines.add(line)

    def activate(self):
        """Collect from now on; :meth:`deactivate` restores the collector that was
        active before (a session-wide one keeps collecting after a nested use)."""
        self._previous = compiler.COVERAGE
        compiler.COVERAGE = self

    def deactivate(self):
        compiler.COVERAGE = getattr(self, "_previous", None)


def page_key(page):
    """The key the compiler gives a page (its file and first code line)."""
    return f"{page.filename}:{page.code_line}"


@dataclass
class PageCoverage:
    page: object
    statements: set
    hit: set

    @property
    def percent(self):
        return 100.0 * len(self.hit) / len(self.statements) if self.statements else 100.0


def complete(cov, isa_factory=None):
    """Per-page results for every page of the spec.  Every row is compiled
    (with probes) so that pages no test ran still count, at 0%."""
    from ..isa import ISA
    isa = isa_factory() if isa_factory else ISA(use_cache=False)
    active = compiler.COVERAGE
    cov.activate()
    try:
        isa.compile_all()
    finally:
        compiler.COVERAGE = active
    results = []
    for page in isa.all_pages:
        key = page_key(page)
        stmts = cov.statements.get(key, set())
        results.append(PageCoverage(page, stmts, cov.hits.get(key, set()) & stmts))
    return results


def by_extension(results):
    """{extension: (statements hit, statements)}."""
    out = {}
    for r in results:
        hit, total = out.get(r.page.extension, (0, 0))
        out[r.page.extension] = (hit + len(r.hit), total + len(r.statements))
    return out


def _pct(hit, total):
    return 100.0 * hit / total if total else 100.0


def summary_lines(results):
    return [f"{ext}: {_pct(h, t):.1f}% ({h}/{t} statements)"
            for ext, (h, t) in sorted(by_extension(results).items())]


def write_report(results, out_dir):
    """index.html (per extension and page, with every page's listing) and coverage.json."""
    os.makedirs(out_dir, exist_ok=True)
    e = html.escape
    data = {"extensions": {ext: {"hit": h, "statements": t, "percent": round(_pct(h, t), 2)}
                           for ext, (h, t) in by_extension(results).items()},
            "pages": [{"title": r.page.title, "file": r.page.filename, "line": r.page.line,
                       "extension": r.page.extension,
                       "mnemonics": [s[0] for s in r.page.syntaxes],
                       "statements": sorted(r.statements), "hit": sorted(r.hit),
                       "percent": round(r.percent, 2)} for r in results]}
    with open(os.path.join(out_dir, "coverage.json"), "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)
    out = ["<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>Pseudocode coverage"
           "</title><style>body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse}"
           "td,th{border:1px solid #bbb;padding:.2em .5em}pre{margin:0}.hit{background:#dfd}"
           ".miss{background:#fdd}.full{color:#070}.part{color:#b00}</style></head><body>",
           "<h1>Pseudocode coverage</h1><p>Statements of each instruction page that ran during "
           "the test session.</p><table><tr><th>extension</th><th>statements</th><th>hit</th>"
           "<th>%</th></tr>"]
    for ext, (h, t) in sorted(by_extension(results).items()):
        out.append(f"<tr><td>{e(ext)}</td><td>{t}</td><td>{h}</td><td>{_pct(h, t):.1f}</td></tr>")
    out.append("</table><h2>Pages</h2><table><tr><th>page</th><th>extension</th>"
               "<th>statements</th><th>hit</th><th>%</th></tr>")
    for n, r in enumerate(results):
        cls = "full" if r.percent == 100.0 else "part"
        out.append(f"<tr><td><a href='#p{n}'>{e(r.page.title)}</a> <code>{e(r.page.where)}</code></td>"
                   f"<td>{e(r.page.extension)}</td><td>{len(r.statements)}</td><td>{len(r.hit)}</td>"
                   f"<td class='{cls}'>{r.percent:.1f}</td></tr>")
    out.append("</table>")
    for n, r in enumerate(results):
        out.append(f"<h3 id='p{n}'>{e(r.page.title)} ({e(', '.join(s[0] for s in r.page.syntaxes))})"
                   f"</h3><table>")
        for i, text in enumerate(r.page.code.rstrip().splitlines(), 1):
            cls = "hit" if i in r.hit else ("miss" if i in r.statements else "")
            out.append(f"<tr class='{cls}'><td>{r.page.code_line + i - 1}</td>"
                       f"<td><pre>{e(text)}</pre></td></tr>")
        out.append("</table>")
    out.append("</body></html>")
    path = os.path.join(out_dir, "index.html")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out))
    return path
