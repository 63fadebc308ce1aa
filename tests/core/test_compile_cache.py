"""Compiled pseudocode is cached on disk, keyed by everything it depends on."""
from isa_ext.isa import ISA
from isa_ext.pseudocode import compiler


def test_second_isa_uses_the_disk_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("ISA_EXT_CACHE", str(tmp_path))
    first = ISA(extensions=["base"])
    row = first.by_mnemonic["add"][0]
    first.compiled(row)
    first.save_cache()
    # one file per compiled page, under a folder named by its key's first 2 hex digits
    [entry] = (tmp_path / "compiled").glob("*/*.entry")
    assert entry.parent.name == entry.name[:2]

    def refuse(*args, **kwargs):
        raise AssertionError("compiled again instead of using the cache")
    monkeypatch.setattr(compiler, "compile_page", refuse)
    second = ISA(extensions=["base"])
    c = second.compiled(second.by_mnemonic["add"][0])
    assert "def sem(" in c.source


def test_changed_page_is_compiled_again(tmp_path, monkeypatch):
    monkeypatch.setenv("ISA_EXT_CACHE", str(tmp_path))
    isa = ISA(extensions=["base"])
    row = isa.by_mnemonic["add"][0]
    isa.compiled(row)
    isa.save_cache()
    calls = []
    real = compiler.compile_page

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)
    monkeypatch.setattr(compiler, "compile_page", counting)
    again = ISA(extensions=["base"])
    row2 = again.by_mnemonic["add"][0]
    row2.page.code = row2.page.code + "RT <- (RT)\n"   # a different page text
    again.compiled(row2)
    assert calls == [1]


def test_use_cache_false_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("ISA_EXT_CACHE", str(tmp_path))
    isa = ISA(extensions=["base"], use_cache=False)
    isa.compiled(isa.by_mnemonic["add"][0])
    isa.save_cache()
    assert not (tmp_path / "compiled").exists()


def test_the_old_one_file_cache_is_removed(tmp_path, monkeypatch):
    # compiled.json (and a dead writer's compiled.json.<pid>) from before the
    # per-page files: nothing reads them; the first save removes them
    monkeypatch.setenv("ISA_EXT_CACHE", str(tmp_path))
    for name in ("compiled.json", "compiled.json.1674"):
        (tmp_path / name).write_text("{}")
    (tmp_path / "keep.json").write_text("{}")
    isa = ISA(extensions=["base"])
    isa.compiled(isa.by_mnemonic["addi"][0])
    isa.save_cache()
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_file()) == ["keep.json"]


def test_a_cached_pages_code_object_is_read_not_compiled(tmp_path, monkeypatch):
    # the code object of a cached page's source is kept too (translate/code_store):
    # a third ISA runs the pages without compile()
    from isa_ext import isa as isa_module
    from isa_ext.sim import Simulator
    from isa_ext.translate import code_store
    monkeypatch.setenv("ISA_EXT_CACHE", str(tmp_path))
    monkeypatch.setattr(code_store, "_saved", 0)
    for _ in range(2):
        isa = ISA(extensions=["base"])
        for mnemonic in ("addi", "add"):
            isa.compiled(isa.by_mnemonic[mnemonic][0])
        isa.save_cache()

    def refuse(*args, **kwargs):
        raise AssertionError("compile() of a page kept on disk")
    for module in (isa_module, code_store):
        monkeypatch.setattr(module, "compile", refuse, raising=False)
    monkeypatch.setattr(compiler, "compile_page", refuse)
    third = ISA(extensions=["base"])
    sim = Simulator(isa=third, translate=False)
    sim.load_asm("li 1,40\nli 2,2\nadd 3,1,2\n")
    sim.run(max_steps=10)
    assert sim.state.gpr[3] == 42
