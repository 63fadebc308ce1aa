"""ISA_EXT_ORACLE_CACHE: an oracle is asked once per distinct input, and a different
input (one byte) is a different question.  The tools are replaced by counters."""
from isa_ext.diffcheck import tools


def test_qemu_answers_are_cached_by_the_exact_elf(tmp_path, monkeypatch):
    calls = []

    def fake_qemu(path, timeout):
        calls.append(path)
        data = open(path, "rb").read()
        return tools.QemuRun(b"out:" + data, 0 if data == b"A" else None,
                             None if data == b"A" else 4, "err")

    monkeypatch.setattr(tools, "_run_qemu", fake_qemu)
    monkeypatch.setenv("ISA_EXT_ORACLE_CACHE", str(tmp_path / "cache"))
    a, b = tmp_path / "a.elf", tmp_path / "b.elf"
    a.write_bytes(b"A")
    b.write_bytes(b"B")
    first = tools.run_qemu(str(a))
    again = tools.run_qemu(str(a))
    other = tools.run_qemu(str(b))
    assert len(calls) == 2  # a once, b once
    assert (again.stdout, again.status, again.signal, again.stderr) == \
        (first.stdout, first.status, first.signal, first.stderr) == (b"out:A", 0, None, "err")
    assert (other.stdout, other.status, other.signal) == (b"out:B", None, 4)
    monkeypatch.delenv("ISA_EXT_ORACLE_CACHE")
    tools.run_qemu(str(a))
    assert len(calls) == 3  # unset: no cache


def test_assembled_programs_are_cached_by_their_source(tmp_path, monkeypatch):
    calls = []

    def fake_build(source, workdir, stem):
        calls.append(source)
        path = tmp_path / (stem + ".elf")
        path.write_bytes(source.encode())
        return str(path)

    monkeypatch.setattr(tools, "_assemble_and_link", fake_build)
    monkeypatch.setenv("ISA_EXT_ORACLE_CACHE", str(tmp_path / "cache"))
    work = tmp_path / "work"
    work.mkdir()
    p1 = tools.assemble_and_link("addi 3,3,1\n", str(work), "x")
    p2 = tools.assemble_and_link("addi 3,3,1\n", str(work), "y")
    p3 = tools.assemble_and_link("addi 3,3,2\n", str(work), "z")
    assert calls == ["addi 3,3,1\n", "addi 3,3,2\n"]
    assert open(p2, "rb").read() == open(p1, "rb").read() == b"addi 3,3,1\n"
    assert open(p3, "rb").read() == b"addi 3,3,2\n"
