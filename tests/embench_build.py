"""Embench-IoT (../shared/vendor/embench-iot.tar.gz, GPL-3.0: built from the
tarball in the test's temporary directory, never copied into the project),
freestanding: tests/c/start.S's _start, tests/e2e/embench_board.c's board
support and the few C library functions the programs call.  Shared by
tests/e2e/test_embench_power10.py, tests/e2e/test_embench_vector.py and
benchmarks/embench.py (which passes the tarball and GLOBAL_SCALE_FACTOR)."""
import os
import re
import subprocess
import tarfile

from conftest import TESTS_DIR, need_tool, shared_path

START = os.path.join(TESTS_DIR, "c", "start.S")
BOARD = os.path.join(TESTS_DIR, "e2e", "embench_board.c")
BENCHMARKS = ("aha-mont64", "crc32", "depthconv", "edn", "huffbench", "matmult-int",
              "md5sum", "nettle-aes", "nettle-sha256", "nsichneu", "picojpeg", "qrduino",
              "sglib-combined", "slre", "statemate", "tarfind", "ud", "wikisort", "xgboost")
# CPU_MHZ 1, no warming up (GLOBAL_SCALE_FACTOR: build's scale, 1 for one benchmark() run);
# __NO_CTYPE: <ctype.h> as functions (embench_board.c), not glibc's tables;
# -fno-math-errno: sqrt is fsqrt
FREESTANDING = ("-ffreestanding", "-fno-stack-protector", "-nostdlib", "-static",
                "-fno-math-errno", "-D__NO_CTYPE", "-DCPU_MHZ=1", "-DWARMUP_HEAT=0")


def extract(tmp_root, tarball=None):
    """Unpack the tarball (``tarball``, else ../shared's) under ``tmp_root``;
    its top directory."""
    with tarfile.open(tarball or shared_path("vendor", "embench-iot.tar.gz")) as tar:
        tar.extractall(tmp_root, filter="data")
    [top] = [d for d in os.listdir(tmp_root) if os.path.isdir(os.path.join(tmp_root, d))]
    return os.path.join(tmp_root, top)


def reduce_scale(embench):
    """Rewrite each benchmark's ``#define LOCAL_SCALE_FACTOR n`` (in the
    unpacked copy) to 1: benchmark() then runs its kernel once (srand_beebs
    and the inputs reset each pass, so verify_benchmark checks the same
    result) instead of n times."""
    for name in BENCHMARKS:
        src = os.path.join(embench, "src", name)
        for f in os.listdir(src):
            path = os.path.join(src, f)
            if f.endswith(".c"):
                with open(path) as fh:
                    text = fh.read()
                new, n = re.subn(r"^#define LOCAL_SCALE_FACTOR \d+$",
                                 "#define LOCAL_SCALE_FACTOR 1", text, flags=re.M)
                if n:
                    with open(path, "w") as fh:
                        fh.write(new)
    return embench


def _gcc(embench, cflags, args, scale=1):
    support = os.path.join(embench, "support")
    r = subprocess.run([need_tool("powerpc64le-linux-gnu-gcc"), *cflags, *FREESTANDING,
                        f"-DGLOBAL_SCALE_FACTOR={scale}", f"-I{support}", *args],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-3000:]


def support_objects(embench, outdir, cflags):
    """The start-up and support code every benchmark links (_start, main.c,
    beebsc.c, the board), compiled once with ``cflags`` into ``outdir``."""
    support = os.path.join(embench, "support")
    objects = []
    for src in (START, os.path.join(support, "main.c"), os.path.join(support, "beebsc.c"),
                BOARD):
        obj = os.path.join(outdir, os.path.basename(src) + ".o")
        _gcc(embench, cflags, ["-c", "-o", obj, src])
        objects.append(obj)
    return objects


def build(embench, name, out, cflags, support=None, scale=1):
    """Benchmark ``name`` built with ``cflags`` (optimisation, -mcpu ...) plus
    FREESTANDING into the static ELF ``out``; ``support``: support_objects()
    built with the same flags (else compiled here); ``scale``: its
    GLOBAL_SCALE_FACTOR (benchmark() repeats its body that many times over)."""
    src = os.path.join(embench, "src", name)
    sources = sorted(os.path.join(src, f) for f in os.listdir(src) if f.endswith(".c"))
    if support is None:
        d = os.path.join(embench, "support")
        support = [START, os.path.join(d, "main.c"), os.path.join(d, "beebsc.c"), BOARD]
    _gcc(embench, cflags, ["-o", out, *support, *sources, "-lgcc"], scale)
    return out
