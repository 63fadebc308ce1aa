"""Mismatch reports and standalone reproducers."""
import os
from .program import program, XER_MASK


class Mismatch:
    """A differing case: ``case`` (minimised to one instruction where possible),
    the state before the differing instruction, QEMU's and isa_ext's states
    after it (``actual`` None: isa_ext stopped abnormally), and, for a
    minimised sequence, the ``original`` case and the instruction's position."""

    def __init__(self, case, position, initial, expected, actual, differences, stop,
                 original=None, position_in_original=None):
        self.case, self.initial, self.expected, self.actual = case, initial, expected, actual
        self.differences, self.stop, self.original = differences, stop, original
        self.position = position
        self.position_in_original = position_in_original
        self.path = None

    @property
    def insn(self):
        return self.case.insns[self.position]

    @property
    def mnemonic(self):
        return self.insn.mnemonic

    def headline(self):
        where = f" -> {self.path}" if self.path else ""
        ctx = (f" (instruction {self.position_in_original + 1} of `{self.original.text()}`)"
               if self.original is not None else "")
        return f"`{self.insn.asm}`{ctx}: {'; '.join(self.differences[:4])}{where}"

    def describe(self):
        """Operands, the state before, and both states after (the differing parts)."""
        lines = [f"instruction: {self.insn.asm}", "operands: " + ", ".join(
            f"{k}={v}" for k, v in sorted(self.insn.values.items()))]
        if self.original is not None:
            lines.append(f"found in: {self.original.text()} "
                         f"(instruction {self.position_in_original + 1})")
        lines.append(f"isa_ext stop: {self.stop}")
        lines.append("differences (qemu vs isa_ext):")
        lines += ["  " + d for d in self.differences]
        lines.append("state before:")
        lines += ["  " + s for s in _state_lines(self.initial, self.insn)]
        lines.append("qemu after:")
        lines += ["  " + s for s in _state_lines(self.expected, self.insn)]
        if self.actual is not None:
            lines.append("isa_ext after:")
            lines += ["  " + s for s in _state_lines(self.actual, self.insn)]
        return lines


def _state_lines(rec, insn):
    if rec is None:
        return ["(none)"]
    regs = []
    for f, v in sorted(insn.values.items()):
        cls = insn.row.form.fields.get(f)
        if f.startswith(("R", "FR")) and isinstance(v, int) and cls is not None:
            if f.startswith("FR"):
                regs.append(f"f{v}=0x{rec.fpr[v]:016x}")
            else:
                regs.append(f"r{v}=0x{rec.gpr[v]:016x}")
    return [" ".join(regs) or "(no register operands)",
            f"cr=0x{rec.cr:08x} xer=0x{rec.xer & XER_MASK:08x} lr=0x{rec.lr:x} "
            f"ctr=0x{rec.ctr:x} fpscr=0x{rec.fpscr & 0x7FFFFFFFF:08x}",
            f"window={rec.window.hex()}"]


def write_reproducer(m, out_dir):
    """``out_dir/mismatch-<case>-<mnemonic>.s``: a standalone program for the case.

    Assemble, link and run it under QEMU as the header says, or replay it under
    both with ``isa-ext diffcheck --replay FILE``.
    """
    os.makedirs(out_dir, exist_ok=True)
    safe = m.mnemonic.replace(".", "_dot")
    path = os.path.join(out_dir, f"mismatch-{m.case.index}-{safe}.s")
    header = ["# isa_ext diffcheck reproducer", "#"]
    header += ["# " + line for line in m.describe()]
    header += ["#", "# Replay under QEMU and isa_ext:",
               f"#   isa-ext diffcheck --replay {os.path.basename(path)}",
               "# By hand (the program writes a 768-byte state record to stdout):",
               "#   powerpc64le-linux-gnu-as -mpower10 -o r.o FILE.s",
               "#   powerpc64le-linux-gnu-ld -static -Ttext=0x100000 "
               "--section-start=.lowpad=0x2000 -o r.elf r.o",
               "#   qemu-ppc64le -cpu power10 r.elf | xxd", ""]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(header) + "\n" + program([m.case]))
    m.path = path
    return path
