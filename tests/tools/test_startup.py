"""Start-up of ``isa-ext run`` with warm caches (docs/benchmarks.md): what a
second run of a tiny scalar program does not do -- import the pseudocode
compiler's parser (lark), pyelftools, mpmath, the SVP64 engine or assembler,
or the modules only a cold start or another command needs (dataclasses with
inspect, pickle, json, hashlib, ast, csv, pkgutil, tempfile), or read a
table, alias or page file -- checked by behaviour in a fresh interpreter,
with a generous time bound; and that the cycle collector, paused while the
machine is set up, is on again for the run."""
import json
import os
import struct
import subprocess
import sys
import time

import pytest

from conftest import ROOT

# li 0,1; li 3,0; sc: exit(0).  addi RT,RA,SI is D-form PO=14 (0x38000001:
# RT=0 RA=0 SI=1; 0x38600000: RT=3), sc is PO=17 with bit 30 set (Power ISA
# Book I 3.3.1 and 2.4)
WORDS = (0x38000001, 0x38600000, 0x44000002)
SOURCE = ".globl _start\n_start:\nli 0,1\nli 3,0\nsc\n"

CHILD = """
import os, sys, time
before = set(sys.modules)   # what the interpreter's own start-up (site) imported
opened = []
sys.addaudithook(lambda event, args: opened.append(os.fsdecode(args[0]))
                 if event == "open" and isinstance(args[0], (str, bytes)) else None)
start = time.perf_counter()
from isa_ext import cli
status = cli.main(["run", sys.argv[1]])
took = time.perf_counter() - start
modules = sorted(sys.modules)
new_modules = sorted(set(modules) - before)
import json   # (after the run: not counted as the run's)
with open(sys.argv[2], "w") as f:
    json.dump({"status": status, "modules": modules, "opened": opened, "took": took,
               "new_modules": new_modules}, f)
"""

SPEC_SUFFIXES = (".csv", ".mdwn", "forms.txt")
NOT_IMPORTED = ("lark", "elftools", "mpmath")
# imported at the first SVP64-prefixed word (isa_ext/svp64/dispatch.py)
SVP64_ENGINE = ("isa_ext.svp64.engine", "isa_ext.svp64.executor")
# not imported by a warm run (unless the interpreter's own start-up did):
# dataclasses (isa_ext.records instead) and inspect, pickle and json (the
# caches are marshal data), hashlib (OpenSSL; disk_cache.sha256), ast (the
# compiler's span check), csv (parsing tables), pkgutil (listing every
# command), tempfile (writing a cache entry), the sv. assembler
NOT_IMPORTED_WARM = ("dataclasses", "inspect", "pickle", "json", "hashlib", "ast", "csv",
                     "pkgutil", "tempfile", "isa_ext.svp64.asm")


def static_elf(words):
    """A static little-endian ELF64 (System V gABI layout): one PT_LOAD of
    the headers and ``words`` at 0x10000000, entry at the first word."""
    code = b"".join(struct.pack("<I", w) for w in words)
    entry = 0x10000078
    ehdr = b"\x7fELF" + bytes([2, 1, 1, 0]) + bytes(8)
    ehdr += struct.pack("<HHIQQQIHHHHHH", 2, 21, 1, entry, 64, 0, 2, 64, 56, 1, 0, 0, 0)
    size = 0x78 + len(code)
    phdr = struct.pack("<IIQQQQQQ", 1, 5, 0, 0x10000000, 0x10000000, size, size, 0x10000)
    return ehdr + phdr + code


def wait_until_settled():
    # the parse cache trusts a file's stamp only once it is older than
    # SETTLED_NS (a checkout edited a moment ago is read by its text)
    from isa_ext import parse_cache
    newest = max(os.stat(os.path.join(folder, name)).st_ctime_ns
                 for top in ("decoder", "pseudocode")
                 for folder, _dirs, names in os.walk(os.path.join(ROOT, top)) for name in names)
    wait = (newest + parse_cache.SETTLED_NS - time.time_ns()) / 1e9
    if wait > 0:
        time.sleep(wait + 0.1)


def run_child(tmp_path, program, env):
    report = tmp_path / "report.json"
    t = time.perf_counter()
    r = subprocess.run([sys.executable, "-c", CHILD, str(program), str(report)], env=env,
                       capture_output=True, text=True, timeout=300)
    wall = time.perf_counter() - t
    assert r.returncode == 0, r.stderr[-3000:]
    got = json.loads(report.read_text())
    return r.stdout, got, wall


@pytest.mark.parametrize("kind", ["asm", "elf"])
def test_a_warm_run_imports_and_reads_only_what_it_needs(tmp_path, kind):
    program = tmp_path / ("exit.s" if kind == "asm" else "exit")
    if kind == "asm":
        program.write_text(SOURCE)
    else:
        program.write_bytes(static_elf(WORDS))
    env = {**os.environ, "ISA_EXT_CACHE": str(tmp_path / "cache"), "PYTHONPATH": ROOT}
    wait_until_settled()
    run_child(tmp_path, program, env)             # fills the caches, as a first run
    out, got, wall = run_child(tmp_path, program, env)
    assert got["status"] == 0
    assert "stop: exit" in out and "steps: 3" in out and "exit status: 0" in out
    imported = [m for m in got["modules"] if m.split(".")[0] in NOT_IMPORTED]
    assert imported == []
    assert [m for m in SVP64_ENGINE if m in got["modules"]] == []
    assert [m for m in NOT_IMPORTED_WARM if m in got["new_modules"]] == []
    spec_files = [p for p in got["opened"] if p.endswith(SPEC_SUFFIXES)]
    assert spec_files == []
    # ~0.1 s on an idle machine (docs/benchmarks.md); bounded generously
    # for a loaded CI machine
    assert wall < 5 and got["took"] < 3, (wall, got["took"])


def test_only_the_process_command_line_skips_the_exit_collection(tmp_path, monkeypatch, capsys):
    # main() of the process's own command line freezes the objects left for
    # its exit (the interpreter's last collection would walk them all); main
    # called with an argv of its own (a test, a tool) leaves collection alone
    import gc
    from isa_ext import cli
    program = tmp_path / "exit.s"
    program.write_text(SOURCE)
    frozen = gc.get_freeze_count()
    try:
        assert cli.main(["run", str(program)]) == 0
        assert gc.get_freeze_count() == frozen
        monkeypatch.setattr(sys, "argv", ["isa-ext", "run", str(program)])
        assert cli.main() == 0
        assert gc.get_freeze_count() > frozen
    finally:
        gc.unfreeze()
    assert "exit status: 0" in capsys.readouterr().out


def test_the_svp64_engine_comes_in_at_the_first_prefixed_word(tmp_path):
    # a fresh interpreter: the engine is imported by the dispatch when the
    # program's sv.add is first run, and runs it (elementwise sums, by hand:
    # r8..r11 = 1+10, 2+20, 3+30, 4+40)
    program = tmp_path / "vector_add.s"
    program.write_text("li r16,1\nli r17,2\nli r18,3\nli r19,4\n"
                       "li r24,10\nli r25,20\nli r26,30\nli r27,40\n"
                       "setvl 0,0,4,0,1,1\nsv.add *8, *16, *24\n")
    env = {**os.environ, "ISA_EXT_CACHE": str(tmp_path / "cache"), "PYTHONPATH": ROOT}
    out, got, _wall = run_child(tmp_path, program, env)
    assert got["status"] == 0
    for reg, value in (("r8", 11), ("r9", 22), ("r10", 33), ("r11", 44)):
        assert f"  {reg:<8} 0x0 -> 0x{value:x}\n" in out
    assert all(m in got["modules"] for m in SVP64_ENGINE)


def test_the_collector_is_paused_for_the_set_up_and_on_for_the_run(tmp_path, monkeypatch,
                                                                    capsys):
    # the pause covers the imports, tables and program loading; the program
    # itself runs with collection on (a long run makes garbage), and only the
    # process's own command line freezes what the set-up made
    import gc
    from isa_ext import cli
    from isa_ext.sim import Simulator
    program = tmp_path / "exit.s"
    program.write_text(SOURCE)
    seen = []
    real_run = Simulator.run

    def run(self, *args, **kwargs):
        seen.append((gc.isenabled(), gc.get_freeze_count()))
        return real_run(self, *args, **kwargs)
    monkeypatch.setattr(Simulator, "run", run)
    assert gc.isenabled()
    frozen = gc.get_freeze_count()
    try:
        assert cli.main(["run", str(program)]) == 0
        assert seen == [(True, frozen)] and gc.isenabled()
        monkeypatch.setattr(sys, "argv", ["isa-ext", "run", str(program)])
        assert cli.main() == 0
        assert seen[1][0] is True and seen[1][1] > frozen   # frozen before the run
        assert gc.isenabled()
    finally:
        gc.unfreeze()
    assert "exit status: 0" in capsys.readouterr().out
