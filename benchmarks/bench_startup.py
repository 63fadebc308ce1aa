"""Start-up: the wall time of running a two-instruction program (``li 0,1;
sc``: exit at once), ``isa-ext run`` beside ``qemu-ppc64le`` on the same
program as a static ELF, each run ``--runs`` times in turn; the median of
each.  The first isa-ext run fills the caches (compiled pages, parsed
tables) and is left out, as a user's second run would find them.

    python benchmarks/bench_startup.py [--runs 15]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

SOURCE = "li 0,1\nli 3,0\nsc\n"


def timed(cmd, env=None):
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
    return time.perf_counter() - t


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=15)
    args = p.parse_args()
    work = tempfile.mkdtemp()
    try:
        src = os.path.join(work, "exit.s")
        with open(src, "w") as f:
            f.write(".abiversion 2\n.globl _start\n_start:\n" + SOURCE)
        elf = os.path.join(work, "exit")
        qemu = shutil.which("qemu-ppc64le")
        if shutil.which("powerpc64le-linux-gnu-as") and qemu:
            subprocess.run(["powerpc64le-linux-gnu-as", "-o", elf + ".o", src], check=True)
            subprocess.run(["powerpc64le-linux-gnu-ld", "-o", elf, elf + ".o"], check=True)
        else:
            qemu = None
        env = dict(os.environ)
        env.pop("PYTHONDONTWRITEBYTECODE", None)   # as an installed package runs
        ours = {"isa-ext run exit.s": [sys.executable, "-m", "isa_ext", "run", src]}
        if qemu:
            ours["isa-ext run exit (ELF)"] = [sys.executable, "-m", "isa_ext", "run", elf]
        times = {name: [] for name in ours}
        times["qemu-ppc64le exit"] = []
        for cmd in ours.values():
            timed(cmd, env)   # fills the caches
        for _ in range(args.runs):
            for name, cmd in ours.items():
                times[name].append(timed(cmd, env))
            if qemu:
                times["qemu-ppc64le exit"].append(timed([qemu, elf]))
        times["python -c pass"] = [timed([sys.executable, "-c", "pass"], env)
                                   for _ in range(args.runs)]
        load = os.getloadavg()
        print(f"start-up, median of {args.runs} runs (load average {load[0]:.1f}):")
        for name, ts in times.items():
            if ts:
                print(f"  {name:24} {statistics.median(ts) * 1000:7.0f} ms")
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
