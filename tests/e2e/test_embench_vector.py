"""Embench-IoT with the vector units on (issue 33's acceptance): every
benchmark built freestanding by GNU gcc 12 at ``-O2`` and ``-O3`` for
``-mcpu=power8``, ``power9`` and ``power10`` (VMX and VSX on, as gcc's
default for those CPUs) exits with QEMU 7.2's status and output
(``qemu-ppc64le -cpu power10``).

To keep the 114 builds and runs within a few minutes, each program's
LOCAL_SCALE_FACTOR is 1 (tests/embench_build.py's reduce_scale): benchmark()
runs its kernel once and verify_benchmark still checks its result (QEMU exits
0 for every build).  The full-scale runs are tests/e2e/test_embench_power10.py's
(scalar) and benchmarks/."""
import pytest

import embench_build
from conftest import need_tool
from isa_ext.diffcheck import cprograms, tools
from isa_ext.sim import Simulator

FLAGS = [(opt, cpu) for cpu in ("power8", "power9", "power10") for opt in ("-O2", "-O3")]
MAX_STEPS = 20_000_000


@pytest.fixture(scope="module")
def embench(tmp_path_factory):
    return embench_build.reduce_scale(embench_build.extract(tmp_path_factory.mktemp("embench")))


@pytest.fixture(scope="module")
def support(embench, tmp_path_factory):
    """Flags -> the support objects built with them (once per module)."""
    built = {}

    def get(cflags):
        if cflags not in built:
            out = tmp_path_factory.mktemp("support")
            built[cflags] = embench_build.support_objects(embench, str(out), cflags)
        return built[cflags]
    return get


def vector_words(isa, elf):
    """How many of the ELF's instructions are VMX/VSX rows."""
    n = 0
    for _addr, word, _mnemonic in cprograms.text_instructions(elf):
        d = isa.decode_prefixed(word >> 32, word & 0xFFFFFFFF) if word >> 32 else isa.decode(word)
        n += d is not None and d.spec.extension == "vector"
    return n


@pytest.mark.slow
@pytest.mark.parametrize("opt,cpu", FLAGS, ids=[f"{o[1:]}-{c}" for o, c in FLAGS])
@pytest.mark.parametrize("name", embench_build.BENCHMARKS)
def test_vector_build_runs_as_under_qemu(embench, support, isa, tmp_path, name, opt, cpu):
    need_tool("qemu-ppc64le")
    cflags = (opt, f"-mcpu={cpu}")
    elf = embench_build.build(embench, name, str(tmp_path / f"{name}.elf"), cflags,
                              support(cflags))
    if opt == "-O3":  # (what this test is about: gcc vectorised something)
        assert vector_words(isa, elf) > 0
    q = tools.run_qemu(elf, timeout=120)
    assert q.signal is None and q.status == 0, f"QEMU: status {q.status} signal {q.signal}"
    sim = Simulator(isa=isa)
    # translated, but only blocks reached 1000 times: one kernel pass reaches
    # most blocks a few hundred times, and translating them costs more than
    # it saves (picojpeg: 32 s translating at the default 64, 9 s at 1000)
    sim.hot_after = 1000
    sim.load_elf(elf)
    res = sim.run(max_steps=MAX_STEPS)
    assert (res.stop, res.exit_status) == ("exit", q.status), res.trap
    assert bytes(sim.state.stdout) == q.stdout
