"""The parse cache (isa_ext/parse_cache.py): an ISA built from cached
forms, rows and pages is the ISA parsed from the files; a changed file, or a
damaged entry, is parsed again."""
import dataclasses
import os
import shutil

from isa_ext.isa import ISA
from conftest import ROOT


def _shape(isa):
    # every field of every row (its form by name, its page by title) and page
    rows = [tuple((f.name, getattr(r, f.name)) for f in dataclasses.fields(r)
                  if f.name not in ("form", "page")) + (r.form.name, r.page and r.page.title)
            for r in isa.rows]
    pages = [dataclasses.astuple(p) for p in isa.all_pages]
    forms = [(f.name, sorted((n, fl.bits) for n, fl in f.fields.items()))
             for f in isa.forms.forms.values()]
    return rows, pages, forms, isa.forms.regclass


def _entries(cache):
    folder = cache / "parsed"
    # (not the .trimmed mark of disk_cache.trim)
    return sorted(n for n in os.listdir(folder) if not n.startswith(".")) \
        if folder.exists() else []


def test_cached_isa_is_the_parsed_one(tmp_path, monkeypatch):
    monkeypatch.setenv("ISA_EXT_CACHE", str(tmp_path))
    parsed = ISA(use_cache=False)
    first = ISA()                      # parses, stores
    assert len(_entries(tmp_path)) == 1
    second = ISA()                     # loads
    assert _shape(first) == _shape(second) == _shape(parsed)
    assert second.decode(0x38630001).mnemonic == "addi"     # addi 3,3,1
    # objects of their own: one ISA's rows are not another's
    assert second.rows[0] is not first.rows[0]


def test_a_changed_table_is_parsed_again(tmp_path, monkeypatch):
    monkeypatch.setenv("ISA_EXT_CACHE", str(tmp_path / "cache"))
    spec = tmp_path / "spec"
    shutil.copytree(os.path.join(ROOT, "decoder"), spec / "decoder")
    shutil.copytree(os.path.join(ROOT, "pseudocode"), spec / "pseudocode")
    before = ISA(extensions=["base"], root=spec)
    assert "addi" in before.by_mnemonic
    table = spec / "decoder" / "base" / "fixed.csv"
    table.write_text(table.read_text().replace("\naddi,", "\naddix,", 1))
    after = ISA(extensions=["base"], root=spec)
    assert "addix" in after.by_mnemonic and "addi" not in after.by_mnemonic
    assert len(_entries(tmp_path / "cache")) == 2


def test_a_damaged_entry_is_parsed_again(tmp_path, monkeypatch):
    monkeypatch.setenv("ISA_EXT_CACHE", str(tmp_path))
    want = _shape(ISA(extensions=["base"]))
    (entry,) = _entries(tmp_path)
    (tmp_path / "parsed" / entry).write_bytes(b"\x80\x05garbage")
    assert _shape(ISA(extensions=["base"])) == want
    (tmp_path / "parsed" / entry).write_bytes(b"")
    assert _shape(ISA(extensions=["base"])) == want


def test_an_unwritable_cache_is_skipped(tmp_path, monkeypatch):
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    monkeypatch.setenv("ISA_EXT_CACHE", str(blocked))
    assert ISA(extensions=["base"]).decode(0x38630001).mnemonic == "addi"
