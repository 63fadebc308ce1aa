"""Embench-IoT programs for compare.py, built by tests/embench_build.py (the
tests' builder: freestanding, tests/c/start.S's _start, the board support of
tests/e2e/embench_board.c) from the shared tarball (GPL-3.0: extracted into
the benchmark's temporary folder, never copied into the project).

``GLOBAL_SCALE_FACTOR`` scales the work: Embench's ``benchmark()`` runs the
program's body ``LOCAL_SCALE_FACTOR * GLOBAL_SCALE_FACTOR`` times, so a
build's instruction count is ``a + b * scale``.  isa_ext counts the scale-1
run (and the scale-0 one for ``b``); QEMU, which counts nothing, is timed at
scale 1 and at a large scale and differenced (its start-up cancels).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(TOP, "tests"))
import embench_build  # noqa: E402  (the tests' builder, after the path)

GCC = "powerpc64le-linux-gnu-gcc"
TARBALL_ENV = "ISA_EXT_EMBENCH"
TARBALL_DEFAULTS = (os.path.join(TOP, "..", "shared", "vendor", "embench-iot.tar.gz"),
                    "/work/shared/vendor/embench-iot.tar.gz")

# build name -> (gcc's flags, the isa_ext extensions it runs on: None = all)
BUILDS = {
    "power9": (("-O2", "-mcpu=power9", "-mno-vsx", "-mno-altivec"), ["base"]),
    "power9-vsx": (("-O2", "-mcpu=power9"), None),
    "power10": (("-O2", "-mcpu=power10", "-mno-vsx", "-mno-altivec"), ["base"]),
    # gcc vectorises loops at -O3: the vector units on the hot path (issue 33)
    "power9-vsx-O3": (("-O3", "-mcpu=power9"), None),
}
# --quick: two of the programs (a few million instructions each)
QUICK_PROGRAMS = ("matmult-int", "crc32")


def tarball(path=None):
    """The Embench-IoT tarball: ``path``, $ISA_EXT_EMBENCH, or ../shared's copy."""
    for p in (path, os.environ.get(TARBALL_ENV), *TARBALL_DEFAULTS):
        if p and os.path.isfile(p):
            return p
    return None


def extract(path, work, tiny=False):
    """Unpack the tarball under ``work``; ``tiny``: every body runs once
    (LOCAL_SCALE_FACTOR 1: the script's own test)."""
    tree = embench_build.extract(os.path.join(work, "embench"), path)
    return embench_build.reduce_scale(tree) if tiny else tree


def programs(tree):
    return sorted(os.listdir(os.path.join(tree, "src")))


def build(tree, name, build_name, scale, work):
    """``name`` built for ``build_name`` at GLOBAL_SCALE_FACTOR ``scale``: the ELF."""
    out = os.path.join(work, f"{name}.{build_name}.{scale}.elf")
    if not os.path.exists(out):
        try:
            embench_build.build(tree, name, out, BUILDS[build_name][0], scale=scale)
        except AssertionError as e:  # the builder's check of gcc's status
            raise SystemExit(f"gcc {build_name} {name}: {e}") from None
    return out


def isa_for(build_name):
    from isa_ext.isa import ISA
    extensions = BUILDS[build_name][1]
    return ISA(extensions=extensions) if extensions else ISA()


def missing(isa, elf):
    """Why isa_ext cannot run ``elf`` (the mnemonics it lacks), or None.  gcc's
    traceback tables put 0x00000200 words after some functions, which objdump
    shows as ``attn``: data, never run."""
    from isa_ext.diffcheck.cprograms import missing_instructions
    lacking = {m: n for m, n in missing_instructions(isa, elf).items() if m != "attn"}
    if not lacking:
        return None
    return "isa_ext lacks " + ", ".join(f"{m} (x{n})" for m, n in sorted(lacking.items()))


def count_steps(isa, elf):
    """Instructions of one run of ``elf`` on isa_ext to its exit (any status:
    a scale-0 build runs no body and may fail its check), or None when it
    ends otherwise."""
    from isa_ext.sim import Simulator
    sim = Simulator(isa=isa)
    sim.load_elf(elf)
    res = sim.run(max_steps=10**10)
    return res.steps if res.stop == "exit" else None


def steps_per_scale(isa, tree, name, build_name, steps_at_1, work):
    """Instructions one unit of GLOBAL_SCALE_FACTOR adds: scale 1 less scale 0,
    or scale 2 less scale 1 where the scale-0 build does not run to its exit."""
    base = count_steps(isa, build(tree, name, build_name, 0, work))
    if base is not None:
        return steps_at_1 - base
    twice = count_steps(isa, build(tree, name, build_name, 2, work))
    if twice is None:
        raise SystemExit(f"{name} ({build_name}) at scale 2 did not run to its exit")
    return twice - steps_at_1
