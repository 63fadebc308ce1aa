"""Python-side parts of extensions (hooks, intrinsics).  ``isa_ext.ext.<name>`` is
imported when extension ``<name>`` is switched on; it may register a hook in
:data:`isa_ext.isa.EXTENSION_HOOKS` and pseudocode intrinsics in the library."""
