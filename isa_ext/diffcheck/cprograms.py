"""Freestanding C programs compiled by GNU gcc, run under QEMU and isa_ext.

Each ``*.c`` in the suite directory is linked with the directory's
``start.S`` (``_start``: TOC pointer, stack frame, ``main``, exit system call)
at ``-O0`` and ``-O2`` for a scalar POWER9 without VMX/VSX (the core is scalar
Power ISA v3.0B).  Standard output and exit status must be identical.  Before
running, every instruction word in the ELF's ``.text`` is decoded; words the
core has no table row or page for are reported by their GNU mnemonic.
"""
import os
import subprocess
from dataclasses import dataclass, field as dc_field

from .. import prefix
from ..errors import IsaExtError
from ..isa import ISA
from . import tools

OPT_LEVELS = ("-O0", "-O2")
CFLAGS = ("-mcpu=power9", "-mno-vsx", "-mno-altivec", "-ffreestanding", "-fno-builtin",
          "-fno-tree-loop-distribute-patterns", "-fno-stack-protector", "-nostdlib", "-static",
          "-Wall")
MAX_STEPS = 20_000_000


@dataclass
class ProgramResult:
    name: str
    opt: str
    qemu_stdout: bytes = b""
    qemu_status: int = None
    sim_stdout: bytes = b""
    sim_status: int = None
    sim_stop: str = ""
    steps: int = 0
    missing: dict = dc_field(default_factory=dict)  # GNU mnemonic -> count in .text

    @property
    def ok(self):
        return (self.qemu_stdout == self.sim_stdout and self.qemu_status == self.sim_status
                and self.sim_stop == "exit")

    def summary(self):
        state = "agree" if self.ok else "DIFFER"
        line = (f"{self.name} {self.opt}: {state} (exit qemu {self.qemu_status} isa_ext "
                f"{self.sim_status}, stop {self.sim_stop}, {self.steps} instructions)")
        if self.missing:
            line += "\n  not in the core: " + ", ".join(
                f"{m} x{n}" for m, n in sorted(self.missing.items()))
        if not self.ok and self.qemu_stdout != self.sim_stdout:
            line += (f"\n  qemu stdout:    {self.qemu_stdout[:200]!r}"
                     f"\n  isa_ext stdout: {self.sim_stdout[:200]!r}")
        return line


def compile_program(source, start, opt, out_path):
    r = subprocess.run([tools.tool(tools.GCC), opt, *CFLAGS, "-o", out_path, start, source],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise tools.ToolFailed(f"{tools.GCC} {opt} {source} failed:\n{r.stderr.strip()}")
    return out_path


def text_instructions(elf_path):
    """[(address, word, GNU mnemonic)] for the ELF's executable code (objdump -d);
    a prefixed instruction's word is ``prefix << 32 | suffix``."""
    r = subprocess.run([tools.tool(tools.OBJDUMP), "-d", "--no-show-raw-insn", elf_path],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise tools.ToolFailed(f"{tools.OBJDUMP} failed on {elf_path}:\n{r.stderr.strip()}")
    from elftools.elf.elffile import ELFFile
    out = []
    words = {}
    with open(elf_path, "rb") as f:
        elf = ELFFile(f)
        for sec in elf.iter_sections():
            if sec["sh_flags"] & 0x4 and sec["sh_type"] == "SHT_PROGBITS":  # SHF_EXECINSTR
                data, base = sec.data(), sec["sh_addr"]
                for off in range(0, len(data) - 3, 4):
                    words[base + off] = int.from_bytes(data[off:off + 4], "little")
    for line in r.stdout.splitlines():
        parts = line.split(":", 1)
        if len(parts) != 2 or not parts[1].startswith("\t"):
            continue
        try:
            addr = int(parts[0].strip(), 16)
        except ValueError:
            continue
        mnem = parts[1].split()[0] if parts[1].split() else ""
        if addr in words and not mnem.startswith("."):  # ".long": data (traceback tables)
            word = words[addr]
            if prefix.is_prefix(word) and addr + 4 in words:
                word = word << 32 | words[addr + 4]
            out.append((addr, word, mnem))
    return out


def missing_instructions(isa, elf_path):
    """{GNU mnemonic: count} of instructions the core cannot execute."""
    missing = {}
    for _addr, word, mnem in text_instructions(elf_path):
        d = isa.decode_prefixed(word >> 32, word & 0xFFFFFFFF) if word >> 32 \
            else isa.decode(word)
        if d is None or d.spec.page is None:
            missing[mnem] = missing.get(mnem, 0) + 1
    return missing


def run_program(isa, elf_path, name, opt):
    from ..sim import Simulator
    res = ProgramResult(name, opt)
    q = tools.run_qemu(elf_path)
    res.qemu_stdout, res.qemu_status = q.stdout, q.status if q.signal is None else -q.signal
    res.missing = missing_instructions(isa, elf_path)
    sim = Simulator(isa=isa)
    sim.load_elf(elf_path)
    try:
        run = sim.run(max_steps=MAX_STEPS)
        res.sim_stop = run.stop if run.stop != "trap" else f"trap: {run.trap}"
        res.sim_status, res.steps = run.exit_status, run.steps
    except IsaExtError as e:
        res.sim_stop = f"error: {e}"
    res.sim_stdout = bytes(sim.state.stdout)
    return res


def suite_sources(directory):
    names = sorted(f for f in os.listdir(directory) if f.endswith(".c"))
    if not names:
        raise IsaExtError(f"no C programs (*.c) in {directory}")
    start = os.path.join(directory, "start.S")
    if not os.path.isfile(start):
        raise IsaExtError(f"{directory} has no start.S (the programs' _start)")
    return [os.path.join(directory, n) for n in names], start


def run_suite(directory, isa=None, opts=OPT_LEVELS, workdir=None, progress=None):
    """Compile and run every program of the suite at each optimisation level;
    ``progress`` (isa_ext.progress.Progress or None) hears of each one."""
    import tempfile
    isa = isa or ISA(extensions=["base"])
    sources, start = suite_sources(directory)
    results = []
    with tempfile.TemporaryDirectory(prefix="isa_ext_c_") as tmp:
        work = workdir or tmp
        for src in sources:
            name = os.path.splitext(os.path.basename(src))[0]
            for opt in opts:
                elf = compile_program(src, start, opt, os.path.join(work, f"{name}{opt}.elf"))
                results.append(run_program(isa, elf, name, opt))
                if progress is not None:
                    progress.advance(where=f"{name} {opt}")
    isa.save_cache()
    return results
