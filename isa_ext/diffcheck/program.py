"""One GNU assembly program per batch of cases, and the record format it writes.

Each case owns a 768-byte, 128-aligned *record* in ``.data``::

    0    GPR0..31           (8 bytes each)
    256  FPR0..31
    512  CR  520 XER  528 LR  536 CTR  544 FPSCR
    640  memory window (128 bytes, the only memory loads and stores touch)

The record holds the case's initial state; the prologue loads every register
from it through the case's *scratch* GPR (which the case's instructions do not
use), the epilogue stores every register back over it and one ``write`` system
call sends the record to standard output.  ``casetab`` lists, per case, the
addresses of its first instruction, its end, its record and the scratch GPR
number (section ``.casetab``), so isa_ext can run exactly the case's
instructions from the same ELF.
"""
from dataclasses import dataclass

from .generate import SymRef, WINDOW_BYTES

RECORD_BYTES = 768
OFF_FPR = 256
OFF_CR, OFF_XER, OFF_LR, OFF_CTR, OFF_FPSCR = 512, 520, 528, 536, 544
OFF_WINDOW = 640
CASETAB_ENTRY = 32
CASETAB_SECTION = ".casetab"  # a section of its own: found without a symbol lookup
SYS_WRITE, SYS_EXIT = 4, 1

# XER bits that exist: SO OV CA, OV32 CA32, and the string byte count
XER_MASK = 0xE00C007F


def _quad(v):
    return v.asm() if isinstance(v, SymRef) else str(v)


def case_text(case):
    """The instructions of ``case`` between prologue and epilogue."""
    out = [f"beg{case.index}:"]
    for insn in case.insns:
        out.append(f"\t{insn.asm}")
    if case.marker is not None:
        out.append(f"\taddi {case.marker},{case.marker},1\t# marker: skipped when taken")
    out.append(f"end{case.index}:")
    return out


def emit_case(case):
    s = case.scratch
    n = case.index
    lines = [f"c{n}:\t# {case.kind}: {case.text()}",
             f"\tlis {s},rec{n}@ha", f"\taddi {s},{s},rec{n}@l",
             f"\tld 0,{OFF_CR}({s})", "\tmtcrf 255,0",
             f"\tld 0,{OFF_XER}({s})", "\tmtxer 0",
             f"\tld 0,{OFF_LR}({s})", "\tmtlr 0",
             f"\tld 0,{OFF_CTR}({s})", "\tmtctr 0",
             f"\tlfd 0,{OFF_FPSCR}({s})", "\tmtfsf 255,0,1,0"]  # L=1: all 64 bits
    lines += [f"\tlfd {i},{OFF_FPR + 8 * i}({s})" for i in range(32)]
    lines += [f"\tld {i},{8 * i}({s})" for i in range(32) if i != s]
    lines += case_text(case)
    lines += [f"\tstd {i},{8 * i}({s})" for i in range(32)]
    lines += [f"\tstfd {i},{OFF_FPR + 8 * i}({s})" for i in range(32)]
    lines += ["\tmfcr 0", f"\tstd 0,{OFF_CR}({s})",
              "\tmfxer 0", f"\tstd 0,{OFF_XER}({s})",
              "\tmflr 0", f"\tstd 0,{OFF_LR}({s})",
              "\tmfctr 0", f"\tstd 0,{OFF_CTR}({s})",
              "\tmffs 0", f"\tstfd 0,{OFF_FPSCR}({s})",
              # r4 first: the scratch register may be r3 or r5
              f"\tmr 4,{s}", f"\tli 5,{RECORD_BYTES}", "\tli 3,1", f"\tli 0,{SYS_WRITE}", "\tsc"]
    return lines


def emit_record(case):
    quads = [_quad(v) for v in case.gpr] + [_quad(v) for v in case.fpr]
    quads += [_quad(case.cr), _quad(case.xer), _quad(case.lr), _quad(case.ctr), _quad(case.fpscr)]
    lines = [f"rec{case.index}:"]
    for i in range(0, len(quads), 8):
        lines.append("\t.quad " + ",".join(quads[i:i + 8]))
    lines.append(f"\t.zero {OFF_WINDOW - 8 * len(quads)}")
    lines.append(f"win{case.index}:")
    for i in range(0, WINDOW_BYTES, 16):
        lines.append("\t.byte " + ",".join(str(b) for b in case.window[i:i + 16]))
    return lines


def program(cases):
    """The whole assembly program for ``cases`` (GNU as syntax)."""
    text = ["\t.abiversion 2", "\t.text", "\t.globl _start", "_start:"]
    pads = []
    for c in cases:
        text += emit_case(c)
        if any(i.target == "pad" for i in c.insns):
            pads += [f"pad{c.index}:", f"\tb end{c.index}"]
    text += [f"\tli 0,{SYS_EXIT}", "\tli 3,0", "\tsc"]
    if pads:
        text += ["\t.section .lowpad,\"ax\""] + pads
    data = [f"\t.section {CASETAB_SECTION},\"aw\"", "\t.balign 8", "casetab:"]
    for c in cases:
        data.append(f"\t.quad beg{c.index},end{c.index},rec{c.index},{c.scratch}")
    data += ["\t.data", "\t.balign 128"]
    for c in cases:
        data += emit_record(c)
    return "\n".join(text + data) + "\n"


@dataclass
class Record:
    """A machine state in record form (registers, memory window)."""
    gpr: list
    fpr: list
    cr: int
    xer: int
    lr: int
    ctr: int
    fpscr: int
    window: bytes

    @classmethod
    def parse(cls, data):
        q = [int.from_bytes(data[i:i + 8], "little") for i in range(0, OFF_WINDOW, 8)]
        return cls(q[0:32], q[32:64], q[64] & 0xFFFFFFFF, q[65], q[66], q[67], q[68],
                   bytes(data[OFF_WINDOW:OFF_WINDOW + WINDOW_BYTES]))
