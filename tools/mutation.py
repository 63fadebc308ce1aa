#!/usr/bin/env python3
"""Mutation testing for isa_ext: do the tests notice when the code or a page is wrong?

Each area of tools/mutation.toml names what is mutated and which tests judge it.
Python code is mutated by cosmic-ray (``pip install cosmic-ray``: it enumerates the
mutants and applies one at a time), the pseudocode pages by tools/mutate_pages.py.
A mutant is *killed* when its tests fail (or time out), *survives* when they pass,
and is *invalid* when the page language rejects it (a syntax error, counted apart).

Work happens in throw-away copies of the checkout (one per job, so jobs run in
parallel), never in the checkout itself:

  python tools/mutation.py                          # every mutant of every area
  python tools/mutation.py --area svp64 --sample 200 --jobs 2
  python tools/mutation.py --check                  # CI: [check] sample, min_kill_rate
  python tools/mutation.py --json out.json          # results, survivors included
  python tools/mutation.py --area svp64 --only 'isa_ext/svp64/executor.py:431:*'
                                                    # only the mutants of one line

The sample is drawn with ``--seed`` (default 1) from each area separately.
"""
import argparse
import fnmatch
import glob
import json
import os
import queue
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from dataclasses import asdict, dataclass

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import mutate_pages  # noqa: E402  (tools/ is not a package)

CONFIG = os.path.join(ROOT, "tools", "mutation.toml")
PYTEST = ["-m", "pytest", "-x", "-q", "-p", "no:randomly", "-p", "no:cacheprovider",
          "-m", "not slow"]


@dataclass
class Mutant:
    area: str
    kind: str        # python | pages
    path: str
    line: int
    what: str        # cosmic-ray operator, or the page mutation described
    occurrence: int = -1                 # cosmic-ray's occurrence index
    page: mutate_pages.PageMutant = None

    def describe(self):
        if self.page is not None:
            return self.page.describe()
        return f"{self.path}:{self.line}: {self.what} #{self.occurrence}"


@dataclass
class Result:
    area: str
    mutant: str
    outcome: str     # killed | survived | timeout | invalid | error
    seconds: float
    detail: str = ""


def load_config(path=CONFIG):
    with open(path, "rb") as f:
        return tomllib.load(f)


def make_copy(dest):
    """Copy the checkout's files (tracked and new, not ignored) to ``dest``."""
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                           cwd=ROOT, capture_output=True, check=True).stdout.decode().split("\0")
    for rel in filter(None, files):
        src = os.path.join(ROOT, rel)
        if os.path.isfile(src):
            os.makedirs(os.path.dirname(os.path.join(dest, rel)), exist_ok=True)
            shutil.copy2(src, os.path.join(dest, rel))


def expand(base, patterns):
    out = []
    for pat in patterns:
        out += sorted(os.path.relpath(p, base) for p in glob.glob(os.path.join(base, pat)))
    return sorted(dict.fromkeys(out))


def python_mutants(name, area, work):
    """Every cosmic-ray mutant of the area's modules."""
    modules = [m for m in expand(work, area["paths"]) if not m.endswith("__init__.py")
               or os.path.getsize(os.path.join(work, m)) > 200]
    cfg, db = os.path.join(work, f".cr-{name}.toml"), os.path.join(work, f".cr-{name}.sqlite")
    with open(cfg, "w") as f:
        f.write("[cosmic-ray]\nmodule-path = %s\ntimeout = 60.0\nexcluded-modules = []\n"
                "test-command = \"true\"\n[cosmic-ray.distributor]\nname = \"local\"\n"
                % json.dumps(modules))
    subprocess.run(["cosmic-ray", "init", cfg, db], cwd=work, check=True, capture_output=True)
    dump = subprocess.run(["cosmic-ray", "dump", db], cwd=work, check=True,
                          capture_output=True, text=True).stdout
    out = []
    for line in dump.splitlines():
        item = json.loads(line)[0]
        for m in item["mutations"]:
            out.append(Mutant(name, "python", m["module_path"], m["start_pos"][0],
                              m["operator_name"].removeprefix("core/"), m["occurrence"]))
    os.remove(cfg)
    os.remove(db)
    return sorted(out, key=lambda m: (m.path, m.line, m.what, m.occurrence))


def select(mutants, patterns):
    """The mutants whose description (``path:line: what``, as the run prints
    it) matches one of the shell-style ``patterns``; all when there are none."""
    if not patterns:
        return list(mutants)
    return [m for m in mutants if any(fnmatch.fnmatchcase(m.describe(), p) for p in patterns)]


def page_tests(area, path):
    for pattern, tests in area["tests"].items():
        if fnmatch.fnmatch(path, pattern):
            return tests
    raise SystemExit(f"tools/mutation.toml: no tests for page {path}")


def page_mutants(name, area, work):
    out = []
    for base in area["paths"]:
        for pm in mutate_pages.all_page_mutants(work, base):
            out.append(Mutant(name, "pages", pm.path, pm.line, pm.describe(), page=pm))
    return out


class Worker:
    """One copy of the checkout, its own page cache, one mutant at a time."""

    def __init__(self, base, index):
        self.dir = os.path.join(base, f"w{index}")
        make_copy(self.dir)
        self.env = dict(os.environ, ISA_EXT_CACHE=os.path.join(base, f"cache{index}"),
                        PYTHONDONTWRITEBYTECODE="1",  # a stale .pyc would hide a mutant
                        # QEMU's and GNU as's answers, shared by every copy: the
                        # oracles see the same programs for every mutant
                        ISA_EXT_ORACLE_CACHE=os.path.join(base, "oracle-cache"))
        for var in ("ISA_EXT_REQUIRE_TOOLS", "ISA_EXT_ISACALLER", "PYTHONPATH"):
            self.env.pop(var, None)   # oracles that are absent skip: no false kills

    def pytest(self, tests, timeout):
        files = expand(self.dir, tests)
        t0 = time.monotonic()
        try:
            r = subprocess.run([sys.executable, *PYTEST, *files], cwd=self.dir, env=self.env,
                               capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return "timeout", time.monotonic() - t0, ""
        tail = (r.stdout.strip().splitlines() or [""])[-1]
        outcome = {0: "survived", 1: "killed"}.get(r.returncode, "error")
        return outcome, time.monotonic() - t0, tail

    def check_spec(self):
        r = subprocess.run([sys.executable, "-m", "isa_ext.cli", "check-spec"], cwd=self.dir,
                           env=self.env, capture_output=True, text=True)
        return r.returncode, r.stdout

    def run(self, mutant, tests, timeout):
        t0 = time.monotonic()
        full = os.path.join(self.dir, mutant.path)
        with open(full, "rb") as f:
            original = f.read()
        try:
            if mutant.page is not None:
                mutate_pages.apply(self.dir, mutant.page)
                rc, out = self.check_spec()
                if rc and "[compile]" in out:
                    return Result(mutant.area, mutant.describe(), "invalid",
                                  time.monotonic() - t0, out.splitlines()[0])
                if rc:   # tests/tools/test_check_spec.py fails on any other problem
                    return Result(mutant.area, mutant.describe(), "killed",
                                  time.monotonic() - t0, "check-spec: " + out.splitlines()[0])
            else:
                subprocess.run(["cosmic-ray", "apply", mutant.path, "core/" + mutant.what,
                                str(mutant.occurrence)], cwd=self.dir, check=True,
                               capture_output=True)
            outcome, _, tail = self.pytest(tests, timeout)
            return Result(mutant.area, mutant.describe(), outcome, time.monotonic() - t0, tail)
        finally:
            with open(full, "wb") as f:
                f.write(original)


def campaign(areas, names, sample, seed, jobs, timeout_factor=4, log=sys.stderr, progress=None,
             only=()):
    base = tempfile.mkdtemp(prefix="isa_ext-mutation-")
    shared = os.path.join(os.path.dirname(ROOT), "shared")
    if os.path.isdir(shared):   # the copies' ../shared: golden data, vendored snapshots
        os.symlink(shared, os.path.join(base, "shared"))
    try:
        workers = [Worker(base, i) for i in range(jobs)]
        todo, budgets = [], {}
        for name in names:
            area = areas[name]
            found = select((python_mutants if area["kind"] == "python" else page_mutants)(
                name, area, workers[0].dir), only)
            n = sample.get(name, sample.get("*", 0)) if isinstance(sample, dict) else sample
            chosen = random.Random(f"{seed}:{name}").sample(found, min(n, len(found))) \
                if n else found
            print(f"{name}: {len(found)} mutants, running {len(chosen)}", file=log)
            for m in chosen:
                tests = page_tests(area, m.path) if m.kind == "pages" else area["tests"]
                todo.append((m, tests))
            # the unmutated tests must pass; their time sets the timeout
            test_sets = {tuple(t) for _, t in todo if _ is not None and _.area == name}
            for tests in test_sets:
                outcome, secs, tail = workers[0].pytest(list(tests), None)
                if outcome != "survived":
                    raise SystemExit(f"{name}: the unmutated tests fail ({tail}): {tests}")
                budgets[tests] = max(30.0, timeout_factor * secs)
        # areas interleaved, so that a run stopped early has measured every area
        random.Random(seed).shuffle(todo)
        jobs_q = queue.Queue()
        for item in todo:
            jobs_q.put(item)
        results, lock = [], threading.Lock()

        def work(worker):
            while True:
                try:
                    m, tests = jobs_q.get_nowait()
                except queue.Empty:
                    return
                r = worker.run(m, tests, budgets[tuple(tests)])
                with lock:
                    results.append(r)
                    if progress:
                        with open(progress, "a") as f:
                            f.write(json.dumps(asdict(r)) + "\n")
                    print(f"[{len(results)}/{len(todo)}] {r.outcome:8} {r.seconds:5.1f}s "
                          f"{r.mutant}", file=log, flush=True)

        threads = [threading.Thread(target=work, args=(w,)) for w in workers]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return results
    finally:
        shutil.rmtree(base, ignore_errors=True)


def summarise(results):
    """{area: (killed, survived, invalid/error, kill rate)}; timeouts count as kills."""
    out = {}
    for area in sorted({r.area for r in results}):
        rs = [r for r in results if r.area == area]
        killed = sum(r.outcome in ("killed", "timeout") for r in rs)
        survived = sum(r.outcome == "survived" for r in rs)
        other = len(rs) - killed - survived
        out[area] = (killed, survived, other, killed / (killed + survived) if killed + survived else 1.0)
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--area", action="append",
                   help="only this area (repeatable); AREA:N samples N of its mutants")
    p.add_argument("--sample", type=int, default=None,
                   help="at most N mutants per area (0: all; with --check: [check] sample)")
    p.add_argument("--seed", default="1")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                   help="parallel copies of the checkout (default: one per core)")
    p.add_argument("--json", help="write every result here")
    p.add_argument("--progress", help="append each result to this file (JSON lines) as it comes")
    p.add_argument("--check", action="store_true",
                   help="exit 1 when the kill rate over all areas is below [check] min_kill_rate")
    p.add_argument("--list", action="store_true", help="only count the mutants per area")
    p.add_argument("--only", action="append", default=[], metavar="PATTERN",
                   help="only the mutants whose description (path:line: what) matches "
                        "this shell pattern (repeatable); with --list, print them")
    args = p.parse_args(argv)
    if shutil.which("cosmic-ray") is None:
        print("mutation: cosmic-ray not installed (pip install cosmic-ray)", file=sys.stderr)
        return 2
    config = load_config()
    areas, check = config["area"], config["check"]
    if args.sample is None:
        args.sample = check["sample"] if args.check else 0
    names = [a.split(":")[0] for a in args.area] if args.area else list(areas)
    per_area = {a.split(":")[0]: int(a.split(":")[1]) for a in args.area or () if ":" in a}
    unknown = [n for n in names if n not in areas]
    if unknown:
        print(f"mutation: unknown area {unknown[0]!r} (tools/mutation.toml has "
              f"{', '.join(areas)})", file=sys.stderr)
        return 2
    if args.list:
        with tempfile.TemporaryDirectory() as d:
            d = os.path.join(d, "w")
            make_copy(d)
            for n in names:
                a = areas[n]
                found = select((python_mutants if a["kind"] == "python" else page_mutants)(
                    n, a, d), args.only)
                print(f"{n}: {len(found)} mutants")
                if args.only:
                    for m in found:
                        print(f"  {m.describe()}")
        return 0
    # a terminated run still removes its copies (the finally blocks run)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    t0 = time.monotonic()
    results = campaign(areas, names, {"*": args.sample, **per_area}, args.seed, max(1, args.jobs),
                       progress=args.progress, only=args.only)
    if args.json:
        with open(args.json, "w") as f:
            json.dump([asdict(r) for r in results], f, indent=1)
    print(f"mutation testing, {time.monotonic() - t0:.0f} s, seed {args.seed}, "
          f"sample {args.sample or 'all'}:")
    summary = summarise(results)
    for area, (killed, survived, other, rate) in summary.items():
        print(f"  {area:8} killed {killed:4}  survived {survived:4}  invalid/error {other:3}  "
              f"kill rate {100 * rate:5.1f}%")
    for r in results:
        if r.outcome == "survived":
            print(f"  survivor: {r.mutant}")
    killed = sum(k for k, _, _, _ in summary.values())
    judged = killed + sum(s for _, s, _, _ in summary.values())
    overall = killed / judged if judged else 1.0
    print(f"  overall kill rate {100 * overall:.1f}% ({killed} of {judged})")
    if args.check and overall < check["min_kill_rate"]:
        print(f"mutation: kill rate {100 * overall:.1f}% is below the recorded "
              f"{100 * check['min_kill_rate']:.0f}% (tools/mutation.toml [check])", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
