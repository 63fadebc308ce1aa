"""The built-in extensions' Python, one package per extension
(``isa_ext/ext/<name>/``): each defines ``EXTENSION``, an
:class:`isa_ext.extension.Extension` whose ``setup`` registers its helpers and
hooks into the registry of an ISA that switches it on
(docs/adding-an-extension.md)."""
