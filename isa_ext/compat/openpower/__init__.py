"""A facade of openpower-isa's test API backed by isa_ext (docs/compat.md).

One module per idea: :mod:`.selectable_int`, :mod:`.state` (SVP64State,
CRFields, register and memory views), :mod:`.program` (Program, SVP64Asm),
:mod:`.run` (run_tst), :mod:`.runner` (TestAccumulatorBase, TestRunnerBase,
ExpectedState), :mod:`.hook` (the import hook standing in for ``openpower.*``
and ``nmutil.*`` while ``isa-ext openpower test`` runs).
"""
