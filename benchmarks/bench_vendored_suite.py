"""libre-soc's own SVP64 test files: wall time on isa_ext and on ISACaller.

    python3 benchmarks/bench_vendored_suite.py --isacaller DIR [--timeout 300]

Runs each file that tests/compat_baseline.json lists (openpower-isa 3cb597b9:
``test_caller_svp64*.py``, ``test_caller_setvl.py`` ...) twice, one after the
other on the same machine:

* on isa_ext: ``isa-ext openpower test FILE`` (the facade, openpower-isa profile),
  from the snapshot in ``../shared/vendor/openpower-isa.tar.gz``;
* on ISACaller: openpower-isa's own pytest run of the same file in the
  checkout ``../shared/tools/isacaller-setup DIR`` built (pytest is installed
  into its venv on first use), with ``SILENCELOG=1``.

Prints per file the seconds and the passed/failed counts of each, then the
totals.  A file that does not finish within ``--timeout`` seconds on ISACaller
is stopped and counted at the timeout, so the ISACaller total is a lower bound
when any file timed out (the table marks them).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
BASELINE = os.path.join(TOP, "tests", "compat_baseline.json")
TARBALL = os.path.join(TOP, "..", "shared", "vendor", "openpower-isa.tar.gz")
TEST_DIR = "openpower-isa/src/openpower/decoder/isa"
PYTEST_SUMMARY = re.compile(r"(\d+) (passed|failed|error)")
CLOSING = re.compile(r"^(\d+) passed, (\d+) failed$", re.M)


def files():
    with open(BASELINE, encoding="utf-8") as f:
        return sorted(json.load(f)["passed"])


def run_isa_ext(path):
    t = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "isa_ext.cli", "openpower", "test", path,
                        "--", "-q", "-p", "no:randomly"],
                       capture_output=True, text=True, cwd=TOP)
    dt = time.perf_counter() - t
    found = CLOSING.findall(r.stdout)
    passed, failed = map(int, found[-1]) if found else (0, 0)
    return dt, passed, failed, False


def ensure_pytest(root):
    """Its venv's python, with a pytest before 8.2: from 8.2 on pytest makes
    a unittest class's instance for ``runTest``, and openpower-isa's
    TestRunnerBase asserts its test is named ``test`` (every case-runner
    file then fails at once: ``assert 'runTest' == 'test'``)."""
    py = os.path.join(root, "venv", "bin", "python")
    probe = ("import sys, pytest; v = tuple(map(int, pytest.__version__.split('.')[:2])); "
             "sys.exit(v >= (8, 2))")
    if subprocess.run([py, "-c", probe], capture_output=True).returncode:
        subprocess.run([py, "-m", "pip", "install", "-q", "pytest<8.2"], check=True)
    return py


def run_isacaller(py, root, name, timeout):
    path = os.path.join(root, TEST_DIR, name)
    env = dict(os.environ, SILENCELOG="1", AS="powerpc64le-linux-gnu-as",
               LD="powerpc64le-linux-gnu-ld", OBJCOPY="powerpc64le-linux-gnu-objcopy")
    env.pop("PYTHONPATH", None)
    t = time.perf_counter()
    try:
        r = subprocess.run([py, "-m", "pytest", "-q", "-o", "required_plugins=",
                            "-o", "addopts=", "-p", "no:cacheprovider", path],
                           capture_output=True, text=True, env=env, timeout=timeout,
                           cwd=os.path.join(root, "openpower-isa"))
    except subprocess.TimeoutExpired:
        return timeout, 0, 0, True
    dt = time.perf_counter() - t
    counts = {k: int(n) for n, k in PYTEST_SUMMARY.findall(r.stdout.splitlines()[-1]
                                                           if r.stdout else "")}
    return dt, counts.get("passed", 0), counts.get("failed", 0) + counts.get("error", 0), False


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--isacaller", default=os.environ.get("ISA_EXT_ISACALLER"),
                   help="DIR built by ../shared/tools/isacaller-setup (default "
                        "$ISA_EXT_ISACALLER); without it only isa_ext is timed")
    p.add_argument("--timeout", type=float, default=300,
                   help="seconds per file on ISACaller (300)")
    p.add_argument("files", nargs="*", help="test file names (default: all in the baseline)")
    args = p.parse_args()
    names = args.files or files()
    py = ensure_pytest(args.isacaller) if args.isacaller else None
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(TARBALL) as t:
            members = [m for m in t.getmembers() if m.name.startswith("openpower-isa/src/")]
            safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
            t.extractall(tmp, members=members, **safe)
        totals = [0.0, 0, 0, 0.0, 0, 0]
        timed_out = 0
        print(f"{'file':45} {'isa_ext s':>9} {'pass/fail':>9} {'ISACaller s':>11} "
              f"{'pass/fail':>9}")
        for name in names:
            a = run_isa_ext(os.path.join(tmp, TEST_DIR, name))
            b = run_isacaller(py, args.isacaller, name, args.timeout) if py else None
            line = f"{name:45} {a[0]:9.1f} {a[1]:>4}/{a[2]:<4}"
            totals[0] += a[0]
            totals[1] += a[1]
            totals[2] += a[2]
            if b:
                mark = ">" if b[3] else " "
                line += f" {mark}{b[0]:10.1f} {b[1]:>4}/{b[2]:<4}"
                totals[3] += b[0]
                totals[4] += b[1]
                totals[5] += b[2]
                timed_out += b[3]
            print(line, flush=True)
        line = f"{'total':45} {totals[0]:9.1f} {totals[1]:>4}/{totals[2]:<4}"
        if py:
            mark = ">" if timed_out else " "
            line += f" {mark}{totals[3]:10.1f} {totals[4]:>4}/{totals[5]:<4}"
        print(line)
        if timed_out:
            print(f"{timed_out} file(s) stopped at the {args.timeout:.0f} s timeout on "
                  "ISACaller ('>'): its total is a lower bound")


if __name__ == "__main__":
    main()
