"""The disk caches' shared parts (isa_ext/disk_cache.py): a cache folder is
trimmed to a bound, oldest entries first; and the store of compiled block
code (isa_ext/translate/code_store.py) gives back what compile() gives."""
import os

import pytest

from isa_ext import disk_cache
from isa_ext.translate import code_store


def _entries(folder, n):
    """n files in two sub-folders, file i written at time 1000 + i."""
    paths = []
    for i in range(n):
        sub = os.path.join(folder, "ab" if i % 2 else "cd")
        os.makedirs(sub, exist_ok=True)
        p = os.path.join(sub, f"e{i}.bin")
        with open(p, "wb") as f:
            f.write(b"x")
        os.utime(p, (1000 + i, 1000 + i))
        paths.append(p)
    return paths


def test_a_folder_over_its_bound_loses_its_oldest_entries(tmp_path, monkeypatch):
    # 14 entries, bound 10, trimmed to 0.75 x 10 = 7: the 7 oldest (e0..e6) go
    monkeypatch.setattr(disk_cache, "MAX_ENTRIES", 10)
    paths = _entries(str(tmp_path), 14)
    assert disk_cache.trim(str(tmp_path), now=10**9) == 7
    assert [os.path.exists(p) for p in paths] == [False] * 7 + [True] * 7
    # counted again only TRIM_EVERY seconds later (its .trimmed file's time)
    more = _entries(str(tmp_path / "new"), 8)
    assert disk_cache.trim(str(tmp_path), now=10**9 + disk_cache.TRIM_EVERY - 1) == 0
    assert all(os.path.exists(p) for p in more)
    assert disk_cache.trim(str(tmp_path), now=10**9 + disk_cache.TRIM_EVERY + 1) == 8


def test_a_folder_within_its_bound_is_left_alone(tmp_path, monkeypatch):
    monkeypatch.setattr(disk_cache, "MAX_ENTRIES", 10)
    paths = _entries(str(tmp_path), 10)
    assert disk_cache.trim(str(tmp_path), now=10**9) == 0
    assert all(os.path.exists(p) for p in paths)


def test_writing_an_entry_trims_its_cache_folder_once_a_process(tmp_path, monkeypatch):
    monkeypatch.setenv("ISA_EXT_CACHE", str(tmp_path))
    monkeypatch.setattr(disk_cache, "MAX_ENTRIES", 4)
    monkeypatch.setattr(disk_cache, "_checked", set())
    old = _entries(str(tmp_path / "blocks"), 6)
    disk_cache.write_atomic(str(tmp_path / "blocks" / "ef" / "new.bin"), b"y")
    # 6 old + none counted yet: 6 > 4, down to 3: the 3 oldest go, the new one stays
    assert [os.path.exists(p) for p in old] == [False] * 3 + [True] * 3
    assert (tmp_path / "blocks" / "ef" / "new.bin").read_bytes() == b"y"
    os.unlink(tmp_path / "blocks" / ".trimmed")
    more = _entries(str(tmp_path / "blocks" / "gh"), 6)
    disk_cache.write_atomic(str(tmp_path / "blocks" / "ef" / "two.bin"), b"z")
    assert all(os.path.exists(p) for p in more)   # (this process counted it already)


def test_stored_block_code_is_what_compile_gives(tmp_path, monkeypatch):
    monkeypatch.setenv("ISA_EXT_CACHE", str(tmp_path))
    source = "def run(s, _budget):\n    return s * 3 + _budget, 1\n"
    code = code_store.compiled(source, "<isa_ext:block@0x1000>")
    ns = {}
    exec(code, ns)
    assert ns["run"](5, 2) == (17, 1)
    # the second time it comes from the disk: compile() is not called
    monkeypatch.setattr(code_store, "compile", lambda *a: pytest.fail("compiled again"),
                        raising=False)
    again = code_store.compiled(source, "<isa_ext:block@0x1000>")
    assert again.co_filename == "<isa_ext:block@0x1000>"
    ns = {}
    exec(again, ns)
    assert ns["run"](5, 2) == (17, 1)
    monkeypatch.undo()
    monkeypatch.setenv("ISA_EXT_CACHE", str(tmp_path))
    # another file name is another entry; a damaged entry is compiled again
    k = code_store.key(source, "<isa_ext:block@0x1000>")
    assert k != code_store.key(source, "<isa_ext:block@0x2000>")
    path = tmp_path / "blocks" / k[:2] / (k + ".marshal")
    path.write_bytes(b"\x00garbage")
    ns = {}
    exec(code_store.compiled(source, "<isa_ext:block@0x1000>"), ns)
    assert ns["run"](1, 0) == (3, 1)


def test_a_folder_over_its_byte_bound_loses_its_oldest_entries(tmp_path, monkeypatch):
    # 6 entries of 100 bytes (few enough by count), bound 400 bytes, trimmed to
    # 0.75 x 400 = 300: the 3 oldest go
    monkeypatch.setattr(disk_cache, "MAX_BYTES", 400)
    paths = _entries(str(tmp_path), 6)
    for i, p in enumerate(paths):
        with open(p, "wb") as f:
            f.write(b"x" * 100)
        os.utime(p, (1000 + i, 1000 + i))
    assert disk_cache.trim(str(tmp_path), now=10**9) == 3
    assert [os.path.exists(p) for p in paths] == [False] * 3 + [True] * 3
