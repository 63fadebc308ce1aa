"""SVP64 Branch-Conditional: ``sv.bc``, ``sv.bclr``, ``sv.bcctr``, ``sv.bctar``
(and their AA/LK forms) over a vector of CR fields.

The RM layout is its own (``decoder/svp64/branch_rm.txt``, libre-soc wiki
openpower/sv/branches.mdwn "Format and fields"): ALL SNZ CTi VSb in the
element-width bits, CTR-test / VLSET / VLI / LRu / sz in MODE.  The predicate
is MASK (single); EXTRA slot 0 extends BI to a CR bit of CR0..CR127, scalar
or vector.

What comes from where:

* the branch target and the meaning of AA / LK / BH come from the suffix's
  own page (pseudocode/base/branch.mdwn): the page runs once per instruction
  as an unconditional branch (BO=0b10100, LK=0), before any element, and the
  address it branches to is the target (bclr reads LR, bctar TAR... as the
  page does);
* this module is the per-element loop of branches.mdwn: the CR bit tested
  per element (``BO[0]``/``BO[1]`` as in the page), predicate skip or
  ``sz``/``SNZ`` substitution, CTR decrement and test (``BO[2]``/``BO[3]``,
  refined by CTR-test mode), ALL/ANY with early exit, VLSET truncation, LRu.

Choices where the spec's prose and its pseudocode differ are in docs/errata.md
(SVP64 branches); differences from openpower-isa in docs/compat.md.
"""
from ..errors import Trap
from .. import specdata
from . import rm as rmmod
from . import svstate as SV
from . import regfile_end
from .executor import ElementInterrupt
from .extra import slot_spec, ext_crb
from .predication import mask as pred_mask, ALL as ALL_ONES

M64 = (1 << 64) - 1
_TABLE = None


def _read_table():
    """branch_rm.txt: ({field: RM bit}, {modifier: (fields...)}, [reserved RM
    bits], [(field, the mode field it needs)])."""
    global _TABLE
    if _TABLE is None:
        fields, mods, reserved, only_with = {}, {}, [], []
        text = specdata.source().read("decoder", "svp64", "branch_rm.txt")[1]
        for line in text.splitlines():
            words = line.split("#", 1)[0].split()
            if words and words[0] == "field":
                fields[words[1]] = int(words[2])
            elif words and words[0] == "mod":
                mods[words[1]] = tuple(words[2:])
            elif words and words[0] == "reserved":
                reserved += [int(w) for w in words[1:]]
            elif words and words[0] == "only-with":
                only_with.append((words[1], words[2]))
        _TABLE = (fields, mods, tuple(reserved), tuple(only_with))
    return _TABLE


def table():
    """({field: RM bit}, {modifier: (fields...)}) from branch_rm.txt."""
    return _read_table()[:2]


def reserved_bits(rm):
    """The RM bits (MSB0 numbers) of ``rm`` that are reserved for a branch:
    set where no branch mode gives a meaning, or a mode field set outside its
    mode (VSb without VLSET).  Empty for a word the assembler can write."""
    fields, _mods, reserved, only_with = _read_table()
    out = [b for b in reserved if rmmod.bits(rm, b, b)]
    for field, mode in only_with:
        b = fields[field]
        if rmmod.bits(rm, b, b) and not rmmod.bits(rm, fields[mode], fields[mode]):
            out.append(b)
    return sorted(out)


def reserved_why(mnemonic, prefix, bits_set):
    names = {b: f for f, b in table()[0].items()}
    which = ", ".join(f"RM[{b}]" + (f" ({names[b]} outside its mode)" if b in names else "")
                      for b in bits_set)
    return (f"sv.{mnemonic}: reserved SVP64 branch RM bit(s) set: {which} "
            f"(prefix 0x{prefix:08x})")


def fields_of(rm):
    """{field: 0/1} of the branch RM fields of ``rm``."""
    return {name: rmmod.bits(rm, b, b) for name, b in table()[0].items()}


# --- assembly ----------------------------------------------------------------

def parse_modifiers(mods, error):
    """RM bits (without EXTRA) of a branch's modifier list; ``error(msg)``
    raises the assembler's error.  Two modifiers setting the same field (``/vs``
    and ``/vsb``, ``/sz`` and ``/snz``, ``/ctr`` and ``/cti``) are one choice
    spelled twice: an error."""
    from .asm import _pred
    fields, table_mods = table()
    rm = 0
    seen = set()
    set_by = {}  # field -> the modifier that set it
    for mod in mods:
        key, eq, val = mod.partition("=")
        key = key.strip().lower()
        if key in seen:
            error(f"/{key} given twice")
        seen.add(key)
        if key == "m" and eq:
            mmode, code = _pred(val, key)
            rm = rmmod.put_bits(rm, 0, 0, mmode)
            rm = rmmod.put_bits(rm, 1, 3, code)
        elif key in ("vec2", "vec3", "vec4") and not eq:
            rm = rmmod.put_bits(rm, 8, 9, int(key[3]) - 1)
        elif key in table_mods and not eq:
            for f in table_mods[key]:
                if f in set_by:
                    error(f"/{set_by[f]} and /{key}: only one of them (both set {f})")
                set_by[f] = key
                rm = rmmod.put_bits(rm, fields[f], fields[f], 1)
        elif key in ("sm", "dm"):
            error(f"/{key}=: SVP64 branches take one predicate, /m=")
        elif key in ("w", "sw", "dw"):
            error(f"/{key}=: SVP64 branches have no element width (RM[4:7] are branch "
                  "mode bits)")
        else:
            error(f"unknown SVP64 branch modifier /{mod} (branches take "
                  f"{' '.join('/' + m for m in table_mods)} /m= /vecN)")
    return rm


def modifier_text(rm):
    """The modifiers of a branch RM, sorted as libre-soc's disassembler prints
    them (``all/ctr/lru/m=r3/snz/vs``); None when a bit has no spelling
    (RM[16:18], CTi without CTR-test, VSb/VLI without VLSET, SNZ without sz)."""
    f = fields_of(rm)
    if rmmod.bits(rm, 16, 18):
        return None
    out = []
    if f["VLSET"]:
        out.append("vs" + ("b" if f["VSb"] else "") + ("i" if f["VLI"] else ""))
    elif f["VSb"] or f["VLI"]:
        return None
    if f["CTR"]:
        out.append("cti" if f["CTi"] else "ctr")
    elif f["CTi"]:
        return None
    if f["ALL"]:
        out.append("all")
    if f["SNZ"]:
        if not f["sz"]:
            return None
        out.append("snz")
    elif f["sz"]:
        out.append("sz")
    if f["LRu"]:
        out.append("lru")
    mmode, mask = rmmod.bits(rm, 0, 0), rmmod.bits(rm, 1, 3)
    if mmode or mask:
        out.append("m=" + (rmmod.CR_PRED_NAMES if mmode else rmmod.INT_PRED_NAMES)[mask])
    subvl = rmmod.bits(rm, 8, 9) + 1
    if subvl > 1:
        out.append(f"vec{subvl}")
    return sorted(out)


# --- execution ---------------------------------------------------------------

# BO bits (MSB0 of the 5-bit field), as the page comment describes them
def _bo(bo, i):
    return (bo >> (4 - i)) & 1


class SVBranch:
    """The executor of one prefixed branch: ``f(s, CIA) -> NIA``."""

    def __init__(self, isa, sim, prefix, suffix):
        d = isa.decode(suffix)
        row = self.row = d.spec
        self.sim = sim
        self.mnemonic = "sv." + d.mnemonic
        rm = self.rm = rmmod.rm_of(prefix)
        self.f = fields_of(rm)
        if rmmod.bits(rm, 16, 18):
            # twin-predication's MASK_SRC bits: svstep-mode SL/SLu of older drafts,
            # not in the current branches.mdwn
            raise Trap(f"{self.mnemonic}: RM[16:18]=0b{rmmod.bits(rm, 16, 18):03b} "
                       "(svstep mode SL/SLu of older drafts) is not implemented", "illegal")
        if rmmod.bits(rm, 8, 9):
            # its pseudocode tests one CR field per element; nothing says how
            # sub-elements combine under ALL/ANY, CTR and VLSET (errata SV-22)
            raise Trap(f"{self.mnemonic}: SUBVL>1 is not implemented (branches.mdwn does "
                       "not say how sub-vectors are tested)", "illegal")
        self.mmode, self.mask = rmmod.bits(rm, 0, 0), rmmod.bits(rm, 1, 3)
        fields = d.fields
        self.bo = fields["BO"]
        # EXTRA3, slot 0: BI
        spec = slot_spec(rmmod.bits(rm, 10, 18), 0, 3)
        self.bit, self.vec = ext_crb(fields["BI"], spec, 3)
        if not _bo(self.bo, 2) and "CTR" not in row.outs:
            # the page's own invalid form (bcctr decrementing its target)
            raise Trap(f"{self.mnemonic} with BO[2]=0 (decrement CTR) is an invalid form",
                       "illegal")
        c = isa.compiled(row)
        args = dict(fields)
        args.update(BO=0b10100, BI=0, LK=0)  # unconditional: the page gives the target
        self._target_args = [args[p] for p in c.params]
        self._page = c
        self.lk = fields.get("LK", 0)

    def _target(self, s, CIA):
        nia = self._page.sem(s, CIA, *self._target_args, 0)
        return nia & M64

    def __call__(self, s, CIA):
        sv = s.svstate
        if SV.remap_active(s, sv, CIA):
            raise Trap(f"REMAP is not implemented for {self.mnemonic}", "illegal")
        vl = (sv >> SV.SH_VL) & 0x7F
        if vl == 0:
            return CIA + 8
        f = self.f
        vf = sv & 1
        if vf and f["ALL"]:
            raise Trap(f"{self.mnemonic}/all in vertical-first mode is UNDEFINED "
                       "(branches.mdwn)", "illegal")
        if self.vec:
            regfile_end.check(regfile_end.vector_past_end(self.mnemonic, "BI", "crb",
                                                          self.bit, vl))
        target = self._target(s, CIA)
        pmask = pred_mask(s, self.mmode, self.mask, vl) if (self.mmode or self.mask) \
            else ALL_ONES
        sim = self.sim
        bo = self.bo
        sz = f["sz"]
        start = (sv >> SV.SH_SRC) & 0x7F
        # ALL: a Great Big AND (true until a test fails); ANY: a Great Big OR
        ok = bool(f["ALL"])
        new_vl = None
        for i in range(start, vl if not vf else min(start + 1, vl)):
            if sim.interrupt_after is not None and sim.element_ops >= sim.interrupt_after:
                s.svstate = SV.with_steps(sv, i, i, 0, 0)
                sim.interrupt_after = None
                raise ElementInterrupt(f"element-level interrupt after {sim.element_ops} "
                                       f"element operations (srcstep={i} dststep={i})")
            enabled = (pmask >> i) & 1
            if not enabled and not sz:
                # skipped; the one exception (prose, "CTR-test"): CTR-test=0,
                # CTi=1, BO[2]=0 decrements CTR for a skipped element
                if not _bo(bo, 2) and not f["CTR"] and f["CTi"]:
                    s.ctr = (s.ctr - 1) & M64
                continue
            sim.element_ops += 1
            n = self.bit + 4 * i if self.vec else self.bit
            if enabled:
                testbit = (s.cr[n >> 2] >> (3 - (n & 3))) & 1
            else:
                testbit = f["SNZ"]
            if sim._sv_emit is not None:
                sim._sv_emit({"type": "element", "pc": CIA, "mnemonic": self.mnemonic,
                              "srcstep": i, "dststep": i, "ssubstep": 0, "dsubstep": 0,
                              "src_pred": enabled, "dst_pred": enabled,
                              "zeroed": not enabled, "reads": {"BI": n} if enabled else {},
                              "writes": {}, "op": sim.element_ops - 1})
            cond_ok = _bo(bo, 0) or testbit == _bo(bo, 1)
            dec = not _bo(bo, 2)
            if f["CTR"]:
                # CTR-test: decrement when the test succeeds (CTi=0) / fails (CTi=1)
                dec = dec and (cond_ok != bool(f["CTi"]))
            if dec:
                s.ctr = (s.ctr - 1) & M64
            ctr = s.ctr if s.msr >> 63 else s.ctr & 0xFFFFFFFF
            ctr_ok = _bo(bo, 2) or ((ctr != 0) != bool(_bo(bo, 3)))
            el_ok = bool(cond_ok and ctr_ok)
            ok = (ok and el_ok) if f["ALL"] else (ok or el_ok)
            if f["VLSET"] and el_ok == bool(f["VSb"]):
                new_vl = i + 1 if f["VLI"] else self._previous_tested(pmask, i, sz) + 1
                break
            if el_ok != bool(f["ALL"]):
                break  # early exit: ALL at the first failure, ANY at the first success
            if not self.vec:
                break  # a scalar BI: the loop ends at the first element tested
        # ALL with every element skipped: the AND of no tests holds (the
        # pseudocode's cond_ok starts as ALL)
        branch = ok
        if not vf:
            sv = sv & ~SV.STEPS_MASK
        if new_vl is not None:
            sv = SV.put(sv, "vl", new_vl)
        s.svstate = sv
        if self.lk and (branch or not f["LRu"]):
            s.lr = (CIA + 8) & M64  # the instruction after the 8-byte branch
        return target if branch else CIA + 8

    @staticmethod
    def _previous_tested(pmask, i, sz):
        """The last element before ``i`` that was tested (-1 if none): VLSET
        without VLI keeps the elements up to it (branches.mdwn: skipped
        elements before the failing one are not kept)."""
        for j in range(i - 1, -1, -1):
            if sz or (pmask >> j) & 1:
                return j
        return -1
