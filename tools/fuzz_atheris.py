#!/usr/bin/env python3
"""Coverage-guided fuzzing of isa_ext with atheris (where it installs:
``pip install atheris``), for long campaigns by hand; CI runs the seeded
hypothesis suite in tests/core/test_fuzz.py instead.

    python tools/fuzz_atheris.py asm  [atheris/libFuzzer options, e.g. -runs=1000000]
    python tools/fuzz_atheris.py exec [...]
    python tools/fuzz_atheris.py disasm [...]

Targets, with the same properties as tests/core/test_fuzz.py:
  asm     the input bytes as assembly source (UTF-8 with replacement): a Program
          or AsmError, nothing else
  exec    the input's first byte as VL = MAXVL (0..127, so SVP64 pairs run long
          vectors without a setvl), the rest as instruction words at 0x10000,
          run 50 steps: a RunResult (traps included), never an escaping exception
  disasm  the input as words: every disassembled line reassembles to the bytes
"""
import sys

TARGET = sys.argv.pop(1) if len(sys.argv) > 1 else "asm"


def main():
    import atheris
    with atheris.instrument_imports():
        from isa_ext.asm import assemble
        from isa_ext.disasm import Disassembler
        from isa_ext.errors import AsmError
        from isa_ext.isa import ISA
        from isa_ext.sim import Simulator
        from isa_ext.svp64 import svstate as SV
    isa = ISA()
    dis = Disassembler(isa)

    def fuzz_asm(data):
        try:
            assemble(data.decode("utf-8", "replace"), isa=isa)
        except AsmError:
            pass

    def fuzz_exec(data):
        sim = Simulator(isa, mem_limit=64 << 20)
        vl, data = (data[0] & 0x7F, data[1:]) if data else (0, data)
        sim.state.svstate = SV.put(SV.put(0, "maxvl", vl), "vl", vl)
        sim.load_bytes(data[: len(data) - len(data) % 4] or b"\0\0\0\0", addr=0x10000)
        sim.run(max_steps=50)

    def fuzz_disasm(data):
        data = data[: len(data) - len(data) % 4]
        text = "\n".join(t for _a, _w, t in dis.lines(data, base=0x1000)) + "\n"
        assert assemble(text, isa=isa, base=0x1000).data == data

    target = {"asm": fuzz_asm, "exec": fuzz_exec, "disasm": fuzz_disasm}[TARGET]
    atheris.Setup(sys.argv, target)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
