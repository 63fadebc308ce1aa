"""isa_ext: specify, run and review Power ISA SVP64 extensions.

Public entry points:

* :class:`isa_ext.isa.ISA` -- the instruction set loaded from the spec data
  (forms, decoder tables, pseudocode pages), with extensions switchable.
* :class:`isa_ext.sim.Simulator` -- run programs; returns a :class:`isa_ext.sim.RunResult`.
* :mod:`isa_ext.asm` -- assembler and disassembler driven by the same tables.
"""

__version__ = "0.1.0"
