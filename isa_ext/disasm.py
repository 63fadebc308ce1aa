"""Disassembler: instruction words -> GNU-syntax text the assembler accepts back.

Operands are formatted from the table row's syntax and the field attributes in
``decoder/forms.txt``: ``r3`` / ``f1`` / ``cr2`` by register class, CR bits as
``4*cr1+eq``, ``scale``d and ``signed`` numbers as written in assembly, and
``pcrel`` branch displacements as ``.+8`` (absolute, ``0x...``, when AA=1), so
that reassembling the text at the same address gives the same word.  Extended
mnemonics marked ``disasm`` in the alias tables are preferred when they
reproduce the word exactly.  Words no row decodes, and invalid forms the
assembler refuses (an odd register pair, ``even`` in forms.txt), and words
whose text the assembler writes as another instruction (``mtcrf`` with one FXM
bit, which GNU as writes as ``mtocrf``), print as ``.long 0x...``.
"""
import re

from .asm import (Assembler, AsmError, CR_BIT_NAMES, Located, Statement, extended_mnemonics,
                  swap_halves, IDENT_PATTERN)

CR_BIT_TEXT = {v: k for k, v in reversed(list(CR_BIT_NAMES.items()))}
REG_PREFIX = {"gpr": "r", "fpr": "f", "crf": "cr", "vsr": "vs", "vr": "v"}


from .encoding import is_svp64_prefix  # noqa: E402,F401  (re-exported for callers)
from .prefix import is_prefix, kind as prefix_kind, SVP64, crosses_boundary  # noqa: E402


class Disassembler:
    def __init__(self, isa):
        self.isa = isa
        self.forms = isa.forms
        self._asm = Assembler(isa, "<disasm>", 0, True)
        self._asm.labels, self._asm.constants, self._asm.local_defs = {}, {}, {}
        self._asm.current = (".text", 0, 0)
        self._by_base = {}
        for alias in extended_mnemonics(isa).values():
            if alias.disasm:
                self._by_base.setdefault(alias.base_mnemonic, []).append(alias)
        self._cache = {}
        self._sv_cache = {}
        # instructions whose own name a conditional alias of the assembler
        # rewrites for some operands (decoder/base/aliases/extended.csv)
        self._rewritten = {a.name for a in extended_mnemonics(isa).values()
                           if a.when is not None and a.name in isa.by_mnemonic}
        # prefixed rows printed CIA-relative (R=1) without a base of their own
        # (paddi): the alias that writes "RT,D(RA)" for them (pla)
        self._relative_alias = {}
        for alias in extended_mnemonics(isa).values():
            if any(op.base for op in alias.operands):
                self._relative_alias.setdefault(alias.base_mnemonic, alias.name)

    # -- single instructions ----------------------------------------------------
    def word(self, word, pc=0):
        """Text of one 32-bit word at address ``pc``."""
        key = (word, pc)
        text = self._cache.get(key)
        if text is None:
            d = self.isa.decode(word)
            if d is None or self._odd_pair(d):
                # no row, or an invalid form the assembler refuses (an odd
                # register pair): text that reassembles is the word itself
                text = f".long 0x{word:08x}"
            else:
                ops = self.operand_texts(d, pc)
                text = self.extended(d, ops, pc) or _join(d.mnemonic, ops)
                if d.mnemonic in self._rewritten and not self._reassembles(text, (word,), pc):
                    # GNU as writes "mtcrf" with one FXM bit as mtocrf: no
                    # text gives this word back but the word itself
                    text = f".long 0x{word:08x}"
            if len(self._cache) > 100_000:
                self._cache.clear()
            self._cache[key] = text
        return text

    def _odd_pair(self, d):
        return any(d.fields.get(name, 0) % 2 for name in self.forms.even
                   if name in d.spec.fields_used)

    def prefixed(self, prefix, suffix, pc=0):
        """Text of an 8-byte instruction (a v3.1 prefixed row, a prefixed form
        of an extension, SVP64), or None (print the words) when nothing
        decodes it or the text would not reassemble to these two words: bits
        the text cannot spell (set in an unused EXTRA slot, a record form's
        CR slot the text drops, a modifier the category forbids) make the words
        print as ``.long`` rather than as an instruction with other behaviour."""
        key = (prefix, suffix, pc)
        if key in self._sv_cache:
            return self._sv_cache[key]
        text = None
        if prefix_kind(prefix) == SVP64:
            hook = getattr(self.isa, "sv_disassemble", None)
            if hook is not None:
                text = hook(prefix, suffix)
        else:
            d = self.isa.decode_prefixed(prefix, suffix)
            if d is not None and not self._odd_pair(d):
                text = self.v31_text(d, pc)
            elif d is None:
                form = self._prefixed_form(prefix, suffix)
                if form is not None:
                    text = form.disassemble(self, prefix, suffix, pc)
        # (a v3.1 text spells no address, and its 64-byte rule would move it
        # off an unaligned pc: it reassembles at 0)
        at = pc if prefix_kind(prefix) == SVP64 else 0
        if text is not None and not self._reassembles(text, (prefix, suffix), at):
            text = None
        if len(self._sv_cache) > 100_000:
            self._sv_cache.clear()
        self._sv_cache[key] = text
        return text

    def _prefixed_form(self, prefix, suffix):
        """The ISA's extension-defined 64-bit form of these words, or None."""
        for form in getattr(self.isa, "prefixed_forms", ()):
            if form.matches(prefix, suffix):
                return form
        return None

    def v31_text(self, d, pc):
        """A v3.1 prefixed row's text as GNU objdump prints it: R=0 is not
        written, R=1 drops the base ("pld r3,16"; paddi with RA=0 is "pla
        r3,16"), a base of 0 prints as 0 ("pld r3,16(0)")."""
        row = d.spec
        ops = self.operand_texts(d, pc)
        flag = next((f for f, b in self.forms.relative.items()
                     if f in row.fields_used and b in row.fields_used), None)
        if flag is None:
            return self.extended(d, ops, pc) or _join(d.mnemonic, ops)
        base = self.forms.relative[flag]
        if not d.fields[flag]:
            text = self.extended(d, ops, pc)
            if text is not None:
                return text
        texts, based = [], False
        for op, text in zip(row.operands, ops):
            if op.field == flag or (d.fields[flag] and op.field == base):
                continue
            if op.base == base:
                based = True
                disp = self.field_text(op.field, d.fields[op.field], pc, {}, row.form)
                reg = self.field_text(base, d.fields[base], pc, {}) if d.fields[base] else "0"
                text = disp if d.fields[flag] else f"{disp}({reg})"
            texts.append(text)
        mnemonic = d.mnemonic
        if d.fields[flag] and not based:
            mnemonic = self._relative_alias.get(d.mnemonic, mnemonic)
        return _join(mnemonic, texts)

    def _reassembles(self, text, words, pc):
        from .asm import assemble
        try:
            prog = assemble(text + "\n", isa=self.isa, base=pc)
        except AsmError:
            return False
        data = prog.data
        return len(data) == 4 * len(words) and tuple(
            int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data), 4)) == words

    def operand_texts(self, d, pc):
        flags = {k: d.fields[k] for k in d.spec.suffix}
        out = []
        for op in d.spec.operands:
            ot = self.isa.operand_type(d.spec, op.field) if d.spec.optypes else None
            if ot is not None:
                text = ot.format(d.fields[op.field])
            else:
                text = self.field_text(op.field, d.fields[op.field], pc, flags, d.spec.form)
            if op.base:
                text += f"({self.field_text(op.base, d.fields[op.base], pc, flags)})"
            out.append(text)
        return out

    def field_text(self, name, raw, pc, flags, form=None):
        """``form``: the row's form, whose field width counts (a prefixed
        form's D and SI are 34 bits)."""
        forms = self.forms
        cls = forms.regclass.get(name)
        if cls in REG_PREFIX:
            return f"{REG_PREFIX[cls]}{raw * forms.scale.get(name, 1)}"
        if cls == "crb":
            bit = CR_BIT_TEXT[raw & 3]
            return bit if raw < 4 else f"4*cr{raw >> 2}+{bit}"
        value = raw
        width = self._asm.field_width(name, form)
        if name in forms.swaphalves:
            value = swap_halves(raw, width)
        if name in forms.signed and raw >> (width - 1):
            value = raw - (1 << width)
        value = (value + forms.bias.get(name, 0)) * forms.scale.get(name, 1)
        if name in forms.pcrel:
            if flags.get("AA"):
                return f"0x{value:x}" if value >= 0 else str(value)
            return f".+{value}" if value >= 0 else f".-{-value}"
        return str(value)

    def _width(self, name):
        return self._asm.field_width(name)

    def extended(self, d, ops, pc):
        """The first ``disasm`` alias whose expansion reproduces the word."""
        for alias in self._by_base.get(d.mnemonic, ()):
            text = self._try_alias(alias, d, ops, pc)
            if text is not None:
                return text
        return None

    def _try_alias(self, alias, d, ops, pc):
        known, guesses = {}, []
        for op in alias.operands:
            parts = [op.name] + ([op.base] if op.base else [])
            found = [self._direct(p, alias.expansion, ops) for p in parts]
            found[0] = self._in_class(op.name, found[0])
            if found[0] is False:
                return None  # (the register is not one the alias can name)
            if all(f is not None for f in found):
                known[op.name] = found[0] if not op.base else f"{found[0]}({found[1]})"
            elif not op.base:
                guesses.append(op)
            else:
                return None
        if len(guesses) > 1:
            return None
        candidates = [None]
        if guesses:
            candidates = self._candidates(guesses[0], alias, d.spec, ops)
            if not candidates:
                return None
        for cand in candidates:
            texts = dict(known)
            if guesses:
                texts[guesses[0].name] = cand
            shown = [texts[o.name] for o in alias.operands
                     if not (o.default is not None and texts[o.name] == o.default)]
            if self._reproduces(alias, shown, d.word, pc):
                return _join(alias.name, shown)
        return None

    def _in_class(self, name, text):
        """An instruction's register operand ``text`` respelt in the class of
        the alias operand ``name`` (VSR n < 32 is FPR n: ``mffprd r3,f1`` for
        mfvsrd's vs1); False when that class cannot name it; else ``text``."""
        cls = self.forms.regclass.get(name)
        m = re.fullmatch(r"([a-z]+)(\d+)", text or "")
        if cls not in REG_PREFIX or m is None or m.group(1) == REG_PREFIX[cls] \
                or m.group(1) not in REG_PREFIX.values():
            return text
        n = int(m.group(2))
        return f"{REG_PREFIX[cls]}{n}" if n < 1 << self._width(name) else False

    def _candidates(self, op, alias, row, ops=()):
        """Texts to try for an alias operand that only appears inside arithmetic:
        shaped like its default (``cr0`` -> cr0..cr7), a register named as the
        instruction's register less a constant (``32+VRS``: VR n is VSR 32+n),
        else every value of the numeric field it is used in."""
        cls = self.forms.regclass.get(op.name)
        if cls in REG_PREFIX and op.default is None:
            for tmpl, text in zip(alias.expansion, ops):
                m = re.fullmatch(r"(\d+)\+" + re.escape(op.name), tmpl)
                reg = re.fullmatch(r"[a-z]+(\d+)", text)
                if m and reg:
                    n = int(reg.group(1)) - int(m.group(1))
                    return [f"{REG_PREFIX[cls]}{n}"] if 0 <= n < 1 << self._width(op.name) else []
        if op.default is not None:
            m = re.fullmatch(r"([a-z]*)(\d+)", op.default)
            if m is None:
                return [op.default]
            prefix, first = m.group(1), int(m.group(2))
            count = {"cr": 8}.get(prefix, 32)
            return [op.default] + [f"{prefix}{i}" for i in range(count) if i != first]
        for tmpl, operand in zip(alias.expansion, row.operands):
            if re.search(IDENT_PATTERN.format(re.escape(op.name)), tmpl) and not operand.base \
                    and operand.field not in self.forms.regclass:
                return [str(i) for i in range(1 << self._width(operand.field))]
        return []

    @staticmethod
    def _direct(name, templates, ops):
        for tmpl, text in zip(templates, ops):
            if tmpl == name:
                return text
        return None

    def _reproduces(self, alias, shown, word, pc):
        """The alias text assembles to ``word`` (a prefixed row's Decoded
        word is prefix << 32 | suffix: two words)."""
        st = Statement(0, 1, alias.name, [Located(t, 1) for t in shown], "", 1)
        want = [word >> 32, word & 0xFFFFFFFF] if word >> 32 else [word]
        try:
            return self._asm.expand(alias, st, pc) == want
        except AsmError:
            return False

    # -- byte streams -----------------------------------------------------------
    def lines(self, data, base=0, little=True):
        """Yield (address, [words], text) for a byte string of instructions."""
        order = "little" if little else "big"
        n = len(data) - len(data) % 4
        i = 0
        while i < n:
            word = int.from_bytes(data[i:i + 4], order)
            # (a v3.1 prefixed instruction across a 64-byte boundary takes an
            # alignment interrupt, and reassembled it would get GNU as's nop
            # before it: its words print as words)
            if i + 8 <= n and is_prefix(word) and (
                    prefix_kind(word) == SVP64 or not crosses_boundary(base + i)):
                suffix = int.from_bytes(data[i + 4:i + 8], order)
                text = self.prefixed(word, suffix, base + i)
                if text is not None:
                    yield base + i, [word, suffix], text
                    i += 8
                    continue
            yield base + i, [word], self.word(word, base + i)
            i += 4
        if n < len(data):
            tail = data[n:]
            yield base + n, [], ".byte " + ",".join(f"0x{b:02x}" for b in tail)


def _join(mnemonic, ops):
    return f"{mnemonic} {','.join(ops)}" if ops else mnemonic




def disassemble_word(isa, word, pc=0):
    return Disassembler(isa).word(word, pc)


def disassemble(isa, data, base=0, little=True):
    """[(address, [words], text)] for ``data``."""
    return list(Disassembler(isa).lines(data, base, little))
