"""Every link of the README and of docs/ resolves (issue 31: the README's
history moved into docs/, and nothing may point into the void): Markdown links
to files of the checkout, every `docs/NAME.md` named in prose, and the files
of the checkout the README names in backticks."""
import glob
import os
import re

import pytest

from conftest import ROOT

DOCS = sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
PAGES = [os.path.join(ROOT, "README.md")] + DOCS
# written on another branch of the same session; drop the entry once merged
TOP_DIRS = ("benchmarks", "decoder", "docs", "examples", "isa_ext", "pseudocode", "tests",
            "tools", ".ci")


def _read(page):
    with open(page, encoding="utf-8") as f:
        return f.read()


def _prose(page):
    """The page without its fenced blocks and code spans (``f[name](isa)`` is code)."""
    text = re.sub(r"^```.*?^```$", "", _read(page), flags=re.M | re.S)
    return re.sub(r"`[^`\n]*`", "", text)


def _missing(page, targets):
    base = os.path.dirname(page)
    out = []
    for target in targets:
        # a Markdown link is relative to its page; prose names paths from the top
        if not (os.path.exists(os.path.join(base, target))
                or os.path.exists(os.path.join(ROOT, target))):
            out.append(target)
    return out


@pytest.mark.parametrize("page", PAGES, ids=lambda p: os.path.relpath(p, ROOT))
def test_markdown_links_resolve(page):
    links = [t.split("#", 1)[0] for t in re.findall(r"\]\(([^)\s]+)\)", _prose(page))]
    local = [t for t in links if t and not re.match(r"[a-z]+:", t)]
    assert not _missing(page, local)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: os.path.relpath(p, ROOT))
def test_named_docs_exist(page):
    named = set(re.findall(r"\bdocs/[\w.-]+\.(?:md|png)\b", _read(page)))
    assert not _missing(page, named)


def test_files_the_readme_names_exist():
    text = _read(os.path.join(ROOT, "README.md"))
    named = {m.split()[0] for m in re.findall(r"`([^`\n]+)`", text) if m.strip()}
    paths = {p for p in named
             if p.startswith(tuple(d + "/" for d in TOP_DIRS)) and not re.search(r"[*<>{]", p)
             and re.search(r"\.\w+$|/$", p)}
    assert len(paths) >= 5  # examples, tests, benchmarks and docs the guide points to
    assert not _missing(os.path.join(ROOT, "README.md"), paths)
