"""Shared test helpers.  External tools are oracles: a test that needs one skips
with a clear reason when it is missing (``.ci/run`` installs them for CI)."""
import os
import shutil
import subprocess

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


def gnu_as_words(tmp_path, source, extra_args=(), name="gnu"):
    """Assemble ``source`` (text, or a list of lines) with GNU as for Power in one
    run; the .text section's little-endian 32-bit words, in order."""
    from elftools.elf.elffile import ELFFile
    text = source if isinstance(source, str) else "".join(f"{line}\n" for line in source)
    src, obj = tmp_path / f"{name}.s", tmp_path / f"{name}.o"
    src.write_text(text)
    r = subprocess.run([need_tool("powerpc64le-linux-gnu-as"), "-mregnames", "-a64",
                        "-mpower9", *extra_args, "-o", str(obj), str(src)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[:3000]
    with open(obj, "rb") as f:
        data = ELFFile(f).get_section_by_name(".text").data()
    return [int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data), 4)]


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
