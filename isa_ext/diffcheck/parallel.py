"""Running diffcheck shards (one ELF's cases each) over processes or a cluster.

The parent generates every case (one seeded generator, so the cases are the
serial run's), cuts them into shards and merges the shards' figures in order.
Shards are handed out as they are generated, so the workers run the first
ones while the parent still generates the rest (generation is the serial
part of a run), and at most a window of them is in flight, so a long run
holds a bounded number of cases.
Where a shard runs is the executor's business: in this process
(``jobs=1``), a ``concurrent.futures.ProcessPoolExecutor`` (``jobs=N``), or
any other ``concurrent.futures.Executor``, such as the one a Dask
``distributed.Client`` hands out for an existing cluster (:func:`dask_executor`,
the optional ``cluster`` extra).  No scheduling of our own.
"""
import collections
import functools
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from ..errors import IsaExtError


@dataclass(frozen=True)
class ShardSpec:
    """What a worker needs to rebuild the parent's checker (picklable)."""
    extensions: tuple
    profile: str
    seed: int
    max_reports: int
    root: str = None  # a spec directory other than isa_ext's own (ISA(root=...))

    @classmethod
    def of(cls, check):
        from .. import specdata
        spec = check.isa.spec
        root = None if spec is specdata.source() else str(spec.project_dir)
        return cls(tuple(check.isa.extensions), check.isa.profile.name, check.seed,
                   check.max_reports, root)


@functools.lru_cache(maxsize=4)
def _isa(extensions, profile, root):
    """One ISA per worker process and spec (building one takes a second)."""
    from ..isa import ISA
    return ISA(extensions=list(extensions), profile=profile, root=root)


def run_shard(spec, cases, isa=None):
    """The figures of one shard; ``isa`` given: the caller's (same process)."""
    from .runner import DiffCheck
    isa = isa or _isa(spec.extensions, spec.profile, spec.root)
    check = DiffCheck(isa=isa, seed=spec.seed, max_reports=spec.max_reports,
                      batch=max(1, len(cases)))
    part = check.run_shard(cases)
    isa.save_cache()
    return part


def run_shards(spec, shards, jobs=1, executor=None, isa=None, window=None):
    """Yield ``(shard, figures)`` for each shard of the iterable ``shards``, in
    order.  ``window``: how many shards may be in flight (default four per
    process, or 256 on an external executor, whose size we do not know)."""
    if jobs < 1:
        raise IsaExtError("--jobs must be >= 1")
    if executor is None and jobs == 1:
        for s in shards:
            yield s, run_shard(spec, s, isa)
        return
    if executor is not None:
        yield from _pipeline(executor, spec, shards, window or 256)
        return
    pool = ProcessPoolExecutor(max_workers=jobs)
    try:
        yield from _pipeline(pool, spec, shards, window or 4 * jobs)
    finally:
        # Interrupted or failed: queued shards need not run.
        pool.shutdown(wait=True, cancel_futures=True)


def _pipeline(executor, spec, shards, window):
    pending = collections.deque()
    for s in shards:
        pending.append((s, executor.submit(run_shard, spec, s)))
        if len(pending) >= window:
            s0, f = pending.popleft()
            yield s0, f.result()
    while pending:
        s0, f = pending.popleft()
        yield s0, f.result()


def dask_executor(address, timeout=30):
    """(client, executor) for the Dask scheduler at ``address`` (tcp://host:port).

    The workers must be able to import isa_ext and run GNU binutils and QEMU.
    """
    try:
        from distributed import Client
    except ImportError:
        raise IsaExtError("--cluster needs Dask distributed: pip install 'isa_ext[cluster]'") \
            from None
    try:
        client = Client(address, timeout=timeout)
    except (OSError, TimeoutError) as e:
        raise IsaExtError(f"--cluster {address}: cannot reach the Dask scheduler: {e}") from None
    return client, client.get_executor()
