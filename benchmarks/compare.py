"""isa_ext side by side with QEMU (and PyPy, ISACaller): rates, ratios, memory.

    python3 benchmarks/compare.py [--quick] [--pypy PYTHON] [--isacaller DIR]
                                  [--engines qemu,cpython,pypy,isacaller]
                                  [--memory-steps N] [--readme-table]

Every program is built as a static ppc64le ELF with GNU binutils
(powerpc64le-linux-gnu-as/ld; the SVP64 words come from isa_ext's assembler as
``.long``s, GNU as knows no SVP64) and every engine runs it in this one
invocation, so the ratios compare figures measured side by side:

* ``scalar``: the addi/cmpd/bne loop of bench_scalar.py (instructions/s);
* ``hf``: HF ``sv.add *0, *64, *64`` with VL=64, 16 per loop iteration, as in
  bench_svp64.py (element operations/s); QEMU has no SVP64, so its column is
  the same work as scalar code: 64 ``add``s per ``sv.add``;
* ``vf``: the VF loop of bench_svp64.py (``sv.add``, ``svstep.``, ``bc``; VL=64)
  inside an outer ``setvl``/``bdnz`` loop (instructions/s); no QEMU figure.

Engines: qemu-ppc64le (its rate is the difference of two iteration counts over
the difference of their wall times, so start-up cancels out); isa_ext on
this CPython and on PyPy (``--pypy``, default $ISA_EXT_PYPY, .ci/run's venv
~/.cache/isa_ext/pypy-venv or ``pypy3``, used
when isa_ext imports there), each in a fresh process timing ``Simulator.run``
of the whole ELF after a warm-up run (PyPy's JIT; a simulator of the same ISA,
so the timed run finds its translated blocks compiled), by the wall clock and
by the process's CPU time; ISACaller (``--isacaller``,
default $ISA_EXT_ISACALLER or /work/isacaller; a short scalar run timed inside
its process, differenced over two iteration counts).

``--workloads loops,embench`` adds the Embench-IoT programs (benchmarks/embench.py:
built by gcc -O2 from the shared tarball for each of ``--embench-builds``;
instructions/s per program and their geometric mean per build, each engine's
ratio to QEMU; a program whose build uses an instruction isa_ext lacks is
skipped with the mnemonics named).  isa_ext runs each program once, cold, from
its load to its exit (translation and PyPy's JIT warm-up included: what a user
running a program sees), in a fresh process after an untimed run that fills
the disk caches (specialised words, compiled blocks, parsed tables: a user's
second run finds them; the first run of a program under a new isa_ext is
slower).  QEMU runs it at scale 1 and at a scale of about 2 x 10^9
instructions (GLOBAL_SCALE_FACTOR; --quick 2 x 10^8), differenced;
isa_ext counts the instructions of the scale-1 and scale-0 builds, so QEMU's
work is known.  isa_ext's **steady** rate (``--embench-steady S``, default 4;
--quick 2; 0: none) is measured as QEMU's is: the scale-S build run cold in
another fresh process (after its own untimed run: both runs find the caches
alike), the difference in instructions over the difference in time, so
start-up, translation and PyPy's JIT warm-up cancel as QEMU's translation
does.  ``--quick`` runs two programs; ``--embench-tiny`` runs each
body once (LOCAL_SCALE_FACTOR 1; the script's test).

``--readme-table`` prints, instead of the report, the README's speed table:
its caption (command, date, cores, load) and one Markdown row per program,
rates by process CPU time (on a shared machine the wall clock also counts the
other processes' turns), no memory run.

Memory: a CPython process runs the scalar loop for ``--memory-steps`` steps
(10^8; --quick 10^5) and reports its resident set after 1% of them and at the
end, and the sizes of the decode caches against their limits.
"""
import argparse
import json
import math
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
sys.path.insert(0, TOP)  # run from a checkout: the package sits beside benchmarks/
sys.path.insert(0, HERE)  # embench.py
embench = None  # benchmarks/embench.py, imported by main() (the workers need none of it)

AS, LD, QEMU = "powerpc64le-linux-gnu-as", "powerpc64le-linux-gnu-ld", "qemu-ppc64le"
HF_PER_ITER = 16      # sv.add instructions per HF loop iteration
VL = 64
ENGINES = ("qemu", "cpython", "pypy", "isacaller")
# an engine's Embench rate differenced over two scales, as QEMU's (steady_rate)
STEADY = "-steady"
REPORT_ENGINES = ("qemu", "cpython", "cpython" + STEADY, "pypy", "pypy" + STEADY, "isacaller")
WORKLOADS = ("loops", "embench")
COLUMNS = ("program", "engine", "rate", "unit", "engine/QEMU", "engine/CPython",
           "rate by CPU time")

# iterations per program and engine: (full, --quick); large enough that a
# full run takes a second or more on each engine
SIZES = {
    "qemu": {"scalar": ((10**8, 10**9), (10**6, 10**7)),
             "hf": ((10**5, 10**6), (10**3, 10**4))},
    # (the VF loop's 200 outer iterations, 39 k instructions, ran in 15 ms on
    # CPython: its translation and first, untranslated passes were a sixth of that)
    "cpython": {"scalar": (10**6, 2 * 10**4), "hf": (400, 8), "vf": (2000, 4)},
    "pypy": {"scalar": (10**7, 2 * 10**4), "hf": (4000, 8), "vf": (20000, 4)},
}
ISACALLER_ITERATIONS = (5, 25)


# --- the programs ------------------------------------------------------------------

def load_imm(reg, n):
    """GNU as lines putting ``n`` (< 2^31) into ``reg``."""
    assert 0 <= n < 1 << 31
    return [f"lis {reg}, {n >> 16}", f"ori {reg}, {reg}, {n & 0xFFFF}"]


EXIT = ["li 0, 1", "li 3, 0", "sc"]  # Linux exit(0)


def scalar_source(n):
    return ["li 3, 0", *load_imm(4, n),
            "loop: addi 3, 3, 1", "cmpd 3, 4", "bne loop", *EXIT]


def sv_words(lines):
    """isa_ext's assembler for SVP64 lines (proven against libre-soc's SVP64Asm by
    tests/svp64/test_libresoc_asm.py): ``.long`` lines for GNU as."""
    from isa_ext.asm import assemble
    from isa_ext.isa import ISA
    data = assemble("\n".join(lines), isa=ISA(extensions=["base", "svp64"]),
                    little=True).data
    return [f".long 0x{int.from_bytes(data[i:i + 4], 'little'):08x}"
            for i in range(0, len(data), 4)]


def hf_source(n):
    return [*sv_words([f"setvl 0, 0, {VL}, 0, 1, 1"]), *load_imm(5, n), "mtctr 5",
            "loop:", *sv_words(["sv.add *0, *64, *64"] * HF_PER_ITER), "bdnz loop", *EXIT]


def hf_scalar_equivalent(n):
    """The HF program's work as scalar code: 64 adds per sv.add."""
    adds = [f"add {i % 32}, {i % 32}, {i % 32}" for i in range(VL)] * HF_PER_ITER
    return [*load_imm(5, n), "mtctr 5", "loop:", *adds, "bdnz loop", *EXIT]


def vf_source(n):
    return [*load_imm(5, n), "mtctr 5",
            "outer:", *sv_words([f"setvl 0, 0, {VL}, 1, 1, 1"]),
            "inner:", *sv_words(["sv.add *0, *64, *64", "svstep. 1, 0, 1, 0"]),
            "bc 4, 3, inner", "bdnz outer", *EXIT]


def vf_steps(n):
    """Instructions the VF program runs: per outer iteration setvl, VL x
    (sv.add, svstep., bc) and bdnz; then mtctr's pair, lis/ori and the exit."""
    return n * (1 + 3 * VL + 1) + 3 + 3


def build(lines, work, name):
    """A static ppc64le ELF from GNU assembly lines (GNU as and ld)."""
    src, obj, elf = (os.path.join(work, name + ext) for ext in (".s", ".o", ".elf"))
    with open(src, "w", encoding="utf-8") as f:
        # .abiversion 2: without it the ELF header says ELFv1, and QEMU takes the
        # entry point for a function descriptor
        f.write("\t.abiversion 2\n\t.text\n\t.globl _start\n_start:\n"
                + "".join(f"\t{x}\n" for x in lines))
    subprocess.run([AS, "-mpower10", "-o", obj, src], check=True, capture_output=True)
    subprocess.run([LD, "-static", "-o", elf, obj], check=True, capture_output=True)
    return elf


# --- engines -----------------------------------------------------------------------

def children_cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def qemu_rate(work, name, make, sizes, per_iteration):
    """Work units/s on QEMU, differencing two iteration counts (start-up cancels),
    by the wall clock and by QEMU's CPU time."""
    times, cpu_times = [], []
    for n in sizes:
        elf = build(make(n), work, f"{name}_qemu_{n}")
        t, c = time.perf_counter(), children_cpu_seconds()
        subprocess.run([QEMU, "-cpu", "power10", elf], check=True)
        times.append(time.perf_counter() - t)
        cpu_times.append(children_cpu_seconds() - c)
    work_done = per_iteration * (sizes[1] - sizes[0])
    return (work_done / max(times[1] - times[0], 1e-9),
            work_done / max(cpu_times[1] - cpu_times[0], 1e-9))


def _timed_run(isa, elf):
    """One run of ``elf`` from its load to a clean exit: steps, wall and CPU seconds."""
    from isa_ext.sim import Simulator
    sim = Simulator(isa=isa)
    sim.load_elf(elf)
    return _timed(sim, elf)


def _timed(sim, elf):
    """The run of ``sim`` (``elf`` loaded) to a clean exit: steps, wall and CPU seconds."""
    t, c = time.perf_counter(), time.process_time()
    res = sim.run(max_steps=10**10)
    dt, dc = time.perf_counter() - t, time.process_time() - c
    if res.stop != "exit" or res.exit_status != 0:
        raise SystemExit(f"{elf}: {res!r}")
    return {"steps": res.steps, "seconds": dt, "cpu_seconds": dc}


def worker(elf, warm_steps):
    """Runs inside the measured interpreter: time Simulator.run of the ELF."""
    from isa_ext.isa import ISA
    from isa_ext.sim import Simulator
    isa = ISA(extensions=["base", "svp64"])
    warm = Simulator(isa=isa)
    warm.load_elf(elf)
    warm.run(max_steps=warm_steps)
    return _timed_run(isa, elf)


def embench_worker(elf, extensions):
    """Runs inside the measured interpreter: one run of an Embench ELF from
    its load to its exit, cold as a user runs it (translation and PyPy's
    JIT warm-up included); ``extensions``: comma-separated, or "all"."""
    import gc
    from isa_ext.commands import paused_collection
    from isa_ext.isa import ISA
    from isa_ext.sim import Simulator
    # set up as ``isa-ext run`` sets up its own process (isa_ext/commands):
    # the cycle collector paused while the machine is made, and what was made
    # then frozen (left out of the run's collections; not on PyPy)
    with paused_collection():
        isa = ISA() if extensions == "all" else ISA(extensions=extensions.split(","))
        sim = Simulator(isa=isa)
        sim.load_elf(elf)
    if hasattr(gc, "freeze"):
        gc.freeze()
    return _timed(sim, elf)


def memory_worker(elf, small, big):
    """RSS after ``small`` and after ``big`` steps of one run (resumed), and the
    decode caches' sizes against their limits."""
    from isa_ext.isa import ISA
    from isa_ext.sim import Simulator
    sim = Simulator(isa=ISA(extensions=["base", "svp64"]))
    sim.load_elf(elf)
    sim.run(max_steps=small)
    rss_small = rss_kib()
    res = sim.run(max_steps=big - small)
    if res.stop != "step_limit":
        raise SystemExit(f"memory run ended early: {res!r}")
    return {"small": small, "big": big, "rss_small": rss_small, "rss_big": rss_kib(),
            "caches": cache_sizes(sim)}


def cache_sizes(sim):
    isa = sim.isa
    return {"decoded words": (len(isa._decode_cache), isa.DECODE_CACHE_LIMIT),
            "executable words": (len(isa._exec_cache), isa.DECODE_CACHE_LIMIT),
            "per-address code": (len(sim._cache), sim.CODE_CACHE_LIMIT)}


def rss_kib():
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def in_process(python, mode, *args):
    """Run this file's ``mode`` under ``python``; its JSON answer."""
    r = subprocess.run([python, os.path.abspath(__file__), mode, *map(str, args)],
                       capture_output=True, text=True, cwd=TOP)
    if r.returncode != 0:
        raise SystemExit(f"{python} {mode}: {r.stderr[-2000:]}")
    return json.loads(r.stdout.strip().splitlines()[-1])


# .ci/run's PyPy venv (pypy3 with isa_ext's dependencies)
PYPY_VENV_PYTHON = os.path.join(os.environ.get("ISA_EXT_PYPY_VENV") or os.path.expanduser(
    os.path.join("~", ".cache", "isa_ext", "pypy-venv")), "bin", "python")


def default_pypy():
    if os.environ.get("ISA_EXT_PYPY"):
        return os.environ["ISA_EXT_PYPY"]
    return PYPY_VENV_PYTHON if os.path.isfile(PYPY_VENV_PYTHON) else "pypy3"


def imports_isa_ext(python):
    if not python or not shutil.which(python):
        return False
    return subprocess.run([python, "-c", "import isa_ext.sim"], capture_output=True,
                          cwd=TOP).returncode == 0


ISACALLER_TIMER = r"""
import json, sys, time
from nmigen import Module, Signal
from nmigen.sim import Simulator, Settle
from openpower.decoder.power_decoder import create_pdecode
from openpower.decoder.power_decoder2 import PowerDecode2
from openpower.decoder.isa.all import ISA

cases = json.load(sys.stdin)
pdecode2 = PowerDecode2(create_pdecode(include_fp=True))
top = Module()
top.submodules.pdecode2 = pdecode2
out = []

def process():
    for words, gpr in cases:
        sim = ISA(pdecode2, gpr, {}, 0, initial_insns=list(words), respect_pc=True,
                  bigendian=0)
        yield pdecode2.dec.bigendian.eq(0)
        steps, t = 0, time.perf_counter()
        while sim.pc.CIA.value < 4 * len(words):
            yield from sim.setup_one()
            yield Settle()
            yield from sim.execute_one()
            steps += 1
        out.append([steps, time.perf_counter() - t, sim.gpr(3).value])

s = Simulator(top)
s.add_process(process)
s.run()
print(json.dumps(out))
"""


def isacaller_rate(root):
    """Instructions/s of the scalar loop on ISACaller (in-process timing of two
    iteration counts, differenced)."""
    from isa_ext.asm import assemble
    from isa_ext.compat.libresoc import run_python
    data = assemble("li 3, 0\nloop: addi 3, 3, 1\ncmpd 3, 4\nbne loop\n", base=0).data
    words = [int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data), 4)]
    cases = [[words, [0] * 4 + [n] + [0] * 27] for n in ISACALLER_ITERATIONS]
    out = json.loads(run_python(root, ISACALLER_TIMER, json.dumps(cases)).splitlines()[-1])
    for (steps, _dt, r3), n in zip(out, ISACALLER_ITERATIONS):
        if r3 != n or steps != 1 + 3 * n:
            raise SystemExit(f"ISACaller ran the loop wrongly: {steps} steps, r3={r3}")
    (s0, t0, _), (s1, t1, _) = out
    return (s1 - s0) / max(t1 - t0, 1e-9)


# --- the report --------------------------------------------------------------------

def isa_ext_rates(python, engine, work, quick):
    """{program: rate} for isa_ext under ``python`` (wall clock), and the same by
    the process's CPU time (steadier on a shared machine)."""
    sizes = {p: SIZES[engine][p][quick] for p in ("scalar", "hf", "vf")}
    out, cpu = {}, {}
    elf = build(scalar_source(sizes["scalar"]), work, f"scalar_{engine}")
    r = in_process(python, "--worker", elf, 1000 if quick else 200_000)
    if r["steps"] != 3 * sizes["scalar"] + 6:  # li, lis, ori, the loop, the exit
        raise SystemExit(f"scalar loop: {r['steps']} steps")
    out["scalar"] = r["steps"] / r["seconds"]
    cpu["scalar"] = r["steps"] / r["cpu_seconds"]
    elf = build(hf_source(sizes["hf"]), work, f"hf_{engine}")
    r = in_process(python, "--worker", elf, 100 if quick else 2000)
    out["hf"] = VL * HF_PER_ITER * sizes["hf"] / r["seconds"]
    cpu["hf"] = VL * HF_PER_ITER * sizes["hf"] / r["cpu_seconds"]
    elf = build(vf_source(sizes["vf"]), work, f"vf_{engine}")
    r = in_process(python, "--worker", elf, 400 if quick else 20_000)
    if r["steps"] != vf_steps(sizes["vf"]):
        raise SystemExit(f"VF loop: {r['steps']} steps, expected {vf_steps(sizes['vf'])}")
    out["vf"] = r["steps"] / r["seconds"]
    cpu["vf"] = r["steps"] / r["cpu_seconds"]
    return out, cpu


UNITS = {"scalar": "insn/s", "hf": "elem-op/s", "vf": "insn/s"}
TITLES = {"scalar": "scalar addi/cmpd/bne loop", "hf": "HF sv.add VL=64",
          "vf": "VF sv.add/svstep./bc VL=64"}


def ratio(a, b):
    if not a or not b:
        return "-"
    if a >= b:
        return f"{a / b:,.0f}x" if a >= 10 * b else f"{a / b:.2f}x"
    return f"1/{b / a:,.0f}" if b >= 10 * a else f"1/{b / a:.2f}"


# --- Embench-IoT --------------------------------------------------------------------

# QEMU's second scale: about this many instructions (full, --quick)
EMBENCH_QEMU_INSNS = (2 * 10**9, 2 * 10**8)


def embench_qemu_rate(tree, name, build_name, work, per_scale, quick):
    """QEMU's instructions/s for one program (wall, CPU), differenced over
    scale 1 and a scale of EMBENCH_QEMU_INSNS: ``per_scale`` instructions each."""
    scales = (1, max(2, round(EMBENCH_QEMU_INSNS[quick] / per_scale)))
    times, cpu_times = [], []
    for scale in scales:
        elf = embench.build(tree, name, build_name, scale, work)
        t, c = time.perf_counter(), children_cpu_seconds()
        r = subprocess.run([QEMU, "-cpu", "power10", elf], capture_output=True)
        times.append(time.perf_counter() - t)
        cpu_times.append(children_cpu_seconds() - c)
        if r.returncode != 0:
            raise SystemExit(f"QEMU {build_name} {name} scale {scale}: exit {r.returncode}")
    insns = per_scale * (scales[1] - scales[0])
    return (insns / max(times[1] - times[0], 1e-9),
            insns / max(cpu_times[1] - cpu_times[0], 1e-9))


def steady_rate(python, elf, extensions, cold, big_elf):
    """(wall, CPU) instructions/s of isa_ext under ``python`` differenced as
    QEMU's are: ``cold`` is the run of ``elf`` (scale 1), ``big_elf`` the same
    program at a larger scale, run cold in another fresh process."""
    big = in_process(python, "--embench-worker", big_elf, extensions)
    insns = big["steps"] - cold["steps"]
    wall, cpu = big["seconds"] - cold["seconds"], big["cpu_seconds"] - cold["cpu_seconds"]
    if insns <= 0 or wall <= 0 or cpu <= 0:
        raise SystemExit(f"steady rate of {elf}: {insns:,} more instructions in "
                         f"{wall:.3f} s more (too short, or a noisy machine)")
    return insns / wall, insns / cpu


def embench_rates(tree, build_name, names, engines, pythons, work, quick, steady=0):
    """{(program, engine): (wall rate, CPU rate)} for one build (``engine-steady``:
    the differenced rate of steady_rate, with the scale-``steady`` build); the
    programs' instruction counts (scale 1, per unit of scale); the programs
    skipped, with their reasons (an instruction isa_ext lacks, a run that fails)."""
    isa = embench.isa_for(build_name)
    extensions = ",".join(embench.BUILDS[build_name][1] or ["all"])
    out, counts, skipped = {}, {}, {}
    for name in names:
        elf = embench.build(tree, name, build_name, 1, work)
        reason = embench.missing(isa, elf)
        if reason:
            skipped[name] = reason
            continue
        steps = None
        try:
            for engine in ("cpython", "pypy"):
                if engine in pythons:
                    # a first run, not timed, fills the disk caches (specialised
                    # words, compiled blocks, parsed tables): the timed runs
                    # find them as a user's second run does, each alike
                    in_process(pythons[engine], "--embench-worker", elf, extensions)
                    r = in_process(pythons[engine], "--embench-worker", elf, extensions)
                    out[name, engine] = (r["steps"] / r["seconds"],
                                         r["steps"] / r["cpu_seconds"])
                    if steady > 1:
                        big = embench.build(tree, name, build_name, steady, work)
                        # (likewise for the larger scale: translation cancels
                        # only when both runs find the caches alike)
                        in_process(pythons[engine], "--embench-worker", big, extensions)
                        try:
                            out[name, engine + STEADY] = steady_rate(
                                pythons[engine], elf, extensions, r, big)
                        except SystemExit as e:   # the cold figure stands
                            skipped[f"{name} ({engine} steady)"] = str(e).strip()
                    if steps not in (None, r["steps"]):
                        raise SystemExit(f"{steps:,} instructions on CPython, "
                                         f"{r['steps']:,} on PyPy")
                    steps = r["steps"]
        except SystemExit as e:
            skipped[name] = str(e).strip().splitlines()[-1]
            continue
        if steps is None:
            steps = embench.count_steps(isa, elf)
        per_scale = embench.steps_per_scale(isa, tree, name, build_name, steps, work)
        counts[name] = (steps, per_scale)
        if "qemu" in engines:
            out[name, "qemu"] = embench_qemu_rate(tree, name, build_name, work,
                                                  per_scale, quick)
    return out, counts, skipped


def geomean(values):
    values = list(values)
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def embench_summary(results, names, engines):
    """Add each engine's geometric mean over the programs every engine ran (a
    steady rate: those of them it has; embench_rates notes a missing one)."""
    ran = [n for n in names if all((n, e) in results for e in engines
                                   if not e.endswith(STEADY))]
    for e in engines:
        these = [n for n in ran if (n, e) in results]
        wall = geomean(results[n, e][0] for n in these)
        if wall is not None:
            results["geomean", e] = (wall, geomean(results[n, e][1] for n in these))
    return ran


# --- the README's table ------------------------------------------------------------

README_ENGINES = ("qemu", "cpython", "pypy")
README_HEADER = "| program | QEMU | isa_ext on CPython | isa_ext on PyPy |"
README_TITLES = {"scalar": "scalar loop (`addi`/`cmpd`/`bne`), instructions/s",
                 "hf": "HF `sv.add`, VL=64, element operations/s",
                 "vf": "VF loop (`sv.add`, `svstep.`, `bc`), instructions/s"}
README_NO_QEMU = "- (no SVP64)"


def millions(rate):
    m = rate / 1e6
    return f"{m:,.0f} M" if m >= 100 else f"{m:.1f} M" if m >= 10 else f"{m:.2f} M"


def readme_cell(prog, engine, cpu_rates):
    rate = cpu_rates.get((prog, engine))
    if engine == "qemu" and prog == "vf":
        return README_NO_QEMU
    if rate is None:
        return "-"
    if engine == "qemu":
        return millions(rate) + (" (as 64 scalar `add`s)" if prog == "hf" else "")
    qemu = cpu_rates.get((prog, "qemu"))
    return millions(rate) + (f" ({ratio(rate, qemu)} of QEMU)" if qemu else "")


def interpreter_version(python):
    """"CPython 3.11.7" or "PyPy 7.3.11 (Python 3.9.16)" for ``python``."""
    code = ("import platform, sys; v = getattr(sys, 'pypy_version_info', None); "
            "print(platform.python_implementation(), "
            "'%d.%d.%d' % tuple(v[:3]) + ' (Python %s)' % platform.python_version() "
            "if v else platform.python_version())")
    r = subprocess.run([python, "-c", code], capture_output=True, text=True)
    return r.stdout.strip() or python


def readme_title(prog, steady=False):
    """A row's title: a loop's, or an Embench build's geometric mean (of cold
    runs, or ``steady``: differenced over two scales)."""
    if prog in README_TITLES:
        return README_TITLES[prog]
    build_name = prog[len("geomean ("):-1]
    flags = " ".join(embench.BUILDS[build_name][0])
    how = ("steady (two scales differenced, as QEMU's)" if steady
           else "one cold run each")
    return f"Embench-IoT `{flags}`, geometric mean, {how}, instructions/s"


def readme_table(cpu_rates, engines, versions, command, load, quick, progs):
    """The README's speed section: a caption naming the command, date, machine
    and load, then the Markdown table (rates by CPU time, in millions)."""
    ran = ", ".join(versions[e] for e in README_ENGINES if e in versions)
    caption = (f"Measured by `{command}` on {time.strftime('%Y-%m-%d')}, "
               f"a {os.cpu_count()}-core machine at load average {load[0]:.1f} before "
               f"and {load[1]:.1f} after, with {ran}; rates by each "
               "engine's process CPU time, every engine in the same run"
               + ("; --quick: sizes too small to measure" if quick else "") + ".")
    lines = [caption, "", README_HEADER, "|---|---|---|---|"]
    for prog in progs:
        if prog in README_TITLES or prog.startswith("geomean ("):
            cells = [readme_cell(prog, e, cpu_rates) if e in engines else "-"
                     for e in README_ENGINES]
            lines.append(f"| {readme_title(prog)} | " + " | ".join(cells) + " |")
            if any((prog, e + STEADY) in cpu_rates for e in README_ENGINES):
                cells = [readme_cell(prog, e if e == "qemu" else e + STEADY, cpu_rates)
                         if e in engines else "-" for e in README_ENGINES]
                lines.append(f"| {readme_title(prog, steady=True)} | " + " | ".join(cells)
                             + " |")
    return lines


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true",
                   help="tiny sizes: checks the script, not a measurement")
    p.add_argument("--pypy", default=default_pypy(),
                   help="a PyPy able to import isa_ext ($ISA_EXT_PYPY, .ci/run's venv "
                        f"{PYPY_VENV_PYTHON}, pypy3)")
    p.add_argument("--isacaller", default=os.environ.get("ISA_EXT_ISACALLER",
                                                         "/work/isacaller"),
                   help="ISACaller built by ../shared/tools/isacaller-setup "
                        "($ISA_EXT_ISACALLER, /work/isacaller)")
    p.add_argument("--engines", default=",".join(ENGINES),
                   help="comma-separated subset of " + ",".join(ENGINES))
    p.add_argument("--workloads", default="loops",
                   help="comma-separated subset of " + ",".join(WORKLOADS) + " (loops)")
    p.add_argument("--embench-builds", default=",".join(embench.BUILDS),
                   help="comma-separated subset of " + ",".join(embench.BUILDS))
    p.add_argument("--embench-programs", default=None,
                   help="comma-separated Embench programs (all; --quick: "
                        + ",".join(embench.QUICK_PROGRAMS) + ")")
    p.add_argument("--embench-tarball", default=None,
                   help=f"embench-iot.tar.gz (${embench.TARBALL_ENV}, ../shared/vendor/)")
    p.add_argument("--embench-tiny", action="store_true",
                   help="each Embench body run once (LOCAL_SCALE_FACTOR 1): checks the "
                        "script, not a measurement")
    p.add_argument("--embench-steady", type=int, default=None, metavar="S",
                   help="isa_ext's steady Embench rate: differenced over scale 1 and "
                        "scale S, as QEMU's (4; --quick 2; 0: none)")
    p.add_argument("--memory-steps", type=int, default=None,
                   help="steps of the memory run (10^8; --quick 10^5)")
    p.add_argument("--readme-table", action="store_true",
                   help="print the README's speed table (by CPU time) instead of the "
                        "report; no memory run")
    args = p.parse_args(argv)
    args.engines = [e for e in args.engines.split(",") if e]
    args.workloads = [w for w in args.workloads.split(",") if w]
    args.embench_builds = [b for b in args.embench_builds.split(",") if b]
    for what, given, known in (("--engines", args.engines, ENGINES),
                               ("--workloads", args.workloads, WORKLOADS),
                               ("--embench-builds", args.embench_builds, embench.BUILDS)):
        bad = set(given) - set(known)
        if bad:
            p.error(f"{what}: unknown {', '.join(sorted(bad))}")
    tools = (AS, LD) + ((QEMU,) if "qemu" in args.engines else ()) \
        + ((embench.GCC,) if "embench" in args.workloads else ())
    missing = [t for t in tools if not shutil.which(t)]
    if missing:
        p.error(f"{', '.join(missing)} not installed (apt-get install binutils-powerpc64le-"
                "linux-gnu gcc-powerpc64le-linux-gnu qemu-user)")
    if "embench" in args.workloads:
        args.embench_tarball = embench.tarball(args.embench_tarball)
        if args.embench_tarball is None:
            p.error("embench: no embench-iot.tar.gz (--embench-tarball, "
                    f"${embench.TARBALL_ENV}, ../shared/vendor/)")
    return args


def measure_loops(args, work, rates, cpu_rates, notes, pythons, quick):
    """The scalar, HF and VF loops on every engine (and ISACaller's scalar)."""
    if "qemu" in args.engines:
        q = SIZES["qemu"]
        rates["scalar", "qemu"], cpu_rates["scalar", "qemu"] = qemu_rate(
            work, "scalar", scalar_source, q["scalar"][quick], 3)
        rates["hf", "qemu"], cpu_rates["hf", "qemu"] = qemu_rate(
            work, "hf", hf_scalar_equivalent, q["hf"][quick], VL * HF_PER_ITER)
    for engine, python in pythons.items():
        wall, cpu = isa_ext_rates(python, engine, work, quick)
        for prog, r in wall.items():
            rates[prog, engine], cpu_rates[prog, engine] = r, cpu[prog]
    if "isacaller" in args.engines:
        py = os.path.join(args.isacaller, "venv", "bin", "python")
        if os.path.isfile(py):
            rates["scalar", "isacaller"] = isacaller_rate(args.isacaller)
        else:
            notes.append(f"ISACaller: none at {args.isacaller} (--isacaller DIR)")
    return ["scalar", "hf", "vf"]


def measure_embench(args, work, rates, cpu_rates, notes, pythons, quick):
    """Every Embench program of every build on every engine; the programs'
    keys ("name (build)", then "geomean (build)") in order."""
    tree = embench.extract(args.embench_tarball, work, args.embench_tiny)
    names = (args.embench_programs.split(",") if args.embench_programs
             else embench.QUICK_PROGRAMS if quick else embench.programs(tree))
    engines = [e for e in args.engines if e in pythons or e == "qemu"]
    # (--embench-tiny runs are too short for a difference of times)
    steady = args.embench_steady if args.embench_steady is not None else \
        0 if args.embench_tiny else 2 if quick else 4
    if steady > 1:
        engines += [e + STEADY for e in engines if e in pythons]
    progs = []
    for build_name in args.embench_builds:
        results, counts, skipped = embench_rates(tree, build_name, names, engines,
                                                 pythons, work, quick, steady)
        ran = embench_summary(results, names, engines)
        for name, engine in results:
            key = f"{name} ({build_name})" if name != "geomean" else geomean_key(build_name)
            rates[key, engine], cpu_rates[key, engine] = results[name, engine]
        progs += [f"{n} ({build_name})" for n in ran] + [geomean_key(build_name)]
        notes += [f"embench {build_name}: {n}: {steps:,} instructions to its exit, "
                  f"{per_scale:,} per unit of GLOBAL_SCALE_FACTOR"
                  for n, (steps, per_scale) in counts.items()]
        notes += [f"embench {build_name}: {n} skipped: {why}" for n, why in skipped.items()]
        notes.append(f"embench {build_name}: geometric mean of {len(ran)} of "
                     f"{len(names)} programs")
    return progs


def geomean_key(build_name):
    return f"geomean ({build_name})"


def print_report(args, progs, rates, cpu_rates, notes, load_before, quick, mem):
    names = {"qemu": "qemu-ppc64le", "cpython": f"isa_ext CPython {platform.python_version()}",
             "pypy": "isa_ext PyPy", "isacaller": "ISACaller"}
    for e in ("cpython", "pypy"):
        names[e + STEADY] = names[e] + " steady"
    print(f"command: {' '.join([os.path.basename(sys.executable)] + sys.argv)}")
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, load average "
          f"{load_before:.1f} before / {os.getloadavg()[0]:.1f} after; "
          f"{'--quick: sizes too small to measure' if quick else 'one run each'}")
    print(f"{COLUMNS[0]:28} {COLUMNS[1]:30} {COLUMNS[2]:>15} {COLUMNS[3]:10} "
          f"{COLUMNS[4]:>12} {COLUMNS[5]:>15} {COLUMNS[6]:>17}")
    for prog in progs:
        for eng in REPORT_ENGINES:
            r = rates.get((prog, eng))
            if r is None:
                continue
            name = names[eng] + (" (64 scalar adds)" if prog == "hf" and eng == "qemu" else "")
            c = cpu_rates.get((prog, eng))
            print(f"{TITLES.get(prog, prog):28} {name:30} {r:15,.0f} "
                  f"{UNITS.get(prog, 'insn/s'):10} "
                  f"{ratio(r, rates.get((prog, 'qemu'))):>12} "
                  f"{ratio(r, rates.get((prog, 'cpython'))):>15} "
                  f"{'-' if c is None else format(c, ',.0f'):>17}")
    if mem is not None:
        print(f"memory (CPython, scalar loop): RSS {mem['rss_small'] / 1024:.1f} MiB after "
              f"{mem['small']:,} steps, {mem['rss_big'] / 1024:.1f} MiB after "
              f"{mem['big']:,} steps (growth {(mem['rss_big'] - mem['rss_small']) / 1024:+.1f}"
              " MiB)")
        print("caches after the memory run (entries / limit): " + ", ".join(
            f"{k} {n:,} / {limit:,}" for k, (n, limit) in mem["caches"].items()))
    for n in notes:
        print("note: " + n)


def main(argv=None):
    if argv is None:
        argv = sys.argv[1:]
    if argv and argv[0] in ("--worker", "--memory-worker"):
        fn = worker if argv[0] == "--worker" else memory_worker
        print(json.dumps(fn(argv[1], *map(int, argv[2:]))))
        return 0
    if argv and argv[0] == "--embench-worker":
        print(json.dumps(embench_worker(argv[1], argv[2])))
        return 0
    global embench
    import embench
    args = parse_args(argv)
    quick = 1 if args.quick else 0
    load_before = os.getloadavg()[0]  # other work on the machine slows every engine
    rates = {}  # (program, engine) -> rate
    cpu_rates = {}  # the same by each engine's process CPU time
    versions = {}  # engine -> what ran, for the README table's caption
    notes, pythons, progs, mem = [], {}, [], None
    if "qemu" in args.engines:
        versions["qemu"] = "QEMU " + subprocess.run(
            [QEMU, "--version"], capture_output=True, text=True).stdout.split()[2]
    if "cpython" in args.engines:
        pythons["cpython"] = sys.executable
    if "pypy" in args.engines:
        if imports_isa_ext(args.pypy):
            pythons["pypy"] = args.pypy
        else:
            notes.append(f"PyPy: {args.pypy!r} absent or cannot import isa_ext "
                         "(--pypy PYTHON)")
    for engine, python in pythons.items():
        versions[engine] = interpreter_version(python)
    with tempfile.TemporaryDirectory(prefix="isa_ext_compare_") as work:
        for workload in args.workloads:
            measure = measure_loops if workload == "loops" else measure_embench
            progs += measure(args, work, rates, cpu_rates, notes, pythons, quick)
        if args.readme_table:
            command = " ".join(["python", os.path.relpath(os.path.abspath(sys.argv[0]), TOP),
                                *argv])
            load = (load_before, os.getloadavg()[0])
            print("\n".join(readme_table(cpu_rates, args.engines, versions, command, load,
                                         quick, progs)))
            for n in notes:
                print("note: " + n, file=sys.stderr)
            return 0
        if "loops" in args.workloads:
            big = args.memory_steps or (10**5 if quick else 10**8)
            small = max(1, big // 100)
            elf = build(scalar_source((1 << 31) - 1), work, "memory")
            mem = in_process(sys.executable, "--memory-worker", elf, small, big)
    print_report(args, progs, rates, cpu_rates, notes, load_before, quick, mem)
    return 0


if __name__ == "__main__":
    sys.exit(main())
