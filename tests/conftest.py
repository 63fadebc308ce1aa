"""Shared test helpers.  External tools are oracles: a test that needs one skips
with a clear reason when it is missing (``.ci/run`` installs them for CI).

Every helper that reaches an oracle records it (``used_oracle``); the session ends
with how many *passed* tests used each oracle, so CI's log shows that the oracles
really ran (a suite whose GNU as tests all skipped would show 0)."""
import contextvars
import os
import shutil
import subprocess
import sys
from collections import Counter

import pytest

pytest_plugins = ["isa_ext.pytest_plugin", "pytester"]  # --isa-coverage; pytester: self-tests

# tests live in folders by area below TESTS_DIR; data, C sources and helper modules stay here
TESTS_DIR = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(TESTS_DIR)          # the checkout
SHARED = os.path.join(ROOT, "..", "shared")
# some test modules reuse another area's helpers (`from test_svp64_one_behaviour import
# all_modes`): every area folder is importable by plain module name, as the flat folder was
sys.path.extend(d for d, _, files in sorted(os.walk(TESTS_DIR))
                if d != TESTS_DIR and any(f.startswith("test_") for f in files) and d not in sys.path)


# --- which oracles each test used --------------------------------------------------

# the set collecting oracle names for the test or fixture now running (None outside)
_USES = contextvars.ContextVar("isa_ext_oracle_uses", default=None)
_FIXTURE_ORACLES = pytest.StashKey()   # config: {fixture name: oracles its setup used}
_TEST_ORACLES = pytest.StashKey()      # item: oracles the test body used
_PASSED_BY_ORACLE = pytest.StashKey()  # config: Counter {oracle: passed tests}
# fixtures that are oracles themselves: requesting one is using it
ORACLE_FIXTURES = {"isacaller": "ISACaller (openpower-isa venv)", "shared_dir": "../shared"}


def used_oracle(name):
    """Record that the running test (or fixture) used the oracle ``name``."""
    uses = _USES.get()
    if uses is not None:
        uses.add(name)


# a passed test's report carries the oracles it used (user_properties travel with the
# report from a pytest-xdist worker to the controller, which prints the counts)
ORACLES_PROPERTY = "isa_ext_oracles"


class _OracleCounter:
    def __init__(self, counts):
        self.counts = counts

    def pytest_runtest_logreport(self, report):
        for name, value in report.user_properties:
            if name == ORACLES_PROPERTY:
                self.counts.update(value)


def pytest_addoption(parser):
    parser.addoption("--slow", action="store_true",
                     help="also run the tests marked slow or listed in tests/slow_tests.txt "
                          "(long campaigns; CI runs them all)")


def _default_paths(config):
    """pytest collects ``testpaths`` (no paths named on the command line)."""
    return getattr(config, "args_source", None) == pytest.Config.ArgsSource.TESTPATHS


def _quick_run(config):
    """The default run (no paths, no -m, no --slow) leaves the slow campaigns out, so
    the README's command stays quick; naming files or ISA_EXT_SLOW=1 runs them too."""
    return _default_paths(config) and not (
        config.getoption("--slow") or os.environ.get("ISA_EXT_SLOW") == "1"
        or config.option.markexpr)


SLOW_LIST = os.path.join(TESTS_DIR, "slow_tests.txt")


def _listed_slow():
    if not os.path.exists(SLOW_LIST):   # a copy of this conftest elsewhere (pytester)
        return set()
    with open(SLOW_LIST, encoding="utf-8") as f:
        return {line.strip() for line in f if line.strip() and not line.startswith("#")}


def pytest_collection_modifyitems(config, items):
    listed = _listed_slow()
    seen = set()
    for item in items:
        name = item.nodeid.split("[", 1)[0]
        if name in listed:
            # "long", not "slow": tools/mutation.py's -m "not slow" still runs them
            item.add_marker(pytest.mark.long)
            seen.add(name)
    if _default_paths(config) and not config.option.keyword and listed - seen:
        raise pytest.UsageError(f"{SLOW_LIST} names tests that do not exist: "
                                + ", ".join(sorted(listed - seen)))
    if not _quick_run(config):
        return
    def left_out(item):
        return item.get_closest_marker("slow") or item.get_closest_marker("long")
    slow = [item for item in items if left_out(item)]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if not left_out(item)]


def pytest_configure(config):
    config.stash[_FIXTURE_ORACLES] = {}
    config.stash[_PASSED_BY_ORACLE] = Counter()
    config.pluginmanager.register(_OracleCounter(config.stash[_PASSED_BY_ORACLE]),
                                  "isa_ext_oracle_counter")


@pytest.hookimpl(hookwrapper=True)
def pytest_fixture_setup(fixturedef, request):
    uses = set()
    token = _USES.set(uses)
    try:
        yield
    finally:
        _USES.reset(token)
    if uses:
        request.config.stash[_FIXTURE_ORACLES].setdefault(fixturedef.argname, set()).update(uses)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    uses = set()
    token = _USES.set(uses)
    try:
        yield
    finally:
        _USES.reset(token)
        item.stash[_TEST_ORACLES] = uses


def oracles_of(item):
    """The oracles a test used: in its body, in the setup of any fixture it (even
    indirectly) requested, or by requesting an oracle fixture."""
    names = set(item.stash.get(_TEST_ORACLES, ()))
    per_fixture = item.config.stash[_FIXTURE_ORACLES]
    for f in getattr(item, "fixturenames", ()):
        names |= per_fixture.get(f, set())
        if f in ORACLE_FIXTURES:
            names.add(ORACLE_FIXTURES[f])
    return names


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when == "call" and report.passed:
        report.user_properties.append((ORACLES_PROPERTY, sorted(oracles_of(item))))


def pytest_terminal_summary(terminalreporter, config):
    counts = config.stash[_PASSED_BY_ORACLE]
    terminalreporter.write_sep("-", "passed tests per oracle")
    for name in sorted(set(counts) | set(ORACLE_FIXTURES.values())):
        terminalreporter.write_line(f"{counts[name]:6d}  {name}")
    if _quick_run(config):
        terminalreporter.write_line("quick run: tests marked slow or long were left out "
                                    "(--slow or ISA_EXT_SLOW=1 runs them; CI does)")


# --- oracle helpers ----------------------------------------------------------------

# Debian packages providing the oracle tools (`dpkg -S`); .ci/run installs them
TOOL_PACKAGES = {
    "powerpc64le-linux-gnu-gcc": "gcc-powerpc64le-linux-gnu",
    "qemu-ppc64le": "qemu-user", "qemu-ppc64": "qemu-user",
    "qemu-system-ppc64": "qemu-system-ppc",
    "yosys": "yosys", "chromium": "chromium", "gdb-multiarch": "gdb-multiarch",
}


def tool_package(name):
    """The Debian package to install for tool ``name`` (None if not known)."""
    if name.startswith("powerpc64le-linux-gnu-") and name not in TOOL_PACKAGES:
        return "binutils-powerpc64le-linux-gnu"  # as, ld, objdump, ...
    return TOOL_PACKAGES.get(name)


def need_tool(name):
    path = shutil.which(name)
    if path is None:
        package = tool_package(name)
        how = (f"apt-get install {package}" if package else
               "apt-get install the package that provides it")
        required_missing(f"{name} not installed ({how}; .ci/run does)")
    used_oracle(name)
    return path


def shared_path(*parts):
    """A file under ../shared (golden data, vendored snapshots); skips locally and
    fails in CI when it is absent."""
    path = os.path.join(os.path.abspath(SHARED), *parts)
    if not os.path.exists(path):
        required_missing(f"../shared/{'/'.join(parts)} not beside the checkout")
    used_oracle("../shared")
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


# Linux programs: the sysroot of Debian's ppc64el glibc (qemu-ppc64le -L, isa-ext
# --sysroot) and the clean environment isa-ext gives a program by default
SYSROOT = "/usr/powerpc64le-linux-gnu"
CLEAN_ENV = {"PATH": "/usr/bin:/bin", "LANG": "C"}


def glibc_builds(out, source, extra=()):
    """``source`` (a C file) built with the cross gcc -O2 against glibc into
    folder ``out``, statically and dynamically: {"static": path, "dynamic": path}."""
    gcc = need_tool("powerpc64le-linux-gnu-gcc")
    stem = os.path.splitext(os.path.basename(source))[0]
    built = {}
    for kind, flags in (("static", ["-static"]), ("dynamic", [])):
        exe = os.path.join(str(out), f"{stem}-{kind}")
        subprocess.run([gcc, "-O2", *flags, "-o", exe, source, *extra],
                       check=True, capture_output=True)
        built[kind] = exe
    return built


def qemu_probe_lines(tmp_path, c_source, cpu="power9"):
    """Compile ``c_source`` (a freestanding probe printing one line per case)
    for ``cpu`` with the cross gcc and run it under qemu-ppc64le: its lines."""
    need_tool("powerpc64le-linux-gnu-gcc")
    need_tool("qemu-ppc64le")
    src, exe = tmp_path / "probe.c", tmp_path / "probe"
    src.write_text(c_source)
    subprocess.run(["powerpc64le-linux-gnu-gcc", "-O1", "-static", f"-mcpu={cpu}",
                    str(src), "-o", str(exe)], check=True, capture_output=True)
    return subprocess.run(["qemu-ppc64le", "-cpu", cpu, str(exe)], check=True,
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
    used_oracle("../shared")
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
        used_oracle(ORACLE_FIXTURES["isacaller"])
        r = subprocess.run([self.python, "-c", code], input=stdin, capture_output=True,
                           text=True, env=env, timeout=timeout, cwd=self.root)
        assert r.returncode == 0, r.stderr[-4000:]
        return r.stdout


@pytest.fixture(scope="session")
def spec_site(tmp_path_factory):
    """The spec site as `isa-ext spec --out DIR` writes it, built once per test
    process (each build takes 10-20 s); tests only read it."""
    from isa_ext.cli import main
    out = tmp_path_factory.mktemp("spec_site")
    assert main(["spec", "--out", str(out)]) == 0
    return out


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
