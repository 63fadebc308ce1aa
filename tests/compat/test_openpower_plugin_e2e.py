"""The openpower-isa plugin end to end (issue 16): a clean openpower-isa checkout
(the one ../shared/tools/isacaller-setup builds, copied so the shared one stays
untouched), ``isa-ext openpower install --root CHECKOUT swizzle gpu``, openpower-isa's
regeneration (docs/openpower-plugin.md), then every case run on its ISACaller and on
isa_ext, final GPRs, FPRs, CR and SVSTATE compared; ``uninstall`` leaves ``git status``
clean.  One ISACaller process per instruction family runs all its cases (``runs``).

ISACaller is the independent oracle here: it runs the installed page through its own
parser and simulator.  The seed-001 cases carry their hand-derived values too
(tests/ext/swizzle/test_swizzle_seed.py), so a fault shared by both sides would still show.
"""
import json
import os
import random
import re
import shutil
import struct
import subprocess

import pytest

from conftest import required_missing
from isa_ext.cli import main as cli_main
from isa_ext.encoding import encode
from isa_ext.asm import assemble
from isa_ext.ext.swizzle import parse_swizzle, prefix_rm, rm_field
from isa_ext.isa import ISA
from isa_ext.machine import PAGE_BITS
from isa_ext.sim import Simulator
from isa_ext.svp64 import svstate
from test_swizzle_svp64 import sv_program
from conftest import TESTS_DIR

pytestmark = pytest.mark.slow  # ~2 minutes: a regeneration of openpower-isa; CI runs it

RUNNER = os.path.join(TESTS_DIR, "isacaller_plugin_runner.py")
REGENERATE = ("openpower.sv.sv_analysis", "openpower.decoder.pseudo.pyfnwriter",
              "openpower.decoder.pseudo.pywriter")
RANDOM_CASES = 60  # per instruction family (mv.swiz, fmv.swiz, sv.mv.swiz, sv.fmv.swiz)
NREGS = 128
CODE = 0x1000  # where isa_ext's memory holds the instruction (ISACaller: a separate one)


def _git(checkout, *args):
    return subprocess.run(["git", "-C", str(checkout), "-c", "user.name=t", "-c",
                           "user.email=t@t", *args], capture_output=True, text=True,
                          check=True).stdout


@pytest.fixture(scope="module")
def installed(isacaller, tmp_path_factory):
    """(python, checkout): a copy of the built openpower-isa under git, with the
    swizzle extension installed and its pseudocode regenerated."""
    if shutil.which("git") is None:
        required_missing("git (to prove uninstall restores the checkout)")
    source = os.path.join(isacaller.root, "openpower-isa")
    assert not os.path.exists(os.path.join(source, "openpower", "isa_ext_installed.json")), \
        f"{source} has isa_ext installed: not a clean checkout"
    checkout = tmp_path_factory.mktemp("plugin") / "openpower-isa"
    shutil.copytree(source, checkout, symlinks=True, ignore=shutil.ignore_patterns(".git"))
    _git(checkout, "init", "-q")
    _git(checkout, "add", "-A")
    _git(checkout, "commit", "-qm", "clean checkout")
    # the documented argument order (breakage 1)
    assert cli_main(["openpower", "install", "--root", str(checkout), "swizzle", "gpu"]) == 0
    # the regeneration docs/openpower-plugin.md names, run in the copy
    env = dict(os.environ, SILENCELOG="1", PYTHONPATH=str(checkout / "src"))
    for module in REGENERATE:
        r = subprocess.run([isacaller.python, "-m", module], cwd=checkout, env=env,
                           capture_output=True, text=True, timeout=900)
        assert r.returncode == 0, f"{module}: {r.stderr[-3000:]}"
    return isacaller.python, checkout, env


def run_isacaller(installed, families):
    """{family: ISACaller's results}: one ISACaller process per family, all at once
    (each costs seconds to start; CI has more than one core)."""
    python, checkout, env = installed
    procs = {}
    for name, cases in families.items():
        # the cases from a file, so that every process starts at once
        path = checkout.parent / f"cases-{name}.json"
        path.write_text(json.dumps(cases))
        with open(path) as stdin:
            procs[name] = subprocess.Popen([python, RUNNER], stdin=stdin,
                                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                           cwd=checkout, env=env, text=True)
    out = {}
    for name, proc in procs.items():
        stdout, stderr = proc.communicate(timeout=900)
        assert proc.returncode == 0, stderr[-4000:]
        out[name] = json.loads(stdout.rsplit("RESULT ", 1)[1])
    return out


def run_isa_ext(isa, case):
    """isa_ext's end state for a case, as the runner reports ISACaller's.  Permissive:
    an SVP64 overlap of source and destination runs in group order (ISACaller's
    walk does the same) instead of stopping."""
    sim = Simulator(isa, strict=False)
    for i in range(NREGS):
        sim.state.gpr[i] = _at(case["gpr"], i)
        sim.state.fpr[i] = _at(case["fpr"], i)
    sim.state.crval = case.get("cr", 0)
    sim.state.fpscr = case.get("fpscr", 0)
    vl = case.get("vl", 0)
    sim.state.svstate = svstate.put(svstate.make(maxvl=vl, vl=vl), "vfirst",
                                    case.get("vfirst", 0))
    for addr, word in case.get("mem", []):
        sim.state.mem.write_bytes(addr, word.to_bytes(8, "little"))
    sim.load_words(case["words"], addr=CODE)
    res = sim.run(max_steps=1)
    trap = {}
    if res.stop == "trap":
        if res.trap.kind != "trap":  # TRAP_AT_LANE: a trap part-way through the lanes
            assert res.trap.kind == "illegal", res.trap
            return {"illegal": res.trap.reason}
        trap = {"trap": res.trap.reason}
    start = [a for a, _w in case.get("mem", [])]
    mem = [[a, int.from_bytes(sim.state.mem.read_bytes(a, 8), "little")] for a in start]
    code = range(CODE, CODE + 4 * len(case["words"]))
    for page, data in sorted(sim.state.mem.pages.items()):  # any other word written
        for off in range(0, len(data), 8):
            a = (page << PAGE_BITS) + off
            if a not in start and a not in code and any(data[off:off + 8]):
                mem.append([a, int.from_bytes(data[off:off + 8], "little")])
    return {**trap, "mem": mem,
            "gpr": list(sim.state.gpr[:NREGS]), "fpr": list(sim.state.fpr[:NREGS]),
            "cr": sim.state.crval, "svstate": sim.state.svstate, "fpscr": sim.state.fpscr}


def _at(values, i):
    return values[i] if i < len(values) else 0


# seed 001's example registers (tests/ext/swizzle/test_swizzle_seed.py): X..W = 0xA..0xD
X, Y, Z, W = 0xA, 0xB, 0xC, 0xD
PAIR = (Y << 32 | X, W << 32 | Z)
JUNK = 0x9999_9999_9999_9999


def seed_regs():
    regs = [0] * 32
    regs[4], regs[5], regs[8], regs[9] = PAIR[0], PAIR[1], JUNK, JUNK
    return regs


def seed_cases(isa):
    """(case, expected (RT, RT+1) or an ILLEGAL reason fragment) from seed 001,
    values hand-derived in tests/ext/swizzle/test_swizzle_seed.py / test_swizzle_scalar.py."""
    out = []
    for mnemonic, file in (("mv.swiz", "gpr"), ("fmv.swiz", "fpr")):
        t, a = ("FRTp", "FRAp") if file == "fpr" else ("RTp", "RAp")
        one = 0x3F80_0000 if file == "fpr" else 1  # constant 1: IEEE single 1.0 for fmv
        for swz, rt, ra, want in (
                ("W.Y.", 4, 4, (Y << 32 | W, W << 32 | Y)),   # seed: "W Y Y W"
                ("..XY", 4, 4, (PAIR[0], PAIR[0])),            # errata 001-1
                ("..XY", 8, 4, (0, PAIR[0])),
                ("ZW..", 8, 4, (PAIR[1], 0)),
                ("01XY", 8, 4, (one << 32, PAIR[0])),          # X <- 0, Y <- 1
                ("5", 5, 4, "must be even"),                   # odd RTp: illegal
                ("5", 4, 7, "must be even")):
            imm = 0b001_000_000_000 if swz == "5" else parse_swizzle(swz)
            case = {"words": [encode(isa, mnemonic, **{t: rt, a: ra, "imm": imm})],
                    "gpr": seed_regs() if file == "gpr" else [0] * 32,
                    "fpr": seed_regs() if file == "fpr" else [0] * 32}
            out.append((case, file, rt, want))
    return out


def random_cases(isa, rng):
    out = []
    for mnemonic, t, a in (("mv.swiz", "RTp", "RAp"), ("fmv.swiz", "FRTp", "FRAp")):
        for _ in range(RANDOM_CASES):
            rt = rng.randrange(0, 32, 2) if rng.random() < 0.95 else rng.randrange(1, 32, 2)
            ra = rt if rng.random() < 0.3 else rng.randrange(0, 32, 2)
            # selectors: mostly defined ones, now and then the reserved 0b001
            sels = [rng.choice([0, 2, 3, 4, 5, 6, 7] * 6 + [1]) for _ in range(4)]
            imm = sum(s << (9 - 3 * i) for i, s in enumerate(sels))
            out.append({"words": [encode(isa, mnemonic, **{t: rt, a: ra, "imm": imm})],
                        "gpr": [rng.getrandbits(64) for _ in range(32)],
                        "fpr": [rng.getrandbits(64) for _ in range(32)]})
    return out


# --- sv.mv.swiz / sv.fmv.swiz (MVRM-2P-2S1D) ---------------------------------------

def sv_seed_cases(isa):
    """(case, register file, {register: expected value} or an ILLEGAL reason fragment):
    the hand-derived examples of tests/ext/swizzle/test_swizzle_svp64.py (values derived there in
    comments): pack planes into vec4, unpack vec4 into planes, a swizzled unpack of
    32-bit elements, fmv's constant 1 per float format, a selector beyond the source
    SUBVL."""
    planes = [0] * 32 + [0x100 + i for i in range(8)]
    out = [
        # test_pack_planes_into_vec4
        ("mv.swiz", dict(subvl=4, src_subvl=1), "XYZW", 2, planes, "gpr",
         dict(zip(range(16, 24), [0x100, 0x102, 0x104, 0x106, 0x101, 0x103, 0x105, 0x107]))),
        # test_unpack_vec4_into_planes
        ("mv.swiz", dict(subvl=1, src_subvl=4), "XYZW", 2, planes, "gpr",
         dict(zip(range(16, 24), [0x100, 0x104, 0x101, 0x105, 0x102, 0x106, 0x103, 0x107]))),
        # test_swizzled_unpack_with_32_bit_elements
        ("mv.swiz", dict(subvl=1, src_subvl=2, ew=32, ews=32), "YX", 2,
         [0] * 32 + [0xA1 << 32 | 0xA0, 0xB1 << 32 | 0xB0], "gpr",
         {16: 0xB1 << 32 | 0xA1, 17: 0xB0 << 32 | 0xA0}),
        # test_selector_beyond_source_subvl_traps_without_writes
        ("mv.swiz", dict(subvl=2, src_subvl=2), "Z.", 2, [0x55] * 32, "gpr",
         "beyond the source SUBVL"),
    ]
    # encoding checks apply whatever the predicate or VL (isa_ext checks at decode,
    # swizzle_sv.SvSwizzle): a reserved selector with VL=0, a selector beyond the
    # source group with every destination group masked out (m=r3, r3=0); a legal
    # one with VL=0 writes nothing
    masked = [0x55] * 32
    masked[3] = 0
    out += [("mv.swiz", dict(subvl=2, src_subvl=2), 0b001_000_000_000, 0, [0x55] * 32,
             "gpr", "selector 0b001 is reserved"),
            ("mv.swiz", dict(subvl=2, src_subvl=2, mask=2), "Z.", 2, masked, "gpr",
             "beyond the source SUBVL"),
            ("mv.swiz", dict(subvl=2, src_subvl=2), "YX", 0, [0x55] * 32, "gpr",
             {16: 0x55, 17: 0x55})]
    # test_fmv_one_in_each_float_format: "1" on X of a vec2 group, 1.0 of the width
    for ew, one in ((64, 0x3FF0_0000_0000_0000), (32, 0x3F80_0000), (16, 0x3C00)):
        out.append(("fmv.swiz", dict(subvl=2, src_subvl=2, ew=ew, ews=ew), "1X", 1,
                    [0] * 32 + [0x1234], "fpr", {16: ("low", ew, one)}))
    cases = []
    for mnemonic, rm, swz, vl, regs, file, want in out:
        case = {"words": sv_program(isa, mnemonic, 4, 8, swz, **rm), "vl": vl,
                "gpr": regs if file == "gpr" else [], "fpr": regs if file == "fpr" else []}
        cases.append((case, file, want))
    return cases


def sv_random_cases(isa, rng):
    """Random RM (element widths, SUBVL and src_SUBVL in 1..4 so pack, unpack and
    resize all occur, scalar/vector EXTRA2, integer and CR twin predicates, sz/dz),
    random registers and selectors (now and then an illegal one)."""
    out = []
    for mnemonic in ("mv.swiz", "fmv.swiz"):
        for _ in range(RANDOM_CASES):
            sels = [rng.choice([0, 2, 3, 4, 5, 6, 7] * 8 + [1]) for _ in range(4)]
            imm = sum(s << (9 - 3 * i) for i, s in enumerate(sels))
            rm = dict(subvl=rng.randint(1, 4), src_subvl=rng.randint(1, 4),
                      rt_extra=rng.choice([0, 1, 2, 3, 2, 3]),
                      ra_extra=rng.choice([0, 1, 2, 3, 2, 3]),
                      ew=rng.choice([64, 32, 16, 8]), ews=rng.choice([64, 32, 16, 8]),
                      mask=rng.randrange(8), smask=rng.randrange(8),
                      sz=rng.randrange(2), dz=rng.randrange(2))
            words = sv_program(isa, mnemonic, rng.randrange(32), rng.randrange(32), imm, **rm)
            if rng.random() < 0.3:  # CR predicates (MASKMODE = RM[0])
                words[0] |= 1 << (31 - 6)
            regs = [rng.getrandbits(64) for _ in range(NREGS)]
            out.append({"words": words, "vl": rng.choice([0, 1, 2, 3, 4, 2, 3, 4]),
                        "cr": rng.getrandbits(32),
                        "gpr": regs, "fpr": [rng.getrandbits(64) for _ in range(NREGS)]})
    return out


def sv_plugin_trap_cases(isa):
    """(case, expected ILLEGAL reason in ISACaller): an RM mode other than plain
    (MODE bit 21, map-reduce) traps in both; vertical-first traps only there (the
    plugin's documented limit, docs/openpower-plugin.md)."""
    mapreduce = sv_program(isa, "mv.swiz", 4, 8, "YX", subvl=2, src_subvl=2)
    mapreduce[0] |= 1 << 2  # RM[21] = prefix bit 29
    return [({"words": mapreduce, "vl": 2, "gpr": [7] * 32, "fpr": []},
             "sv.mv.swiz: only the plain mode (zeroing sz/dz) applies to MVRM-2P-2S1D"),
            ({"words": sv_program(isa, "fmv.swiz", 4, 8, "YX", subvl=2, src_subvl=2),
              "vl": 2, "vfirst": 1, "gpr": [], "fpr": [7] * 32},
             "sv.fmv.swiz: vertical-first mode is not supported by the isa_ext plugin for "
             "openpower-isa")]


# --- GPU thread-group ops (seed 002): ballot, activemask, laneid, lanemask* ---------

THREAD_GROUP = ("ballot", "activemask", "laneid", "lanemaskeq", "lanemaskge", "lanemaskgt",
                "lanemaskle", "lanemasklt")


def words_of(isa, text):
    data = assemble(text, isa=isa, base=0x1000).data
    return [int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data), 4)]


def gpu_seed_cases(isa):
    """(case, {register: value}): tests/ext/gpu/test_gpu.py::test_ballot_activemask_laneid_and_masks,
    one instruction per case: 8 lanes, active = r10 = 0b1011_0111, lane values
    5 0 7 1 9 0 2 3 at r64.. (values derived there in comments)."""
    gpr = [0] * 128
    gpr[10] = 0b10110111
    for k in range(8):
        gpr[16 + k] = 0xEE
        gpr[64 + k] = (5, 0, 7, 1, 9, 0, 2, 3)[k]
    out = [("sv.ballot/m=r10 3, *64", {3: 0b10010101}),
           ("sv.activemask/m=r10 4", {4: 0b10110111}),
           ("sv.laneid/m=r10 *16", dict(zip(range(16, 24), [0, 1, 2, 0xEE, 4, 5, 0xEE, 7]))),
           ("sv.lanemaskeq *24", {27: 0b1000}),
           ("sv.lanemaskge *32", {35: 0b11111000, 32: 0xFF}),
           ("sv.lanemaskgt *40", {43: 0b11110000}),
           ("sv.lanemaskle *48", {51: 0b1111, 55: 0xFF}),
           ("sv.lanemasklt *56", {59: 0b111})]
    return [({"words": words_of(isa, text), "vl": 8, "gpr": gpr, "fpr": []}, want)
            for text, want in out]


def gpu_thread_group_random_cases(isa, rng):
    """Random thread-group ops: unprefixed (a one-lane warp) or prefixed with integer
    or CR predicates, dz/sz, scalar or vector operands, ballot under /vec2../vec4,
    destination element widths; VL 0..8; lane values often zero (ballot's votes)."""
    out = []
    for n in range(RANDOM_CASES):
        op = THREAD_GROUP[n % len(THREAD_GROUP)]
        rt = rng.choice(["*8", "*16", "5", "40"])
        ops = f"{rt}, {rng.choice(['*24', '*32', '6'])}" if op == "ballot" else rt
        if rng.random() < 0.15:
            text = f"{op} {rng.randrange(3, 31)}" + (f", {rng.randrange(3, 31)}"
                                                     if op == "ballot" else "")
        else:
            mods = [rng.choice(["", "/m=r3", "/m=~r3", "/m=r10", "/m=~r30", "/m=1<<r3",
                                "/m=lt", "/m=ne", "/m=so"]),
                    rng.choice(["", "", "/dz", "/sz"]),
                    rng.choice(["", "", "", "/w=32", "/w=16", "/w=8"])]
            if op == "ballot" or rng.random() < 0.1:  # other ops trap under SUBVL>1
                mods.append(rng.choice(["", "", "/vec2", "/vec3", "/vec4"]))
            text = f"sv.{op}{''.join(mods)} {ops}"
        gpr = [rng.choice([0, 0, 1, rng.getrandbits(64)]) for _ in range(NREGS)]
        gpr[3] = rng.randrange(64) if "1<<r3" in text else rng.getrandbits(64)
        # ISACaller has CR0..CR7: CR predicates (CR4 + i) only up to VL = 4
        vl = rng.randint(0, 4 if "/m=" in text and text.split("/m=")[1][0] in "lns" else 8)
        out.append({"words": words_of(isa, text), "vl": vl,
                    "cr": rng.getrandbits(32), "gpr": gpr, "fpr": [], "text": text})
    return out


# --- GPU shuffles (seeds 000 and 003): shfl*, shfli*, fshfl*, fshfli*, shflv*, shflvi* ---

SHUFFLE_MODES = ("idx", "up", "down", "bfly")
GLSL = [0xA, 0xB, 0xC, 0xD, 0xE, 0xF, 0x10, 0x11]  # seed 000's a..h


def dbl(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def shuffle_seed_cases(isa):
    """(case, {"gpr"|"fpr": {register: value}}): the worked examples of
    tests/ext/gpu/test_gpu.py, one instruction per case (values derived there from the
    seed tables and in comments)."""
    a, b, c, d, e, f, g, h = GLSL
    out = []

    def glsl(alias, index, width, data, want, valid):
        gpr = [0] * 128
        for k, v in enumerate(data):
            gpr[64 + k] = v
        vl = len(data)
        out.append(({"words": words_of(isa, f"sv.{alias} *r32,*r64,{index},{width}"),
                     "vl": vl, "gpr": gpr, "fpr": []},
                    {"gpr": dict(zip(range(32, 32 + vl), want))}))
        valid_alias = alias.replace("NV", "ValidNV")
        out.append(({"words": words_of(isa, f"sv.{valid_alias} r3,{index},{width}"),
                     "vl": vl, "gpr": gpr, "fpr": []},
                    {"gpr": {3: sum(v << k for k, v in enumerate(valid))}}))

    # seed 000's tables (8 threads, width 8; test_seed000_*)
    glsl("shuffleNV", 2, 8, GLSL, [c] * 8, [1] * 8)
    glsl("shuffleNV", 9, 8, GLSL, GLSL, [0] * 8)
    glsl("shuffleUpNV", 1, 8, GLSL, [a, a, b, c, d, e, f, g], [0] + [1] * 7)
    glsl("shuffleDownNV", 2, 8, GLSL, [c, d, e, f, g, h, g, h], [1] * 6 + [0, 0])
    glsl("shuffleXorNV", 1, 8, GLSL, [b, a, d, c, f, e, h, g], [1] * 8)
    sixteen = list(range(100, 116))
    glsl("shuffleDownNV", 2, 8, sixteen, [102, 103, 104, 105, 106, 107, 106, 107,
                                          110, 111, 112, 113, 114, 115, 114, 115],
         [1] * 6 + [0, 0] + [1] * 6 + [0, 0])
    glsl("shuffleUpNV", 1, 8, sixteen, [100, 100, 101, 102, 103, 104, 105, 106,
                                        108, 108, 109, 110, 111, 112, 113, 114],
         [0] + [1] * 7 + [0] + [1] * 7)
    # test_register_index_takes_low_bits_like_sass: b = 9, c = 0x3807 (width 8):
    # every lane reads lane 1
    gpr = [0] * 128
    gpr[5], gpr[6] = 9, 0x3807
    for k, v in enumerate(GLSL):
        gpr[64 + k] = v
    for text, want in (("sv.shfl.idx *r32,*r64,r5,r6", dict(zip(range(32, 40), [b] * 8))),
                       ("sv.shflv.idx r3,r5,r6", {3: 0xFF})):
        out.append(({"words": words_of(isa, text), "vl": 8, "gpr": gpr, "fpr": []},
                    {"gpr": want}))
    # seed 003 on 32 lanes, x_i = i + 1 (test_seed003_fswz_patterns): SHFL with c =
    # 0x1C03 (quads) and the immediate width 4; and one step of the scan: up by 4
    # in a warp of 32 (test_seed003_inclusive_plus_scan's first shuffles)
    fpr = [dbl(k + 1.0) for k in range(32)] + [0] * 96
    for mode, index, source in (("idx", 2, lambda i: (i & ~3) + 2), ("bfly", 1, lambda i: i ^ 1),
                                ("bfly", 2, lambda i: i ^ 2)):
        gpr = [0] * 128
        gpr[4], gpr[5] = index, 0x1C03
        want = {32 + i: dbl(source(i) + 1.0) for i in range(32)}
        for text in (f"sv.fshfl.{mode} *f32,*f0,r4,r5", f"sv.fshfli.{mode} *f32,*f0,{index},2"):
            out.append(({"words": words_of(isa, text), "vl": 32, "gpr": gpr, "fpr": fpr},
                        {"fpr": want}))
        out.append(({"words": words_of(isa, f"sv.shflv.{mode} r3,r4,r5"), "vl": 32,
                     "gpr": gpr, "fpr": fpr}, {"gpr": {3: 0xFFFF_FFFF}}))
    out.append(({"words": words_of(isa, "sv.fshfli.up *f32,*f0,4,5"), "vl": 32, "gpr": [],
                 "fpr": fpr}, {"fpr": {32 + i: dbl((i - 4 if i >= 4 else i) + 1.0)
                                       for i in range(32)}}))
    return out


def _predicate_mods(rng, vl_cap):
    """(modifier text, VL cap): an integer or CR predicate (CR4+i there: VL <= 4)."""
    m = rng.choice(["", "", "/m=r3", "/m=~r3", "/m=r10", "/m=~r30", "/m=1<<r3", "/m=lt",
                    "/m=ne", "/m=so"])
    return m, (4 if m[3:4] in ("l", "n", "s") else vl_cap)


def gpu_shuffle_random_cases(isa, rng):
    """Random shuffles of every kind: register and immediate b/c, GPR and FPR data,
    the validity masks, prefixed (predicates, dz/sz, /vec2../vec4, element widths
    on GPR data, scalar or vector operands) or not (a one-lane warp); VL 0..16;
    b and c mostly in range, with junk in their unused bits; now and then a
    reserved segment-width code (7) or a validity mask under SUBVL>1 (both trap)."""
    out = []
    for n in range(2 * RANDOM_CASES):
        kind = ("shfl", "shfli", "fshfl", "fshfli", "shflv", "shflvi")[n % 6]
        mode = rng.choice(SHUFFLE_MODES)
        fp = kind.startswith("f")
        r = "f" if fp else "r"
        rt = rng.choice([f"*{r}32", f"*{r}48", f"{r}5"])
        ra = rng.choice([f"*{r}64", f"*{r}80", f"{r}7"])
        bc = rng.choice(["r4, r6", "*r16, r6", "r4, *r96", "*r16, *r96"])
        imm = f"{rng.randrange(32)}, {rng.choice([0, 1, 2, 3, 4, 5, 6, 2, 3, 7])}"
        ops = {"shfl": f"{rt}, {ra}, {bc}", "shfli": f"{rt}, {ra}, {imm}",
               "fshfl": f"{rt}, {ra}, {bc}", "fshfli": f"{rt}, {ra}, {imm}",
               "shflv": f"r{rng.choice(['3', '*32'])}".replace("r*", "*r") + f", {bc}",
               "shflvi": f"r{rng.choice(['3', '*32'])}".replace("r*", "*r") + f", {imm}"}[kind]
        vl_cap = 16
        if rng.random() < 0.1:  # unprefixed: scalar registers below 32
            text = f"{kind}.{mode} " + re.sub(r"\*([rf])\d+", r"\g<1>9", ops)
        else:
            pred, vl_cap = _predicate_mods(rng, 16)
            mods = [pred, rng.choice(["", "", "/dz", "/sz", "/dz/sz"])]
            subvl = rng.choice(["", "", "", "/vec2", "/vec3", "/vec4"])
            if not kind.startswith("shflv") or rng.random() < 0.1:
                mods.append(subvl)
            if not fp and kind != "shflvi" and rng.random() < 0.3:
                mods.append(rng.choice(["/w=32", "/w=16", "/w=8", "/sw=32", "/sw=16"]))
            text = f"sv.{kind}.{mode}{''.join(mods)} {ops}"
        gpr = [rng.getrandbits(64) for _ in range(NREGS)]
        # b: a lane number (with junk above bit 5 now and then); c: clamp in bits
        # 5:0 and a segment mask of high ones in bits 13:8
        for reg in [4] + list(range(16, 32)):
            gpr[reg] = rng.randrange(64) | (rng.getrandbits(58) << 6 if rng.random() < 0.2 else 0)
        for reg in [6] + list(range(96, 112)):
            w = rng.randrange(7)
            gpr[reg] = ((64 - (1 << w)) << 8) | rng.choice([(1 << w) - 1, rng.randrange(64)])
            if rng.random() < 0.2:
                gpr[reg] |= rng.getrandbits(48) << 16
        gpr[3] = rng.randrange(64) if "1<<r3" in text else gpr[3]
        out.append({"words": words_of(isa, text), "vl": rng.randint(0, vl_cap),
                    "cr": rng.getrandbits(32), "gpr": gpr,
                    "fpr": [rng.getrandbits(64) for _ in range(NREGS)], "text": text})
    return out


# --- GPU quad swizzles (seed 002): qswz0..3, qswzx, qswzy, their a and as forms -------

def qswz_seed_cases(isa):
    """(case, {"fpr": {register: value}}): tests/ext/gpu/test_gpu.py's test_quad_swizzles and
    test_quad_divergent_gives_plus_zero_and_no_add_keeps_minus_zero, one instruction
    per case (values derived there in comments)."""
    fpr = [0] * 128
    for k in range(8):
        fpr[k], fpr[16 + k] = dbl(k + 1.0), dbl(10.0 * (k + 1))
    out = [("sv.qswz2 *f32,*f0", {32 + i: dbl(v) for i, v in enumerate([3.0] * 4 + [7.0] * 4)}),
           ("sv.qswzxa *f40,*f0,*f16", {40 + i: dbl(v) for i, v in enumerate(
               [12.0, 21.0, 34.0, 43.0, 56.0, 65.0, 78.0, 87.0])}),
           ("sv.qswzyas *f48,*f0,*f16", {48 + i: dbl(v) for i, v in enumerate(
               [13.0, 24.0, 31.0, 42.0, 57.0, 68.0, 75.0, 86.0])})]
    cases = [({"words": words_of(isa, t), "vl": 8, "gpr": [], "fpr": fpr}, {"fpr": w})
             for t, w in out]
    divergent = [dbl(-0.0 if k == 4 else 1.5) for k in range(8)] + [0] * 24 + [dbl(9.0)] * 8
    gpr = [0] * 11
    gpr[10] = 0b11110111
    cases.append(({"words": words_of(isa, "sv.qswz0/m=r10 *f32,*f0"), "vl": 8, "gpr": gpr,
                   "fpr": divergent},
                  {"fpr": {32: 0, 33: 0, 34: 0, 35: dbl(9.0), **{36 + k: dbl(-0.0)
                                                                 for k in range(4)}}}))
    return cases


# doubles an FP add treats differently: zeros, infinities, NaNs (quiet, signalling),
# denormals, the largest finite values (overflow in double and in single)
FP_SPECIALS = [0, 1 << 63, 0x7FF0_0000_0000_0000, 0xFFF0_0000_0000_0000, 0x7FF8_0000_0000_0001,
               0x7FF0_0000_0000_0001, 0xFFF4_0000_0000_0000, 1, 0x800F_FFFF_FFFF_FFFF,
               0x7FEF_FFFF_FFFF_FFFF, 0xFFEF_FFFF_FFFF_FFFF, 0x47EF_FFFF_E000_0000,
               0x3810_0000_0000_0000, 0x3FF0_0000_0000_0001]
FPSCR_FIELDS = 0xFFFF_FFFF & ~(1 << (63 - 52))  # bits 32:63 but the reserved bit 52


def consistent_fpscr(rng):
    """A random FPSCR whose summaries (VX, FEX) agree with its bits (ISACaller's
    FPSCR recomputes them whenever it is written): random RN, sticky bits and
    enables, the enables mostly 0."""
    from isa_ext.pseudocode.fp import recompute_summary, VE, OE, UE, ZE, XE
    x = rng.getrandbits(64) & FPSCR_FIELDS
    if rng.random() < 0.7:
        x &= ~(VE | OE | UE | ZE | XE)
    return recompute_summary(x)


def gpu_qswz_random_cases(isa, rng):
    """Random quad swizzles: every variant with and without the add (double and
    single precision), predicates (divergent quads), dz/sz, /vec2../vec4, scalar or
    vector operands, VL 0..16; FP values mixing ordinary numbers with zeros,
    infinities, NaNs, denormals and overflowing ones; a random consistent FPSCR
    (rounding mode, enables: enabled invalid operations trap in both)."""
    out = []
    for n in range(2 * RANDOM_CASES):
        variant = rng.choice("0123xy")
        kind = ("", "a", "as")[n % 3]
        frt = rng.choice(["*f32", "*f48", "f5"])
        ops = f"{frt}, {rng.choice(['*f64', '*f80', 'f7'])}"
        if kind:
            ops += f", {rng.choice(['*f16', '*f96', 'f9'])}"
        if rng.random() < 0.1:  # unprefixed: scalar registers below 32
            text, vl_cap = f"qswz{variant}{kind} " + re.sub(r"\*f\d+", "f9", ops), 16
        else:
            # mostly whole quads (all lanes active, VL a multiple of 4), so that the
            # adds run; a predicate or a short VL makes quads divergent
            pred, vl_cap = _predicate_mods(rng, 16) if rng.random() < 0.4 else ("", 16)
            mods = [pred, rng.choice(["", "", "/dz", "/sz"]),
                    rng.choice(["", "", "", "/vec2", "/vec3", "/vec4"])]
            text = f"sv.qswz{variant}{kind}{''.join(mods)} {ops}"
        fpr = [rng.choice(FP_SPECIALS) if rng.random() < 0.25 else
               dbl(rng.uniform(-1e6, 1e6) * 2.0 ** rng.randint(-30, 30)) for _ in range(NREGS)]
        gpr = [rng.getrandbits(64) for _ in range(NREGS)]
        gpr[3] = rng.randrange(64) if "1<<r3" in text else gpr[3]
        vl = rng.choice([4, 8, 12, 16, rng.randint(0, vl_cap)]) if vl_cap == 16 else \
            rng.randint(0, vl_cap)
        out.append({"words": words_of(isa, text), "vl": vl,
                    "cr": rng.getrandbits(32), "fpscr": consistent_fpscr(rng), "gpr": gpr,
                    "fpr": fpr, "text": text})
    return out


# --- GPU surface reductions (seed 004): sured.<op>.<size> ---------------------------

SURF, DESC_AT = 0x20000, 0x1F000  # tests/ext/gpu/test_gpu.py's surface and descriptor addresses


def descriptor(base=SURF, width=16, height=4, depth=1, esize=4, pitch=64, slice_pitch=256,
               enabled=1, ba=0, clamp=0):
    """The 32-byte descriptor (pseudocode/gpu/surface.mdwn) as four 64-bit words."""
    data = (base.to_bytes(8, "little") + pitch.to_bytes(4, "little") +
            slice_pitch.to_bytes(4, "little") + width.to_bytes(4, "little") +
            height.to_bytes(4, "little") + depth.to_bytes(4, "little") +
            bytes([esize, enabled | ba << 1 | clamp << 2, 0, 0]))
    return [int.from_bytes(data[i:i + 8], "little") for i in range(0, 32, 8)]


def _mem(at, words):
    return [[at + 8 * k, w] for k, w in enumerate(words)]


def sured_seed_cases(isa):
    """(case, {address: 32- or 64-bit value} or "trap"): tests/ext/gpu/test_gpu.py's
    hand-derived SURED examples (seed 004; values derived there in comments)."""
    out = []

    def one(text, gpr, mem, want, vl=0):
        regs = [0] * 64
        for n, v in gpr.items():
            regs[n] = v
        out.append(({"words": words_of(isa, text), "vl": vl, "gpr": regs, "fpr": [],
                     "mem": mem}, want))

    # test_seed004_example_2d_add_u32: x 3, y 2, operand 2, 40 at base + 2*64 + 3*4
    one("sured.add.u32 r2,r4,r6,2d", {2: 3, 3: 2, 4: 2, 6: DESC_AT},
        _mem(DESC_AT, descriptor()) + [[SURF + 0x88, 40 << 32]], {SURF + 0x8C: (42, 4)})
    # test_trap_clamp_stops_at_the_faulting_lane_with_earlier_lanes_applied
    one("sv.sured.add.u32 *r32,*r40,r6,1d",
        {32: 0, 33: 1, 34: 99, 35: 3, 40: 1, 41: 1, 42: 1, 43: 1, 6: DESC_AT},
        _mem(DESC_AT, descriptor(clamp=2)) + _mem(SURF, [0, 0]),
        {SURF: (1, 4), SURF + 4: (1, 4), SURF + 8: (0, 4), SURF + 12: (0, 4), "trap": 2}, vl=4)
    # test_near_clamps_and_ign_drops_and_disabled_drops_all: x -5, 40 (width 16)
    gpr = {32: (-5) & 0xFFFF_FFFF, 33: 40, 40: 7, 41: 9, 6: DESC_AT}
    for mode, want in (({"clamp": 0}, (7, 9)), ({"clamp": 1}, (0, 0)),
                       ({"clamp": 2, "enabled": 0}, (0, 0))):
        one("sv.sured.max.s32 *r32,*r40,r6,1d", gpr,
            _mem(DESC_AT, descriptor(**mode)) + _mem(SURF, [0] * 8),
            {SURF: (want[0], 4), SURF + 60: (want[1], 4)}, vl=2)
    # test_byte_addressing_and_alignment: .ba x = 8 -> bytes 8..11; x = 6 traps
    one("sured.or.u32 r2,r4,r6,1d", {2: 8, 4: 0xF0, 6: DESC_AT},
        _mem(DESC_AT, descriptor(ba=1)) + [[SURF + 8, 0x0F]], {SURF + 8: (0xFF, 4)})
    one("sured.or.u32 r2,r4,r6,1d", {2: 6, 4: 1, 6: DESC_AT}, _mem(DESC_AT, descriptor(ba=1)),
        {"trap": 0})
    # test_inc_dec_and_float_sizes / test_min_max_unsigned_and_signed_sizes
    for op, m, v, n, want in (("inc.u32", 5, 5, 4, 0), ("inc.u32", 4, 5, 4, 5),
                              ("dec.u32", 0, 7, 4, 7), ("dec.u32", 9, 7, 4, 7),
                              ("dec.u32", 3, 7, 4, 2), ("add.f32", 0x3FC00000, 0x40100000, 4,
                                                        0x40700000),
                              ("add.f32", 1, 0, 4, 0), ("add.f16x2", 0x3C004000, 0x3C00C000, 4,
                                                        0x40000000),
                              ("min.f16x2", 0x3C004000, 0x80004200, 4, 0x80004000),
                              ("max.s64", 5, (1 << 64) - 1, 8, 5),
                              ("max.u64", 5, (1 << 64) - 1, 8, (1 << 64) - 1),
                              ("min.u32", 1, 0xFFFF_FFFF, 4, 1),
                              ("min.s32", 1, 0xFFFF_FFFF, 4, 0xFFFF_FFFF),
                              ("min.u64", 1 << 63, 3, 8, 3), ("max.s64", 1 << 63, 3, 8, 3)):
        one(f"sured.{op} r2,r4,r6,1d", {2: 0, 4: v, 6: DESC_AT},
            _mem(DESC_AT, descriptor(esize=n)) + [[SURF, m]], {SURF: (want, n)})
    # test_1d_buffer_coordinate_is_s32_only_with_near: x = 0xFFFFFFFF
    one("sured.add.u32 r2,r4,r6,1d_buffer", {2: 0xFFFF_FFFF, 4: 5, 6: DESC_AT},
        _mem(DESC_AT, descriptor(clamp=0)) + _mem(SURF, [0] * 8),
        {SURF: (5, 4), SURF + 60: (0, 4)})
    # test_array_layer_is_u16_and_near_clamps_it_to_the_last_layer
    for layer, addr in ((0x10002, SURF + 516), (4, SURF + 772)):
        one("sured.add.u32 r2,r4,r6,1d_array", {2: 1, 3: layer, 4: 7, 6: DESC_AT},
            _mem(DESC_AT, descriptor(depth=4)) + _mem(SURF, [0] * 160), {addr: (7, 4)})
    return out


SURED_OPS = ("add.u32", "add.s32", "add.sd32", "add.u64", "add.f32", "add.f16x2", "min.u32",
             "min.s32", "min.sd32", "min.u64", "min.s64", "min.sd64", "min.f16x2", "max.u32",
             "max.s32", "max.sd32", "max.u64", "max.s64", "max.sd64", "max.f16x2", "inc.u32",
             "dec.u32", "and.u32", "and.s32", "and.sd32", "and.u64", "or.u32", "or.s32",
             "or.sd32", "or.u64", "xor.u32", "xor.s32", "xor.sd32", "xor.u64")
SURFACE_DIMS = ("1d", "1d_buffer", "1d_array", "2d", "2d_array", "3d")
# 32-bit patterns the f32 / f16x2 reductions treat differently: zeros, subnormals,
# infinities, NaNs, the largest finite values
F32_SPECIALS = [0, 0x8000_0000, 1, 0x8000_0001, 0x7F80_0000, 0xFF80_0000, 0x7FC0_0001,
                0x7F80_0001, 0x7F7F_FFFF, 0x3F80_0000, 0x0001_8001, 0x7BFF_7BFF, 0x7C00_FC00,
                0x7E01_0000, 0x03FF_8400]


def gpu_sured_random_cases(isa, rng):
    """Random surface reductions: every op and size, every dimensionality (now and
    then a reserved one), random descriptors (enabled or not, .ba, every clamp mode
    with the reserved 3 now and then, element sizes that are and are not the access
    size, empty extents), coordinates in and around the surface, one or two
    descriptors across the lanes, predicates and /sz, /sw=32 coordinate elements,
    scalar and vector operands, VL 0..8; the memory compared word by word."""
    out = []
    for n in range(2 * RANDOM_CASES):
        op = SURED_OPS[n % len(SURED_OPS)]
        szb = 8 if op.endswith(("u64", "s64", "sd64")) else 4
        dim = rng.choice(range(6)) if rng.random() < 0.95 else rng.choice([6, 7])
        ncoord = {0: 1, 1: 1, 2: 2, 3: 2, 4: 3, 5: 3}.get(dim, 1)
        descs = []
        for d in range(2):
            width, height, depth = rng.randint(0, 6), rng.randint(0, 3), rng.randint(0, 3)
            if rng.random() < 0.8:
                width, height, depth = max(width, 1), max(height, 1), max(depth, 1)
            esize = rng.choice([szb, szb, szb, 1, 2, 16])
            pitch = -(-width * esize // 8) * 8 + rng.choice([0, 0, 8])
            slice_pitch = pitch * max(height, 1) + rng.choice([0, 0, 8])
            base = SURF + 0x1000 * d
            descs.append((base, width, height, depth, esize, pitch, slice_pitch))
        mem = []
        for d, (base, width, height, depth, esize, pitch, slice_pitch) in enumerate(descs):
            words = descriptor(base, width, height, depth, esize, pitch, slice_pitch,
                               enabled=int(rng.random() < 0.9), ba=int(rng.random() < 0.1),
                               clamp=rng.choice([0, 1, 2, 0, 1, 2, 3] if rng.random() < 0.15
                                                else [0, 0, 0, 1, 2]))
            mem += _mem(DESC_AT + 0x40 * d, words)
            size = slice_pitch * max(depth, 1) + 16
            mem += _mem(base, [rng.choice(F32_SPECIALS) << 32 | rng.choice(F32_SPECIALS)
                               if op.endswith(("f32", "f16x2")) else
                               rng.choice([0, rng.getrandbits(64), rng.randrange(16)])
                               for _ in range(size // 8)])
        gpr = [rng.getrandbits(64) for _ in range(NREGS)]
        for k in range(24):  # coordinates: in and just around the surface, junk above
            c = rng.randint(0, 2) if rng.random() < 0.7 else rng.randint(-2, 7)
            if rng.random() < 0.2:  # .ba byte coordinates, often aligned
                c = rng.randint(-1, 7) * szb + rng.choice([0, 0, 0, 1, 2])
            gpr[32 + k] = (c & 0xFFFF_FFFF) | (rng.getrandbits(32) << 32 if rng.random() < 0.2
                                               else 0)
        gpr[2], gpr[3], gpr[8] = gpr[32], gpr[33], gpr[34]
        for k in range(8):  # operands
            v = rng.choice(F32_SPECIALS) if op.endswith(("f32", "f16x2")) else \
                rng.choice([rng.getrandbits(64), rng.randrange(8), (1 << 64) - 1])
            gpr[40 + k] = v
        gpr[4] = gpr[40]
        for k in range(8):  # descriptors per lane: mostly the first
            gpr[48 + k] = DESC_AT + 0x40 * int(rng.random() < 0.3)
        gpr[6] = DESC_AT
        dims = SURFACE_DIMS[dim] if dim < 6 and rng.random() < 0.8 else str(dim)
        if rng.random() < 0.15:  # unprefixed: one lane
            text, vl = f"sured.{op} r2, r4, r6, {dims}", 0
        else:
            pred, cap = _predicate_mods(rng, 8)
            mods = pred + rng.choice(["", "", "/sz"]) + rng.choice(["", "", "", "/sw=32"]) + \
                ("/vec2" if rng.random() < 0.05 else "")
            ra = rng.choice(["*r32", "*r32", "r2"])
            text = (f"sv.sured.{op}{mods} {ra}, {rng.choice(['*r40', 'r4'])}, "
                    f"{rng.choice(['*r48', 'r6'])}, {dims}")
            vl = rng.randint(0, cap)
        out.append({"words": words_of(isa, text), "vl": vl, "cr": rng.getrandbits(32),
                    "gpr": gpr, "fpr": [], "mem": mem, "text": text, "ncoord": ncoord})
    return out


@pytest.fixture(scope="module")
def runs(installed, isa):
    """{family: (cases, ISACaller's results)}: one ISACaller process per family.
    Scalar cases include seed 001's; sv cases the hand-derived SVP64 ones."""
    rng = random.Random(16)
    seeds, sv_seeds = seed_cases(isa), sv_seed_cases(ISA(profile="openpower-isa"))
    scalar = [c for c, *_ in seeds] + random_cases(isa, rng)
    traps = sv_plugin_trap_cases(isa)
    sv = [c for c, *_ in sv_seeds] + sv_random_cases(ISA(profile="openpower-isa"), rng)
    op_isa = ISA(profile="openpower-isa")
    gpu_seeds = gpu_seed_cases(op_isa)
    gpu = [c for c, _ in gpu_seeds] + gpu_thread_group_random_cases(op_isa, rng)
    shfl_seeds, qswz_seeds = shuffle_seed_cases(op_isa), qswz_seed_cases(op_isa)
    shfl = [c for c, _ in shfl_seeds] + gpu_shuffle_random_cases(op_isa, rng)
    qswz = [c for c, _ in qswz_seeds] + gpu_qswz_random_cases(op_isa, rng)
    sured_seeds = sured_seed_cases(op_isa)
    sured = [c for c, _ in sured_seeds] + gpu_sured_random_cases(op_isa, rng)
    got = run_isacaller(installed, {"scalar": scalar, "sv": sv + [c for c, _ in traps],
                                    "gpu": gpu, "shfl": shfl, "qswz": qswz, "sured": sured})
    return {"sured": (sured, got["sured"]), "sured_seeds": sured_seeds,
            "shfl": (shfl, got["shfl"]), "shfl_seeds": shfl_seeds,
            "qswz": (qswz, got["qswz"]), "qswz_seeds": qswz_seeds,
            "scalar": (scalar, got["scalar"]), "seeds": seeds,
            "sv": (sv, got["sv"][:len(sv)]), "sv_seeds": sv_seeds,
            "sv_traps": (traps, got["sv"][len(sv):]),
            "gpu": (gpu, got["gpu"]), "gpu_seeds": gpu_seeds}


def differences(isa, cases, theirs):
    """Cases where ISACaller and isa_ext end differently (or only one traps)."""
    out = []
    for case, got in zip(cases, theirs):
        ours = run_isa_ext(isa, case)
        if ("illegal" in got) != ("illegal" in ours) or ("illegal" not in got and got != ours):
            changed = {k: [i for i, (a, b) in enumerate(zip(got[k], ours[k])) if a != b]
                       if isinstance(got[k], list) else (got[k], ours[k])
                       for k in ("gpr", "fpr", "cr", "svstate", "fpscr", "mem")
                       if k in got and k in ours and got[k] != ours[k]}
            out.append(([hex(w) for w in case["words"]], case.get("vl"), got.get("illegal"),
                        ours.get("illegal"), changed))
    return out


def test_scalar_swizzle_runs_alike_in_isacaller(runs, isa):
    cases, theirs = runs["scalar"]
    seeds = runs["seeds"]
    assert len(theirs) == len(cases) == len(seeds) + 2 * RANDOM_CASES
    # the seed examples against their hand-derived values, on both simulators
    for (case, file, rt, want), got in zip(seeds, theirs):
        ours = run_isa_ext(isa, case)
        for result in (got, ours):
            if isinstance(want, str):
                assert want in result.get("illegal", ""), (hex(case["words"][-1]), result)
            else:
                assert (result[file][rt], result[file][rt + 1]) == want, hex(case["words"][-1])
    # every case: the same GPRs, FPRs, CR and SVSTATE, or both trap
    assert differences(isa, cases, theirs) == []
    # the random cases exercise both outcomes
    assert 20 < sum("illegal" not in g for g in theirs[len(seeds):])
    assert sum("illegal" in g for g in theirs[len(seeds):]) >= 5


def test_sv_swizzle_groups_run_alike_in_isacaller(runs):
    """sv.mv.swiz / sv.fmv.swiz under SVP64 in ISACaller: the installed page walks
    the element groups (installed_helpers.ISA_EXT_GROUPS) and runs the group page
    per group; compared with isa_ext under its openpower-isa profile (CR predicates
    test CR4+i there, as ISACaller's do)."""
    isa = ISA(profile="openpower-isa")
    cases, theirs = runs["sv"]
    seeds = runs["sv_seeds"]
    assert len(theirs) == len(cases) == len(seeds) + 2 * RANDOM_CASES
    for (case, file, want), got in zip(seeds, theirs):
        ours = run_isa_ext(isa, case)
        for result in (got, ours):
            if isinstance(want, str):
                assert want in result.get("illegal", ""), result
                continue
            for reg, value in want.items():
                if isinstance(value, tuple):  # ("low", bits, value): the element only
                    _low, bits, value = value
                    assert result[file][reg] & ((1 << bits) - 1) == value
                else:
                    assert result[file][reg] == value, (file, reg)
    assert differences(isa, cases, theirs) == []
    rand = theirs[len(seeds):]
    assert 40 < sum("illegal" not in g for g in rand)
    assert sum("illegal" in g for g in rand) >= 5
    # pack, unpack and resize all ran (SUBVL / src_SUBVL from RM bits 8:9 / 14:15)
    kinds = set()
    for case, got in zip(cases[len(seeds):], rand):
        if "illegal" not in got:
            rmv = prefix_rm(case["words"][0])
            d, s = rm_field(rmv, "SUBVL") + 1, rm_field(rmv, "src_SUBVL") + 1
            kinds.add("pack" if s == 1 < d else "unpack" if d == 1 < s else
                      "same" if d == s else "resize")
    assert kinds == {"pack", "unpack", "same", "resize"}


def test_gpu_thread_group_ops_run_alike_in_isacaller(runs):
    """ballot / activemask / laneid / lanemask* (seed 002) as vector-scope pages in
    ISACaller: the hook runs the page once for the whole warp with the installed
    LANE / LANE_ACTIVE / ACTIVE / LANE_assign helpers."""
    isa = ISA(profile="openpower-isa")
    cases, theirs = runs["gpu"]
    seeds = runs["gpu_seeds"]
    for (case, want), got in zip(seeds, theirs):
        for result in (got, run_isa_ext(isa, case)):
            assert {r: result["gpr"][r] for r in want} == want
    assert differences(isa, cases, theirs) == []
    rand = theirs[len(seeds):]
    assert len(rand) == RANDOM_CASES
    assert 30 < sum("illegal" not in g for g in rand)
    assert sum("illegal" in g for g in rand) >= 1  # SUBVL>1 on a per-thread value


def _seed_values_hold(isa, seeds, theirs):
    for (case, want), got in zip(seeds, theirs):
        for result in (got, run_isa_ext(isa, case)):
            assert "illegal" not in result, (case["words"], result)
            for file, regs in want.items():
                assert {r: result[file][r] for r in regs} == regs, (case["words"], file)


def test_gpu_shuffles_run_alike_in_isacaller(runs):
    """shfl / shfli / fshfl / fshfli / shflv / shflvi (seeds 000, 003) in ISACaller:
    their lane arithmetic is integer there through the plugin's integer-width
    conversion (plugin.integer_width); the seed tables hold on both simulators."""
    isa = ISA(profile="openpower-isa")
    cases, theirs = runs["shfl"]
    seeds = runs["shfl_seeds"]
    _seed_values_hold(isa, seeds, theirs)
    assert differences(isa, cases, theirs) == []
    rand = theirs[len(seeds):]
    assert len(rand) == 2 * RANDOM_CASES
    assert 80 < sum("illegal" not in g for g in rand)
    assert sum("illegal" in g for g in rand) >= 3  # SEGW 7, shflv under SUBVL>1


def test_gpu_quad_swizzles_run_alike_in_isacaller(runs):
    """qswz* (seed 002) in ISACaller with the installed FPADD helper: same FPRs and
    the same FPSCR (rounding mode, sticky exceptions, FR/FI, FPRF) as isa_ext."""
    isa = ISA(profile="openpower-isa")
    cases, theirs = runs["qswz"]
    seeds = runs["qswz_seeds"]
    _seed_values_hold(isa, seeds, theirs)
    assert differences(isa, cases, theirs) == []
    rand = theirs[len(seeds):]
    assert len(rand) == 2 * RANDOM_CASES
    assert 80 < sum("illegal" not in g for g in rand)
    # the adds changed the FPSCR in some cases (so it was compared, not just kept)
    assert sum(g["fpscr"] != c.get("fpscr", 0) for c, g in zip(cases[len(seeds):], rand)
               if "illegal" not in g) >= 10


def _mem_value(result, addr, n):
    words = dict(map(tuple, result["mem"]))
    data = b"".join(words.get(a, 0).to_bytes(8, "little") for a in (addr & ~7, (addr & ~7) + 8))
    return int.from_bytes(data[addr & 7:(addr & 7) + n], "little")


def test_gpu_surface_reductions_run_alike_in_isacaller(runs):
    """sured.* (seed 004) in ISACaller: descriptors and surfaces in memory, every
    lane's read-modify-write, clamping, .ba, lane traps with the earlier lanes'
    memory kept: the same memory words (and registers, SVSTATE) as isa_ext."""
    isa = ISA(profile="openpower-isa")
    cases, theirs = runs["sured"]
    seeds = runs["sured_seeds"]
    for (case, want), got in zip(seeds, theirs):
        for result in (got, run_isa_ext(isa, case)):
            assert "illegal" not in result, (case["words"], result)
            lane = want.get("trap")
            if lane is None:
                assert "trap" not in result, (case["words"], result["trap"])
            else:
                assert f"lane {lane}:" in result["trap"], (case["words"], result)
            for addr, value in want.items():
                if addr != "trap":
                    assert _mem_value(result, addr, value[1]) == value[0], \
                        (case["words"], hex(addr))
    assert differences(isa, cases, theirs) == []
    rand = theirs[len(seeds):]
    assert len(rand) == 2 * RANDOM_CASES
    # both outcomes, lane traps part-way, and memory the reductions changed
    assert 80 < sum("illegal" not in g for g in rand)
    assert sum("illegal" in g for g in rand) >= 3
    assert sum("trap" in g for g in rand) >= 3
    assert sum(g.get("mem") != c["mem"] for c, g in zip(cases[len(seeds):], rand)
               if "illegal" not in g) >= 25


def test_sv_swizzle_modes_the_plugin_does_not_run_trap_in_isacaller(runs):
    traps, got = runs["sv_traps"]
    assert got == [{"illegal": why} for _case, why in traps]
    # isa_ext traps the map-reduce mode too, and runs vertical-first
    isa = ISA(profile="openpower-isa")
    assert run_isa_ext(isa, traps[0][0]) == {"illegal": traps[0][1]}
    vf = dict(traps[1][0])
    assert "illegal" not in run_isa_ext(isa, vf)


def test_uninstall_restores_the_checkout(runs, installed):
    # depends on ``runs``: uninstalling comes after every ISACaller run, in any order
    _python, checkout, _env = installed
    assert _git(checkout, "status", "--porcelain") != ""  # install did change it
    assert cli_main(["openpower", "uninstall", "--root", str(checkout), "swizzle",
                     "gpu"]) == 0
    assert _git(checkout, "status", "--porcelain") == ""
    assert _git(checkout, "diff") == ""
