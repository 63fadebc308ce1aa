"""Fuzzing as a habit (issue 20, deliverable 7): random and mutated input
through the decoder, the executor, the disassembler round trip, the assembler
and the ELF loader.  The property everywhere: no Python exception other than
the toolkit's own (Trap inside a run, AsmError, ElfError/IsaExtError) ever
escapes; a trapping 32-bit instruction leaves the registers as they were; the
plain and traced runs agree; every disassembled line reassembles to the same
bytes.

Hypothesis draws the seeds (so a failure shrinks to, and prints, one seed that
reproduces it); each example then generates a batch with `random.Random(seed)`,
which keeps the per-instruction cost low enough for the CI counts:

    executed instructions  >= 100,000  (32-bit words and SVP64 pairs)
    disassembled words     >=  25,000  (each reassembled)
    assembler sources      >=   5,000  (random, mutated, non-UTF-8, huge)
    ELF files              >=     500  (truncated, corrupted, wrong machine)

ISA_EXT_FUZZ_SCALE=N multiplies every count (longer campaigns by hand;
docs/testing.md, "Fuzzing", records the campaigns run).  tools/fuzz_atheris.py drives the same
targets coverage-guided where atheris installs.
"""
import os
import random
import struct

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from isa_ext.asm import assemble
from isa_ext.disasm import Disassembler
from isa_ext.elf import load_elf
from isa_ext.errors import AsmError, IsaExtError
from isa_ext.isa import ISA
from isa_ext.sim import Simulator
from isa_ext.svp64 import svstate as SV
from isa_ext.svp64.asm import is_branch
from conftest import ROOT

SCALE = max(1, int(os.environ.get("ISA_EXT_FUZZ_SCALE", "1")))
ISA_ALL = ISA()
BATCHES = 20  # hypothesis examples per target; each is one seeded batch
COUNTS = {"exec32": 3_000 * SCALE, "exec64": 2_000 * SCALE, "disasm": 1_250 * SCALE,
          "asm": 250 * SCALE, "elf": 25 * SCALE}
SEEDS = settings(max_examples=BATCHES, deadline=None, derandomize=False,
                 suppress_health_check=list(HealthCheck))
pytestmark = pytest.mark.slow  # still run in CI (.ci/run)

TOTALS = {k: 0 for k in COUNTS}


# --- random instruction words ------------------------------------------------------

ROWS = [r for r in ISA_ALL.rows if not r.form.prefixed]
SV_ROWS = [r for r in ROWS if r.sv]
# v3.1 prefixed rows (8 bytes): drawn as pairs, like SVP64's
PREFIXED_ROWS = [r for r in ISA_ALL.rows if r.form.prefixed]


def row_word(rng, row):
    """A word that matches ``row``: its fixed bits, random everywhere else."""
    return row.value | (rng.getrandbits(32) & ~row.mask & 0xFFFFFFFF)


def random_word(rng):
    """Half fully random words, half instances of a random table row."""
    if rng.random() < 0.5:
        return rng.getrandbits(32)
    return row_word(rng, rng.choice(ROWS))


# the branch RM bits that can be spelled (branch_rm.txt): MASKMODE MASK, ALL SNZ
# CTi VSb, BI's EXTRA3 slot, CTR-test VLSET VLI LRu sz -- without SUBVL, RM[13:18]
BRANCH_RM_BITS = 0xFF0000 | 0x003800 | 0x00001F  # RM[0:7], RM[10:12], RM[19:23]


def random_prefix(rng, branch=False):
    """An SVP64 prefix (PO=1, bits 7 and 9 set) with a random 24-bit RM; for a
    branch mostly within the bits a branch spells (a uniform RM almost always
    sets one of its reserved bits and prints as words), sometimes one more."""
    rm = rng.getrandbits(24)
    if branch and rng.random() < 0.8:
        rm &= BRANCH_RM_BITS
        if rng.random() < 0.2:
            rm |= 1 << rng.randrange(24)
    return (1 << 26) | (((rm >> 23) & 1) << 25) | (1 << 24) | (((rm >> 22) & 1) << 23) | \
        (1 << 22) | (rm & 0x3FFFFF)


# SVP64 branches have their own RM layout (isa_ext/svp64/branch.py, reserved
# bits SV-26): a tenth of the pairs have a branch suffix, so that each run
# round-trips and executes several hundred of them (uniformly they would be 4
# rows of several hundred)
BRANCH_ROWS = [r for r in SV_ROWS if is_branch(ISA_ALL, r)]


GSR_ROWS = [r for r in ROWS if r.form.name == "GSR"]


def random_header_pair(rng):
    """SURED's 64-bit header-index form (isa_ext/ext/gpu/header_index.py): an
    MLS-type prefix with a random index (sometimes reserved bits set) before a
    sured row (RC mostly 0, as the form requires) or any word."""
    prefix = 0x06000000 | rng.getrandbits(13)
    if rng.random() < 0.1:
        prefix |= rng.getrandbits(32) & 0x00FFE000
    if rng.random() < 0.8:
        suffix = row_word(rng, rng.choice(GSR_ROWS))
        if rng.random() < 0.8:
            suffix &= ~(0x1F << 11)  # RC (MSB0 16:20) = 0
    else:
        suffix = random_word(rng)
    return prefix, suffix


def random_v31_pair(rng):
    """A v3.1 prefixed row's instance: fixed bits, random elsewhere (reserved
    bits set, R=1 with RA != 0 and odd pairs included)."""
    row = rng.choice(PREFIXED_ROWS)
    w = row.value | (rng.getrandbits(64) & ~row.mask)
    if rng.random() < 0.1:
        w |= rng.getrandbits(64) & row.reserved_mask
    return w >> 32, w & 0xFFFFFFFF


def random_pair(rng):
    if rng.random() < 0.05:
        return random_header_pair(rng)
    if rng.random() < 0.1:
        return random_v31_pair(rng)
    branch = rng.random() < 0.1
    return random_prefix(rng, branch), row_word(rng, rng.choice(BRANCH_ROWS if branch
                                                                else SV_ROWS))


# --- executor ---------------------------------------------------------------------

CODE = 0x10000


def fresh_sim(rng):
    # a header pool for SURED's header-index form (valid, partly or not at all)
    gpu = dict(const_bank=0x20000, header_pool=0x20000,
               max_header_index=rng.choice([None, 0, 7, 0xFFFFF]))
    sim = Simulator(ISA_ALL, strict=rng.random() < 0.5, mem_limit=64 << 20, gpu=gpu)
    s = sim.state
    for i in range(128):
        s.gpr[i] = rng.choice([0, 1, 8, CODE + 0x100, 0x20000, rng.getrandbits(64),
                               rng.getrandbits(16)])
        s.fpr[i] = rng.choice([0, 0x3FF0000000000000, 0x7FF8000000000000,
                               0x7FF0000000000000, rng.getrandbits(64)])
    for i in range(128):
        s.cr[i] = rng.getrandbits(4)
    s.fpscr = rng.getrandbits(64) if rng.random() < 0.2 else 0
    sim.end = -1  # no end address: every run stops after its step
    return sim


def step(sim, words, check_partial, trace=False):
    """Run the instruction ``words`` at CODE for one step; returns the result."""
    s = sim.state
    for i, w in enumerate(words):
        s.mem.write(CODE + 4 * i, 4, w)
    s.pc = CODE
    before, sv = s.copy_registers(), s.svstate
    try:
        res = sim.run(max_steps=1, trace=trace)
    except Exception as e:
        # the reproducer: words, SVSTATE and the mode (the registers are the batch's)
        e.add_note(f"fuzz escape: words {[hex(w) for w in words]} svstate "
                   f"{sv:#x} strict={sim.strict} trace={trace}")
        raise
    if check_partial and res.stop == "trap" and res.trap.kind not in ("program", "interrupt"):
        after = s.copy_registers()
        assert after == before, f"trap {res.trap} left partial state (words {words})"
    return res


def random_vl(rng):
    """VL (and MAXVL) for an SVP64 pair: mostly short vectors (0..8, fast),
    a quarter anywhere up to 127 -- long enough that, times SUBVL and element
    widths, vectors and their per-element CR fields reach past r127/CR127
    (issue 36: an Rc=1 CR field vector past CR127 escaped as an IndexError
    while VL stayed <= 8 here)."""
    vl = rng.randint(0, 8) if rng.random() < 0.75 else rng.randint(0, 127)
    maxvl = max(vl, 1) if rng.random() < 0.5 else rng.randint(max(vl, 1), 127)
    return vl, maxvl


def set_words(sim, rng, pairs):
    """The next instruction (one word or an SVP64 pair) and the SVSTATE for it."""
    if pairs:
        vl, maxvl = random_vl(rng)
        sim.state.svstate = SV.put(SV.put(0, "maxvl", maxvl), "vl", vl)
        return list(random_pair(rng))
    sim.state.svstate = 0
    return [random_word(rng)]


def outcome(sim, res):
    t = res.trap
    return (res.stop, t and (t.kind, t.reason), sim.state.copy_registers(),
            sim.state.mem.snapshot())


def run_batch(seed, n, pairs):
    rng = random.Random(seed)
    sim = fresh_sim(rng)
    for k in range(n):
        if k % 500 == 0:
            sim = fresh_sim(rng)
        if rng.random() < 0.03:
            # one behaviour: the same instruction from the same state, plain and traced
            sub = rng.getrandbits(32)
            a, b = fresh_sim(random.Random(sub)), fresh_sim(random.Random(sub))
            words = set_words(a, random.Random(sub), pairs)
            set_words(b, random.Random(sub), pairs)
            ra, rb = step(a, words, False), step(b, words, False, trace=True)
            assert outcome(a, ra) == outcome(b, rb), f"plain and traced differ: {words}"
            continue
        words = set_words(sim, rng, pairs)
        step(sim, words, check_partial=not pairs)
    return n


@SEEDS
@given(st.integers(0, 2**32 - 1))
def test_fuzz_execute_32bit_words(seed):
    TOTALS["exec32"] += run_batch(seed, COUNTS["exec32"], pairs=False)


@SEEDS
@given(st.integers(0, 2**32 - 1))
def test_fuzz_execute_svp64_pairs(seed):
    TOTALS["exec64"] += run_batch(seed, COUNTS["exec64"], pairs=True)


# --- disassembler round trip --------------------------------------------------------

DIS = Disassembler(ISA_ALL)


@SEEDS
@given(st.integers(0, 2**32 - 1))
def test_fuzz_disassembly_reassembles(seed):
    rng = random.Random(seed)
    n = COUNTS["disasm"]
    words = []
    for _ in range(n):
        if rng.random() < 0.3:
            words += list(random_pair(rng))
        else:
            words.append(random_word(rng))
    data = b"".join(w.to_bytes(4, "little") for w in words)
    lines = list(DIS.lines(data, base=0x1000))
    text = "\n".join(t for _a, _w, t in lines) + "\n"
    # one source of every line: the bytes must come back exactly
    assert assemble(text, isa=ISA_ALL, base=0x1000).data == data
    TOTALS["disasm"] += len(lines)
    # the branch RM's own layout is in the round trip (printed as sv.bc...)
    assert n < 200 or any(t.startswith("sv.b") for _a, _w, t in lines)


# --- assembler --------------------------------------------------------------------

EXAMPLES = os.path.join(ROOT,
                        "examples")
SEED_SOURCES = [open(os.path.join(EXAMPLES, f), encoding="utf-8").read()
                for f in sorted(os.listdir(EXAMPLES)) if f.endswith(".s")]
TOKENS = ["sv.", "add", "r3", "*r8", ",", "(", ")", '"', "\\", "#", ";", ":", ".space",
          ".long", ".ascii", "0x", "-", "1<<", "/vec2", "/m=r3", ".set", "label", "b",
          "\n", " ", "\t", "mv.swiz", '"XYZW"', ".align", "99999999999999999999", "~",
          "1f", "1b", ".text", ".data", ".section", "@", "%r1", "cr7", "4*cr1+eq"]


def mutate(rng, text):
    chars = list(text)
    for _ in range(rng.randint(1, 8)):
        op = rng.random()
        pos = rng.randint(0, len(chars))
        if op < 0.4 or not chars:
            chars[pos:pos] = list(rng.choice(TOKENS))
        elif op < 0.7:
            del chars[pos:pos + rng.randint(1, 4)]
        else:
            chars[min(pos, len(chars) - 1)] = chr(rng.randint(0, 0x2FF))
    return "".join(chars)


def random_source(rng):
    kind = rng.random()
    if kind < 0.5:
        return mutate(rng, rng.choice(SEED_SOURCES))
    if kind < 0.8:
        return "".join(rng.choice(TOKENS) for _ in range(rng.randint(1, 40)))
    if kind < 0.99:
        return "".join(chr(rng.randint(1, 0x10FFFF)) for _ in range(rng.randint(1, 60))
                       ).encode("utf-8", "replace").decode("utf-8", "replace")
    # big: deep nesting, a long expression, many lines (the 20,000-line file is
    # test_fuzz_assembler_non_utf8_and_huge_files)
    pick = rng.randint(0, 2)
    if pick == 0:
        return "addi r3,r3," + "(" * 2000 + "1" + ")" * 2000 + "\n"
    if pick == 1:
        return "nop\n" * 2000
    return "li r3," + "1+" * 20000 + "1\n"


def assemble_or_error(text):
    try:
        assemble(text, filename="fuzz.s", isa=ISA_ALL)
    except AsmError as e:
        assert e.line >= 1 and e.column >= 0, str(e)


@SEEDS
@given(st.integers(0, 2**32 - 1))
def test_fuzz_assembler(seed):
    rng = random.Random(seed)
    n = COUNTS["asm"]
    for _ in range(n):
        assemble_or_error(random_source(rng))
    TOTALS["asm"] += n


def test_fuzz_assembler_non_utf8_and_huge_files(tmp_path, capsys):
    # the CLI path: bytes that are not UTF-8 are an error, never a traceback
    from isa_ext.cli import main
    rng = random.Random(20)
    for i in range(40):
        src = tmp_path / f"bad{i}.s"
        data = bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 200)))
        src.write_bytes(b"nop\n" + data + b"\xff\xfe\n")
        assert main(["asm", str(src)]) == 2
    huge = tmp_path / "huge.s"
    huge.write_text("li r3,1\n" * 20_000)
    assert main(["asm", str(huge), "-o", str(tmp_path / "out.bin")]) == 0
    err = capsys.readouterr().err
    assert "Traceback" not in err


# --- ELF loader -------------------------------------------------------------------

def minimal_elf(machine=21, cls=2, code=b"\x01\x00\x60\x38"):  # li r3,1
    """A static little-endian ELF64 with one PT_LOAD segment (System V gABI
    layout: 64-byte header, 56-byte program headers)."""
    entry = 0x10000078
    ehdr = b"\x7fELF" + bytes([cls, 1, 1, 0]) + bytes(8)
    ehdr += struct.pack("<HHIQQQIHHHHHH", 2, machine, 1, entry, 64, 0, 2, 64, 56, 1, 0, 0, 0)
    phdr = struct.pack("<IIQQQQQQ", 1, 5, 0, 0x10000000, 0x10000000, 0x78 + len(code),
                       0x78 + len(code), 0x10000)
    return ehdr + phdr + code


@SEEDS
@given(seed=st.integers(0, 2**32 - 1))
def test_fuzz_elf_loader(tmp_path_factory, seed):
    rng = random.Random(seed)
    base = minimal_elf()
    path = tmp_path_factory.mktemp("elf") / "f.elf"
    n = COUNTS["elf"]
    for _ in range(n):
        kind = rng.random()
        if kind < 0.3:
            data = base[:rng.randint(0, len(base))]
        elif kind < 0.8:
            data = bytearray(base)
            for _ in range(rng.randint(1, 6)):
                data[rng.randrange(len(data))] = rng.getrandbits(8)
            data = bytes(data)
        else:
            data = minimal_elf(machine=rng.choice([3, 20, 21, 62]), cls=rng.choice([1, 2]))
        path.write_bytes(data)
        sim = Simulator(ISA_ALL, mem_limit=64 << 20)
        try:
            load_elf(sim, str(path))
        except IsaExtError:
            continue
        sim.run(max_steps=20)
    TOTALS["elf"] += n


def test_fuzz_minimal_elf_runs():
    # the uncorrupted file is a valid program: li r3,1 runs (a control for the above)
    import tempfile
    with tempfile.NamedTemporaryFile(suffix=".elf", delete=False) as f:
        f.write(minimal_elf())
    sim = Simulator(ISA_ALL)
    load_elf(sim, f.name)
    os.unlink(f.name)
    sim.run(max_steps=1)
    assert sim.state.gpr[3] == 1


def test_fuzz_counts_reached():
    """The CI counts follow from the batch sizes (each target runs BATCHES
    seeded batches of its count; TOTALS records what ran, whatever the order)."""
    assert (COUNTS["exec32"] + COUNTS["exec64"]) * BATCHES >= 100_000
    assert COUNTS["disasm"] * BATCHES >= 25_000
    assert COUNTS["asm"] * BATCHES >= 5_000
    assert COUNTS["elf"] * BATCHES >= 500
    for name, total in TOTALS.items():
        assert total in (0, COUNTS[name] * BATCHES) or total > COUNTS[name] * BATCHES


# --- regressions the fuzz suite found -----------------------------------------------

@pytest.mark.parametrize("trace", [False, True])
def test_regression_setvl_zeroed_elements_count_in_element_widths(trace):
    # seed 1680: sv.setvl/vec2 with ELWIDTH=16 and a vector RT at r127 (VL=2, so
    # 4 sub-elements of 16 bits: all in r127), CR predicate m=eq, stepping from
    # sub-element 1.  Its zeroed elements' page calls used to get register
    # numbers 127 + k (an IndexError; then a trap "past the last register"),
    # while an enabled element runs at the element width.  Now both run at the
    # element width (docs/svp64.md "Register numbers past the end of a file"):
    # CR32/CR33 are 0, so m=eq disables every element and zeroing (RM zz) zeroes
    # sub-elements 1..3 of r127 (bits 16..63); sub-element 0 is before the
    # start and keeps its value: 0xffff...ffff -> 0xffff.
    sim = Simulator(ISA_ALL)
    sim.end = -1
    sim.state.svstate = 0x408000500000000  # MAXVL=VL=2, ssubstep=dsubstep=1
    sim.state.gpr[127] = (1 << 64) - 1
    sim.state.mem.write(CODE, 4, 0x07CB7B9A)
    sim.state.mem.write(CODE + 4, 4, 0x5BF46A36)
    sim.state.pc = CODE
    res = sim.run(max_steps=1, trace=trace)
    assert res.stop == "step_limit", res.trap
    assert sim.state.gpr[127] == 0xFFFF


@pytest.mark.parametrize("text", [".align 99999999999", ".p2align 17", ".align -1"])
def test_regression_huge_alignment_is_an_assembler_error(text):
    # ISA_EXT_FUZZ_SCALE=5, seed 153: ".align N" computed 1 << N before checking
    # it, an OverflowError for a huge N; alignments are powers of two up to 2**16
    with pytest.raises(AsmError, match=r"<input>:1:\d+: error: alignment must be a power of two"):
        assemble(text + "\n", isa=ISA_ALL)


@pytest.mark.parametrize("trace", [False, True])
def test_regression_fp_trap_part_way_leaves_the_fpscr(trace):
    # ISA_EXT_FUZZ_SCALE=5, seed 144: fdmadds. f15,f23,f28 (0xedf7e037) with
    # f15 = f23 = f28 = -inf and FPSCR 0xf21041d0 (VE=1).  Its page computes
    # FRS <- FPADD(FRT, FRB) = -inf first (FPRF -> -infinity), then
    # FPSUB(-inf, -inf): an invalid operation (VXISI) with VE=1 on a value that
    # is not a register, which traps as not implemented.  The trap left the
    # first result's FPRF in the FPSCR (0x...91d0); a trap writes nothing.
    ninf = 0xFFF0000000000000
    sim = Simulator(ISA_ALL, strict=False)
    sim.end = -1
    s = sim.state
    s.fpscr = 0xF21041D0
    s.fpr[15] = s.fpr[23] = s.fpr[28] = ninf
    s.mem.write(CODE, 4, 0xEDF7E037)
    s.pc = CODE
    before = s.copy_registers()
    res = sim.run(max_steps=1, trace=trace)
    assert res.stop == "trap" and res.trap.kind == "illegal"
    assert s.copy_registers() == before


@pytest.mark.parametrize("patch", [
    (64 + 32, struct.pack("<Q", 1 << 62)),   # p_filesz beyond the file: MemoryError before
    (64 + 8, struct.pack("<Q", 1 << 63)),    # p_offset beyond the file
    (32, struct.pack("<Q", 1 << 63)),        # e_phoff: past the end of the file
])
def test_regression_corrupt_elf_headers_are_elf_errors(tmp_path, patch):
    from isa_ext.elf import ElfError
    at, raw = patch
    data = bytearray(minimal_elf())
    data[at:at + len(raw)] = raw
    path = tmp_path / "bad.elf"
    path.write_bytes(bytes(data))
    with pytest.raises(ElfError):
        load_elf(Simulator(ISA_ALL), str(path))
