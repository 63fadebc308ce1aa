"""SVP64 instructions inside a block.

A prefixed instruction whose executor is the generic element loop
(:class:`isa_ext.svp64.executor.SVInsn`) becomes, in the block, two paths
chosen by one test of SVSTATE:

* the specialised element loop: for the SVSTATE seen when the block was
  translated (VL, SUBVL, element widths, predicate and REMAP all fixed by it
  and by the prefix), horizontal-first, no REMAP and no element-level interrupt
  pending, the page body is specialised once per element (the element's
  register numbers constant, so GPRs are the block's locals) and unrolled;
* anything else: the registers written back, the executor called exactly as
  the per-instruction path calls it, the registers read again.

The unrolled path is exact as the executor's fast path is: a Trap at element
``k`` leaves SVSTATE's steps at ``k`` and counts the ``k`` completed element
operations (executor.SVInsn._run_fast), and the block's own handler then
reports the instruction and the steps before it.

Lines a block must expand itself (it knows its registers, this module does
not) are markers: FLUSH (locals to the register file), RELOAD (the file to
locals); a line after CALL runs while the register file, not the locals,
holds the registers.
"""
import ast
import re
import sys

from ..svp64 import svstate as SV
from ..svp64.executor import SVInsn
from .specialise import Untranslatable, _is_pure, specialise_template

FLUSH, RELOAD, CALL = "#FLUSH", "#RELOAD", "#CALL "
# elements specialised per instruction at most (VL*SUBVL above this: the executor)
MAX_ELEMENTS = 128
# horizontal-first elements unrolled into the block at most; above, the
# executor runs them (its specialised element loop), called from the block or,
# on PyPy, from the per-instruction path (block.EXECUTOR_CALLS_IN_BLOCKS).
# On PyPy that loop, one
# small loop its JIT traces once, warms up in a fraction of the time a block
# of 64 unrolled elements takes to trace (HF sv.add VL=64 in a loop: 8.5 M
# element operations/s in the first run against 4.0 M, and as fast warm,
# docs/benchmarks.md); on CPython unrolling wins (no call, GPRs in locals)
UNROLL_ELEMENTS = 8 if sys.implementation.name == "pypy" else MAX_ELEMENTS


class SVSpecialised:
    """The block's view of one prefixed instruction (the interface of
    specialise.Specialised, plus ``namespace``: the objects its lines name)."""

    falls_through = True
    next_src = None
    uses_cia = False

    def __init__(self, lines, regs, written, stores, namespace, elements):
        self.lines, self.regs, self.written = lines, regs, written
        self.stores, self.namespace, self.elements = stores, namespace, elements
        self.localised = True  # its own lines flush around the executor call
        # _noirq, _eo: the block's (no element-level interrupt asked for,
        # element operations not yet added to _sim.element_ops)
        self.names = set(namespace) | ({"_noirq", "_eo"} if "_sim" in namespace else set())


def specialise_sv(sim, pc, fn, word, suffix, index, cache):
    """An :class:`SVSpecialised` for the prefixed instruction ``word``,
    ``suffix`` at ``pc`` run by ``fn``; ``index`` names its objects uniquely
    in the block.  Raises Untranslatable for an executor that is not the
    generic loop (branches, category executors): the block ends before it."""
    if type(fn) is not SVInsn:
        raise Untranslatable("not the generic SVP64 element loop")
    x = f"_X{index}"
    ns = {x: fn}
    fallback = [FLUSH, f"{CALL}_r = {x}(s, {pc})", RELOAD,
                f"if _r != {pc + 8}:", f"    return _r, _n + {index + 1}"]
    sv = sim.state.svstate
    vf = vertical_first(sim, pc, fn, word, suffix, index, cache)
    if vf is not None:
        return vf
    elements = _unrolled(sim, fn, sv, word, suffix, cache)
    if elements is None:
        return SVSpecialised(fallback, set(), set(), True, ns, 0)
    bodies, regs, written, stores, may_raise, names, uses_cia, loads = elements
    n = len(bodies)
    ns.update(names)
    ns.update({"_sim": sim, "_Trap": _trap_class(), "_with_steps": _with_steps})
    lines = [f"if s.svstate == {sv} and _noirq:"]
    if may_raise:
        lines.append("    try:")
        for k, body in enumerate(bodies):
            lines.append(f"        _k = {k}")
            lines += ["        " + t for t in body]
        lines += ["    except _Trap:",
                  f"        s.svstate = _with_steps({sv}, _k, {fn.subvl})",
                  "        _eo += _k",
                  "        raise"]
    else:
        lines += ["    " + t for body in bodies for t in body]
    lines.append(f"    _eo += {n}")
    if sv & SV.STEPS_MASK:
        lines.append(f"    s.svstate = {sv & ~SV.STEPS_MASK}")
    lines.append("else:")
    lines += ["    " + t for t in fallback]
    out = SVSpecialised(lines, regs, written, stores, ns, n)
    out.uses_cia = uses_cia
    out.names |= loads  # the register files and memory its lines name (G, CRF, M ...)
    return out


def _with_steps(sv, k, subvl):
    return SV.with_steps(sv, k // subvl, k // subvl, k % subvl, k % subvl)


def _trap_class():
    from ..errors import Trap
    return Trap


def _template(fn, sv, word, suffix, cache):
    """(Template, vector operands by parameter position, VL*SUBVL) for the
    executor's fast path under SVSTATE ``sv`` (either direction), or None
    when that path would not run there or the page cannot be templated."""
    rec = fn.rec
    if not (fn.fast and rec.fast_loop is not None) or sv & fn.order_bits:
        return None
    if sv & SV.REMAP_MASK:
        return None  # REMAP (SVme or RMpst): the executor's index tables
    vl = (sv >> SV.SH_VL) & 0x7F
    if vl == 0 or rec.register_overflow(vl):
        return None
    n = vl * fn.subvl
    if n > MAX_ELEMENTS:
        return None
    c = rec.c
    vec = {o.pos: o for o in rec.vecops}
    symbolic = [f"f_{c.params[i]}" for i in vec]
    if rec.crvec:
        symbolic.append("_crf")
    fields = dict(zip(c.params, rec.base_args))
    try:
        tpl = specialise_template(c, fields, symbolic, {"_crf": rec.crbase}, cache,
                                  ("sv", word, suffix))
    except Untranslatable:
        return None
    if not tpl.sp.falls_through:
        return None
    return tpl, vec, n


def _values(rec, vec, k):
    """The symbolic fields' values at element ``k`` (an int, or the name of
    a local holding it)."""
    c = rec.c
    values = {}
    for i, o in vec.items():
        step = (4 * k if o.cls == "crb" else k) if isinstance(k, int) else \
            f"{'4 * ' if o.cls == 'crb' else ''}{k}"
        values[f"f_{c.params[i]}"] = rec.base_args[i] + step if isinstance(k, int) else \
            f"{rec.base_args[i]} + {step}"
    if rec.crvec:
        if isinstance(k, int):
            values["_crf"] = rec.crbase + (k if rec.cr_step_div == 1 else k // rec.cr_step_div)
        else:
            values["_crf"] = f"{rec.crbase} + " + (
                k if rec.cr_step_div == 1 else f"{k} // {rec.cr_step_div}")
    return values


def _extras(tpl, g):
    used = {k: g[k] for k in tpl.sp.names if k in g}
    uses_cia = bool(re.search(r"\bCIA\b", tpl.text))
    # elements that only assign pure expressions cannot stop part-way
    may_raise = not all(isinstance(st, ast.Assign) and _is_pure(st.value)
                        for st in ast.parse(tpl.text).body)
    return used, uses_cia, may_raise


def _unrolled(sim, fn, sv, word, suffix, cache):
    """(element bodies, registers, written, stores, may raise, names, uses
    CIA, loads) for the executor's horizontal-first fast path under SVSTATE
    ``sv``, or None when that path would not run there."""
    if sv & 1:
        return None
    subvl = fn.subvl
    k0 = ((sv >> SV.SH_SRC) & 0x7F) * subvl + ((sv >> SV.SH_SSUB) & 3)
    if k0 != 0 or ((sv >> SV.SH_DST) & 0x7F) * subvl + ((sv >> SV.SH_DSUB) & 3) != k0:
        return None
    if ((sv >> SV.SH_VL) & 0x7F) * subvl > UNROLL_ELEMENTS:
        return None
    got = _template(fn, sv, word, suffix, cache)
    if got is None:
        return None
    tpl, vec, n = got
    bodies, regs, written = [], set(), set()
    for k in range(n):
        lines, r, w = tpl.element(_values(fn.rec, vec, k))
        bodies.append(lines)
        regs |= r
        written |= w
    if any(r >= 128 for r in regs):
        return None
    used, uses_cia, may_raise = _extras(tpl, fn.rec.c.sem.__globals__)
    return bodies, regs, written, tpl.sp.stores, may_raise, used, uses_cia, set(tpl.sp.names)


def vertical_first(sim, pc, fn, word, suffix, index, cache):
    """The SVSpecialised of a vertical-first instruction (one element, at
    SVSTATE's steps, as executor.SVInsn.__call__ runs it): the page with the
    element's register numbers computed from the steps, the registers in the
    register file (the block writes its locals back first); None when the
    fast path would not run under the SVSTATE seen now."""
    sv = sim.state.svstate
    if not sv & 1:
        return None
    got = _template(fn, sv, word, suffix, cache)
    if got is None:
        return None
    tpl, vec, n = got
    lines, _, _ = tpl.element(_values(fn.rec, vec, "_k"))
    # its scalar operands too are read and written in the register file
    lines = [re.sub(r"\b_g(\d+)\b", r"G[\1]", t) for t in lines]
    used, uses_cia, _ = _extras(tpl, fn.rec.c.sem.__globals__)
    x = f"_X{index}"
    subvl = fn.subvl
    k = f"(_k >> {SV.SH_SRC} & 127)" + (f" * {subvl} + (_k >> {SV.SH_SSUB} & 3)"
                                         if subvl > 1 else "")
    keep = ~SV.STEPS_MASK & ((1 << 64) - 1)
    out = ["_k = s.svstate",
           f"if _k & {keep} == {sv & keep} and _noirq:",
           f"    _k = {k}",
           f"    if _k < {n}:"]
    out += ["        " + t for t in lines]
    out += ["        _eo += 1",
            "else:",
            f"    {CALL}_r = {x}(s, {pc})",
            f"    if _r != {pc + 8}:",
            f"        return _r, _n + {index + 1}"]
    ns = dict(used)
    ns.update({x: fn, "_sim": sim})
    sp = SVSpecialised(out, set(), set(), tpl.sp.stores, ns, 1)
    sp.localised = False  # G itself: the block writes its locals back around it
    sp.uses_cia = uses_cia
    sp.names |= set(tpl.sp.names) | {"G"}  # (its element's GPRs are G[base + _k])
    return sp


def template_loop(rec):
    """``loop(s, CIA, k0, k1)`` as Compiled.element_loop makes it for the
    executor's fast path, from the page specialised to the record's fields
    (the vector operands' numbers ``base + k``), or None when the page cannot
    be templated or touches memory (the inline accesses need a block)."""
    c = rec.c
    vec = {o.pos: o for o in rec.vecops}
    symbolic = [f"f_{c.params[i]}" for i in vec]
    if rec.crvec:
        symbolic.append("_crf")
    try:
        tpl = specialise_template(c, dict(zip(c.params, rec.base_args)), symbolic,
                                  {"_crf": rec.crbase})
    except Untranslatable:
        return None
    if not tpl.sp.falls_through:
        return None
    lines, _, _ = tpl.element(_values(rec, vec, "k"))
    lines = [re.sub(r"\b_g(\d+)\b", r"G[\1]", t) for t in lines]
    text = "\n".join(lines)
    if re.search(r"\b(M|_PG|_cw|_k|_sim|_X\d+)\b", text):
        return None
    src = ["def loop(s, CIA, k0, k1):", "    G = s.gpr", "    F = s.fpr", "    CRF = s.cr",
           "    k = k0", "    try:", "        for k in range(k0, k1):"]
    src += ["            " + t for t in lines] or ["            pass"]
    src += ["    except _Trap as t:", "        t.sv_k = k", "        raise"]
    ns = dict(c.sem.__globals__)
    ns["_Trap"] = _trap_class()
    exec(compile("\n".join(src) + "\n", f"<isa_ext:{c.name}:template loop>", "exec"), ns)
    return ns["loop"]
