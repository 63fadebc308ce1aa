"""Where an ISA sends its SVP64-prefixed words: to :func:`engine.build
<isa_ext.svp64.engine.build>`, the engine imported at the first such word
(its 20 modules were 7 ms of every start-up, a scalar program's included)."""


def install_dispatch(reg):
    """Make the ISA of ``reg`` (an :class:`isa_ext.extension.Registry`) run
    prefixed instructions through :func:`engine.build` (by the RM category of
    the suffix).  The svp64 extension registers it; an extension that adds its
    own category registers it too, so its rows run with svp64 off."""
    isa = reg.isa

    def run_prefixed(sim, prefix, suffix):
        from .engine import build
        return build(isa, sim, prefix, suffix)
    reg.svp64_prefix(run_prefixed)
