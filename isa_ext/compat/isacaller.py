"""Differential runs against libre-soc's ISACaller (openpower-isa's simulator).

Random SVP64 programs (``setvl`` then a few random SVP64 lines from
:mod:`.svp64_lines`) run from random register state on isa_ext and on
ISACaller; the final GPRs, FPRs, CR, SVSTATE and FPSCR are compared, and for
programs with a load or store a data region both start from the same random
words (:mod:`.ldst_place` keeps every access inside it).  ISACaller runs
in the PyPy venv that ``../shared/tools/isacaller-setup DIR`` builds: one
process takes a whole batch, with one decoder and one simulation for all cases
(building them takes seconds; a case then takes about 0.1 s).

Both run the same words (isa_ext's assembler, proven byte-exact with libre-soc's
by ``tests/svp64/test_libresoc_asm.py``), so a mismatch is a difference in semantics.
"""
from concurrent.futures import ThreadPoolExecutor
import json
import random
import re
from dataclasses import dataclass, field

from ..errors import IsaExtError
from .libresoc import run_python
from . import isacaller_known_bugs
from ..svp64.record import xlen_rows
from ..diffcheck import ldst_place
from ..diffcheck.svp64_lines import random_lines, sv_rows

NGPR = NFPR = 128
M64 = (1 << 64) - 1

# Runs inside openpower-isa's venv.  Each case gets a fresh ISACaller (its
# initial state through the constructor, as openpower-isa's own test runner
# does) under one shared decoder and nmigen simulation.
_DRIVER = r"""
import json, sys
from nmigen import Module, Signal
from nmigen.sim import Simulator, Settle
from openpower.decoder.power_decoder import create_pdecode
from openpower.decoder.power_decoder2 import PowerDecode2
from openpower.decoder.isa.all import ISA

batch = json.load(sys.stdin)
for c in batch:
    if "words" not in c:  # assembly: libre-soc's assembler, then GNU as
        from openpower.insndb.asm import SVP64Asm
        from openpower.simulator.program import Program
        with Program(list(SVP64Asm(c["lines"])), bigendian=False) as p:
            p.binfile.seek(0)
            b = p.binfile.read()
        c["words"] = [int.from_bytes(b[i:i + 4], "little") for i in range(0, len(b), 4)]
pdecode2 = PowerDecode2(create_pdecode(include_fp=True))
top = Module()
top.submodules.pdecode2 = pdecode2
opcode = Signal(32)
top.d.comb += pdecode2.dec.raw_opcode_in.eq(opcode)
results = []

def run_case(case):
    words = case["words"]
    base = case.get("base", 0)
    end = base + 4 * len(words)
    mem = case.get("mem")
    initial_mem = {mem[0] + 8 * i: (w, 8) for i, w in enumerate(mem[1])} if mem else None
    if mem:
        # isa_ext's one memory holds the program as well: ISACaller's data
        # memory too, so that a load from it reads the same bytes
        initial_mem.update({base + 4 * i: (w, 4) for i, w in enumerate(words)})
    sim = ISA(pdecode2, list(case["gpr"]), case.get("sprs", {}), case["cr"],
              initial_insns=(base, list(words)), initial_pc=base, respect_pc=True,
              initial_mem=initial_mem,
              initial_svstate=case["svstate"],
              fpregfile=list(case["fpr"]) if "fpr" in case else None, bigendian=0,
              initial_fpscr=case.get("fpscr", 0))
    yield pdecode2.dec.bigendian.eq(0)
    steps = 0
    while base <= sim.pc.CIA.value < end and steps < case["max_steps"]:
        yield from sim.setup_one()
        yield Settle()
        yield from sim.execute_one()
        steps += 1
    if sim.pc.CIA.value != end and not case.get("any_end"):
        # a trap (ISACaller jumps to its vector), or the step limit
        return {"error": "ended at pc 0x%x, not 0x%x" % (sim.pc.CIA.value, end)}
    result = {"gpr": [sim.gpr(i).value for i in range(NGPR)],
            "fpr": [sim.fpr(i).value for i in range(NFPR)],
            "cr": sim.cr.value & 0xFFFFFFFF, "svstate": sim.svstate.value, "steps": steps,
            "words": words, "ctr": sim.spr['CTR'].value, "lr": sim.spr['LR'].value,
            "pc": sim.pc.CIA.value, "fpscr": sim.fpscr.value & 0xFFFFFFFF,
            "xer": sim.spr['XER'].value & 0xFFFFFFFF}
    if mem:  # the region's final doublewords (little-endian, as isa_ext reads them)
        result["mem"] = [sim.mem.ld(mem[0] + 8 * i, 8, swap=False)
                         for i in range(len(mem[1]))]
    return result

def process():
    for case in batch:
        try:
            result = yield from run_case(case)
        except Exception as e:
            result = {"error": "%s: %s" % (type(e).__name__, e)}
        results.append(result)

sim = Simulator(top)
sim.add_process(process)
sim.run()
sys.stdout.write("\n" + MARK + "\n" + json.dumps(results) + "\n")
"""

_MARK = "@@isa_ext-isacaller@@"
# where both simulators run a case's program: away from address 0, which a
# zeroed LD/ST element's EA is near under the profile (ldst_zeroing: RA read
# as 0, the EA the displacement and stride alone), so that such a store
# cannot overwrite an instruction isa_ext has yet to run (ISACaller fetches
# from a memory of its own), and away from the data region (ldst_place)
PROGRAM_BASE = 0x40000


# What a campaign draws.  "all": every SVP64-capable base row (but LD/ST) with
# every modifier.  "core": integer rows writing GPRs, plain modifiers only; it
# leaves out the classes where isa_ext and ISACaller are known to differ
# (docs/compat.md, "Live differential"): Rc=1 vector CR fields, CR-result rows,
# FP rows, scalar destinations from vector sources, a vector *0 as RA-or-zero,
# and every RM modifier (element widths, zeroing, predicates, SUBVL, modes);
# also rows whose results the ISA leaves undefined in part or that read state
# the campaign does not set: divides and modulo by zero, mulhw[u]'s high word,
# mfspr.
SCOPES = ("core", "all")
# ISACaller crashes on sv.maddhd (an AssertionError in its element loop) and
# rotates rldcl/rldcr by the wrong amount when RB[58] = 1, scalar too
# (docs/compat.md).
_CORE_EXCLUDED = re.compile(r"^(div|mod|mulhw|mfspr|maddhd|rldc[lr])")
# ISACaller runs an SVP64 instruction whose suffix word is ori 0,0,0 (the
# preferred nop) as a nop, whatever its EXTRA bits make of the registers.
NOP_SUFFIX = 0x60000000


# The "profile" scope: what the openpower-isa profile reproduces (isa_ext/
# profile.py), without the rows where ISACaller has a known bug
# (docs/compat.md): rldcl/rldcr rotate, division and mullw/mulld with Rc=1 put
# the overflow in CR0.SO, maddhd crashes, and mfspr/mtspr reach SPRs isa_ext
# does not model.  (andi./andis./addic. record no CR0 under SVP64 there: they
# are drawn, and isacaller_known_bugs accepts exactly that difference.)
_PROFILE_EXCLUDED = re.compile(r"^(div|mod|mull[wd]|m[ft]spr|maddhd)")
PROFILE_GROUPS = ("predicate", "zeroing", "mapreduce", "width", "subvl", "ffirst",
                  "saturation", "ldst")
# SVP64 load/store rows left out of the profile scope (docs/compat.md "Live
# differential"): ISACaller raises KeyError on every sv.stXcx. ('stwcx')
# and on sv.lqarx, sv.lq and sv.stq ('NONE': `sv.lq/dw=32 *70, 48(*43)`,
# `sv.stq/dm=le *77, 32(*20)`); the other LD/ST rows are drawn, with the ldst
# modifiers, their accesses placed in the data region (ldst_place).  Also
# stfiwx: ISACaller stores 8 bytes, the word zero-extended, scalar too
# (`stfiwx 1, 9, 10`: the doubleword 0xaaaaaaaaaaaaaaaa becomes 0x44444444
# there, 0xaaaaaaaa44444444 here and in Book I: "stores the contents of the
# low-order 32 bits of FRS ... into the word")
_LDST_EXCLUDED = r"^(st[bhwdq]cx\.|lqarx|lq|stq|stfiwx)$"
# LD/ST lines left out of the profile scope, each shown in docs/compat.md
# ("Live differential", LD/ST).  Zeroing, /els on indexed forms and /pi off
# update forms are drawn: the profile reproduces them (ldst_zeroing,
# indexed_els, pi_without_update); /els with a vector RA agrees as it is
# (ISACaller's decoder makes a vector RA's mode INDEXED: D unscaled)
_LDST = r"(l[bhwdqf]|st)[a-z]*\.?"
_LDST_LEFT_OUT = "|".join((
    # larx with an element stride or width: isa_ext traps "not implemented"
    r"^sv\.l[bhwd]arx\S*/(els|[sd]?w=)",
    # FP loads/stores with element widths: isa_ext traps "not implemented",
    # ISACaller raises "TODO fix elwidth conversion" on an FPR read
    r"^sv\.(l|st)f\S*/[sd]?w=",
    # a source element width: ISACaller reads RA at ELWIDTH_SRC, a vector
    # RA's elements packed (caller.py get_input(name, ew_src, 64), against
    # its comment "LDST does *not* allow elwidth overrides on RA"), isa_ext
    # whole registers (docs/svp64.md): `sv.stb/w=8 *80, 46(14)` with r14 =
    # 0x10f30 stores at 0x5e there, `sv.stwu/sm=r30/sw=16 *33, 32(*39)`
    rf"^sv\.{_LDST}\S*/s?w=",
    # fail-first on stores: ISACaller raises TypeError or tests the updated
    # RA (docs/compat.md "data-dependent fail-first on stores")
    r"^sv\.st\S*/ff=",
    # (a negative DS-form displacement: ISACaller's check_replace_d puts the
    # (possibly stride-scaled) displacement in a 32-bit SelectableInt and
    # shifts it right by 2, losing its sign: `sv.ld 5, -8(9)` (VL=1) loads
    # from (RA) + 2^32 - 8, `sv.ldu 53, -16(46)` leaves RA + 0xfffffff0;
    # ldst_place draws DS and DQ displacements non-negative)
    # load fail-first with no vector address operand (RA, and RB of an indexed
    # form, scalar): ISACaller's loop test under fail-first looks at vector
    # inputs only (caller.py svstate_post_inc: svp64_is_vector = in_vec), so
    # it loads one element and keeps VL (`sv.ld/ff=RC1 *20, 0(9)`, VL=4,
    # doublewords 1, 2, 0, 3: r20 = 1, VL = 4; the spec: r20, r21 = 1, 2,
    # VL = 2), failing openpower-isa's own test_caller_svp64_ldst.py
    # test_sv_load_dd_ffirst_excl: an ISACaller bug (docs/compat.md "load
    # fail-first with a scalar address").  The other load fail-first shapes
    # are in the scope: CR0 for every element (vector_rc_field), VL at the
    # source step (ffirst_vl_step), a failing sub-element's group kept
    # (ffirst_subvl_group), the CR at the operation width (rc_width)
    r"^sv\.l\S*/ff=\S* [^,]+,[^*]*$"))
# Left out of the profile scope, each an ISACaller bug or crash (docs/compat.md
# "Live differential"): element widths on the rows decoder/svp64/xlen_rows.txt
# names without a field condition (most trap on element widths; maddedu
# maddedus divmod2du, which agree with ISACaller at XLEN, are tested live in
# tests/svp64/test_svp64_xlen_rows.py), but for those the profile's overlay runs
# in XLEN (elwidth_xlen: pseudocode/profiles/openpower_isa/, measured live
# 2026-11-24); brh brw brd only at an operation width below 64 (isa_ext
# traps, ISACaller raises AssertionError: their pages index a 64-bit RS)
_XLEN_ROWS_IN_XLEN = {"addex", "bpermd", "cbcdtd", "cdtbcd", "brh", "brw", "brd"}
_XLEN_ROWS = "|".join(re.escape(m) for m, when in sorted(xlen_rows().items())
                      if not any("&" in t for t in when) and m not in _XLEN_ROWS_IN_XLEN)
_PROFILE_LEFT_OUT = "|".join((
    rf"^sv\.({_XLEN_ROWS})\.?/\S*\b[sd]?w=",
    r"^sv\.br[hwd](?=\S*/w=|(?=\S*/sw=)\S*/dw=|(?=\S*/dw=)\S*/sw=)/",
    # a zeroed source narrower than the operation width: ISACaller gives it
    # the source width (caller.py get_input: SelectableInt(0, ew_src), a read
    # one SelectableInt(value, bits=xlen)), so ~RA is 0xffff at sw=16
    # (`sv.subfe/sw=16/sz/m=ne *55, *10, *59`: r56 = 0xffff there, all ones
    # here and in the spec); an ISACaller bug (docs/compat.md).  (/vli: Rc=1
    # fail-first zeroing, ffirst_vli_zz)
    r"^sv\.\S*(?=\S*/sw=)(?=\S*/(sz|vli)\b)/",
    # rldcl/rldcr only at XLEN < 64 (/w=, or both /sw= and /dw=): at 64
    # ISACaller rotates by (RB)[59:63], not (RB)[58:63] (docs/compat.md)
    r"^sv\.rldc[lr]\.?(?!\S*/w=)(?!(?=\S*/sw=)\S*/dw=)[/ ]",
    # fail-first on andi./andis./addic.: ISACaller decodes no Rc for them
    # (isacaller_known_bugs), so its test, and VL, follow no CR field
    r"^sv\.(andi|andis|addic)\.\S*/ff="))
# FP rows in the profile scope: those ISACaller runs under SVP64 with the
# FPSCR the profile reproduces (its double-precision helpers alter no FPSCR
# bit; its single-precision ones round the host's double result through
# DOUBLE2SINGLE, the Appendix A.1 model: pseudocode/profiles/openpower_isa/
# fparith.mdwn).  Left out, each shown in docs/compat.md ("FP rows in the live
# differential"): `KeyError: 'NONE'` inside ISACaller on every SVP64 fsel
# fsqrt frsp fcti* fcfid[u] fcmp[uo] fmadd fmsub fnmadd fnmsub mffs mtfsf (and
# `KeyError: 'fsqrts'`, `'fcfidus'`; rechecked live at 3cb597b9 2026-11-24);
# fnmadds/fnmsubs (ISACaller negates a NaN result: an ISACaller bug, and the
# drawn FPRs are often NaNs); fcfids (not rounded to single)
_FP_ROWS = r"fmr|fneg|fabs|fnabs|fcpsgn|fadds?|fsubs?|fmuls?|fdivs?|fmadds|fmsubs"
_FP_LEFT_OUT = "|".join((
    # element widths: ISACaller raises "AssertionError: TODO fix elwidth
    # conversion" (`sv.fabs/w=16/dw=32/mr 13, *86`) or computes at 64 bits
    # (`sv.fcpsgn/dw=16 *32, *68, *46`: f32 = 0xca04eb92c3339e95)
    rf"^sv\.({_FP_ROWS})\.?/\S*\b[sd]?w=",
    # fail-first: isa_ext traps Rc=0 fail-first without a GPR result ("not
    # implemented"); ISACaller raises TypeError on the Rc=1 form
    # (`sv.fsub./ff=le *86, *42, *11`)
    rf"^sv\.({_FP_ROWS})\.?(/\S*)?/ff=",
    # Rc=1 with a scalar destination: ISACaller raises IndexError
    # (`sv.fmul. 53, 32, 12`, VL=2)
    rf"^sv\.({_FP_ROWS})\.(/\S*)? \d"))
SCOPES = ("core", "profile", "all")


def scope_options(isa, scope):
    """(rows, line options) of a scope (one of :data:`SCOPES`)."""
    from ..diffcheck.svp64_lines import MODIFIER_GROUPS
    regclass = isa.forms.regclass
    rows = [r for r in sv_rows(isa) if not ldst_place.is_ldst_row(r)]
    if scope == "all":
        return rows, {"groups": tuple(g for g in MODIFIER_GROUPS if g != "ldst")}
    if scope == "profile":
        # the integer rows, and of the FP rows those ISACaller runs (_FP_ROWS)
        drawn = [r for r in rows
                 if not _PROFILE_EXCLUDED.match(r.mnemonic)
                 and (re.fullmatch(_FP_ROWS, r.mnemonic)
                      or not any(regclass.get(f.rstrip("0")) == "fpr"
                                 for f in (*r.ins, *r.outs)))]
        # and the loads and stores (their accesses placed in the data region,
        # whose final contents are compared: ldst_place)
        drawn += [r for r in sv_rows(isa) if ldst_place.is_ldst_row(r)
                  and not re.match(_LDST_EXCLUDED, r.mnemonic)]
        # VL <= 4: ISACaller's CR predicates (CR4 + i) fail past CR7; and
        # CR-field operands within CR0-CR7 (cr_in_cr0_7): ISACaller has no
        # more ("sigh, TODO, 128 CR fields")
        return drawn, {"groups": PROFILE_GROUPS, "nop_suffix": False,
                       "ff_scalar_sources": True,
                       "leave_out": "|".join((_PROFILE_LEFT_OUT, _FP_LEFT_OUT,
                                              _LDST_LEFT_OUT)), "max_vl": 4,
                       "remap": 0.2, "last_enabled": True, "remap_max_vl": 8,
                       "cr_in_cr0_7": True}
    core = [r for r in rows
            if not _CORE_EXCLUDED.match(r.mnemonic)
            and not r.mnemonic.endswith(".")  # andi. & co always record CR0
            and r.outs and all(regclass.get(o) in (None, "gpr") for o in r.outs)
            and any(regclass.get(o) == "gpr" for o in r.outs)
            and not any(regclass.get(i.rstrip("0")) in ("fpr", "crf", "crb") for i in r.ins)]
    # no OE=1 forms: under SVP64 ISACaller ignores OE (XER untouched), the
    # spec profile writes OV/OV32 (errata SV-24; the profile's svp64_xer)
    oe_forms = sorted(m for r in core for m, v in r.variants.items() if v.get("OE"))
    return core, {"groups": (), "record": False, "scalar_dest": False, "vector_ra0": False,
                  "nop_suffix": False,
                  "leave_out": rf"^sv\.({'|'.join(map(re.escape, oe_forms))}) " if oe_forms
                  else None}


@dataclass
class Case:
    index: int
    lines: list
    words: list
    gpr: list
    fpr: list
    cr: int
    svstate: int = 0
    # the data region's initial doublewords (ldst_place.REGION_BASE on), for
    # programs with a load or store; None: no memory compared
    mem: list = None
    # XER's SO OV CA OV32 CA32 at the start (the rest 0): a carry or
    # overflow row reads them, and both sides' final XER is compared
    xer: int = 0

    def source(self):
        return "\n".join(self.lines)


@dataclass
class Outcome:
    case: Case
    ours: dict
    theirs: dict
    differences: list = field(default_factory=list)


def _random_state(rng):
    def value():
        return rng.choice((0, 1, M64, 0x7FFFFFFF, 0x80000000, rng.getrandbits(64),
                           rng.getrandbits(16), rng.getrandbits(32)))
    return ([value() for _ in range(NGPR)], [value() for _ in range(NFPR)],
            rng.getrandbits(32))


_PREDICATE = re.compile(r"/(?:m|sm|dm)=[^/\s]+|/[sd]z\b")
# modifiers vertical-first loops leave out: predicates (above) and fail-first
# (a fail-first hit inside ISACaller's vertical-first loop never lets svstep.
# end it: `sv.srad./ff=ne/vli/vec3` runs to the step limit, docs/compat.md)
_NOT_VERTICAL = re.compile(_PREDICATE.pattern + r"|/ff=[^/\s]+|/vli\b")


def make_cases(isa, seed, count, rows=None, per_case=3, nop_suffix=True, leave_out=None,
               max_vl=8, vertical=0.0, remap=0.0, last_enabled=False, remap_max_vl=None,
               **line_options):
    """``count`` random cases: ``setvl`` to a random VL (1..``max_vl``), then
    ``per_case`` random SVP64 lines (none matching the regex ``leave_out``).
    A fraction ``vertical`` of them is a vertical-first loop instead: setvl
    with vf=1, the lines, ``svstep.`` and a branch back until its CR0.SO says
    the loop has ended.  A fraction ``remap`` sets VL with ``svshape`` (a
    random REMAP shape of at most ``max_vl`` elements, or ``remap_max_vl``
    where no line has a CR predicate) and remaps the lines with a random
    ``svremap``.  ``last_enabled``: predicated lines with
    SUBVL > 1 get element VL-1 enabled where ISACaller would run past VL
    (see :func:`_enable_last`)."""
    from ..asm import assemble
    rng = random.Random(seed)
    # a separate stream, so that the programs drawn for a seed stay the same
    xer_rng = random.Random(f"xer {seed}")
    lines = random_lines(isa, rng.getrandbits(32), 2 * count * per_case, rows=rows,
                         **line_options)
    if not nop_suffix:
        lines = [ln for ln in lines
                 if assemble(ln + "\n", isa=isa).words[-1] != NOP_SUFFIX]
    if leave_out:
        lines = [ln for ln in lines if not re.search(leave_out, ln)]
    ldst = _LdStLines(isa)
    # loads and stores whose registers would move their own addresses
    lines = [ln for ln in lines if not ldst.parse(ln) or ldst.parse(ln).usable(
        isa, max_vl * ldst.parse(ln).subvl)]
    rng.shuffle(lines)
    cases = []
    for k in range(count):
        vl = rng.randint(1, max_vl)
        chosen = lines[k * per_case:(k + 1) * per_case]
        # (at the largest VL a case can get: a REMAP shape's may exceed vl)
        chosen = ldst.apart(chosen, max(max_vl, remap_max_vl or 0) if remap else vl)
        memory_lines = [ldst.parse(ln) for ln in chosen if ldst.parse(ln)]
        for line in memory_lines:  # every access within the data region
            vl = ldst_place.fitting_vl(line, vl)
        # loads and stores under REMAP: SUBVL 1 (ISACaller's remapped
        # offsets ignore SUBVL, docs/compat.md "LD/ST offsets under REMAP"),
        # their accesses within the region for any element below REMAP_REACH
        if remap and rng.random() < remap and _remappable(isa, chosen, memory_lines):
            cr_predicate = any(_CR_PREDICATE.search(ln) for ln in chosen)
            shape, vl, shapes_set, reach = _random_shape(
                rng, max_vl if cr_predicate or not remap_max_vl else remap_max_vl)
            vf = int(bool(vertical) and rng.random() < vertical)
            # reverse gear only where every remapped index is below VL: the
            # profile's remap_reverse reverses an index past VL-1 below
            # element 0 (a trap; ISACaller wraps its 7-bit offset round)
            if reach > vl:
                chosen = [re.sub(r"/mrr\b", "", ln) for ln in chosen]
            if vf:
                chosen = [_NOT_VERTICAL.sub("", ln) for ln in chosen]
            # svremap: SVme (which operands), mi0 mi1 mi2 mo0 mo1 (the
            # SVSHAPE of each), pst (persistent: every line, and the loop)
            remaps = [rng.randrange(1, 32)] + [rng.choice(shapes_set) for _ in range(5)]
            body = [f"svshape {shape},{vf}",
                    f"svremap {','.join(map(str, remaps))},{int(vf or per_case > 1)}"]
            body += ["loop:", *chosen, "svstep. 0,0,1,0", "bc 4,3,loop"] if vf else chosen
        elif vertical and rng.random() < vertical:
            # unpredicated: ISACaller resets the steps to 0 when the elements
            # left are masked out, and a vertical-first loop never ends there
            chosen = [_NOT_VERTICAL.sub("", ln) for ln in chosen]
            body = [f"setvl 0,0,{vl},1,1,1", "loop:", *chosen, "svstep. 0,0,1,0",
                    "bc 4,3,loop"]
        else:
            body = [f"setvl 0,0,{vl},0,1,1"] + chosen
        addresses = {}
        remapped = body[0].startswith("svshape")
        for i, ln in enumerate(body):
            line = ldst.parse(ln)
            if line:
                body[i], values = ldst_place.place(
                    isa, line, vl * line.subvl, rng,
                    reach=ldst_place.REMAP_REACH if remapped else None)
                addresses.update(values)
        words = assemble("\n".join(body) + "\n", isa=isa).words
        gpr, fpr, cr = _random_state(rng)
        if last_enabled:
            for ln in chosen:
                cr = _enable_last(isa, ln, vl, gpr, cr)
        for reg, value in addresses.items():
            if isinstance(reg, tuple):
                fpr[reg[1]] = value
            else:
                gpr[reg] = value
        mem = ldst_place.random_memory(rng) if memory_lines else None
        xer = sum(xer_rng.getrandbits(1) << b for b in XER_BITS)
        case = Case(k, body, words, gpr, fpr, cr, mem=mem, xer=xer)
        cases.append(case)
    return cases


def _remappable(isa, chosen, memory_lines):
    """Whether a case's lines can run under a random REMAP shape: every
    vector operand on a REMAP port (not _NO_PORT), every load or store at
    SUBVL 1 with its registers and accesses fit for any element index below
    ldst_place.REMAP_REACH (the shapes' bound: :func:`_random_shape`)."""
    if any(_NO_PORT.match(ln) for ln in chosen):
        return False
    return all(line.subvl == 1 and line.usable(isa, ldst_place.REMAP_REACH)
               and ldst_place.fits_remapped(line) for line in memory_lines)


class _LdStLines:
    """Parses (once each) the lines of SVP64 load/store rows; others: None."""

    def __init__(self, isa):
        self.isa = isa
        self.rows = {v: r for r in sv_rows(isa) if ldst_place.is_ldst_row(r)
                     for v in r.variants}
        self.all_rows = {v: r for r in sv_rows(isa) for v in r.variants}
        self.seen = {}

    def apart(self, chosen, vl):
        """``chosen`` without the loads and stores whose address registers
        another line of the program names: its results (an earlier line's,
        or a later one's in a vertical-first loop), an update form's RA or
        the other line's own pointers would move the addresses out of the
        data region or off their alignment (`sv.prtyw/dw=16 *44, *7` then
        `sv.lha *76, 8(*44)`; `sv.sthux 34, 43, *16` then `sv.stw 15,
        40(18)`)."""
        kept = []
        for i, text in enumerate(chosen):
            line = self.parse(text)
            if line:
                others = set().union(*(ldst_place.gpr_footprint(
                    self.isa, t, vl, self.all_rows) for j, t in enumerate(chosen) if j != i))
                if line.address_registers(vl * line.subvl) & others:
                    continue
            kept.append(text)
        return kept

    def parse(self, text):
        if text not in self.seen:
            m = re.match(r"sv\.([a-z0-9.]+)[/ ]", text)
            self.seen[text] = ldst_place.Line(self.isa, text, self.rows) \
                if m and m[1] in self.rows else None
        return self.seen[text]


# svshape SVrm values drawn (simplev.mdwn svshape): 0 Matrix, 1 FFT, 3/11
# (i)DCT outer, 4/12 (i)DCT inner, 5/13 COS table, 6/14/15 half-swap orders,
# 7 parallel reduction and prefix sum.  Their differences from ISACaller
# were all operands remapped through an SVSHAPE the mode leaves 0
# (docs/compat.md "svshape modes other than Matrix"); Matrix is drawn as
# often as the others together
_SHAPE_MODES = (0, 1, 3, 4, 5, 6, 7, 11, 12, 13, 14, 15)


# rows with a CR-field or CR-bit operand, which has no REMAP port
# (decoder/svp64/remap_ports.txt): isa_ext traps "not implemented" on a
# vector one under REMAP (tests/svp64/test_svp64_remap_guard.py; `sv.isel/ff=~RC1/
# m=so *54, 0, 45, *0`, BC a vector), so their cases use setvl
_NO_PORT = re.compile(r"^sv\.(cmp\w*|cr[a-z]+|mcrf|setb|setn?bcr?|isel)\b")


def _shape_vl(mode, x, y=1):
    """The VL svshape sets for ``mode`` over ``x`` elements (z = 1), from
    openpower-isa's simplev.mdwn svshape: FFT and (i)DCT inner x log2(x) / 2;
    (i)DCT outer the sum over the levels of (count - 1) * size; COS table
    x/2 + x/4 + ... + 1; half-swap x; parallel reduction x - 1 (one
    operation joins two partial results); prefix sum (mode 7 with y = 3,
    SVyd = 2) the operations of its up- and down-sweeps."""
    lg = x.bit_length() - 1
    if mode in (1, 4, 12):
        return x * lg // 2
    if mode in (3, 11):
        return sum((x // 2 ** level - 1) * 2 ** (level - 1) for level in range(1, lg + 1))
    if mode in (5, 13):
        return sum(x // 2 ** level for level in range(1, lg + 1))
    if mode in (6, 14, 15):
        return x
    if y != 3:
        return x - 1
    ops, dist = 0, 1
    while dist < x:                     # up-sweep: items dist*2-1, step dist*2
        ops += len(range(dist * 2 - 1, x, dist * 2))
        dist *= 2
    dist //= 2
    while dist:                         # down-sweep: items dist*3-1, step dist*2
        ops += len(range(dist * 3 - 1, x, dist * 2))
        dist //= 2
    return ops


# The SVSHAPEs each svshape mode sets (simplev.mdwn svshape): the others
# are left 0, which ISACaller takes as "disabled" yet still steers the
# operand by a stale decoder step (docs/errata.md SV-11), so svremap picks
# only these
_SHAPES_SET = {0: (0, 1, 2, 3), 1: (0, 1, 2), 3: (0, 1, 2), 4: (0, 1, 2), 5: (0, 1, 2),
               6: (0,), 7: (0, 1), 11: (0, 1, 2), 12: (0, 1, 2), 13: (0, 1, 2),
               14: (0,), 15: (0,)}


def _random_shape(rng, max_vl):
    """(svshape's first four operands, the VL it sets, the SVSHAPEs it sets,
    the number of elements its indices reach) for a random shape of at most
    ``max_vl`` elements.  Matrix shapes reach VL; the others x times the
    stride z (the COS table one more), never past 7, so that a vector at SUBVL 4 stays within the
    registers (svp64_lines.VECTOR_LAST_BASE) and an Rc=1 result's CR field
    within CR0-7 (ISACaller has no more)."""
    mode = rng.choices(_SHAPE_MODES,
                       [max(1, len(_SHAPE_MODES) - 1) if m == 0 else 1 for m in _SHAPE_MODES])[0]
    if mode == 0:
        while True:
            x, y, z = (rng.randint(1, max_vl) for _ in range(3))
            if x * y * z <= max_vl:
                return f"{x},{y},{z},0", x * y * z, _SHAPES_SET[0], x * y * z
    y = rng.choice((1, 3)) if mode == 7 else 1  # 7 with SVyd = 2: prefix sum
    if mode == 7:
        sizes = range(2, 9)
    else:  # the butterflies and half-swaps need a power of two
        sizes = (2, 4, 8)
    # the COS table's SVSHAPE2 yields each size (x at most) times the stride,
    # so its indices reach x * z itself (remap._dct_costable, skip 0b11)
    extra = 1 if mode in (5, 13) else 0
    x = rng.choice([n for n in sizes if 1 <= _shape_vl(mode, n, y) <= max_vl and
                    n + extra <= 8])
    z = rng.choice([z for z in (1, 2) if x * z + extra <= 8])  # the stride
    return f"{x},{y},{z},{mode}", _shape_vl(mode, x, y), _SHAPES_SET[mode], x * z + extra


# a CR-bit predicate: element i reads CR field 4 + i under ISACaller
_CR_PREDICATE = re.compile(r"/(?:m|sm|dm)=~?(lt|ge|gt|le|eq|ne|so|ns)\b")


_MASK_SPEC = re.compile(r"/(?:m|sm|dm)=(~?)(1<<)?(r\d+|[a-z]+)")


def _enable_last(isa, line, vl, gpr, cr):
    """Enable element VL-1 of an integer predicate of a SUBVL > 1 ``line``
    exactly where ISACaller's predicate skip would run past VL: the mask, as
    ISACaller reads it (all 64 bits of the register, ``~`` inverting them
    all, ``1<<r3`` one bit), enables no element below VL but some above.
    Its skip then stops at VL itself, and it writes the first SUBVL - 1
    sub-elements of element VL (`sv.srd/vec4/m=~r10 *32, *12, *20` with VL=1
    and r10 = 1: r36..r38; docs/compat.md).  A mask of 0 ends its loop, and
    its CR predicates hold VL bits only: those agree as drawn.  ``gpr`` is
    changed in place; the CR is returned unchanged."""
    if not re.search(r"/vec[234]\b", line):
        return cr
    below = (1 << vl) - 1
    for inv, shift, src in _MASK_SPEC.findall(line):
        if not src.startswith("r"):
            continue
        n = int(src[1:])
        mask = 1 << (gpr[n] & 63) if shift else gpr[n]
        if inv and not shift:
            mask = ~mask
        if mask & below == 0 and mask != 0:
            if shift:
                gpr[n] = vl - 1
            else:
                gpr[n] = gpr[n] ^ (1 << (vl - 1))
    return cr


# XER's SO OV CA OV32 CA32 (LSB0 bits of the 64-bit SPR, as ISACaller keeps it)
XER_BITS = (31, 30, 29, 19, 18)


def run_isa_ext(isa, case, max_steps=200):
    from ..sim import Simulator
    sim = Simulator(isa=isa)
    sim.load_words(case.words, addr=PROGRAM_BASE)
    st = sim.state
    for i in range(NGPR):
        st.gpr[i] = case.gpr[i]
    for i in range(NFPR):
        st.fpr[i] = case.fpr[i]
    st.crval = case.cr
    st.svstate = case.svstate
    st.xer = case.xer
    base = ldst_place.REGION_BASE
    for i, w in enumerate(case.mem or ()):
        st.mem.write(base + 8 * i, 8, w)
    res = sim.run(max_steps=max_steps)
    if res.stop == "trap":
        return {"error": f"trap: {res.trap.reason}"}
    out = {"gpr": list(st.gpr[:NGPR]), "fpr": list(st.fpr[:NFPR]), "cr": st.crval,
           "svstate": st.svstate, "fpscr": st.fpscr & 0xFFFFFFFF, "steps": res.steps,
           "xer": st.xer & 0xFFFFFFFF}
    if case.mem is not None:
        out["mem"] = [st.mem.read(base + 8 * i, 8) for i in range(len(case.mem))]
    return out


def run_isacaller(root, cases, max_steps=200):
    return run_batch(root, [{"words": c.words, "base": PROGRAM_BASE,
                             "gpr": c.gpr, "fpr": c.fpr, "cr": c.cr,
                             "svstate": c.svstate, "max_steps": max_steps,
                             "sprs": {"XER": c.xer},
                             **({"mem": [ldst_place.REGION_BASE, c.mem]}
                                if c.mem is not None else {})} for c in cases])


def run_batch(root, batch):
    """ISACaller's final states for a batch of plain dicts: ``words`` (or
    ``lines``, assembled by libre-soc's SVP64Asm and GNU as), ``gpr``, ``cr``,
    ``svstate``, ``max_steps``, optionally ``fpr``, ``sprs`` ({"CTR": ...}) and
    ``any_end`` (a final PC other than the end is no error), ``base`` (where
    the words go and run from: 0 unless given).  Each result has
    gpr, fpr, cr, svstate, steps, words, ctr, lr and pc, or ``error``."""
    code = _DRIVER.replace("MARK", repr(_MARK)).replace("NGPR", str(NGPR)) \
        .replace("NFPR", str(NFPR))
    out = run_python(root, code, json.dumps(batch))
    return json.loads(out.split(_MARK, 1)[1])


def compare(ours, theirs):
    """Human-readable differences between two final states."""
    if "error" in ours or "error" in theirs:
        if ours.get("error") and theirs.get("error"):
            return []  # both refuse the program (a trap): agreement
        return [f"isa_ext: {ours.get('error', 'ran')}; ISACaller: {theirs.get('error', 'ran')}"]
    diffs = []
    for name in ("gpr", "fpr"):
        for i, (a, b) in enumerate(zip(ours[name], theirs[name])):
            if a != b:
                diffs.append(f"{name[0]}{i}: isa_ext 0x{a:x} ISACaller 0x{b:x}")
    for name in ("cr", "svstate", "fpscr", "xer"):
        if name in ours and name in theirs and ours[name] != theirs[name]:
            diffs.append(f"{name}: isa_ext 0x{ours[name]:x} ISACaller 0x{theirs[name]:x}")
    if "mem" in ours and "mem" in theirs:
        diffs += memory_differences(ours["mem"], theirs["mem"])
    return diffs


def memory_differences(ours, theirs, base=None, shown=3):
    """One line per run of consecutive differing doublewords of the data
    region: its address range, and the first ``shown`` values of each side."""
    base = ldst_place.REGION_BASE if base is None else base
    bad = [i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b]
    runs = []
    for i in bad:
        if runs and runs[-1][-1] == i - 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    out = []
    for run in runs:
        def values(side):
            vals = ", ".join(f"0x{side[i]:x}" for i in run[:shown])
            return vals + (", ..." if len(run) > shown else "")
        first, last = base + 8 * run[0], base + 8 * run[-1] + 7
        out.append(f"mem 0x{first:x}..0x{last:x} ({len(run)} doubleword"
                   f"{'s' if len(run) > 1 else ''}): isa_ext {values(ours)} "
                   f"ISACaller {values(theirs)}")
    return out


def classify(outcome):
    """"agree", "differ", "isacaller-crash" (ISACaller raised, isa_ext ran),
    "isa_ext-trap" (isa_ext trapped, ISACaller ran) or "isacaller-bug" (a
    documented ISACaller bug explains every difference: isacaller_known_bugs)."""
    if not outcome.differences:
        return "agree"
    ours, theirs = outcome.ours, outcome.theirs
    if "error" in theirs and "error" not in ours and not theirs["error"].startswith("ended at"):
        return "isacaller-crash"
    if "error" in ours and "error" not in theirs:
        return "isa_ext-trap"
    if isacaller_known_bugs.explained_by(outcome):
        return "isacaller-bug"
    return "differ"


def differential(isa, root, seed, count, rows=None, per_case=3, progress=None, jobs=1,
                 **line_options):
    """[Outcome] for ``count`` random cases (``line_options``: those of
    :func:`.svp64_lines.random_lines`); ``progress`` (isa_ext.progress.Progress
    or None) hears of each case isa_ext has run.  ``jobs`` > 1 splits the cases
    over that many ISACaller processes (ISACaller is the slow side; each case
    starts from a fresh simulator, so the outcomes are the serial run's)."""
    if jobs < 1:
        raise IsaExtError("--jobs must be >= 1")
    cases = make_cases(isa, seed, count, rows=rows, per_case=per_case, **line_options)
    if progress is not None:
        progress.where = "ISACaller running every case"
    size = -(-len(cases) // jobs) or 1
    chunks = [cases[k:k + size] for k in range(0, len(cases), size)]
    # Threads suffice: each chunk's work is an ISACaller subprocess.  isa_ext
    # runs its side meanwhile.
    with ThreadPoolExecutor(max_workers=max(1, len(chunks))) as pool:
        futures = [pool.submit(run_isacaller, root, chunk) for chunk in chunks]
        ours = []
        for case in cases:
            ours.append(run_isa_ext(isa, case))
            if progress is not None:
                progress.advance(where=f"isa_ext, case {case.index}")
        theirs = [t for f in futures for t in f.result()]
    return [Outcome(case, o, t, compare(o, t)) for case, o, t in zip(cases, ours, theirs)]


__all__ = ["Case", "Outcome", "make_cases", "run_isa_ext", "run_isacaller", "run_batch",
           "compare",
           "differential", "sv_rows"]
