"""The element-dependency picture of one HF instruction: a grid with one row
per element step (HF order, top to bottom) and one column per register
touched; each cell says whether the step reads (R), writes (W) or both, and
accesses that collide with another element's (an overlap) are marked in red
with the overlap kinds.  Drawn with matplotlib (``pip install
'isa_ext[picture]'``); PNG or SVG by the file name's suffix.
"""
from ..errors import IsaExtError

READ, WRITE, BOTH = "#9ecae1", "#fdae6b", "#c5b0d5"
COLLIDE = "#d62728"


def _matplotlib():
    try:
        import matplotlib
    except ImportError:
        raise IsaExtError("the picture needs matplotlib: pip install 'isa_ext[picture]'") \
            from None
    matplotlib.use("Agg")  # files only, never a window
    import matplotlib.pyplot as plt
    return plt


def cells(deps):
    """{(step, register): (reads?, writes?, overlap kinds)}: what the grid shows."""
    grid = {}
    for st in deps.steps:
        for a in st.reads:
            r, w, k = grid.get((st.index, a.name), (False, False, set()))
            grid[(st.index, a.name)] = (True, w, k)
        for a in st.writes:
            r, w, k = grid.get((st.index, a.name), (False, False, set()))
            grid[(st.index, a.name)] = (r, True, k)
    for o in deps.overlaps:
        for step, acc in ((o.earlier, o.first), (o.later, o.second)):
            if o.kind == "PRED" and acc is o.second:
                continue  # the mask read is not an element access
            r, w, k = grid.get((step, acc.name), (False, False, set()))
            grid[(step, acc.name)] = (r, w, k | {o.kind})
    if deps.swizzle_overlap:
        shared = {n for n in deps.registers if int(n.lstrip("rf")) in deps.swizzle_overlap}
        for (step, name), (r, w, k) in list(grid.items()):
            if name in shared:
                grid[(step, name)] = (r, w, k | {"HF-UNDEFINED"})
    return grid


def draw(deps, path, title=None):
    """Write the picture of ``deps`` (:class:`.deps.Dependencies`) to ``path``."""
    if deps.why is not None:
        raise IsaExtError(f"no picture: {deps.why}")
    if not str(path).lower().endswith((".png", ".svg")):
        raise IsaExtError(f"{path}: the picture is written as .png or .svg")
    plt = _matplotlib()
    from matplotlib.patches import Rectangle
    regs = deps.registers
    col = {name: i for i, name in enumerate(regs)}
    nsteps = max(len(deps.steps), 1)
    fig, ax = plt.subplots(figsize=(max(4.0, 0.7 * len(regs) + 1.5),
                                    max(2.5, 0.5 * nsteps + 1.5)))
    for (step, name), (r, w, kinds) in sorted(cells(deps).items()):
        x, y = col[name], step
        face = BOTH if r and w else (WRITE if w else READ)
        edge = COLLIDE if kinds else "#555555"
        ax.add_patch(Rectangle((x - 0.45, y - 0.4), 0.9, 0.8, facecolor=face, edgecolor=edge,
                               linewidth=2.5 if kinds else 0.8))
        label = ("RW" if r and w else "W" if w else "R")
        if kinds:
            label += "\n" + ",".join(sorted(kinds))
        ax.text(x, y, label, ha="center", va="center", fontsize=7,
                color=COLLIDE if kinds else "black")
    ax.set_xlim(-0.6, len(regs) - 0.4)
    ax.set_ylim(nsteps - 0.5, -0.5)
    ax.set_xticks(range(len(regs)))
    ax.set_xticklabels(regs, rotation=90 if len(regs) > 12 else 0)
    ax.set_yticks(range(len(deps.steps)))
    ax.set_yticklabels([f"step {s.index} (src {s.srcstep}, dst {s.dststep})"
                        for s in deps.steps], fontsize=8)
    ax.set_xlabel("register")
    ax.set_title(title or f"{deps.mnemonic}\nreads (R), writes (W); colliding accesses "
                 "in red", fontsize=9)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path
