"""Run single instructions on openpower-isa's ISACaller (run in its PyPy venv by
tests/compat/test_openpower_plugin_e2e.py; not a test module).

stdin: JSON list of cases {"words": [int, ...] (one instruction: a word, or an
SVP64 prefix and its suffix), "gpr": [ints], "fpr": [ints] (r0 up, at most 128),
optional "vl" (SVSTATE VL = MAXVL, default 0), "vfirst" (SVSTATE.vfirst, default 0)
"cr" (the 32-bit CR, default 0), "fpscr" (default 0) and "mem" ([[address, 64-bit
little-endian word], ...], 8-byte aligned: the only memory a case starts with)};
stdout: a line "RESULT <json>" with, per case, {"gpr": [128], "fpr": [128], "cr": int,
"svstate": int, "fpscr": int, "mem": [[address, word]: the case's words, then any
other non-zero word]}, with "trap": reason when the instruction trapped part-way
(TRAP_AT_LANE: memory written by earlier lanes stays, no register written), or
{"illegal": reason} when the instruction raised the plugin's ILLEGAL helper
(aborted, nothing written).

One simulator runs every case (building one costs seconds): the words sit at
consecutive addresses from 0; before each case the registers are set and the PC put
on its word, as run_tst (openpower.decoder.isa.test_runner) does for a program.
No disassembly is given, so ISACaller names each instruction by its decoder.
"""
import json
import sys

from nmigen import Module
from nmigen.sim import Settle, Simulator
from openpower.decoder.isa.all import ISA
from openpower.decoder.isa_ext_helpers import IsaExtIllegal, IsaExtLaneTrap
from openpower.decoder.power_decoder import create_pdecode
from openpower.decoder.power_decoder2 import PowerDecode2
from openpower.decoder.selectable_int import SelectableInt

NREGS = 128  # SVP64 extends register numbers to r0..r127


def _at(values, i):
    return values[i] if i < len(values) else 0


def main():
    cases = json.load(sys.stdin)
    pdecode2 = PowerDecode2(create_pdecode(include_fp=True))
    m = Module()
    m.submodules.pdecode2 = pdecode2
    words, starts = [], []
    for c in cases:
        starts.append(4 * len(words))
        words += c["words"]
    isa = ISA(pdecode2, [0] * NREGS, {}, 0, initial_insns=words,
              respect_pc=True, fpregfile=[0] * NREGS, bigendian=0)
    out = []

    def process():
        yield pdecode2.dec.bigendian.eq(0)
        for n, case in enumerate(cases):
            for i in range(NREGS):
                isa.gpr[i] = SelectableInt(_at(case["gpr"], i), 64)
                isa.fpr[i] = SelectableInt(_at(case["fpr"], i), 64)
            isa.cr.value = case.get("cr", 0)
            isa.fpscr.value = case.get("fpscr", 0)
            isa.mem.mem.clear()
            for addr, word in case.get("mem", []):
                isa.mem.mem[addr >> 3] = word
            isa.svstate.value = 0
            isa.svstate.vl = isa.svstate.maxvl = case.get("vl", 0)
            isa.svstate.vfirst = case.get("vfirst", 0)
            isa.pc.CIA = SelectableInt(starts[n], 64)
            isa.pc.NIA = SelectableInt(starts[n] + 4, 64)
            yield from isa.setup_one()
            yield Settle()
            trap = {}
            try:
                yield from isa.execute_one()
            except IsaExtIllegal as e:
                out.append({"illegal": str(e)})
                continue
            except IsaExtLaneTrap as e:
                trap = {"trap": str(e)}
            start = [a for a, _w in case.get("mem", [])]
            mem = [[a, isa.mem.mem.get(a >> 3, 0)] for a in start] + \
                [[i << 3, w] for i, w in sorted(isa.mem.mem.items()) if w and (i << 3) not in start]
            out.append({**trap, "mem": mem, "gpr": [isa.gpr(i).value for i in range(NREGS)],
                        "fpr": [isa.fpr(i).value for i in range(NREGS)],
                        "cr": isa.cr.value & 0xFFFF_FFFF,
                        "svstate": isa.svstate.value, "fpscr": isa.fpscr.value})

    sim = Simulator(m)
    sim.add_process(process)
    sim.run()
    print("RESULT " + json.dumps(out))


if __name__ == "__main__":
    main()
