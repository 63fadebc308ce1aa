"""The helper module ``isa-ext openpower install`` writes into openpower-isa
(src/openpower/decoder/isa_ext_helpers.py), kept in parts by extension:
:mod:`.common` (the hook, SVP64 prefix decoding, the dialect's helpers),
:mod:`.swizzle` (element-group walks, FPADD) and :mod:`.gpu` (vector scope,
identity, header index, surface atomics' floating point).  The parts run in
openpower-isa's Python, never in isa_ext's: the planner reads them as text
(``planner._helpers_source``) and this package imports none of them."""

#: the parts in the order they are concatenated into the installed module: a
#: name here, or a dotted module path (a module of isa_ext's own that runs alone)
PARTS = ("common", "swizzle", "isa_ext.ext.gpu.float_formats", "gpu")
