"""The package as users get it: ``python -m build`` makes an sdist and a wheel,
the wheel goes into a fresh virtual environment, and every example and every
``isa-ext`` sub-command runs from a directory outside the checkout, with its
results checked.  The same wheel's package then runs from a zip file.

Expected values are derived by hand (each example states its result in its
header, derived from the instruction semantics), taken from the golden
encodings of libre-soc's assembler (``../shared/golden``), or counted from the
checkout's own spec files (what the installed copy must carry).
"""
import csv
import glob
import os
import re
import shutil
import struct
import subprocess
import sys
import zipfile

import pytest

from conftest import required_missing as _unavailable, shared_path

from conftest import ROOT
EXAMPLES = os.path.join(ROOT, "examples")
COPY_IGNORE = shutil.ignore_patterns(".git", "build", "dist", "*.egg-info", "__pycache__",
                                     ".hypothesis", ".pytest_cache", "site", "out")

pytestmark = pytest.mark.slow


class Installed:
    """A fresh venv holding the built wheel; commands run in ``work``, a
    directory outside the checkout."""

    def __init__(self, base):
        self.base = base
        self.work = os.path.join(base, "work")
        self.venv = os.path.join(base, "venv")
        self.bin = os.path.join(self.venv, "bin")
        self.env = dict(os.environ, ISA_EXT_CACHE=os.path.join(base, "cache"),
                        PIP_DISABLE_PIP_VERSION_CHECK="1")
        for var in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV"):
            self.env.pop(var, None)

    def run(self, *args, ok=True, extra_env=None, program="isa-ext"):
        env = dict(self.env, **(extra_env or {}))
        r = subprocess.run([os.path.join(self.bin, program), *args], cwd=self.work, env=env,
                           capture_output=True, text=True, timeout=600)
        if ok is True:
            assert r.returncode == 0, f"{args}: exit {r.returncode}\n{r.stdout}\n{r.stderr}"
        elif ok is not None:
            assert r.returncode == ok, f"{args}: exit {r.returncode}\n{r.stdout}\n{r.stderr}"
        assert "Traceback" not in r.stderr, r.stderr
        return r


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    """(sdist, wheel) built by ``python -m build`` from a copy of the source tree."""
    try:
        import build  # noqa: F401
    except ImportError:
        _unavailable("the 'build' package is not installed (pip install -e '.[test]')")
    base = tmp_path_factory.mktemp("dist")
    src = os.path.join(base, "src")
    shutil.copytree(ROOT, src, ignore=COPY_IGNORE)
    out = os.path.join(base, "out")
    r = subprocess.run([sys.executable, "-m", "build", "--outdir", out, src],
                       capture_output=True, text=True, timeout=900)
    if r.returncode != 0 and "Could not find a version" in (r.stdout + r.stderr):
        _unavailable("python -m build could not reach the package index")
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    sdists = glob.glob(os.path.join(out, "*.tar.gz"))
    wheels = glob.glob(os.path.join(out, "*.whl"))
    assert len(sdists) == 1 and len(wheels) == 1, os.listdir(out)
    return sdists[0], wheels[0]


@pytest.fixture(scope="module")
def installed(dist, tmp_path_factory):
    base = str(tmp_path_factory.mktemp("installed"))
    inst = Installed(base)
    os.makedirs(inst.work)
    subprocess.run([sys.executable, "-m", "venv", inst.venv], check=True, timeout=300)
    r = subprocess.run([os.path.join(inst.bin, "pip"), "install", "-q", f"{dist[1]}[hdl]"],
                       capture_output=True, text=True, env=inst.env, timeout=900)
    if r.returncode != 0 and "No matching distribution" in r.stderr:
        _unavailable("pip could not reach the package index for the wheel's dependencies")
    assert r.returncode == 0, r.stderr[-3000:]
    return inst


def changed_registers(out):
    """{register: new value} from the 'changed registers:' block of ``isa-ext run``."""
    regs = {}
    # an FPR's line goes on with its values as floats: "  (1.0 -> 2.0)"
    for m in re.finditer(r"^  (\w+)\s+0x[0-9a-f]+ -> 0x([0-9a-f]+)(?:  \(.*\))?$", out, re.M):
        regs[m.group(1)] = int(m.group(2), 16)
    return regs


def example(name):
    return os.path.join(EXAMPLES, name)


# --- the package itself ----------------------------------------------------------

def test_the_installed_package_is_the_wheel_not_the_checkout(installed):
    r = installed.run("-c", "import isa_ext; print(isa_ext.__file__)", program="python")
    path = r.stdout.strip()
    assert path.startswith(installed.venv), path
    assert not path.startswith(ROOT)


def test_version_is_the_distribution_version(installed, dist):
    # the wheel's file name carries the version the metadata declares
    wheel_version = os.path.basename(dist[1]).split("-")[1]
    r = installed.run("--version")
    assert r.stdout.strip() == f"isa-ext {wheel_version}"
    meta = installed.run("-c", "import importlib.metadata as m; print(m.version('isa_ext'))",
                         program="python")
    assert meta.stdout.strip() == wheel_version


def _spec_files(top, suffixes):
    out = set()
    for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, top)):
        dirnames[:] = [d for d in dirnames if d != "__pycache__"]
        for fn in filenames:
            if fn.endswith(suffixes):
                out.add(os.path.relpath(os.path.join(dirpath, fn), os.path.join(ROOT, top)))
    return out


def test_wheel_carries_every_spec_file(dist):
    with zipfile.ZipFile(dist[1]) as z:
        names = set(z.namelist())
    for top, inside in (("decoder", "spec_decoder"), ("pseudocode", "spec_pseudocode")):
        want = _spec_files(top, (".csv", ".txt", ".mdwn"))
        assert want, top
        have = {n[len(f"isa_ext/{inside}/"):] for n in names
                if n.startswith(f"isa_ext/{inside}/")}
        assert want <= have, sorted(want - have)
    assert "isa_ext/pseudocode/grammar.lark" in names
    assert "isa_ext/spec/openpower_po22.txt" in names
    # the spec site's errata, and no other document (setup.py)
    assert [n for n in names if n.startswith("isa_ext/spec_docs/")] == \
        ["isa_ext/spec_docs/errata.md"]


def test_sdist_carries_the_tests_and_what_the_build_needs(dist):
    import tarfile
    with tarfile.open(dist[0]) as t:
        names = {n.split("/", 1)[1] for n in t.getnames() if "/" in n}
    for top in ("tests", "examples", "decoder", "pseudocode", "isa_ext", "docs", "benchmarks"):
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, top)):
            dirnames[:] = [d for d in dirnames if not d.startswith((".", "__"))]
            for fn in filenames:
                if fn.endswith((".pyc", ".pyo")):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, fn), ROOT)
                assert rel in names, f"{rel} missing from the sdist"
    for fn in ("pyproject.toml", "setup.py", "README.md", "MANIFEST.in"):
        assert fn in names


# --- every example -------------------------------------------------------------

def test_run_scalar_example(installed):
    # examples/sum.s: sum of 1..10 = 55 = 0x37
    r = installed.run("run", example("sum.s"), "--gpr", "r3=10")
    assert "stop: end" in r.stdout
    assert changed_registers(r.stdout)["r3"] == 55


def test_run_system_call_example(installed):
    r = installed.run("run", example("hello.s"))
    assert "exit status: 0" in r.stdout
    assert r.stdout.rstrip().endswith("stdout:\nhello, world")


def test_run_svp64_example(installed):
    # examples/vector_add.s: r(8+i) = (i+1) + 10*(i+1) for i = 0..3
    r = installed.run("run", example("vector_add.s"))
    regs = changed_registers(r.stdout)
    assert [regs[f"r{8 + i}"] for i in range(4)] == [11, 22, 33, 44]
    # SVSTATE after setvl 0,0,4,0,1,1: MAXVL = VL = 4 (MSB0 bits 0:6 and 7:13)
    assert regs["svstate"] == (4 << 57) | (4 << 50)


def test_run_under_the_openpower_isa_profile(installed, tmp_path):
    # divw by zero: isa_ext's own page writes QEMU's value (the dividend, 5);
    # the openpower-isa profile's overlay page (pseudocode/profiles/, which the
    # wheel must carry and find) writes ISACaller's 0, leaving r3 unchanged
    prog = tmp_path / "divw.s"
    prog.write_text("divw 3, 1, 2\n")
    spec = installed.run("run", str(prog), "--gpr", "r1=5")
    prof = installed.run("run", str(prog), "--gpr", "r1=5", "--profile", "openpower-isa")
    assert changed_registers(spec.stdout)["r3"] == 5
    assert "stop: end" in prof.stdout and "r3" not in changed_registers(prof.stdout)


def test_run_swizzle_example(installed):
    # examples/swizzle.s (seed 001 "W.Y." in place): X Y Z W = 0xa 0xb 0xc 0xd
    # become W Y Y W: r4 = Y||W, r5 = W||Y
    r = installed.run("run", example("swizzle.s"))
    regs = changed_registers(r.stdout)
    assert (regs["r4"], regs["r5"]) == (0xB << 32 | 0xD, 0xD << 32 | 0xB)


def test_run_gpu_example(installed):
    # examples/gpu_scan.s: inclusive plus-scan over 32 lanes; with every input
    # 1.0, lane i ends holding i + 1 (exact in single precision)
    args = [a for i in range(32) for a in ("--fpr", f"f{i}=1.0")]
    r = installed.run("run", example("gpu_scan.s"), *args)
    regs = changed_registers(r.stdout)
    for i in range(1, 32):
        assert regs[f"f{i}"] == struct.unpack("<Q", struct.pack("<d", i + 1.0))[0], i
    assert "f0" not in regs  # lane 0 has no source in range: stays 1.0


def test_every_example_is_covered():
    covered = {"sum.s", "hello.s", "vector_add.s", "swizzle.s", "gpu_scan.s"}
    # examples/c: a C program built against glibc (tests/linux/test_linux_example.py)
    assert set(os.listdir(EXAMPLES)) == covered | {"c"}
    assert os.listdir(os.path.join(EXAMPLES, "c")) == ["svp64_vadd.c"]


# --- every sub-command ---------------------------------------------------------

def _golden_svp64():
    path = shared_path("golden", "svp64_encodings.tsv")
    with open(path, encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f if "\t" in line]
    return {asm: [int(w, 16) for w in words.split()] for asm, words in rows}


def test_asm_and_disasm(installed):
    golden = _golden_svp64()
    lines = ["setvl 0,0,8,0,1,1", "sv.add *1, 5, *9", "sv.add *32, *64, *96"]
    # add r3,r4,r5, by hand: PO 31, RT 3, RA 4, RB 5, XO 266 (Power ISA XO-form)
    add_word = 31 << 26 | 3 << 21 | 4 << 16 | 5 << 11 | 266 << 1
    src = os.path.join(installed.work, "prog.s")
    with open(src, "w") as f:
        f.write("\n".join(lines + ["add r3,r4,r5"]) + "\n")
    out = os.path.join(installed.work, "prog.bin")
    installed.run("asm", src, "-o", out)
    data = open(out, "rb").read()
    words = [int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data), 4)]
    assert words == [w for line in lines for w in golden[line]] + [add_word]
    r = installed.run("disasm", out)
    assert len(r.stdout.splitlines()) == 4, r.stdout
    listing = r.stdout.replace(" ", "")
    for line in ("sv.add*1,5,*9", "sv.add*32,*64,*96", "addr3,r4,r5"):
        assert line in listing, r.stdout
    # the listing form of asm shows the same words
    r = installed.run("asm", src)
    assert f"{golden['sv.add *1, 5, *9'][0]:08x} {golden['sv.add *1, 5, *9'][1]:08x}" in r.stdout


def test_asm_error_names_file_line_column(installed):
    src = os.path.join(installed.work, "bad.s")
    with open(src, "w") as f:
        f.write("add r3,r4,r5\n    frobnicate r1\n")
    r = installed.run("asm", src, ok=2)
    assert re.search(r"bad\.s:2:5: ", r.stderr), r.stderr


def test_diag_lists_undefined_behaviour(installed):
    # seed 001: source and destination elements overlapping in a horizontal-first
    # sv.mv.swiz is UNDEFINED
    src = os.path.join(installed.work, "overlap.s")
    with open(src, "w") as f:
        f.write('setvl 0,0,2,0,1,1\nsv.mv.swiz/vec4/svec4 *4, *4, "WZYX"\n')
    r = installed.run("diag", src, ok=1)
    assert "hf-overlap: 1 time(s), first at pc=0x1004" in r.stdout


def test_hfvf(installed):
    # docs/hfvf.md worked example: element 2 overwrites the predicate r3, so r4 is
    # 16 horizontal-first and stays 0x55 vertical-first: a legal difference, exit 3
    src = os.path.join(installed.work, "chain.s")
    with open(src, "w") as f:
        f.write("setvl 0,0,4,0,1,1\nsv.add/m=~r3 *1, *0, *0\n")
    r = installed.run("hfvf", src, "--gpr", "r0=1,r4=0x55", ok=3)
    assert "r4         0x10 / 0x55" in r.stdout and "verdict: legal difference" in r.stdout


def test_pseudo_show(installed):
    r = installed.run("pseudo", "show", "add")
    assert "sum <- ([0] || a) + ([0] || b)" in r.stdout  # pseudocode/base/fixedarith.mdwn
    assert "def sem(" in r.stdout


def test_gdbserver(installed):
    # examples/sum.s with r3 = 10 (sum of 1..10 = 55 = 0x37): "c" runs it to its
    # end (W00: exited, status 0); r3 then reads back as 0x37, little-endian bytes
    import socket
    proc = subprocess.Popen([os.path.join(installed.bin, "isa-ext"), "gdbserver", "--port", "0",
                             example("sum.s"), "--gpr", "r3=10"], cwd=installed.work,
                            env=installed.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    port = int(proc.stdout.readline().rsplit(":", 1)[1])

    def packet(sock, payload):
        sock.sendall(b"$%s#%02x" % (payload, sum(payload) & 0xFF))
        data = b""
        while not re.search(rb"\$[^#]*#..", data):
            data += sock.recv(4096)
        sock.sendall(b"+")
        body = data[data.index(b"$") + 1:]
        return body[:body.index(b"#")].decode()

    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        assert packet(sock, b"c") == "W00"
        assert packet(sock, b"p3") == "3700000000000000"
        sock.sendall(b"$k#6b")
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0 and "Traceback" not in err, err


def _table_rows():
    """Instruction rows of the checkout's decoder tables (aliases excluded)."""
    n = 0
    for path in glob.glob(os.path.join(ROOT, "decoder", "*", "*.csv")):
        with open(path, encoding="utf-8") as f:
            body = [line for line in f if line.strip() and not line.startswith("#")]
        n += len(list(csv.DictReader(body)))
    return n


def test_check_spec(installed):
    r = installed.run("check-spec")
    assert f"check-spec: OK ({_table_rows()} rows" in r.stdout


def test_spec_site(installed):
    site = os.path.join(installed.work, "site")
    r = installed.run("spec", "--out", site)
    assert f"spec: {_table_rows()} instructions written" in r.stdout
    html = open(os.path.join(site, "insn", "add.html"), encoding="utf-8").read()
    assert "sum &lt;- ([0] || a) + ([0] || b)" in html
    assert os.path.isfile(os.path.join(site, "insn", "mv.swiz.html")) or \
        "mv.swiz" in open(os.path.join(site, "index.html"), encoding="utf-8").read()


def test_spec_site_lists_errata_and_package_paths(installed):
    # issue 36: the installed site said "Errata: None" on pages that have
    # errata and named its table rows by site-packages paths.  mv.swiz's
    # entries in docs/errata.md (read here from the checkout) must all be on
    # its page, and the row is named as in the source tree
    from isa_ext.spec.sources import errata_for, parse_errata
    with open(os.path.join(ROOT, "docs", "errata.md"), encoding="utf-8") as f:
        entries = errata_for(parse_errata(f.read()), ["mv.swiz"])
    assert any(x.title.startswith("001-1 ") for x in entries)
    site = os.path.join(installed.work, "site-errata")
    installed.run("spec", "--out", site)
    page = open(os.path.join(site, "insn", "mv.swiz.html"), encoding="utf-8").read()
    errata = page[page.index("<h2>Errata</h2>"):page.index("<h2>Tests and examples</h2>")]
    for x in entries:
        assert f"(docs/errata.md:{x.line})" in errata and x.anchor in errata, x.title
    assert "<p>None.</p>" not in errata
    assert "Table row <code>decoder/swizzle/swizzle.csv:" in page
    assert "site-packages" not in page and installed.venv not in page
    assert "001-1" in open(os.path.join(site, "errata.html"), encoding="utf-8").read()
    md = open(os.path.join(site, "spec.md"), encoding="utf-8").read()
    assert "site-packages" not in md


def test_hdl(installed):
    out = os.path.join(installed.work, "hdl")
    installed.run("hdl", "--out", out)
    verilog = open(os.path.join(out, "swizzle_decoder.v"), encoding="utf-8").read()
    rtlil = open(os.path.join(out, "swizzle_decoder.il"), encoding="utf-8").read()
    assert re.search(r"^module ", verilog, re.M) and "endmodule" in verilog
    assert re.search(r"^module ", rtlil, re.M)


def test_diffcheck(installed):
    for tool in ("powerpc64le-linux-gnu-as", "qemu-ppc64le"):
        if shutil.which(tool) is None:
            _unavailable(f"{tool} not installed (diffcheck needs GNU binutils and QEMU)")
    r = installed.run("diffcheck", "--cases", "40", "--seed", "3")
    assert "mismatches: 0 cases" in r.stdout


def test_openpower_plugin_check(installed):
    r = installed.run("-m", "isa_ext.openpower", "check", program="python")
    assert r.stdout.startswith("openpower-isa compatible:")
    r = installed.run("openpower", "check")
    assert r.stdout.startswith("openpower-isa compatible:")


def test_openpower_test(installed):
    """``isa-ext openpower test`` from the installed package on an openpower-isa-shaped
    test module; without pytest in the venv it says so and exits 2."""
    pkg = os.path.join(installed.work, "opisa", "src", "openpower")
    os.makedirs(pkg, exist_ok=True)
    open(os.path.join(pkg, "__init__.py"), "w").close()
    test = os.path.join(pkg, "test_one.py")
    with open(test, "w", encoding="utf-8") as f:
        f.write("from openpower.decoder.selectable_int import SelectableInt\n"
                "def test_slice():\n"
                "    assert SelectableInt(5, 8)[4:8].value == 5\n")
    has_pytest = installed.run(
        "-c", "import importlib.util, sys; sys.exit(importlib.util.find_spec('pytest') is None)",
        program="python", ok=None).returncode == 0
    if has_pytest:
        r = installed.run("openpower", "test", test, "--", "-q")
        assert r.stdout.splitlines()[-1] == "1 passed, 0 failed"
    else:
        r = installed.run("openpower", "test", test, ok=2)
        assert "pytest is not installed" in r.stderr


# each sub-command of the installed CLI and the test above that runs it
SUBCOMMAND_TESTS = {
    "run": test_run_svp64_example, "asm": test_asm_and_disasm, "disasm": test_asm_and_disasm,
    "diag": test_diag_lists_undefined_behaviour, "pseudo": test_pseudo_show,
    "check-spec": test_check_spec, "spec": test_spec_site, "hdl": test_hdl,
    "diffcheck": test_diffcheck, "openpower": test_openpower_test,
    "gdbserver": test_gdbserver, "hfvf": test_hfvf,
}


def test_every_subcommand_has_a_test(installed):
    r = installed.run("--help")
    names = set(re.findall(r"^    ([a-z][a-z-]+)", r.stdout, re.M))
    assert names == set(SUBCOMMAND_TESTS), sorted(names ^ set(SUBCOMMAND_TESTS))


# --- the same package from a zip file -------------------------------------------

def test_zipped_install_runs_svp64(installed, tmp_path):
    site = installed.run("-c", "import isa_ext, os; print(os.path.dirname(isa_ext.__path__[0]))",
                         program="python").stdout.strip()
    archive = tmp_path / "isa_ext.zip"
    with zipfile.ZipFile(archive, "w") as z:
        for dirpath, dirnames, filenames in os.walk(os.path.join(site, "isa_ext")):
            dirnames[:] = [d for d in dirnames if d != "__pycache__"]
            for fn in filenames:
                path = os.path.join(dirpath, fn)
                z.write(path, os.path.relpath(path, site))
    env = {"PYTHONPATH": str(archive), "ISA_EXT_CACHE": str(tmp_path / "cache")}
    r = installed.run("-c", "import isa_ext; print(isa_ext.__file__)", program="python",
                      extra_env=env)
    assert r.stdout.strip().startswith(str(archive))
    r = installed.run("-m", "isa_ext", "run", example("vector_add.s"), program="python",
                      extra_env=env)
    regs = changed_registers(r.stdout)
    assert [regs[f"r{8 + i}"] for i in range(4)] == [11, 22, 33, 44]
