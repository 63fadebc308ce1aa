"""Shared test helpers.  External tools are oracles: a test that needs one skips
with a clear reason when it is missing (``.ci/run`` installs them for CI)."""
import os
import shutil

import pytest

pytest_plugins = ["isa_ext.pytest_plugin"]  # --isa-coverage

SHARED = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "..", "shared")


def need_tool(name):
    path = shutil.which(name)
    if path is None and os.environ.get("ISA_EXT_REQUIRE_TOOLS"):
        pytest.fail(f"{name} is required in CI (ISA_EXT_REQUIRE_TOOLS) but not installed")
    if path is None:
        pytest.skip(f"{name} not installed (apt-get install the package that provides it; "
                    f".ci/run does)")
    return path


@pytest.fixture(scope="session")
def isa():
    from isa_ext.isa import ISA
    return ISA()


@pytest.fixture
def shared_dir():
    d = os.path.abspath(SHARED)
    if not os.path.isdir(d):
        pytest.skip("../shared/ (requirements and golden data) not beside the checkout")
    return d


@pytest.fixture(scope="session")
def svisa():
    """The base ISA with SVP64 only (no swizzle/gpu categories)."""
    from isa_ext.isa import ISA
    return ISA(extensions=["base", "svp64"])


def sv_words(isa, line):
    """Assemble one ``sv.`` line ("sv.add *1, *5, *9") to its two words."""
    mn, _, ops = line.partition(" ")
    return isa.sv_assemble(mn, ops.split(",") if ops else [], 0, lambda t: int(t, 0))
