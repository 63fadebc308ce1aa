"""Spec review tools: consistency checks (``isa-ext check-spec``) and the
generated instruction-set reference (``isa-ext spec``).

Everything here reads the same forms, tables and pages the simulator and the
assembler use, through :class:`isa_ext.isa.ISA`; nothing is listed by hand
except openpower-isa's draft PO22 allocations (``openpower_po22.txt``), which
are reference facts from outside the project.
"""
