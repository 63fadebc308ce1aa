"""The sandbox of docs/linux.md, refusal by refusal: the guest reads only under
--read (and the program itself), writes only under --write, sees nothing else
(ENOENT = -2; a readable file opened for writing: EACCES = -13), through
absolute and relative paths, "..", and symbolic links pointing out; it cannot
create processes, run programs or open sockets."""
import os

import pytest

from test_linux_syscalls import build, isa_ext  # noqa: F401 - the fixture

ENOENT, EACCES = -2, -13


@pytest.fixture
def tree(tmp_path):
    rd, wr, outside = tmp_path / "rd", tmp_path / "wr", tmp_path / "outside"
    for d in (rd, wr, outside):
        d.mkdir()
    (rd / "in.txt").write_text("in")
    (outside / "secret").write_text("secret")
    (rd / "link-out").symlink_to(outside / "secret")
    (rd / "dir-out").symlink_to(outside)
    (rd / "link-in").symlink_to(rd / "in.txt")
    (wr / "link-out").symlink_to(outside / "new")
    return tmp_path


def results(out):
    return dict(line.split(" -> ", 1) for line in out.decode().splitlines() if " -> " in line)


def run_paths(build, tree, *requests, cwd=None):  # noqa: F811
    out, err, status = isa_ext(build("paths"), list(requests), cwd=cwd,
                               flags=["--read", str(tree / "rd"), "--write", str(tree / "wr")])
    assert status == 0, err
    return results(out), out


def test_reads_only_under_read_dirs(build, tree):  # noqa: F811
    rd, out_dir = tree / "rd", tree / "outside"
    r, _ = run_paths(build, tree, f"r:{rd}/in.txt", f"r:{out_dir}/secret", "r:/etc/passwd",
                     f"r:{rd}/../outside/secret", f"r:{rd}/link-out",
                     f"r:{rd}/dir-out/secret", f"r:{rd}/link-in", f"r:{rd}/missing")
    assert r == {f"r:{rd}/in.txt": "fd", f"r:{out_dir}/secret": str(ENOENT),
                 "r:/etc/passwd": str(ENOENT), f"r:{rd}/../outside/secret": str(ENOENT),
                 f"r:{rd}/link-out": str(ENOENT), f"r:{rd}/dir-out/secret": str(ENOENT),
                 f"r:{rd}/link-in": "fd", f"r:{rd}/missing": str(ENOENT)}


def test_writes_only_under_write_dirs(build, tree):  # noqa: F811
    rd, wr, out_dir = tree / "rd", tree / "wr", tree / "outside"
    before = {p: p.read_bytes() for p in (rd / "in.txt", out_dir / "secret")}
    r, _ = run_paths(build, tree, f"w:{wr}/new.txt", f"w:{rd}/in.txt", f"w:{out_dir}/secret",
                     f"w:{out_dir}/created", f"w:{wr}/../outside/created",
                     f"w:{wr}/link-out", "w:/tmp/isa-ext-sandbox-escape")
    assert r == {f"w:{wr}/new.txt": "fd", f"w:{rd}/in.txt": str(EACCES),
                 f"w:{out_dir}/secret": str(ENOENT), f"w:{out_dir}/created": str(ENOENT),
                 f"w:{wr}/../outside/created": str(ENOENT), f"w:{wr}/link-out": str(ENOENT),
                 "w:/tmp/isa-ext-sandbox-escape": str(ENOENT)}
    assert (wr / "new.txt").read_bytes() == b"x"
    assert {p: p.read_bytes() for p in before} == before
    assert sorted(os.listdir(out_dir)) == ["secret"]
    assert not os.path.exists("/tmp/isa-ext-sandbox-escape")


def test_relative_paths_resolve_against_the_working_directory(build, tree):  # noqa: F811
    r, _ = run_paths(build, tree, "r:in.txt", "r:../outside/secret", "r:../rd/in.txt",
                     cwd=str(tree / "rd"))
    assert r == {"r:in.txt": "fd", "r:../outside/secret": str(ENOENT), "r:../rd/in.txt": "fd"}


def test_readlink(build, tree):  # noqa: F811
    rd = tree / "rd"
    exe = build("paths")
    r, _ = run_paths(build, tree, "l:/proc/self/exe", f"l:{rd}/link-in",
                     f"l:{tree}/outside/secret", "l:/proc/self/cwd")
    assert r == {"l:/proc/self/exe": os.path.realpath(exe), f"l:{rd}/link-in": f"{rd}/in.txt",
                 f"l:{tree}/outside/secret": str(ENOENT), "l:/proc/self/cwd": str(ENOENT)}


def test_no_processes_programs_or_sockets(build, tree):  # noqa: F811
    _r, out = run_paths(build, tree)
    assert b"clone = -11\nfork = -11\nexecve = -13\nsocket = -13\n" in out
