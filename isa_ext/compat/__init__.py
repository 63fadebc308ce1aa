"""Compatibility with libre-soc's openpower-isa: everything of isa_ext that
knows about that project lives here, and the core (isa, sim, machine,
pseudocode, svp64, translate) imports none of it (``python -m
isa_ext.tools.layering`` checks).  It plugs into the core through the core's
hooks: ``ISA(page_source=...)`` and ``compiler.register_dialect``.

* :mod:`.root`, :mod:`.tables`, :mod:`.fields`: an openpower-isa checkout's
  own pages, opcode tables and fields, as an ISA page source
  (``ISA(page_source=root.read(PATH))``, ``isa-ext run --openpower-root``).
* :mod:`.dialect`: its pseudocode dialect (grammar, helpers, the XER updates
  its simulator makes around a page).
* :mod:`.compare`: isa_ext's page against the checkout's on random words.
* :mod:`.plugin`: installs this project's extensions into a checkout
  (``isa-ext openpower install|check|uninstall``).
* :mod:`.openpower`: a facade with the names of openpower-isa's test API
  (``SelectableInt``, ``SVP64State``, ``Program``, ``SVP64Asm``, ``run_tst``,
  ``TestRunnerBase`` ...) backed by isa_ext's assembler and simulator, so that
  openpower-isa's test modules run unchanged: ``isa-ext openpower test PATH``.
* :mod:`.isacaller`: the differential against ISACaller (``isa-ext diffcheck
  --against isacaller``); :mod:`.libresoc` runs code in openpower-isa's venv.

See docs/compat.md and docs/openpower-plugin.md.
"""

#: the names only this package may say (any case): the programs it is
#: compatible with, which the core describes by behaviour instead
#: (``python -m isa_ext.tools.layering`` reads this from the source)
OWNED_WORDS = ("isacaller",)
