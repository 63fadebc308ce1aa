"""The parse cache (isa_ext/parse_cache.py): an ISA built from cached
forms, rows and pages is the ISA parsed from the files; a changed file, or a
damaged entry, is parsed again.  Files known by their stamps are not read;
a file changed with its size and modification time kept is still seen, and
one written too recently to trust its stamp is read."""
import os
import shutil

import pytest

from isa_ext import parse_cache, records, specdata
from isa_ext.isa import ISA
from conftest import ROOT


def _shape(isa):
    # every field of every row (its form by name, its page by title) and page
    rows = [tuple((name, getattr(r, name)) for name in records.fields(r)
                  if name not in ("form", "page")) + (r.form.name, r.page and r.page.title)
            for r in isa.rows]
    pages = [tuple(getattr(p, name) for name in records.fields(p)) for p in isa.all_pages]
    forms = [(f.name, sorted((n, fl.bits) for n, fl in f.fields.items()))
             for f in isa.forms.forms.values()]
    return rows, pages, forms, isa.forms.regclass


def _entries(cache, suffix=".entry"):
    folder = cache / "parsed"
    return sorted(n for n in os.listdir(folder) if n.endswith(suffix)) if folder.exists() else []


@pytest.fixture
def spec(tmp_path):
    """A copy of the project's spec, its files just written."""
    root = tmp_path / "spec"
    shutil.copytree(os.path.join(ROOT, "decoder"), root / "decoder")
    shutil.copytree(os.path.join(ROOT, "pseudocode"), root / "pseudocode")
    return root


@pytest.fixture
def reads(monkeypatch):
    """The spec files read from now on, as (tree, *parts)."""
    seen = []
    real = specdata.SpecSource.read

    def read(self, tree, *parts):
        seen.append((tree, *parts))
        return real(self, tree, *parts)
    monkeypatch.setattr(specdata.SpecSource, "read", read)
    return seen


def _time_passes(monkeypatch):
    # every file counts as written long ago (settled), however fresh
    monkeypatch.setattr(parse_cache, "SETTLED_NS", -3600 * 10**9)


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
    _time_passes(monkeypatch)
    want = _shape(ISA(extensions=["base"]))
    (entry,) = _entries(tmp_path)
    (stat_entry,) = _entries(tmp_path, ".stat")
    (tmp_path / "parsed" / entry).write_bytes(b"\x80\x05garbage")
    assert _shape(ISA(extensions=["base"])) == want
    (tmp_path / "parsed" / entry).write_bytes(b"")
    assert _shape(ISA(extensions=["base"])) == want
    for damaged in (b"", b"not a key", b"0" * 64):   # a stat entry naming no entry
        (tmp_path / "parsed" / stat_entry).write_bytes(damaged)
        assert _shape(ISA(extensions=["base"])) == want


def test_an_unwritable_cache_is_skipped(tmp_path, monkeypatch):
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    monkeypatch.setenv("ISA_EXT_CACHE", str(blocked))
    assert ISA(extensions=["base"]).decode(0x38630001).mnemonic == "addi"


def test_unchanged_files_are_known_by_their_stamps(spec, reads, tmp_path, monkeypatch):
    monkeypatch.setenv("ISA_EXT_CACHE", str(tmp_path / "cache"))
    _time_passes(monkeypatch)
    parsed = ISA(extensions=["base"], root=spec, use_cache=False)
    ISA(extensions=["base"], root=spec)           # parses, stores both entries
    assert len(_entries(tmp_path / "cache", ".stat")) == 1
    del reads[:]
    cached = ISA(extensions=["base"], root=spec)
    assert reads == []                            # no table, page or forms file read
    assert _shape(cached) == _shape(parsed)


def test_a_file_changed_with_its_size_and_time_kept_is_seen(spec, reads, tmp_path,
                                                             monkeypatch):
    # what a stamp of size and modification time alone would miss: the
    # status-change time tells it (a write sets it, nothing sets it back)
    monkeypatch.setenv("ISA_EXT_CACHE", str(tmp_path / "cache"))
    _time_passes(monkeypatch)
    ISA(extensions=["base"], root=spec)
    assert "addi" in ISA(extensions=["base"], root=spec).by_mnemonic
    table = spec / "decoder" / "base" / "fixed.csv"
    before = os.stat(table)
    table.write_text(table.read_text().replace("\naddi,", "\naddj,", 1))
    os.utime(table, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = os.stat(table)
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    del reads[:]
    isa = ISA(extensions=["base"], root=spec)
    assert "addj" in isa.by_mnemonic and "addi" not in isa.by_mnemonic
    assert ("decoder", "base", "fixed.csv") in reads


def test_a_file_written_just_now_is_read_until_it_settles(spec, reads, tmp_path, monkeypatch):
    # a file written within SETTLED_NS may change again within its clock
    # tick, stamp unchanged: its text keys the cache until it is older
    monkeypatch.setenv("ISA_EXT_CACHE", str(tmp_path / "cache"))
    ISA(extensions=["base"], root=spec)
    del reads[:]
    assert "addi" in ISA(extensions=["base"], root=spec).by_mnemonic
    assert ("decoder", "base", "fixed.csv") in reads
    assert _entries(tmp_path / "cache", ".stat") == []
    _time_passes(monkeypatch)
    ISA(extensions=["base"], root=spec)
    assert len(_entries(tmp_path / "cache", ".stat")) == 1
    assert len(_entries(tmp_path / "cache")) == 1   # the same content entry


def test_a_new_file_changes_the_stamps(spec, tmp_path, monkeypatch):
    monkeypatch.setenv("ISA_EXT_CACHE", str(tmp_path / "cache"))
    _time_passes(monkeypatch)
    ISA(extensions=["base"], root=spec)
    assert "addj" not in ISA(extensions=["base"], root=spec).by_mnemonic
    lines = (spec / "decoder" / "base" / "fixed.csv").read_text().splitlines()
    head = next(line for line in lines if line.startswith("mnemonic,"))
    addi = next(line for line in lines if line.startswith("addi,"))
    (spec / "decoder" / "base" / "zz_new.csv").write_text(
        f"{head}\n{addi.replace('addi,', 'addj,', 1)}\n")
    assert "addj" in ISA(extensions=["base"], root=spec).by_mnemonic


def _alias_shape(aliases):
    # every variant with its fallback chain, field by field
    out = {}
    for name, alias in aliases.items():
        chain = []
        while alias is not None:
            chain.append([getattr(alias, name) for name in records.fields(alias)
                          if name != "fallback"])
            alias = alias.fallback
        out[name] = chain
    return out


def test_alias_tables_cached_and_refreshed(spec, reads, tmp_path, monkeypatch):
    # the extended mnemonics (isa_ext.asm) are kept by the same rules: the
    # cached tables are the parsed ones, unread when their stamps hold, and
    # a file changed with its size and modification time kept is seen
    from isa_ext.asm import assemble, extended_mnemonics
    monkeypatch.setenv("ISA_EXT_CACHE", str(tmp_path / "cache"))
    _time_passes(monkeypatch)
    parsed = extended_mnemonics(ISA(extensions=["base"], root=spec, use_cache=False))
    extended_mnemonics(ISA(extensions=["base"], root=spec))     # parses, stores
    del reads[:]
    isa = ISA(extensions=["base"], root=spec)
    cached = extended_mnemonics(isa)
    assert reads == [] and "li" in cached
    assert _alias_shape(cached) == _alias_shape(parsed)
    table = spec / "decoder" / "base" / "aliases" / "extended.csv"
    before = os.stat(table)
    table.write_text(table.read_text().replace("\nli,", "\nlj,", 1))
    os.utime(table, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert os.stat(table).st_mtime_ns == before.st_mtime_ns
    isa = ISA(extensions=["base"], root=spec)
    aliases = extended_mnemonics(isa)
    assert "lj" in aliases and "li" not in aliases
    # 0x38600005: addi r3,0,5 (Power ISA D-form, PO=14 RT=3 RA=0 SI=5)
    assert assemble("lj 3,5\n", isa=isa).words == [0x38600005]


def test_a_package_sources_digest_is_known_by_stamps_and_sees_a_change(tmp_path, monkeypatch):
    # the compiled pages' key holds a digest of the compiler's sources: kept
    # under the files' stamps, it must still change with a file's text
    import importlib
    import sys
    monkeypatch.setenv("ISA_EXT_CACHE", str(tmp_path / "cache"))
    _time_passes(monkeypatch)
    package = tmp_path / "lib" / "digest_probe_pkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "helpers.py").write_text("X = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path / "lib"))
    importlib.invalidate_caches()
    monkeypatch.delitem(sys.modules, "digest_probe_pkg", raising=False)
    name = "digest_probe_pkg"
    fresh = parse_cache.sources_digest(name, (".py",), use_cache=False)
    assert parse_cache.sources_digest(name, (".py",)) == fresh        # computed, stored
    read = []
    real = specdata.package_sources
    monkeypatch.setattr(specdata, "package_sources",
                        lambda *a, **k: read.append(a) or real(*a, **k))
    assert parse_cache.sources_digest(name, (".py",)) == fresh        # by stamps
    assert read == []
    helpers = package / "helpers.py"
    before = os.stat(helpers)
    helpers.write_text("X = 2\n")                                    # same size
    os.utime(helpers, ns=(before.st_atime_ns, before.st_mtime_ns))
    changed = parse_cache.sources_digest(name, (".py",))
    assert changed != fresh and read
    assert changed == parse_cache.sources_digest(name, (".py",), use_cache=False)


def _indexes(isa):
    # every lookup the ISA offers, rows by mnemonic and pages by title
    rows = isa.rows
    at = {id(row): i for i, row in enumerate(rows)}
    return ({name: (at[id(row)], flags) for name, (row, flags) in isa.by_mnemonic.items()},
            {po: [r.mnemonic for r in rs] for po, rs in isa._by_po.items()},
            {po: [r.mnemonic for r in rs] for po, rs in isa._prefixed_by_po.items()},
            {name: page.title for name, page in isa.pages.items()},
            [r.page and r.page.title for r in rows], isa.sv_names())


def test_a_cached_isa_makes_rows_and_pages_at_their_first_use(tmp_path, monkeypatch):
    # a warm ISA makes the rows and pages a program uses, and its lookups
    # (by mnemonic, by primary opcode, pages by name, each row's page) are
    # those of the ISA parsed afresh; each row is made once
    monkeypatch.setenv("ISA_EXT_CACHE", str(tmp_path))
    parsed = ISA(use_cache=False)
    ISA()                                            # parses, stores
    isa = ISA()
    assert isa.decode(0x38630001).mnemonic == "addi"   # addi 3,3,1 (D-form, PO 14)
    row, flags = isa.by_mnemonic["addi"]
    assert row is isa.decode(0x38630001).spec and row.page.title == parsed.pages["addi"].title
    made_rows, made_pages = isa._stored.made()
    assert 0 < made_rows < 60 and 0 < made_pages < 10      # of 1,300 and 1,200
    assert _indexes(isa) == _indexes(parsed)
    assert any(r is row for r in isa.rows) and isa._stored.made()[0] == len(isa.rows)
    assert _shape(isa) == _shape(parsed)


def test_a_profile_with_pages_of_its_own_makes_every_row(tmp_path, monkeypatch):
    # the openpower-isa profile lays pages over the spec's: its ISA is made
    # whole, each row's page the profile's where it has one
    monkeypatch.setenv("ISA_EXT_CACHE", str(tmp_path))
    parsed = ISA(profile="openpower-isa", use_cache=False)
    ISA()
    isa = ISA(profile="openpower-isa")
    assert isa._stored is None
    assert _indexes(isa) == _indexes(parsed)
