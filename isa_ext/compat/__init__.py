"""Compatibility with libre-soc's openpower-isa.

* :mod:`.plugin` installs this project's extensions into an openpower-isa checkout.
* :mod:`.openpower` is a facade with the names of openpower-isa's test API
  (``SelectableInt``, ``SVP64State``, ``Program``, ``SVP64Asm``, ``run_tst``,
  ``TestRunnerBase`` ...) backed by isa_ext's assembler and simulator, so that
  openpower-isa's test modules run unchanged: ``isa-ext openpower test PATH``.
  See docs/compat.md.
"""
