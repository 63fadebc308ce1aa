"""Blocks: straight-line runs of decoded instructions as one Python function.

A block starts at an address and runs its instructions' specialised bodies
(specialise.py) in order, GPRs held in locals ``_gN`` and written back at every
exit.  It ends at a branch (the block's exit is that branch's next address), at
the program's end address, before an instruction it cannot inline, or at
MAX_LENGTH instructions.  A block whose branch goes back to its own start
loops inside the function while the caller's step budget allows one more pass,
so a tight loop costs one call for many iterations.

The function ``run(s, budget) -> (next pc, instructions run)`` is exact at
every exit:

* the caller only enters it with ``budget >= length`` and it never runs more
  than ``budget`` instructions;
* an exception (Trap, ProgramExit, KeyboardInterrupt) from instruction ``i``
  leaves the state the per-instruction path leaves (earlier instructions done,
  the locals written back, instruction ``i``'s own partial effects as its page
  makes them) and carries ``isa_ext_block = (instructions completed, pc of i)``;
* after an instruction that may store, a store into decoded code (which
  empties ``Memory.code_words`` and forgets every block, see
  ``Simulator._forget_decoded``) ends the block there, so the next instruction
  is fetched again.
"""
import ast
import functools
import re
import struct
import sys

from ..errors import IsaExtError, Trap
from ..machine import Memory
from ..prefix import SVP64, kind as prefix_kind
from . import block_store, code_store
from .specialise import Untranslatable, cached, specialise
from .svp64 import CALL, FLUSH, RELOAD, specialise_sv

MAX_LENGTH = 64
# conditional branches a superblock goes on past (each a side exit; longer
# superblocks cost translation time that short programs do not win back)
MAX_SIDE_EXITS = 2
# SVP64 elements unrolled in one block at most (compiling costs time too)
MAX_ELEMENTS = 512
# whether a block holds an SVP64 instruction it does not unroll (the
# executor called from the block): not on PyPy, whose JIT runs such an
# instruction's specialised element loop from the per-instruction path
# faster than from a block around it (HF sv.add VL=64 with 8 elements unrolled
# at most, translate.svp64.UNROLL_ELEMENTS)
EXECUTOR_CALLS_IN_BLOCKS = sys.implementation.name != "pypy"
_IND = "    "
# a region's blocks chosen by a chain of address tests up to this many, by a
# binary search over their addresses above (Writer.dispatch)
DISPATCH_CHAIN = 4
# in a region, a member block with one exit of the region's blocks naming it
# (an if/else arm, the block after a side exit) is also written where that
# exit leaves, nested at most this deep: no dispatch between the two
INLINE_DEPTH = 6


class Block:
    """``end``: the address after its last instruction (words it was built from).

    For chaining (Simulator._run_blocks, translate_region): ``insns`` and
    ``namespace`` are what it was built from; ``plain`` is the block itself or,
    for a region's entry, the member block it enters at; while ``watch`` is
    above 0 the dispatcher counts the block's runs down, gathering in ``succ``
    the addresses it left to."""
    __slots__ = ("start", "length", "run", "source", "mnemonics", "end",
                 "insns", "namespace", "plain", "watch", "succ", "tries", "key", "members")

    def __init__(self, start, length, run, source, mnemonics, end, insns=(), namespace=None,
                 watch=0, key=None):
        self.start, self.length, self.run = start, length, run
        self.source, self.mnemonics, self.end = source, mnemonics, end
        self.insns, self.namespace = insns, namespace or {}
        self.plain, self.watch, self.succ, self.tries = self, watch, set(), 0
        # its name in the store of translated code kept across runs (None: not kept)
        self.key = key
        # a region's entry: the starts of the region's blocks (a block: none)
        self.members = ()


def _gather(sim, start, end):
    """[(pc, size, decoded, Specialised)] for the block at ``start``."""
    isa = sim.isa
    # specialised words, kept by the ISA (like its decoded SVP64 records): they
    # hold no machine state, so every simulator of this ISA shares them
    cache = isa.__dict__.setdefault("_translate_specialised", {})
    out, namespace = [], {}
    pc = start
    elements = side_exits = 0
    sets_svstate = False
    while len(out) < MAX_LENGTH:
        if out and pc == end:
            break
        try:
            fn, length, word = sim._fetch(pc)
        except (Trap, IsaExtError):
            break
        if length == 8 and prefix_kind(word) != SVP64:
            # a v3.1 prefixed instruction: a table row, specialised like a word
            suffix = sim.state.mem.read_word(pc + 4)
            d = isa.decode_prefixed(word, suffix)
            if d is None or isa.executable_prefixed(word, suffix) is not fn:
                break  # (a prefixed form an extension runs its own way)
            try:
                c = isa.compiled(d.spec)
                sp = specialise(c, d.fields, cache, word << 32 | suffix)
            except (Untranslatable, IsaExtError):
                break
            g = c.sem.__globals__
        elif length == 8:
            if sets_svstate:
                # its specialisation follows the SVSTATE seen now, which an
                # earlier instruction of the block changes (setvl): a block of
                # its own, translated when it is reached under that SVSTATE
                break
            try:
                suffix = sim.state.mem.read_word(pc + 4)
                d = isa.decode(suffix)
                sp = specialise_sv(sim, pc, fn, word, suffix, len(out), cache)
            except (Untranslatable, IsaExtError, Trap):
                break
            if d is None or (out and elements + sp.elements > MAX_ELEMENTS):
                break
            if not sp.elements and not EXECUTOR_CALLS_IN_BLOCKS:
                break  # (its element loop is the executor's either way)
            elements += sp.elements
            g = sp.namespace
        elif length == 4:
            d = isa.decode(word)
            if d is None or isa.runs_own_way(word):
                break  # an extension runs this word its own way (Registry.row_executor)
            try:
                c = isa.compiled(d.spec)
                sp = specialise(c, d.fields, cache, word)
            except (Untranslatable, IsaExtError):
                break
            g = c.sem.__globals__
        else:
            break
        used = [k for k in sp.names if k in g]
        if any(k in namespace and namespace[k] is not g[k] for k in used):
            break  # two pages whose global names differ: not one namespace
        namespace.update((k, g[k]) for k in used)
        out.append((pc, length, d, sp))
        sets_svstate = sets_svstate or any(_SETS_SVSTATE.search(t) for t in sp.lines)
        if not sp.falls_through:
            side_exits += 1
            if side_exits > MAX_SIDE_EXITS or not _may_fall_through(sp) or \
                    start in _constant_targets(sp, pc):
                # (a branch back to the start closes a loop: what follows it
                # runs once per loop exit, and its registers would only add
                # to every pass's write-backs)
                break
        pc += length
    return out, namespace


_CIA = re.compile(r"\bCIA\b")
_SETS_SVSTATE = re.compile(r"\bs\.svstate\s*=[^=]")
_NIA_CONST = re.compile(r"NIA = ([-+&|^<>()\w\s*]+)$")
# plain int attributes of the state a block may hold in locals ``_s_<name>``
_STATE_LOCALS = ("so", "ov", "ca", "ov32", "ca32", "ctr", "lr", "tar", "msr",
                 "svstate", "sv_end", "sv_loopends", "sv_loop")
_STATE_ATTR = re.compile(r"(?<![\w.])s\.(" + "|".join(_STATE_LOCALS) + r")\b")
_CR_FIELD = re.compile(r"\bCRF\[(\d+)\]")
# a line handing the state on whole: ``[x = ]f(s[, ...])`` (an executor call,
# a helper such as svstep's _svstate_next); the block's locals go back to the
# state before it and are read again after it
_S_CALL = re.compile(r"^(?:[A-Za-z_]\w* = )?[A-Za-z_]\w*\(s(?:, [^()]*)?\)$")
_ASSIGNS_CIA = re.compile(r"\bCIA\s*(=[^=]|[-+*/|&^%<>]+=)")


# unpack_from and pack_into of 1, 2, 4 and 8 bytes, by Memory.little
_ACCESS = {little: tuple(getattr(struct.Struct(("<" if little else ">") + c), f)
                         for f in ("unpack_from", "pack_into") for c in "BHIQ")
           for little in (False, True)}


def _no_page(key):
    return None


_NIA = re.compile(r"\bNIA\b")


def _branch_form(sp, size):
    """(other lines, condition, target) of a conditional branch whose body
    is ``NIA = CIA + size``, lines not naming NIA, ``if cond:`` and
    ``    NIA = target`` last, its next address NIA: the block tests the
    condition itself (no NIA temporary, no test of where it went); None for
    another body.  Kept on the body, as locals_info."""
    form = getattr(sp, "_branch_form", False)
    if form is not False:
        return form
    form = None
    lines = sp.lines
    if sp.next_src == "NIA" and len(lines) >= 3 and lines[0] == f"NIA = CIA + {size}" and \
            lines[-2].startswith("if ") and lines[-2].endswith(":") and \
            lines[-1].startswith("    NIA = ") and not lines[-1][4:].startswith(" ") and \
            not any(_NIA.search(t) for t in lines[1:-2]) and \
            not _NIA.search(lines[-2]) and not _NIA.search(lines[-1][10:]) and \
            not any(_ASSIGNS_CIA.search(t) for t in lines):
        form = (lines[1:-2], lines[-2][3:-1], lines[-1][10:])
    sp._branch_form = form
    return form


# the inline accesses' page views (specialise._InlineLoads): local -> Memory dict
_VIEW_DICTS = {"_R2": "read2", "_R4": "read4", "_R8": "read8",
               "_W1": "write1", "_W2": "write2", "_W4": "write4", "_W8": "write8"}


def _may_fall_through(sp):
    """Whether a branch may go on to the next address: its body returns the
    ``NIA`` it assigns under a condition (a conditional branch, ``blrl``).
    Then the block goes on past it, a superblock leaving where the branch is
    taken.  A body returning its target itself (``b``, ``blr``, ``bctr``:
    specialise._returned_value) goes there whatever holds: what follows it
    is another path's code."""
    return sp.next_src is not None and "NIA" in re.findall(r"[A-Za-z_]\w*", sp.next_src)


def _constant_targets(sp, pc):
    """The addresses a branch at ``pc`` may go to that its lines spell as
    constants (``NIA = <constant expression>``, CIA being ``pc``)."""
    out = set()
    for text in sp.lines + ["NIA = " + (sp.next_src or "0")]:
        m = _NIA_CONST.match(text.strip())
        value = _constant(_CIA.sub(str(pc), m.group(1))) if m else None
        if value is not None:
            out.add(value)
    return out


def _constant(text):
    """The value of an expression of integer constants, or None."""
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        return None
    if not all(isinstance(n, (ast.Expression, ast.BinOp, ast.Constant, ast.operator))
               for n in ast.walk(tree)):
        return None
    try:
        value = eval(compile(tree, "<target>", "eval"), {"__builtins__": {}})
    except (ArithmeticError, ValueError, TypeError):
        return None
    return value if type(value) is int else None


# PyPy's JIT gives up tracing a loop longer than its trace_limit (6,000
# operations by default) and runs it in its interpreter, slower than CPython;
# a region's pass through a few long blocks is longer.  16,000 is the most
# PyPy 7.3 takes (Embench on PyPy: nsichneu, sglib-combined, edn 10-30% faster)
PYPY_TRACE_LIMIT = 16_000
_jit_tuned = []


def tune_pypy_jit():
    """On PyPy, raise the JIT's trace limit to PYPY_TRACE_LIMIT, once a
    process (the first block translated); elsewhere nothing."""
    if _jit_tuned or sys.implementation.name != "pypy":
        return
    _jit_tuned.append(True)
    try:
        import pypyjit
        pypyjit.set_param(trace_limit=PYPY_TRACE_LIMIT)
    except Exception:   # a PyPy without the module, or refusing the value
        pass


def translate(sim, start, end):
    """A :class:`Block` for the code at ``start``, or None when its first
    instruction is not one a block can inline; from the store kept across
    runs (block_store) when it has the block."""
    tune_pypy_jit()
    key = block_store.block_key(sim, start, end)
    if key is not None:
        b = block_store.load_block(sim.isa, key, bind, code_cache_of(sim.isa))
        if b is not None:
            return b
    insns, namespace = _gather(sim, start, end)
    if not insns:
        return None
    source, tags, code = _compile([(start, insns)], f"block@0x{start:x}", region=False,
                                  code_cache=code_cache_of(sim.isa))
    last_pc, last_size = insns[-1][:2]
    b = Block(start, len(insns), bind(code, tags, namespace), source,
              [("sv." if size == 8 else "") + d.mnemonic for _, size, d, _ in insns],
              last_pc + last_size, insns, namespace, key=key)
    if key is not None:
        block_store.save_block(sim.isa, key, b, tags, code)
    return b


def translate_region(members, code_cache=None):
    """One function running the blocks ``members`` (the first is the entry)
    with a dispatch on ``_nia`` between them, registers held in locals from
    entry to the exit: a :class:`Block` per member, each entering the one
    function at its own start.  None when the blocks' pages disagree on a
    global name (they cannot share one namespace)."""
    namespace = {}
    for b in members:
        for k, v in b.namespace.items():
            if namespace.setdefault(k, v) is not v:
                return None
    head = members[0]
    key = block_store.region_key([b.key for b in members])
    got = block_store.load_region(key, code_cache) if key is not None else None
    if got is not None:
        source, tags, code = got
    else:
        source, tags, code = _compile([(b.start, b.insns) for b in members],
                                      f"region@0x{head.start:x}", region=True,
                                      code_cache=code_cache)
        if key is not None:
            block_store.save_region(key, source, tags, code)
    run = bind(code, tags, namespace)
    out, starts = [], tuple(b.start for b in members)
    for b in members:
        entry = Block(b.start, b.length, functools.partial(run, _nia=b.start), source,
                      b.mnemonics, b.end, b.insns, b.namespace)
        entry.plain, entry.watch, entry.members = b, 0, starts
        out.append(entry)
    return out


def _state_locals(every):
    """(rename, CR fields, their written ones, state attributes, their written
    ones): constant CR fields ``CRF[k]`` as locals ``_ck`` and the plain
    state attributes (_STATE_LOCALS) as ``_s_<name>``, held like the GPRs from
    entry to every exit.  Only when nothing else could reach the CR file or
    the state (no other ``CRF``, no other ``s`` but lines handing ``s`` to a
    call, _S_CALL, around which the block writes its locals back and reads
    them again): each kind separately.  The state locals are live across an
    instruction that is not localised (its GPRs in the register file) too."""
    infos = [locals_info(sp) for *_, sp in every]
    if None in infos:
        return (lambda t: t), [], [], [], []
    cr_ok = not any(i[4] for i in infos)
    st_ok = not any(i[5] for i in infos)
    crs = sorted(set().union(*(i[0] for i in infos))) if cr_ok else []
    crs_written = sorted(set().union(*(i[1] for i in infos))) if cr_ok else []
    attrs = sorted(set().union(*(i[2] for i in infos))) if st_ok else []
    attrs_written = sorted(set().union(*(i[3] for i in infos))) if st_ok else []

    def rename(text):
        if crs and "CRF[" in text:
            text = _CR_FIELD.sub(r"_c\1", text)
        if attrs and "s." in text:
            text = _STATE_ATTR.sub(r"_s_\1", text)
        return text
    return rename, crs, crs_written, attrs, attrs_written


def locals_info(sp):
    """(CR fields read or written as ``CRF[k]``, those written, state
    attributes of _STATE_LOCALS, those written, whether ``CRF`` is used any
    other way, whether ``s`` is) for one instruction's lines, kept on it (its
    words are specialised once, and stored across runs with it:
    translate/store.py); None for lines that are not one body."""
    info = getattr(sp, "_locals_info", False)
    if info is not False:
        return info
    try:
        if getattr(sp, "elements", 0) > 1:
            # unrolled SVP64 elements keep the block out of CR and state
            # locals: reading them through (tens of ms for 64 elements, at
            # each translation, as an SVP64 instruction's lines are built
            # for each block) costs more than the locals save
            raise SyntaxError("unrolled elements")
        text = "\n".join(_plain_lines(sp.lines) + [sp.next_src or ""])
        tree = ast.parse(text)
    except SyntaxError:
        info = None
    else:
        crs, crs_w, attrs, attrs_w, held = set(), set(), set(), set(), set()
        n_cr = n_attr = 0
        for n in ast.walk(tree):
            if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and \
                    n.value.id == "CRF" and isinstance(n.slice, ast.Constant) and \
                    type(n.slice.value) is int and 0 <= n.slice.value < 128:
                crs.add(n.slice.value)
                n_cr += 1
                if not isinstance(n.ctx, ast.Load):
                    crs_w.add(n.slice.value)
                held.add(id(n.value))
            elif isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and \
                    n.value.id == "s" and n.attr in _STATE_LOCALS:
                attrs.add(n.attr)
                n_attr += 1
                if not isinstance(n.ctx, ast.Load):
                    attrs_w.add(n.attr)
                held.add(id(n.value))
        n_calls = 0
        for st in ast.walk(tree):
            c = getattr(st, "value", None) if isinstance(st, (ast.Assign, ast.Expr)) else None
            if isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.args and \
                    isinstance(c.args[0], ast.Name) and c.args[0].id == "s" and \
                    (isinstance(st, ast.Expr) or len(st.targets) == 1 and
                     isinstance(st.targets[0], ast.Name)):
                held.add(id(c.args[0]))
                n_calls += 1
        other = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and
                 n.id in ("CRF", "s") and id(n) not in held}
        # the renaming and the calls' write-backs are textual (_state_locals,
        # _Writer.instruction): they must find exactly what the tree holds (not
        # ``CRF[(0)]``, not a string's text, each call a line of its own)
        # (a call given the state other than on a line of its own, or a
        # method of the state -- sc's s.syscall() sets CR0.SO -- may reach the
        # CR file through s.cr)
        s_called = any(isinstance(c, ast.Call) and (
            isinstance(c.func, ast.Attribute) and isinstance(c.func.value, ast.Name) and
            c.func.value.id == "s" or
            any(isinstance(a, ast.Name) and a.id == "s" and id(a) not in held for a in c.args))
            for c in ast.walk(tree))
        cr_other = "CRF" in other or len(_CR_FIELD.findall(text)) != n_cr or s_called
        s_other = "s" in other or len(_STATE_ATTR.findall(text)) != n_attr or \
            sum(1 for t in text.split("\n") if _S_CALL.match(t.strip())) != n_calls
        info = (crs, crs_w, attrs, attrs_w, cr_other, s_other)
    sp._locals_info = info
    return info


def code_cache_of(isa):
    """Compiled block sources, kept by the ISA (as its specialised words):
    a code object holds no machine state (each block binds its own names), so
    every simulator of this ISA running the same code (a test suite, a
    campaign, a program run again) compiles a block once."""
    return isa.__dict__.setdefault("_translate_code", {})


# compiled sources kept (the cache is emptied when full: bounds its memory)
CODE_CACHE_KEPT = 512


def _plain_lines(lines):
    """An instruction's lines as Python: markers FLUSH and RELOAD as ``pass``,
    a CALL line its statement."""
    out = []
    for t in lines:
        bare = t.lstrip()
        if bare in (FLUSH, RELOAD):
            t = t[:len(t) - len(bare)] + "pass"
        elif bare.startswith(CALL):
            t = t[:len(t) - len(bare)] + bare[len(CALL):]
        out.append(t)
    return out


def _compile(entries, name, region, code_cache=None):
    """(source, tags, code) for blocks ``entries`` [(start, insns)]: one
    block (``region`` false) or a region of several; ``tags`` the line
    tags its exception handler reads (_Writer); the code object from
    ``code_cache`` (source -> code) where the same source was compiled."""
    w = _Writer(entries, region)
    w.prologue()
    w.loop()
    w.handler()
    source = "\n".join(text for text, _ in w.lines) + "\n"
    tags = {no: tag for no, (_, tag) in enumerate(w.lines, 1) if tag is not None}
    code = cached(code_cache, source, lambda: code_store.compiled(source, f"<isa_ext:{name}>"),
                  kept=CODE_CACHE_KEPT)
    return source, tags, code


def bind(code, tags, namespace):
    """The ``run`` function of a block's or region's compiled ``code``, its
    globals the pages' names it uses (``namespace``), its line ``tags`` and
    the names every block's prologue reads."""
    ns = dict(namespace)
    ns["__builtins__"] = __builtins__
    ns["_LINES"] = tags
    ns["_AFTER"] = _Writer.AFTER
    ns["_Memory"], ns["_no_page"], ns["_ACCESS"] = Memory, _no_page, _ACCESS
    ns["_BA"] = bytearray
    exec(code, ns)
    return ns["run"]


class _Writer:
    """The source of one block or region function: its lines, each with the
    tag the exception handler reads -- (instructions done in this pass, pc or
    None for _nia, GPR locals live, CR and state locals live) -- and the
    write-backs and reloads of the locals the function holds registers in."""

    # the tag after a pass's instructions are counted: everything in locals
    AFTER = (0, None, True, True)

    def __init__(self, entries, region):
        self.entries, self.region = entries, region
        every = [t for _, insns in entries for t in insns]
        self.regs = sorted(set().union(*(sp.regs for *_, sp in every)))
        # an SVP64 instruction's executor call may change any register: all reloaded
        self.reload = self.regs if any(CALL in t for *_, sp in every for t in sp.lines) \
            else None
        self.written = sorted(set().union(*(sp.written for *_, sp in every)))
        self.any_store = any(sp.stores for *_, sp in every)
        self.used = set().union(*(sp.names for *_, sp in every))
        (self.rename, self.crs, self.crs_written, self.attrs,
         self.attrs_written) = _state_locals(every)
        self.held = bool(self.crs or self.attrs)
        self.counts = "_eo" in self.used
        self.lines = []
        self.insns_of = dict(entries)
        self.inline_once = self._named_once() if region else set()
        # instructions written a second time, at most as many as the region's
        # (a chain of blocks each inlined into the next would grow without it)
        self.inline_left = sum(len(insns) for _, insns in entries)

    def emit(self, depth, text, tag=None):
        self.lines.append((_IND * depth + text, tag))

    # -- a region's blocks written where their one exit leaves ----------------
    @staticmethod
    def _end_target(pc, size, sp, form):
        """The constant address a block whose last instruction is ``sp``
        goes on to past it (not where a branch form is taken), or None."""
        if sp.falls_through or form is not None:
            return pc + size
        return _constant(_CIA.sub(str(pc), sp.next_src)) if sp.next_src else None

    def _named_once(self):
        """The region's blocks that exactly one of its blocks' exits names
        as a constant (a branch form's target, a block's end): each is also
        written where that exit leaves (``leave``)."""
        named = {}
        for _, insns in self.entries:
            for i, (pc, size, d, sp) in enumerate(insns):
                form = None if sp.falls_through else _branch_form(sp, size)
                targets = [] if form is None else [_constant(_CIA.sub(str(pc), form[2]))]
                if i == len(insns) - 1:
                    targets.append(self._end_target(pc, size, sp, form))
                for t in targets:
                    if t is not None:
                        named[t] = named.get(t, 0) + 1
        return {t for t, k in named.items() if k == 1 and t in self.insns_of}

    # -- write-backs and reloads ----------------------------------------------
    def flush_regs(self, depth, tag):
        for r in self.written:
            self.emit(depth, f"G[{r}] = _g{r}", tag)

    def flush_state(self, depth, tag):
        for k in self.crs_written:
            self.emit(depth, f"CRF[{k}] = _c{k}", tag)
        for a in self.attrs_written:
            self.emit(depth, f"s.{a} = _s_{a}", tag)

    def reload_state(self, depth, tag):
        for k in self.crs:
            self.emit(depth, f"_c{k} = CRF[{k}]", tag)
        for a in self.attrs:
            self.emit(depth, f"_s_{a} = s.{a}", tag)

    def flush_counts(self, depth, tag):
        # SVP64 element operations: counted in _eo, added where the block
        # leaves or hands the state to a call (the executor counts on from
        # _sim.element_ops, and an element-level interrupt is asked for there)
        if self.counts:  # (one line: the handler adds _eo again wherever it stops)
            self.emit(depth, "_sim.element_ops += _eo; _eo = 0", tag)

    def reload_counts(self, depth, tag):
        if self.counts:  # (a call may have delivered the interrupt asked for)
            self.emit(depth, "_noirq = _sim.interrupt_after is None", tag)

    def flush(self, depth, tag):
        self.flush_regs(depth, tag)
        self.flush_state(depth, tag)
        self.flush_counts(depth, tag)

    # -- the function ---------------------------------------------------------
    def prologue(self):
        """The signature and the registers' loads into locals."""
        emit, used, first = self.emit, self.used, self.entries[0][0]
        emit(0, f"def run(s, _budget, _nia={first}):" if self.region else "def run(s, _budget):")
        if self.regs or "G" in used:
            emit(1, "G = s.gpr")
        for name_, attr in (("F", "fpr"), ("CRF", "cr")):
            if name_ in used:
                emit(1, f"{name_} = s.{attr}")
        if "M" in used or self.any_store:
            emit(1, "M = s.mem")
        if "_PG" in used:  # inline loads and stores (specialise._InlineLoads)
            emit(1, "_PG = M._pages.get if type(M) is _Memory else _no_page")
            emit(1, "_U1, _U2, _U4, _U8, _P1, _P2, _P4, _P8 = _ACCESS[M.little]")
        views = sorted(used & _VIEW_DICTS.keys())
        if views:  # (a view's byte order is the host's: Memory.fill_views)
            emit(1, "_V = type(M) is _Memory and M.little")
            for name_ in views:
                emit(1, f"{name_} = M.{_VIEW_DICTS[name_]}.get if _V else _no_page")
        if self.any_store:
            emit(1, "_cw = M.code_words")
        if "_cp" in used:
            emit(1, "_cp = M.code_pages")
        for r in self.regs:
            emit(1, f"_g{r} = G[{r}]")
        for k in self.crs:
            emit(1, f"_c{k} = CRF[{k}]")
        for a in self.attrs:
            emit(1, f"_s_{a} = s.{a}")
        if self.counts:
            # an element-level interrupt is asked for between runs (gdb, the
            # caller) and delivered by the executor, which then raises: it
            # cannot appear while the block runs
            emit(1, "_noirq = _sim.interrupt_after is None")
            emit(1, "_eo = 0")
        emit(1, "_n = 0")
        if not self.region:
            emit(1, f"_nia = {first}")

    def loop(self):
        """The loop over the block (or the region's dispatch between its
        blocks) and the one write-back after it."""
        emit, after = self.emit, self.AFTER
        emit(1, "try:")
        # _n once more, inside the try before the loop: CPython 3.11 reports a
        # signal's exception (Ctrl-C) raised at a backward jump at the
        # instruction before the jump's target, which must lie in the
        # handler's range; with the loop first the exception passed the
        # handler by, the locals never written back and the block's steps lost
        emit(2, "_n = 0", after)
        emit(2, "while True:", after)
        if self.region:
            # the dispatch between the region's blocks: a block runs whole or not
            # at all (the step budget); a store into decoded code (which forgot
            # this region) left it already, at the store (block())
            self.dispatch(3, self.entries)
        else:
            # every exit breaks out of the loop to one write-back (a flush per exit
            # made long blocks' source, and their compile time, grow with exits x registers)
            self.block(3, *self.entries[0])
        self.flush(2, after)
        emit(2, "return _nia, _n", after)

    def dispatch(self, depth, entries):
        """The choice of the region's block at ``_nia``: a chain of tests
        for a few blocks (the entry, the loop's head, first), else a binary
        search over their addresses (a long chain's tests cost more than
        the short blocks of branchy code they lead to)."""
        emit, after = self.emit, self.AFTER
        if len(entries) > DISPATCH_CHAIN:
            ordered = sorted(entries, key=lambda e: e[0])
            half = len(ordered) // 2
            emit(depth, f"if _nia < {ordered[half][0]}:", after)
            self.dispatch(depth + 1, ordered[:half])
            emit(depth, "else:", after)
            self.dispatch(depth + 1, ordered[half:])
            return
        for k, (start, insns) in enumerate(entries):
            emit(depth, f"{'if' if k == 0 else 'elif'} _nia == {start}:", after)
            emit(depth + 1, f"if _n + {len(insns)} > _budget:", after)
            emit(depth + 2, "break", after)
            self.block(depth + 1, start, insns)
        emit(depth, "else:", after)
        emit(depth + 1, "break", after)

    def branch_exit(self, base, start, length, i, pc, size, form, sp, path):
        """A conditional branch's exit without its ``NIA`` temporary: the
        taken path sets ``_nia`` and leaves (mid-block, or the last
        instruction in a region) or the last instruction sets it either way."""
        emit = self.emit
        live, done = (i, pc, True, True), (i + 1, None, True, True)
        cond, target = (_CIA.sub(str(pc), self.rename(t)) for t in form[1:])
        if i == length - 1 and not self.region:
            emit(base, f"_nia = {pc + size}", live)
            emit(base, f"if {cond}:", live)
            emit(base + 1, f"_nia = {target}", live)
            return
        emit(base, f"if {cond}:", live)
        emit(base + 1, f"_nia = {target}", live)
        emit(base + 1, f"_n += {i + 1}", done)
        if sp.stores:   # (a store into decoded code leaves the region at once)
            emit(base + 1, "if not _cw:", self.AFTER)
            emit(base + 2, "break", self.AFTER)
        self.leave(base + 1, start, length, _constant(target), path)
        if i == length - 1:   # (a region's block: its end leaves from here)
            emit(base, f"_nia = {pc + size}", live)

    def leave(self, depth, start, length, target=None, path=()):
        """A taken branch's way on once ``_nia`` and ``_n`` hold it: in a
        region, the block at ``target`` written here when it is one exit's
        alone (_named_once), else the region's dispatch; a block's own start
        again while the steps left hold it, else the one write-back after the
        loop."""
        emit, after = self.emit, self.AFTER
        if self.region:
            insns = self.insns_of.get(target, ())
            if target in self.inline_once and target not in path and \
                    len(path) < INLINE_DEPTH and len(insns) <= self.inline_left:
                self.inline_left -= len(insns)
                emit(depth, f"if _n + {len(insns)} > _budget:", after)
                emit(depth + 1, "break", after)
                self.block(depth, target, insns, path)
            else:
                emit(depth, "continue", after)
        else:
            emit(depth, f"if _nia == {start} and _n + {length} <= _budget"
                 + (" and _cw:" if self.any_store else ":"), after)
            emit(depth + 1, "continue", after)
            emit(depth, "break", after)

    def handler(self):
        """The exception handler: the locals live where the exception rose
        written back, and where it rose recorded on it."""
        emit = self.emit
        emit(1, "except BaseException as _e:")
        emit(2, "_t = _LINES.get(_e.__traceback__.tb_lineno, _AFTER)")
        if self.written:
            emit(2, "if _t[2]:")
            self.flush_regs(3, None)
        if self.crs_written or self.attrs_written:
            emit(2, "if _t[3]:")
            self.flush_state(3, None)
        if self.counts:
            emit(2, "_sim.element_ops += _eo")
        emit(2, "_e.isa_ext_block = (_n + _t[0], _nia if _t[1] is None else _t[1])")
        emit(2, "raise")

    # -- one block --------------------------------------------------------------
    def block(self, base, start, insns, path=()):
        """One block's instructions at indentation ``base``.  A block alone
        loops back to its start itself and otherwise leaves the loop to the
        write-back; in a region every exit goes to the region's dispatch
        (``continue``), which leaves the region for an address outside it,
        or on to a block written there (``leave``; ``path``: the blocks
        written around this one)."""
        emit, after, length = self.emit, self.AFTER, len(insns)
        path = path + (start,)
        for i, (pc, size, d, sp) in enumerate(insns):
            form = None if sp.falls_through else _branch_form(sp, size)
            self.instruction(base, i, pc, sp, None if form is None else form[0])
            self.exits(base, start, length, i, pc, size, sp, form, path)
        emit(base, f"_n += {length}", (length, None, True, True))
        if self.region:
            pc, size, _, sp = insns[-1]
            form = None if sp.falls_through else _branch_form(sp, size)
            if sp.stores:   # (a store before the last looks at decoded code itself: exits())
                emit(base, "if not _cw:", after)
                emit(base + 1, "break", after)
            self.leave(base, start, length, self._end_target(pc, size, sp, form), path)
            return
        cond = f"_nia == {start} and _n + {length} <= _budget" + \
            (" and _cw" if self.any_store else "")
        emit(base, f"if {cond}:", after)
        emit(base + 1, "continue", after)
        emit(base, "break", after)

    def instruction(self, base, i, pc, sp, lines=None):
        """Instruction ``i``'s own lines (``lines``: those of its branch form,
        _branch_form), the locals handed to and taken back from what needs
        the registers in ``s`` (an executor call, a call handed the state, a
        page that is not localised)."""
        emit = self.emit
        live = (i, pc, True, True)
        if not sp.localised:  # the page uses G itself: registers there while it runs
            self.flush_regs(base, live)
        tag = live if sp.localised else (i, pc, False, True)
        handed = (i, pc, False, False)  # the state handed on whole: all in s
        # one pass of each pattern over the whole body (translation time counts
        # in a short program's run): none of them spans a line
        lines = sp.lines if lines is None else lines
        body = self.rename("\n".join(lines))
        if sp.uses_cia:
            if _ASSIGNS_CIA.search(body):
                emit(base, f"CIA = {pc}", tag)
            else:  # the address pasted in: Python folds CIA + 4 and the like
                body = _CIA.sub(str(pc), body)
        for text in (body.split("\n") if lines else []):
            bare = text.lstrip()
            depth = base + (len(text) - len(bare)) // 4
            if bare == FLUSH:  # around an SVP64 executor call: see translate.svp64
                self.flush(depth, tag)
            elif bare == RELOAD:
                for r in self.reload:
                    emit(depth, f"_g{r} = G[{r}]", (i, pc, False, True))
            elif bare.startswith(CALL):  # (the registers are in G: a FLUSH, or not localised)
                if self.held:
                    self.flush_state(depth, tag)
                self.flush_counts(depth, tag)
                emit(depth, bare[len(CALL):], handed)
                if self.held:
                    self.reload_state(depth, handed)
                self.reload_counts(depth, handed)
            elif self.held and _S_CALL.match(bare):
                self.hand_state(base, depth, text, sp, tag, handed)
            else:
                emit(base, text, tag)
        if not sp.localised:  # (before its exits: the locals hold the registers there)
            for r in self.regs:
                emit(base, f"_g{r} = G[{r}]", (i, pc, False, True))

    def hand_state(self, base, depth, text, sp, tag, handed):
        """A line calling with the state ``s``: everything there while it runs."""
        if sp.localised:
            self.flush(depth, tag)
        else:
            self.flush_state(depth, tag)
            self.flush_counts(depth, tag)
        self.emit(base, text, handed)
        self.reload_state(depth, handed)
        self.reload_counts(depth, handed)
        if sp.localised:
            for r in self.regs:
                self.emit(depth, f"_g{r} = G[{r}]", handed)

    def exits(self, base, start, length, i, pc, size, sp, form=None, path=()):
        """Where instruction ``i`` leaves the block: the last one's next
        address, a superblock's taken branch (``form``: its condition and
        target, _branch_form), a store into decoded code."""
        emit, after = self.emit, self.AFTER
        live = (i, pc, True, True)
        next_src = _CIA.sub(str(pc), self.rename(sp.next_src)) if sp.next_src else sp.next_src
        # the tags after the instruction's lines: ``done`` once ``_nia`` holds
        # its next address (i + 1 completed, not yet in ``_n``), ``after`` once
        # ``_n`` counts them; the line ``_n += k`` itself is tagged as before it
        # runs (a signal is delivered at a call or a backward jump, which it has not)
        done = (i + 1, None, True, True)
        if form is not None:   # (a store in its lines still checks decoded code below)
            self.branch_exit(base, start, length, i, pc, size, form, sp, path)
        elif i == length - 1:
            emit(base, f"_nia = {pc + size if sp.falls_through else next_src}", live)
        elif not sp.falls_through:  # a superblock's branch: leave where it is taken
            emit(base, f"_nia = {next_src}", live)
            emit(base, f"if _nia != {pc + size}:", done)
            emit(base + 1, f"_n += {i + 1}", done)
            self.leave(base + 1, start, length)
        if sp.stores and i < length - 1:
            nxt = (i + 1, pc + size, True, True)
            emit(base, "if not _cw:", nxt)  # a store hit decoded code: fetch again
            emit(base + 1, f"_nia = {pc + size}", nxt)
            emit(base + 1, f"_n += {i + 1}", done)
            emit(base + 1, "break", after)
