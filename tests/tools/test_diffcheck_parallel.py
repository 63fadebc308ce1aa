"""`isa-ext diffcheck --jobs N` and `--cluster`: the same report as the serial run.

Shards (one ELF's cases each) run over processes or a Dask cluster; the cases
are generated serially from the seed and the shards' figures merged in order,
so a parallel run must print exactly what the serial run prints (wall time
aside).  The oracles are GNU binutils and QEMU (docs/diffcheck.md).
"""
import os
import shutil
import subprocess
import sys

import pytest

from conftest import need_tool, required_missing
from isa_ext.diffcheck import DiffCheck
from isa_ext.isa import ISA
from conftest import ROOT

TOP = ROOT


def need_distributed():
    """Dask distributed (the `cluster` extra): skipped locally without it, required
    in CI (.ci/run installs the extra)."""
    try:
        import distributed
    except ImportError:
        required_missing("dask distributed not installed (pip install 'isa_ext[cluster]'; "
                         ".ci/run does)")
    return distributed


def need_oracles():
    for name in ("powerpc64le-linux-gnu-as", "powerpc64le-linux-gnu-ld", "qemu-ppc64le"):
        need_tool(name)


@pytest.fixture(scope="module")
def broken_spec(tmp_path_factory):
    """A copy of the spec whose addi adds one too many: every addi case (and every
    branch case, whose marker is an addi) must then disagree with QEMU, which
    gives the mismatch reports, their minimisation and reproducers to compare."""
    root = tmp_path_factory.mktemp("broken_spec")
    for tree in ("decoder", "pseudocode"):
        shutil.copytree(os.path.join(TOP, tree), root / tree)
    page = root / "pseudocode" / "base" / "fixedarith.mdwn"
    text = page.read_text()
    assert "    RT <- (RA|0) + EXTS(SI)\n" in text
    page.write_text(text.replace("    RT <- (RA|0) + EXTS(SI)\n",
                                 "    RT <- (RA|0) + EXTS(SI) + 1\n", 1))
    return str(root)


def report(figures):
    return figures.summary(timing=False)


def reproducers(out):
    return {name: open(os.path.join(out, name)).read() for name in sorted(os.listdir(out))}


def test_jobs_2_gives_the_serial_report_with_mismatches(broken_spec, tmp_path):
    need_oracles()
    isa = ISA(extensions=["base"], root=broken_spec, use_cache=False)
    runs = {}
    for jobs in (1, 2):
        out = str(tmp_path / f"jobs{jobs}")
        check = DiffCheck(isa=isa, seed=11, out=out, batch=60, max_reports=3,
                          only=["addi", "add", "bc", "subf"])
        runs[jobs] = check.run(400, jobs=jobs), out
    (serial, out1), (parallel, out2) = runs[1], runs[2]
    assert serial.mismatch_count > 3, report(serial)  # more than max_reports: truncation
    assert serial.batches > 2
    # the reports name the reproducers, each in its own run's directory
    assert report(parallel).replace(out2, "OUT") == report(serial).replace(out1, "OUT")
    assert len(parallel.mismatches) == 3
    assert reproducers(out1) == reproducers(out2) != {}


def test_cli_jobs_prints_the_serial_report():
    need_oracles()
    outs = []
    for jobs in ("1", "2"):
        r = subprocess.run([sys.executable, "-m", "isa_ext", "diffcheck", "--cases", "500",
                            "--batch", "100", "--seed", "5", "--jobs", jobs],
                           capture_output=True, text=True, cwd=TOP)
        assert r.returncode == 0, r.stdout + r.stderr
        first, rest = r.stdout.split("\n", 1)
        assert first.startswith("cases run: 500 ") and "in 5 ELF(s), " in first
        outs.append((first.rsplit(", ", 1)[0], rest))  # wall time left out
    assert outs[0] == outs[1]


def test_cli_rejects_jobs_below_one():
    r = subprocess.run([sys.executable, "-m", "isa_ext", "diffcheck", "--jobs", "0"],
                       capture_output=True, text=True, cwd=TOP)
    assert r.returncode == 2
    assert "--jobs" in r.stderr and "Traceback" not in r.stderr


def test_a_dask_cluster_gives_the_serial_report(broken_spec):
    """The optional `cluster` extra: shards submitted to a Dask LocalCluster
    (worker processes on this machine) through the client's executor."""
    distributed = need_distributed()
    need_oracles()
    isa = ISA(extensions=["base"], root=broken_spec, use_cache=False)

    def check():
        return DiffCheck(isa=isa, seed=4, batch=50, max_reports=2, only=["addi", "subf"])

    serial = check().run(200)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        on_cluster = check().run(200, executor=client.get_executor())
    assert serial.mismatch_count > 2
    assert report(on_cluster) == report(serial)


def test_an_unreachable_cluster_is_a_clear_error():
    need_distributed()
    from isa_ext.diffcheck.parallel import dask_executor
    from isa_ext.errors import IsaExtError
    with pytest.raises(IsaExtError, match="cannot reach the Dask scheduler"):
        dask_executor("tcp://127.0.0.1:9", timeout=2)


class _RecordingExecutor:
    """A concurrent.futures-like executor that runs a shard when it is submitted
    and logs the order of generation, submission and collection."""

    def __init__(self, log):
        self.log = log

    def submit(self, fn, spec, shard):
        from concurrent.futures import Future
        self.log.append(("submit", shard[0]))
        f = Future()
        f.set_result(("figures of", shard[0]))
        return f


def test_shards_are_handed_out_while_the_rest_are_generated():
    # Generation is the serial part of a run: the first shards must reach the
    # executor before the last is generated, and at most `window` shards may be
    # in flight (a million-case run must not hold every case at once).
    from isa_ext.diffcheck import parallel
    log = []

    def shards():
        for k in range(6):
            log.append(("generate", k))
            yield [k]

    got = []
    for shard, part in parallel.run_shards(None, shards(), jobs=2,
                                           executor=_RecordingExecutor(log), window=2):
        log.append(("collect", shard[0]))
        got.append(part)
    assert got == [("figures of", k) for k in range(6)]   # every shard, in order
    assert log.index(("submit", 0)) < log.index(("generate", 5))
    for k in range(6):
        # shard k is collected before shard k + 2 is generated: a window of two
        if k + 2 < 6:
            assert log.index(("collect", k)) < log.index(("generate", k + 2))


def test_an_interrupted_parallel_run_cancels_the_queued_shards(monkeypatch):
    # Ctrl-C while the parent waits: the pool is shut down with its queue
    # cancelled, so no shard starts after the interrupt.
    from concurrent.futures import ProcessPoolExecutor
    from isa_ext.diffcheck import parallel
    calls = []
    real_shutdown = ProcessPoolExecutor.shutdown

    def shutdown(self, wait=True, *, cancel_futures=False):
        calls.append(cancel_futures)
        return real_shutdown(self, wait=wait, cancel_futures=cancel_futures)

    monkeypatch.setattr(ProcessPoolExecutor, "shutdown", shutdown)
    monkeypatch.setattr(parallel, "_pipeline", _interrupting_pipeline)
    with pytest.raises(KeyboardInterrupt):
        list(parallel.run_shards(None, iter([[1]]), jobs=2))
    assert calls and calls[0] is True


def _interrupting_pipeline(executor, spec, shards, window):
    raise KeyboardInterrupt
    yield  # a generator, as the real one
