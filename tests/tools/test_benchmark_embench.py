"""benchmarks/compare.py's Embench-IoT workload runs end to end on one tiny
program (crc32, its body run once) and its figures hold together.

Timings are not tested (a shared CI machine).  What is: the report has the
program's and the geometric mean's rows on QEMU and CPython, and the
instruction count compare.py reports for the program (counted by isa_ext, and
the base of QEMU's rate) is QEMU's own: ``qemu-ppc64le -singlestep -d
exec,nochain`` logs one ``Trace`` line per instruction it executes.
"""
import os
import re
import subprocess
import sys

from conftest import ROOT, need_tool, shared_path

SCRIPT = os.path.join(ROOT, "benchmarks", "compare.py")
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))


def qemu_instructions(elf, log):
    """Instructions QEMU executes running ``elf`` to its exit: one translated
    block per instruction (-singlestep), each logged as it runs (nochain)."""
    r = subprocess.run([need_tool("qemu-ppc64le"), "-cpu", "power9", "-singlestep",
                        "-d", "exec,nochain", "-D", str(log), elf],
                       capture_output=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    with open(log) as f:
        return sum(1 for line in f if line.startswith("Trace "))


def test_tiny_embench_run_reports_qemus_instruction_count(tmp_path):
    for tool in ("powerpc64le-linux-gnu-gcc", "qemu-ppc64le"):
        need_tool(tool)
    tarball = shared_path("vendor", "embench-iot.tar.gz")
    r = subprocess.run([sys.executable, SCRIPT, "--quick", "--engines", "qemu,cpython",
                        "--workloads", "embench", "--embench-builds", "power9",
                        "--embench-programs", "crc32", "--embench-tiny",
                        "--embench-tarball", tarball],
                       capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    rows = {(m.group(1).strip(), m.group(2).strip()): int(m.group(3).replace(",", ""))
            for m in (re.match(r"(.{28}) (.{30}) +([\d,]+) insn/s", line)
                      for line in r.stdout.splitlines()) if m}
    cpython = f"isa_ext CPython {sys.version.split()[0]}"
    assert set(rows) == {(p, e) for p in ("crc32 (power9)", "geomean (power9)")
                         for e in ("qemu-ppc64le", cpython)}, r.stdout
    assert all(rate > 0 for rate in rows.values())
    # one program: its geometric mean is itself
    assert rows["geomean (power9)", cpython] == rows["crc32 (power9)", cpython]
    count = re.search(r"^note: embench power9: crc32: ([\d,]+) instructions to its exit, "
                      r"([\d,]+) per unit of GLOBAL_SCALE_FACTOR$", r.stdout, re.M)
    assert count, r.stdout
    steps, per_scale = (int(g.replace(",", "")) for g in count.groups())
    # the same build, made here by the benchmark's own builder, run by QEMU
    import embench
    tree = embench.extract(tarball, str(tmp_path), tiny=True)
    elf = embench.build(tree, "crc32", "power9", 1, str(tmp_path))
    assert steps == qemu_instructions(elf, tmp_path / "qemu.log")
    # scale 0 runs no body: a scale's work is less than the whole run, and some
    assert 0 < per_scale < steps


def test_steady_rate_is_the_difference_of_two_cold_runs(monkeypatch):
    # isa_ext's steady Embench rate is measured as QEMU's: (instructions at
    # scale S - at scale 1) / (seconds at S - at 1), by wall clock and by CPU
    # time: by hand (5,000,000 - 1,000,000) / (3.0 - 1.0) = 2,000,000 and
    # 4,000,000 / (2.5 - 0.5) = 2,000,000; (4,000,000) / (1.5 - 0.5) = 4,000,000
    import compare
    cold = {"steps": 1_000_000, "seconds": 1.0, "cpu_seconds": 0.5}
    big = {"steps": 5_000_000, "seconds": 3.0, "cpu_seconds": 1.5}
    calls = []

    def fake(python, mode, elf, extensions):
        calls.append((python, mode, elf, extensions))
        return big
    monkeypatch.setattr(compare, "in_process", fake)
    assert compare.steady_rate("py", "a.elf", "base", cold, "b.elf") == (2_000_000, 4_000_000)
    assert calls == [("py", "--embench-worker", "b.elf", "base")]
    # a larger scale that took no longer: no rate, a reason
    big = {"steps": 5_000_000, "seconds": 0.9, "cpu_seconds": 1.5}
    try:
        compare.steady_rate("py", "a.elf", "base", cold, "b.elf")
    except SystemExit as e:
        assert "noisy" in str(e) and "4,000,000 more instructions" in str(e)
    else:
        raise AssertionError("no SystemExit")
