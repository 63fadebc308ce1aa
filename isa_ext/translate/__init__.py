"""Block translation: straight-line runs of decoded instructions compiled into
one Python function each (block.py), from the same decoded record and compiled
pages the per-instruction path runs (specialise.py).  ``Simulator(translate=
False)``, ``--no-translate`` or ``ISA_EXT_TRANSLATE=0`` turn it off."""
