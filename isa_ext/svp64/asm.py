"""SVP64 assembler and disassembler hooks, libre-soc syntax.

``sv.add/vec2/m=r30 *1, *5, *9``: modifiers after ``/``; a ``*`` marks a vector
operand.  Modifiers: ``vec2 vec3 vec4``, ``m= sm= dm=`` (r3 ~r3 1<<r3 r10 ~r10 r30
~r30, lt ge gt le eq ne so ns and aliases nl ng un nu), ``w= sw= dw=`` (8 16 32
64), ``sz dz``, ``mr mrr``, ``ff=<cond>``, ``ff=RC1`` / ``ff=~RC1`` (Rc=0, with
``zz``), ``sats satu``, ``vli``, ``els``, ``pi``; LD/ST also
``zz``, ``lf`` (immediate forms) / ``sea`` (indexed forms), ``ff=RC1`` / ``ff=~RC1``; a category's
length fields add ``<p>vecN`` / ``<p>subvl=N`` (MVRM: ``svec2``, ``ssubvl=2``).
Operands with a registered notation (table column ``optype``) use it.
"""
import re

from ..encoding import encode_row, EncodeError
from ..errors import IsaExtError
from . import rm as rmmod
from .extra import parse_slots, etype, spec_bits, slot_spec, SPLITTERS, EXTENDERS

_EW_CODE = {64: 0, 32: 1, 16: 2, 8: 3}
_INT_PRED = {v: k for k, v in rmmod.INT_PRED_NAMES.items() if v}
_CR_PRED = {v: k for k, v in rmmod.CR_PRED_NAMES.items()}
_FF = {"lt": (0, 0), "gt": (0, 1), "eq": (0, 2), "so": (0, 3), "un": (0, 3),
       "ge": (1, 0), "nl": (1, 0), "le": (1, 1), "ng": (1, 1), "ne": (1, 2),
       "ns": (1, 3), "nu": (1, 3)}
_REGPFX = {"gpr": ("r",), "fpr": ("f",), "crf": ("cr",), "crb": ()}


class SVAsmError(IsaExtError):
    pass


def mode_kind(isa, row, cat):
    """Which MODE table applies: the category's, else crop for CR-result rows."""
    if cat.mode_kind:
        return cat.mode_kind
    rc = isa.forms.regclass
    outs = [rc.get(o) for o in row.outs]
    if "gpr" not in outs and "fpr" not in outs and ("crf" in outs or "crb" in outs):
        return "crop"
    return "normal"


def _pred(text, what):
    t = text.replace(" ", "").lower()
    t = rmmod.CR_PRED_ALIASES.get(t, t)
    if t in _INT_PRED:
        return 0, _INT_PRED[t]
    if t in _CR_PRED:
        return 1, _CR_PRED[t]
    raise SVAsmError(f"unknown predicate {what}={text!r}")


def _ew(text, what):
    t = text.lower().lstrip("fi")
    try:
        return _EW_CODE[int(t)]
    except (ValueError, KeyError):
        raise SVAsmError(f"bad element width {what}={text!r} (8, 16, 32 or 64)") from None


_MODE_MODS = {"sz", "dz", "zz", "mr", "mrr", "ff", "vli", "els", "pi", "lf", "sea",
              "sats", "satu", "pr"}


def _length_field(cat, key, eq, val):
    """((a, b), N) when ``key`` is one of the category's length modifiers
    (``<p>vecN`` or ``<p>subvl=N``), else None."""
    for p, span in cat.length_fields.items():
        if not eq and key.startswith(p + "vec") and key[len(p) + 3:] in ("1", "2", "3", "4"):
            return span, int(key[len(p) + 3:])
        if eq and key == p + "subvl":
            if val.strip() not in ("1", "2", "3", "4"):
                raise SVAsmError(f"/{key}={val}: expected 1, 2, 3 or 4")
            return span, int(val)
    return None


class _Modifiers:
    """What the modifiers of one instruction have said so far."""

    def __init__(self):
        self.mmode = None
        self.mask = self.smask = None
        self.ew = self.ews = None
        self.mbits = [0] * 5
        self.z = {"sz": 0, "dz": 0}
        self.rc1 = False
        self.modes = []  # the MODE-table rows the modifiers ask for: one at most


def parse_modifiers(mods, cat, kind):
    """RM bits (without EXTRA) from the modifier list."""
    rm = 0
    m = _Modifiers()
    seen = set()
    for mod in mods:
        key, eq, val = mod.partition("=")
        key = key.strip().lower()
        if key in seen:
            raise SVAsmError(f"/{key} given twice")
        seen.add(key)
        if key in ("mr", "mrr"):
            m.modes.append("map-reduce (/mr, /mrr)")
        elif key == "ff":
            m.modes.append("fail-first (/ff=)")
        elif key in ("sats", "satu"):
            m.modes.append("saturation (/sats, /satu)")
        if cat.mode_mods is not None and key in _MODE_MODS and key not in cat.mode_mods:
            raise SVAsmError(f"/{key} does not apply to {cat.name} "
                             f"(allowed: {', '.join(sorted(cat.mode_mods)) or 'none'})")
        length = _length_field(cat, key, eq, val)
        if length is not None:
            (a, b), n = length
            rm = rmmod.put_bits(rm, a, b, n - 1)
        elif key in ("vec2", "vec3", "vec4") and not eq:
            rm = rmmod.put_bits(rm, 8, 9, int(key[3]) - 1)
        elif not (_operand_modifier(m, key, eq, val, cat)
                  or _mode_modifier(m, key, eq, val, kind)):
            raise SVAsmError(f"unknown SVP64 modifier /{mod}")
    mode = _mode_field(m, mods, kind)
    rm = rmmod.put_bits(rm, 0, 0, m.mmode or 0)
    rm = rmmod.put_bits(rm, 1, 3, m.mask or 0)
    rm = rmmod.put_bits(rm, 4, 5, m.ew or 0)
    rm = rmmod.put_bits(rm, 6, 7, m.ews or 0)
    rm = rmmod.put_bits(rm, 19, 23, mode)
    return rm, (m.smask or 0)


def _operand_modifier(m, key, eq, val, cat):
    """Predicates, element widths and zeroing: True when ``key`` is one."""
    if key in ("m", "sm", "dm"):
        mm, code = _pred(val, key)
        if m.mmode is not None and mm != m.mmode:
            raise SVAsmError("integer and CR predicates cannot be mixed")
        m.mmode = mm
        if key in ("m", "dm"):
            m.mask = code
        if key == "sm" or (key == "m" and cat.ptype == 2):
            if cat.ptype == 1 and key == "sm":
                raise SVAsmError(f"{cat.name} is single-predicated: no sm=")
            m.smask = code
    elif key == "w":
        m.ew = m.ews = _ew(val, key)
    elif key == "dw":
        m.ew = _ew(val, key)
    elif key == "sw":
        m.ews = _ew(val, key)
    elif key in ("sz", "dz") and not eq:
        m.z[key] = 1
    elif key == "zz" and not eq:
        m.z["sz"] = m.z["dz"] = 1
    else:
        return False
    return True


def _mode_modifier(m, key, eq, val, kind):
    """The MODE field's modifiers (map-reduce, fail-first, saturation, LD/ST's
    els/pi/lf/sea, vli): True when ``key`` is one."""
    mbits = m.mbits
    if key == "mr" and not eq:
        mbits[2] = 1  # MODE 00 1 0 RG, normal and CR-op tables alike
    elif key == "mrr" and not eq:
        mbits[2], mbits[4] = 1, 1
    elif key == "ff" and kind == "ldst":
        v = val.strip().upper()
        if v not in ("RC1", "~RC1"):
            raise SVAsmError(f"LD/ST fail-first takes ff=RC1 or ff=~RC1, got ff={val!r}")
        mbits[1], mbits[2], mbits[4] = 1, int(v.startswith("~")), 1
    elif key in ("lf", "sea") and not eq and kind == "ldst":
        mbits[4] = 1
    elif key == "ff" and val.strip().upper() in ("RC1", "~RC1"):
        # Rc=0 fail-first: VLi 1 inv zz RC1
        mbits[1], mbits[2], mbits[4] = 1, int(val.strip().startswith("~")), 1
        m.rc1 = True
    elif key in ("sats", "satu") and not eq:
        if kind != "normal":
            raise SVAsmError(f"/{key}: saturation applies to arithmetic (normal-mode) "
                             "instructions only")
        mbits[0], mbits[2] = 1, int(key == "sats")
    elif key == "pr":
        raise SVAsmError("/pr= (predicate-result) is reserved/removed in the current "
                         "SVP64 spec: no MODE encoding")
    elif key == "ff":
        c = _FF.get(val.strip().lower())
        if c is None:
            raise SVAsmError(f"unknown fail-first condition ff={val!r}")
        mbits[1], mbits[2] = 1, c[0]
        mbits[3], mbits[4] = c[1] >> 1, c[1] & 1
    elif key in ("vli", "els") and not eq:
        mbits[0] = 1
    elif key == "pi" and not eq:
        mbits[2] = 1
    else:
        return False
    return True


def _mode_field(m, mods, kind):
    """The 5-bit MODE field from the modifiers' bits, zeroing folded in;
    modes that exclude each other trap."""
    mbits, z = m.mbits, m.z
    if kind == "ldst" and mbits[1] and mbits[0] and any(
            x.strip().lower() == "els" for x in mods):
        # fail-first LD/ST: VLi is bit 0, els moves to bit 3
        mbits[3] = 1
        mbits[0] = int(any(x.strip().lower() == "vli" for x in mods))
    if len(m.modes) > 1:
        # each is a row of the MODE table: OR-ing their bits would encode another row
        raise SVAsmError(f"{' and '.join(dict.fromkeys(m.modes))} are separate SVP64 modes: "
                         "one per instruction")
    if "map-reduce (/mr, /mrr)" in m.modes and (z["sz"] or z["dz"]):
        # map-reduce is MODE 00 1 0 RG: no sz/dz bits (bit 3 set is another mode)
        raise SVAsmError("map-reduce has no zeroing (/sz, /dz) in the MODE table")
    if z["sz"] or z["dz"]:
        if m.rc1 and kind == "normal":
            if z["sz"] != z["dz"]:
                raise SVAsmError("ff=RC1 zeroes both sides: use /zz")
            mbits[3] = 1
            z["sz"] = z["dz"] = 0
        elif mbits[1]:
            raise SVAsmError("sz/dz cannot be combined with fail-first")
        if kind == "ldst":
            mbits[3] = 1
        else:
            mbits[3], mbits[4] = mbits[3] | z["dz"], mbits[4] | z["sz"]
    mode = 0
    for b in mbits:
        mode = (mode << 1) | b
    return mode


def _regnum(text, cls):
    t = text.strip()
    vec = t.startswith("*")
    if vec:
        t = t[1:].strip()
    low = t.lower()
    for p in _REGPFX.get(cls, ()):
        if low.startswith(p) and low[len(p):].isdigit():
            t = t[len(p):]
            break
    return t, vec


def is_branch(isa, row):
    """Whether ``row`` is a branch (its page assigns NIA).  SVP64 branches have
    an RM layout and modifiers of their own (:mod:`.branch`)."""
    return isa.compiled(row).uses_nia


def sv_row(isa, base):
    entry = isa.by_mnemonic.get(base)
    if entry is None:
        raise SVAsmError(f"unknown mnemonic {base!r}")
    row, flags = entry
    if not row.sv:
        raise SVAsmError(f"{base} is not SVP64-capable (no RM category in its table row)")
    cat = isa.categories.get(row.sv)
    if cat is None:
        raise SVAsmError(f"{base}: RM category {row.sv} is not implemented")
    return row, flags, cat


def sv_assemble(isa, mnemonic, operands, pc, resolve):
    """[prefix, suffix] for ``sv.<mnemonic>[/mods]`` with operand texts."""
    base, mods = _split_mnemonic(mnemonic)
    row, flags, cat = sv_row(isa, base)
    rm, smask = _rm_from_modifiers(isa, row, flags, cat, base, mods)
    ops = _operand_texts(row, base, operands)
    encoder = _OperandEncoder(isa, base, row, flags, cat, ops, resolve)
    encoder.encode_all()
    if encoder.imm is not None:
        rm = _put_immediate(rm, encoder.imm, resolve)
    else:
        # length fields may sit in EXTRA (MVRM): OR, not overwrite
        rm |= rmmod.put_bits(0, 10, 18, encoder.extra_bits(smask))
    return [rmmod.prefix_of(rm), _suffix_word(isa.forms, row, encoder.values, flags)]


def _split_mnemonic(mnemonic):
    """(base mnemonic, [modifier texts]) of ``sv.<base>[/mod...]``."""
    if not mnemonic.startswith("sv."):
        raise SVAsmError(f"{mnemonic!r} is not an sv. mnemonic")
    base, *mods = mnemonic[3:].split("/")
    if any(not m for m in mods):
        raise SVAsmError("empty SVP64 modifier")
    return base, mods


def _rm_from_modifiers(isa, row, flags, cat, base, mods):
    """(RM bits without EXTRA, source-predicate code) from the modifiers; a
    branch has an RM layout of its own (branches.mdwn)."""
    if is_branch(isa, row):
        from .branch import parse_modifiers as branch_modifiers

        def error(msg):
            raise SVAsmError(msg)
        return branch_modifiers(mods, error), 0
    kind = mode_kind(isa, row, cat)
    rm_and_smask = parse_modifiers(mods, cat, kind)
    if kind == "normal" and row.records_cr(flags) and any(
            m.strip().lower().replace(" ", "") in ("ff=rc1", "ff=~rc1") for m in mods):
        # MODE's RC1 row is the Rc=0 table's: with Rc=1 its bits mean a
        # CR-bit test (ff=gt, ...), a different program
        raise SVAsmError(f"/ff=RC1 is fail-first for Rc=0 instructions: {base} records "
                         "its CR (Rc=1), test a CR bit instead (/ff=eq, /ff=lt, ...)")
    return rm_and_smask


def _operand_texts(row, base, operands):
    """The non-empty operand texts, checked against the row's operand count."""
    if len(operands) == 1 and not operands[0].strip():
        ops = []
    else:
        ops = [o for o in operands if o.strip()]
    if not row.required_operands <= len(ops) <= len(row.operands):
        counts = (str(len(row.operands)) if row.required_operands == len(row.operands)
                  else f"{row.required_operands} to {len(row.operands)}")
        raise SVAsmError(f"{base} takes {counts} operand(s) "
                         f"({', '.join(map(str, row.operands))}), got {len(ops)}")
    return ops


def _suffix_word(forms, row, values, flags):
    """The 32-bit suffix: the row's word with the encoded field values."""
    try:
        return encode_row(forms, row, values, flags)
    except EncodeError as e:
        raise SVAsmError(str(e)) from None


class _OperandEncoder:
    """Turns one instruction's operand texts into suffix field values and the
    EXTRA specs of its register operands."""

    def __init__(self, isa, base, row, flags, cat, ops, resolve):
        self.isa, self.row, self.flags, self.cat = isa, row, flags, cat
        self.forms = isa.forms
        self.ops, self.resolve = ops, resolve
        self.slots = parse_slots(row.extra)
        self.etype = cat.etype or etype(self.slots, cat.ptype)
        self.where = {}  # field -> the EXTRA slots naming it
        for i, s in enumerate(self.slots):
            for _d, name in s:
                self.where.setdefault(name, []).append(i)
        self.specs = {}  # EXTRA slot -> spec
        self.values = {}  # suffix field -> value
        self.imm = _immediate_operand(cat, row, ops)  # (RMImmediate, text) or None
        if self.imm is None and any(t.strip().startswith("#") for t in ops):
            raise SVAsmError(f"{base} has no form with an immediate (#) operand")

    def encode_all(self):
        for op, text in zip(self.row.operands, self.ops):
            if op.base:
                m = re.fullmatch(r"\s*(.*?)\s*\(\s*(.*?)\s*\)\s*", text)
                if not m:
                    raise SVAsmError(f"expected {op} (displacement(register)), "
                                     f"got {text.strip()!r}")
                self.encode(op.field, m.group(1) or "0")
                self.encode(op.base, m.group(2))
            else:
                self.encode(op.field, text)

    def encode(self, field, text):
        cls = self.forms.regclass.get(field)
        if cls in SPLITTERS:
            self._register(field, text, cls)
        else:
            self._non_register(field, text)

    def _register(self, field, text, cls):
        """A register operand: its suffix bits, and its EXTRA spec when the
        row gives it a slot."""
        t, vec = _regnum(text, cls)
        n = (getattr(self.resolve, "crbit", self.resolve) if cls == "crb" else self.resolve)(t)
        if field not in self.where:
            if vec or not 0 <= n < (1 << self.row.form.fields[field].width):
                raise SVAsmError(f"{field} has no EXTRA slot: only a plain scalar fits")
            self.values[field] = n
            return
        try:
            v, spec = SPLITTERS[cls](n, vec, self.etype)
            for slot in self.where[field]:
                spec_bits(spec, slot, self.etype)
        except ValueError as e:
            raise SVAsmError(f"{field}={text.strip()}: {e}") from None
        if self.imm is not None and spec != self.imm[0].spec(self.row, field):
            fixed = _fixed_spec_text(self.imm[0].spec(self.row, field), cls)
            raise SVAsmError(f"{field}={text.strip()}: {fixed}"
                             f" in the #immediate form (its RM has no EXTRA)")
        for slot in self.where[field]:
            prev = self.specs.get(slot)
            if prev is not None and prev != spec:
                raise SVAsmError(f"operands sharing EXTRA slot {slot} disagree")
            self.specs[slot] = spec
        self.values[field] = v

    def _non_register(self, field, text):
        """An immediate, displacement or notation operand (no EXTRA)."""
        if text.strip().startswith("*"):
            raise SVAsmError(f"{field} is not a register: no '*'")
        if self.imm is not None and field == self.imm[0].field:
            self.values[field] = self.imm[0].code  # "the operand is in the RM"
            return
        notation = self.isa.operand_type(self.row, field)  # the table's optype column
        if notation is not None:
            self.values[field] = notation.parse(text.strip())
            return
        if field in self.forms.pcrel and not self.flags.get("AA"):
            # a label or "." is made relative to the prefix (the instruction's
            # address); a plain number is the displacement (as SVP64Asm)
            n = getattr(self.resolve, "relative", self.resolve)(text.strip())
        else:
            n = self.resolve(text.strip())
        scale = self.forms.scale.get(field, 1)
        if n % scale:
            raise SVAsmError(f"{field} value {n} is not a multiple of {scale}")
        self.values[field] = n // scale - self.forms.sv_bias(field)

    def extra_bits(self, smask):
        """The 9-bit EXTRA field: every slot's spec, and the source predicate
        of twin-predicated categories."""
        extra9 = 0
        for slot, spec in self.specs.items():
            extra9 |= spec_bits(spec, slot, self.etype)
        if self.cat.ptype == 2:
            extra9 |= smask
        return extra9


def _immediate_operand(cat, row, ops):
    """(form, text) when the category's RM-immediate form applies to ``row``
    and its operand is written ``#N`` (rm.RMImmediate), else None."""
    form = cat.rm_immediate
    if form is None or not form.accepts(row):
        return None
    for op, text in zip(row.operands, ops):
        if op.field == form.field and text.strip().startswith("#"):
            return form, text.strip()[1:]
    return None


def _fixed_spec_text(spec, cls):
    p = _REGPFX.get(cls, ("",))[0]
    if spec & 4:
        return f"must be a vector *{p}N with N a multiple of 4 below 128"
    return f"must be a scalar {p}N with N below 32"


def _put_immediate(rm, imm, resolve):
    """RM with the immediate in its span; the modifiers may not have set MODE
    bits (they are the immediate's)."""
    form, text = imm
    if rmmod.bits(rm, *rmmod.RM_FIELDS["MODE"]):
        raise SVAsmError("mode modifiers (zeroing, map-reduce, fail-first, saturation) do not "
                         "apply to the #immediate form: RM's EXTRA and MODE hold the immediate")
    n = resolve(text)
    if not 0 <= n < (1 << form.width):
        raise SVAsmError(f"#{text}: the immediate is {form.width} bits (0..{(1 << form.width) - 1})")
    return rmmod.put_bits(rm, *form.span, n)


# --- disassembly --------------------------------------------------------------

def _rc1_ff_text(m, b, bit3):
    """Modifiers of an RC1 fail-first mode (``VLi 1 inv <bit3> RC1``): LD/ST's
    bit 3 is els, normal mode's zz.  Without RC1 it has no assembly spelling."""
    if not b[4]:
        return [f"MODE=0b{m:05b}"]
    out = ["ff=~RC1" if b[2] else "ff=RC1"]
    if b[0]:
        out.append("vli")
    if b[3]:
        out.append(bit3)
    return out


def _mode_text(r, kind, rc, indexed=False):
    m = r.mode_bits
    b = [(m >> (4 - i)) & 1 for i in range(5)]
    out = []
    if b[1] and (kind == "ldst" or (kind == "normal" and not rc)):
        return _rc1_ff_text(m, b, "els" if kind == "ldst" else "zz")
    if kind == "ldst":
        if b[0]:
            out.append("els")
        if b[2]:
            out.append("pi")
        if b[3]:
            out.append("zz")
        if b[4]:
            out.append("sea" if indexed else "lf")
        return out
    if b[1]:
        cond = rmmod.CR_BIT_NAMES[(b[3] << 1) | b[4]]
        if b[2]:
            cond = {"lt": "ge", "gt": "le", "eq": "ne", "so": "ns"}[cond]
        out.append(f"ff={cond}")
        if b[0]:
            out.append("vli")
        return out
    if kind == "crop" and b[0]:
        return [f"MODE=0b{m:05b}"]  # reserved in the CR-op table
    if b[0]:
        out.append("sats" if b[2] else "satu")
    elif b[2] and b[3]:
        return [f"MODE=0b{m:05b}"]
    elif b[2]:
        return ["mrr" if b[4] else "mr"]
    if b[4]:
        out.append("sz")
    if b[3]:
        out.append("dz")
    return out


def _pred_text(mmode, code):
    return (rmmod.CR_PRED_NAMES if mmode else rmmod.INT_PRED_NAMES)[code]


def sv_disassemble(isa, prefix, suffix):
    d = isa.decode(suffix)
    if d is None or not d.spec.sv or d.spec.sv not in isa.categories:
        return None
    row = d.spec
    cat = isa.categories[row.sv]
    r = rmmod.RM(rmmod.rm_of(prefix), cat.ptype)
    kind = mode_kind(isa, row, cat)
    forms = isa.forms
    imm = cat.immediate_form(row, d.fields)
    if is_branch(isa, row):
        from .branch import modifier_text
        mods = modifier_text(r.rm)
    else:
        mods = _modifiers(r, cat, kind, d, row, forms, with_mode=imm is None)
    if mods is None:
        return None  # a reserved mode or bits without a spelling: print as words
    return _operands_text(isa, d, row, cat, r, forms, mods, imm)


def _modifiers(r, cat, kind, d, row, forms, with_mode=True):
    """The modifier texts of a (non-branch) RM, or None for a reserved mode;
    without the mode's when RM's MODE bits hold an immediate."""
    mods = []
    if r.subvl > 1:
        mods.append(f"vec{r.subvl}")
    for p, (a, b) in cat.length_fields.items():
        n = rmmod.bits(r.rm, a, b) + 1
        if n > 1:
            mods.append(f"{p}vec{n}")
    if r.predicated:
        if cat.ptype == 2 and r.mask != r.smask:
            if r.smask or r.mmode:
                mods.append(f"sm={_pred_text(r.mmode, r.smask)}")
            if r.mask or r.mmode:
                mods.append(f"dm={_pred_text(r.mmode, r.mask)}")
        else:
            mods.append(f"m={_pred_text(r.mmode, r.mask)}")
    if r.ew == r.ews:
        if r.ew != 64:
            mods.append(f"w={r.ew}")
    else:
        if r.ew != 64:
            mods.append(f"dw={r.ew}")
        if r.ews != 64:
            mods.append(f"sw={r.ews}")
    if not with_mode:
        return mods
    rc = row.records_cr(d.fields) or any(
        forms.regclass.get(o) in ("crf", "crb") for o in row.outs if o not in ("CR0", "CR1"))
    mods += _mode_text(r, kind, rc,
                       not any(op.base for op in row.operands))
    if any(m.startswith("MODE=") for m in mods):
        return None  # reserved mode: print as words
    return mods


def _operands_text(isa, d, row, cat, r, forms, mods, imm=None):
    """``sv.<mnemonic>/<mods> <operands>`` with EXTRA-extended registers
    (``imm``: the RM-immediate form, printed ``#N``, its registers' specs fixed)."""
    slots = parse_slots(row.extra)
    et = (cat.etype or etype(slots, cat.ptype))
    where = {}
    for i, s in enumerate(slots):
        for _d, name in s:
            where.setdefault(name, i)

    def text(field):
        v = d.fields[field]
        cls = forms.regclass.get(field)
        if imm is not None and field == imm.field:
            return f"#{imm.value(r.rm):#x}"
        if cls in EXTENDERS and field in where:
            spec = imm.spec(row, field) if imm is not None else \
                slot_spec(r.extra, where[field], et)
            n, vec = EXTENDERS[cls](v, spec, et)
            return ("*" if vec else "") + str(n)
        ot = isa.operand_type(row, field) if row.optypes else None
        if ot is not None:
            return ot.format(v)
        if field in forms.signed:
            w = row.form.fields[field].width
            if v >> (w - 1):
                v -= 1 << w
        n = (v + forms.sv_bias(field)) * forms.scale.get(field, 1)
        if field in forms.pcrel:
            return hex(n)  # a branch displacement, as libre-soc prints it: 0xc, -0x8
        return str(n)

    ops = []
    for op in row.operands:
        ops.append(f"{text(op.field)}({text(op.base)})" if op.base else text(op.field))
    mn = "sv." + d.mnemonic + "".join("/" + m for m in mods)
    return mn + (" " + ", ".join(ops) if ops else "")
