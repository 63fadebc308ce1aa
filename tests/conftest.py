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
    if path is None:
        required_missing(f"{name} not installed (apt-get install the package that provides "
                         "it; .ci/run does)")
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


def qemu_probe_lines(tmp_path, c_source):
    """Compile ``c_source`` (a freestanding probe printing one line per case)
    for POWER9 with the cross gcc and run it under qemu-ppc64le: its lines."""
    need_tool("powerpc64le-linux-gnu-gcc")
    need_tool("qemu-ppc64le")
    src, exe = tmp_path / "probe.c", tmp_path / "probe"
    src.write_text(c_source)
    subprocess.run(["powerpc64le-linux-gnu-gcc", "-O1", "-static", "-mcpu=power9",
                    str(src), "-o", str(exe)], check=True, capture_output=True)
    return subprocess.run(["qemu-ppc64le", "-cpu", "power9", str(exe)], check=True,
                          capture_output=True, text=True).stdout.splitlines()


@pytest.fixture(scope="session")
def isa():
    from isa_ext.isa import ISA
    return ISA()


def required_missing(why):
    """Skip for a missing oracle, or fail in CI (ISA_EXT_REQUIRE_TOOLS)."""
    if os.environ.get("ISA_EXT_REQUIRE_TOOLS"):
        pytest.fail(f"{why}: required in CI (ISA_EXT_REQUIRE_TOOLS)")
    pytest.skip(why)


@pytest.fixture
def shared_dir():
    d = os.path.abspath(SHARED)
    if not os.path.isdir(d):
        required_missing("../shared/ (requirements, golden data, vendored openpower-isa) "
                         "not beside the checkout")
    return d


class ISACaller:
    """libre-soc's openpower-isa as built by ../shared/tools/isacaller-setup DIR:
    runs Python snippets in its PyPy venv (ISACaller, SVP64Asm)."""

    def __init__(self, root):
        self.root = root
        self.python = os.path.join(root, "venv", "bin", "python")

    def run(self, code, stdin="", timeout=900):
        """Run ``code`` with openpower-isa importable; its stdout."""
        env = dict(os.environ, SILENCELOG="1", AS="powerpc64le-linux-gnu-as",
                   LD="powerpc64le-linux-gnu-ld", OBJCOPY="powerpc64le-linux-gnu-objcopy")
        env.pop("PYTHONPATH", None)
        r = subprocess.run([self.python, "-c", code], input=stdin, capture_output=True,
                           text=True, env=env, timeout=timeout, cwd=self.root)
        assert r.returncode == 0, r.stderr[-4000:]
        return r.stdout


@pytest.fixture(scope="session")
def isacaller():
    """The ISACaller named by $ISA_EXT_ISACALLER (``.ci/run`` builds it there)."""
    root = os.environ.get("ISA_EXT_ISACALLER")
    if not root:
        required_missing("no ISACaller: build one with ../shared/tools/isacaller-setup DIR "
                         "and set ISA_EXT_ISACALLER=DIR")
    ref = ISACaller(os.path.abspath(root))
    if not os.path.isfile(ref.python):
        required_missing(f"ISA_EXT_ISACALLER={root} holds no built ISACaller "
                         "(run ../shared/tools/isacaller-setup on it)")
    return ref


@pytest.fixture(scope="session")
def svisa():
    """The base ISA with SVP64 only (no swizzle/gpu categories)."""
    from isa_ext.isa import ISA
    return ISA(extensions=["base", "svp64"])


def sv_words(isa, line):
    """Assemble one ``sv.`` line ("sv.add *1, *5, *9") to its two words."""
    mn, _, ops = line.partition(" ")
    return isa.sv_assemble(mn, ops.split(",") if ops else [], 0, lambda t: int(t, 0))
