"""Install this project's extension instructions into an openpower-isa checkout.

openpower-isa (Libre-SOC's pseudocode-driven simulator) reads instruction pages
from ``openpower/isa/*.mdwn``, decoder rows from ``openpower/isatables/*.csv``,
instruction fields from ``isatables/fields.text`` and mnemonics from
``power_enums._insns``.  :func:`plan` decides, instruction by instruction and
against the checkout's own files (:mod:`.checkout`), what it lacks and could
run; :func:`install` adds exactly that (pages as ``isa_ext_<ext>.mdwn``, rows,
fields, mnemonics, a helper module), remembering every original byte so
:func:`uninstall` restores the checkout exactly; :func:`check` lists the
reasons the rest would not run.  See docs/openpower-plugin.md.

    isa-ext openpower install [--root DIR] [EXT ...]
    isa-ext openpower check [--root DIR] [EXT ...]

(``python -m isa_ext.openpower ...`` still works, as an alias.)

openpower-isa must then regenerate its compiled pseudocode (docs/openpower-plugin.md
names the commands).

The plugin, one module per step: :mod:`.checkout` (find a checkout, read its
facts, edit it reversibly), :mod:`.rewriter` (our pages in its dialect),
:mod:`.planner` (what would run), :mod:`.installer` (write it, restore it),
:mod:`.cli` (the command); :mod:`.installed_helpers` is the helper module
install copies into openpower-isa (it runs there, never here).
"""
from .checkout import OpenPowerError, locate
from .cli import main
from .installer import check, install, uninstall
from .planner import DEFAULT_EXTENSIONS, Plan, minor22_row, plan, provided_helpers, rm_row
from .rewriter import compat_problems, convert_page, integer_width

__all__ = ["OpenPowerError", "locate", "main", "check", "install", "uninstall",
           "DEFAULT_EXTENSIONS", "Plan", "minor22_row", "plan", "provided_helpers", "rm_row",
           "compat_problems", "convert_page", "integer_width"]
