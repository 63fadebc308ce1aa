"""Running diffcheck shards (one ELF's cases each) over processes or a cluster.

The parent generates every case (one seeded generator, so the cases are the
serial run's), cuts them into shards and merges the shards' figures in order.
Where a shard runs is the executor's business: in this process
(``jobs=1``), a ``concurrent.futures.ProcessPoolExecutor`` (``jobs=N``), or
any other ``concurrent.futures.Executor``, such as the one a Dask
``distributed.Client`` hands out for an existing cluster (:func:`dask_executor`,
the optional ``cluster`` extra).  No scheduling of our own.
"""
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


def run_shards(spec, shards, jobs=1, executor=None, isa=None):
    """The shards' figures, in shard order."""
    if jobs < 1:
        raise IsaExtError("--jobs must be >= 1")
    if executor is None and jobs == 1:
        return [run_shard(spec, s, isa) for s in shards]
    if executor is not None:
        return _collect(executor, spec, shards)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return _collect(pool, spec, shards)


def _collect(executor, spec, shards):
    futures = [executor.submit(run_shard, spec, s) for s in shards]
    return [f.result() for f in futures]


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
