"""Rewrite an isa_ext page as openpower-isa's parser and simulator read it.

openpower-isa's pseudocode differs from the Power ISA book's in precedence
(``&``/``|`` bind tighter than comparisons), in some helper names and in
integer widths (a loop bound or a count is a SelectableInt there).
:func:`convert_page` writes a page of ours in that dialect (with the element-
group or vector-scope walk an installed page needs); :func:`compat_problems`
lists what its grammar would still reject.  Used by :mod:`.planner` (would
it run?) and :mod:`.installer` (write it).
"""
import re

# names the group page reads that the engine supplies (isa_ext/ext/swizzle/sv.py _GROUP_NAMES):
# calls of the helpers of the same name there
GROUP_NAMES = ("SRC_N", "DST_N", "IN_PLACE", "FP_ONE")


# --- pages ---------------------------------------------------------------------

def convert_page(page, prologue=(), group=None, scope=False, problems=None):
    """A page in the strict layout openpower-isa's page reader expects: title,
    form, syntax lines, pseudocode, special registers, each after one blank line.
    Our "..." strings become openpower-isa's '...' strings; descriptions and
    comments outside the pseudocode are left out.  ``prologue``: pseudocode
    lines put before the page's own.  ``group``: the instruction's SVP64
    element-group page (``sv.<mnemonic>``): under a prefix the page then walks the
    groups with installed_helpers' ISA_EXT_GROUPS and runs that page's code per
    group, else it runs its own (scalar) code."""
    code = ["    " + line for line in prologue]
    if scope:
        code += [_scope_line(line) for line in _code_lines(page.code, 1)]
    elif group is None:
        code += _code_lines(page.code, 1)
    else:
        code += ["    if ISA_EXT_SVP64() = 1 then",
                 f"        do isa_ext_g = 0 to ISA_EXT_GROUPS('{page.syntaxes[0][0]}') - 1",
                 "            ISA_EXT_GROUP(isa_ext_g)",
                 *_code_lines(group.code, 3, GROUP_NAMES),
                 "            ISA_EXT_GROUP_END()",
                 "        ISA_EXT_GROUPS_END()",
                 "    else",
                 *_code_lines(page.code, 2)]
    code = integer_width(code, problems)
    syntax = []
    for mnemonic, operands, flags in page.syntaxes:
        fl = " ".join(f"{k}={v}" for k, v in flags.items())
        syntax.append(f"* {mnemonic}" + (f" {operands}" if operands else "") + (f" ({fl})" if fl else ""))
    altered = ["    " + a for a in page.altered] or ["    None"]
    return "\n".join([f"# {page.title}", "", f"{page.form}-Form", "", *syntax, "", "Pseudo-code:", "",
                      *code, "", "Special Registers Altered:", "", *altered, ""]) + "\n"


# a vector-scope page's warp values (isa_ext's engine supplies them) -> helper calls
# there; ACTIVE keeps its name, VL and SUBVL are openpower-isa namespace names
# the warp's identity (isa_ext/ext/gpu/identity.py) likewise: openpower-isa has no
# GPU configuration, so the helpers give isa_ext's defaults (warp 0 of 1, SM 0
# of 1, no helper lanes)
_SCOPE_NAMES = {"VL": "ISA_EXT_VL()", "SUBVL": "ISA_EXT_SUBVL()", "ACTIVE": "ACTIVE()",
                "WARP_ID": "WARP_ID()", "SM_ID": "SM_ID()", "WARPS_PER_SM": "WARPS_PER_SM()",
                "SM_COUNT": "SM_COUNT()",
                # SURED's header-index form: the plugin installs the 32-bit register
                # form only, where these read 0 (installed_helpers.HEADER_INDEXED)
                "HEADER_INDEXED": "HEADER_INDEXED()", "HEADER_INDEX": "HEADER_INDEX()",
                "CONST_BANK": "CONST_BANK()", "HEADER_POOL": "HEADER_POOL()",
                # SHFL's Sc-immediate form is an SVP64 RM layout of isa_ext's own
                # (isa_ext/ext/gpu/sc_immediate.py): not installed, these read 0
                "SC_IMMEDIATE_FORM": "SC_IMMEDIATE_FORM()", "SC_IMMEDIATE": "SC_IMMEDIATE()"}


def _scope_line(line):
    """LANE(X, ...) names operand X: the helper needs the operand (its EXTRA slot,
    vector or scalar), not the field's value, so X is passed as a string."""
    parts = re.split(r"('[^']*')", line)  # strings (odd parts) are left as they are
    for n in range(0, len(parts), 2):
        part = re.sub(r"\b(LANE|LANE_assign|GROUP)\(\s*([A-Za-z_]\w*)\s*,", r"\1('\2',",
                      parts[n])
        for name, call in _SCOPE_NAMES.items():
            part = re.sub(rf"\b{name}\b(?!\s*\()", call, part)
        parts[n] = part
    return "".join(parts)


def _code_lines(code, depth, calls=()):
    """Our pseudocode, converted, indented ``depth`` levels; the names in ``calls``
    (values the isa_ext engine supplies) become calls of helpers of that name."""
    out = []
    for line in code.rstrip().splitlines():
        if line.strip().startswith("#"):
            continue  # openpower-isa's lexer drops comments; keep its input minimal
        if not line.strip():
            out.append("")
            continue
        for name in calls:
            line = re.sub(rf"\b{name}\b(?!\s*\()", f"{name}()", line)
        out.append("    " * depth + _requote(line))
    return out


# "A >=u B" as a whole condition or value, with space-free operands: openpower-isa
# has only <u and >u, so it becomes "¬(A <u B)" (and "A <=u B" "¬(A >u B)").
_UNSIGNED_INCLUSIVE = re.compile(r"(?:(?<=\bif )|(?<=<- )|(?<=\())(\S+) ([<>])=u (\S+)(?= then\b|\)|$)")


# "F(args) <- v": an assignable function of ours (library.SETTERS: LANE, DST_SUB,
# ...), or GPR/FPR/SPR with an expression index.  openpower-isa's parser assigns
# only to names, slices, MEM(...) and GPR/FPR/SPR(name); the call statement
# "F_assign(args, v)" (as it does for MEM internally) parses, and an openpower-isa
# helper of that name is what running such a page there needs.
_CALL_TARGET = re.compile(r"^(?P<head>\s*(?:.*?\b(?:then|else)\s+)?)(?P<fn>[A-Za-z_]\w*)"
                          r"\((?P<args>.*)\)\s*(?:<-iea|<-)\s*(?P<value>.+)$")
_PLAIN_REGISTER_TARGET = re.compile(r"^(?:GPR|FPR|SPR)\(\s*[A-Za-z_]\w*\s*\)$|^MEM\(")


def _rewrite_call_assignment(line):
    m = _CALL_TARGET.match(line)
    if m is None or not _balanced(m.group("args")):
        return line
    target = f"{m.group('fn')}({m.group('args')})"
    if _PLAIN_REGISTER_TARGET.match(target):
        return line
    return f"{m.group('head')}{m.group('fn')}_assign({m.group('args')}, {m.group('value')})"


def _balanced(text):
    depth = 0
    for c in text:
        depth += {"(": 1, ")": -1}.get(c, 0)
        if depth < 0:
            return False
    return depth == 0


# A number times a name ("32*k", "k*32"): our pseudocode computes it as an
# integer; openpower-isa's SelectableInt has no __rmul__ (32*k fails) and keeps
# the operand's width (k*32 with a 2-bit k wraps to 2 bits).  EXTZ(k)*32 is the
# integer product there (EXTZ widens to its "effectively unlimited" width).
_NUMBER_TIMES_NAME = re.compile(r"(?<![\w.])(\d+)\s*\*\s*([A-Za-z_]\w*)\b(?!\s*[(\[])")
_NAME_TIMES_NUMBER = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\s*\*\s*(\d+)\b(?![\w.])")


def _integer_products(line):
    line = _NUMBER_TIMES_NAME.sub(r"EXTZ(\2)*\1", line)
    return _NAME_TIMES_NUMBER.sub(
        lambda m: m.group(0) if m.group(1) == "EXTZ" else f"EXTZ({m.group(1)})*{m.group(2)}", line)


_COMPARISON = re.compile(r"(?<![<>!=])=(?!=)|!=|<=|>=|<u|>u|(?<![<-])<(?![-=u])|(?<![-])>(?![=u])")


def _split_top(expr, ops=("&", "|")):
    """``expr`` cut at depth-0 ``&`` and ``|`` (not ``||``): [part, op, part, ...]."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(expr):
        c = expr[i]
        depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(c, 0)
        if depth == 0 and c in ops:
            if expr[i:i + 2] == "||":
                i += 2
                continue
            parts += [expr[start:i], c]
            start = i + 1
        i += 1
    return parts + [expr[start:]]


def parenthesise_bitwise(expr):
    """The Power ISA binds comparisons tighter than & and | (Book I 1.3.4's
    precedence table: ``a = 3 & k = i`` is ``(a = 3) & (k = i)``); openpower-isa's
    parser binds & and | tighter, so each operand that holds a comparison is
    parenthesised for it."""
    parts = _split_top(expr)
    if len(parts) == 1 or not any(_COMPARISON.search(_strip_groups(p)) for p in parts[::2]):
        return expr
    out = []
    for n, part in enumerate(parts):
        if n % 2:
            out.append(f" {part} ")
        else:
            out.append(f"({part.strip()})" if _COMPARISON.search(_strip_groups(part)) else part.strip())
    return "".join(out)


def _strip_groups(text):
    """``text`` with bracketed groups emptied (their comparisons are already grouped)."""
    while True:
        new = re.sub(r"\([^()]*\)|\[[^\[\]]*\]", "", text)
        if new == text:
            return text
        text = new


_CONDITION = re.compile(r"^(?P<head>.*?\b(?:if|while)\s+)(?P<cond>.+?)(?P<tail>\s+then\b.*)?$")
_ASSIGNMENT = re.compile(r"^(?P<head>.*?(?:<-iea|<-)\s*)(?P<value>.+)$")


def _precedence_safe(line):
    m = _ASSIGNMENT.match(line)
    if m and not re.search(r"\bif\b", m.group("head")):
        return m.group("head") + parenthesise_bitwise(m.group("value"))
    m = _CONDITION.match(line)
    if m:
        tail = m.group("tail") or ""
        m2 = _ASSIGNMENT.match(tail)
        if m2:
            tail = m2.group("head") + parenthesise_bitwise(m2.group("value"))
        return m.group("head") + parenthesise_bitwise(m.group("cond")) + tail
    return line


# Functions openpower-isa defines with another meaning than ours: EXTS there
# extends to its 1024-bit "unlimited" width (ours to XLEN, 64: "x < height" then
# compares a 1024-bit with a 64-bit value, which its SelectableInt refuses), its
# EXTZ64 keeps only the low 32 bits.  Calls become theirs of our meaning, or an
# installed helper's.
RENAMED_CALLS = {"EXTS": "EXTS64", "EXTZ64": "ISA_EXT_EXTZ64"}


def _renamed_calls(line):
    parts = re.split(r"('[^']*')", line)
    for n in range(0, len(parts), 2):
        parts[n] = re.sub(r"(?<![\w.])(" + "|".join(RENAMED_CALLS) + r")(?=\s*\()",
                          lambda m: RENAMED_CALLS[m.group(1)], parts[n])
    return "".join(parts)


# "MEM(ea, n) <- v": ours stores v's low n bytes, whatever v is; openpower-isa's
# memassign needs a SelectableInt (an integer, "r <- 0", has no .value there) and
# ORs its whole value into the memory word (bits above n bytes would land on the
# neighbours).  The installed ISA_EXT_MEMVAL(v, n) gives v's low n bytes.
_MEM_STORE = re.compile(r"^(?P<head>\s*(?:.*?\b(?:then|else)\s+)?)MEM\((?P<args>.*)\)\s*<-\s*"
                        r"(?P<value>.+)$")


def _mem_store(line):
    m = _MEM_STORE.match(line)
    if m is None or not _balanced(m.group("args")):
        return line
    size = _split_top(m.group("args"), ops=(",",))[-1].strip()
    return f"{m.group('head')}MEM({m.group('args')}) <- ISA_EXT_MEMVAL({m.group('value')}, {size})"


def _requote(line):
    line = _renamed_calls(_rewrite_call_assignment(_mem_store(line)))
    line = _precedence_safe(_integer_products(line))
    line = re.sub(r'"([^"\']*)"', r"'\1'", line)
    return _UNSIGNED_INCLUSIVE.sub(
        lambda m: f"¬({m.group(1)} {'<' if m.group(2) == '>' else '>'}u {m.group(3)})", line)


# --- integer width --------------------------------------------------------------
#
# Our pseudocode computes a loop index, and whatever is combined with one, as an
# unbounded integer.  openpower-isa's RANGE() gives Python ints, and its
# SelectableInt computes "int + x" at x's width (i + b with a 6-bit b wraps at 64,
# q + GOP[0:2] at 8) or not at all ("int & x" has no reflected operator there).
# integer_width makes that arithmetic integer there too: every other operand of
# such an expression becomes ISA_EXT_INT(x), its unsigned value as a Python int
# (an installed helper).  Its RANGE() also counts down when start > end
# ("do k = 1 to 0" runs k = 1, 0) where ours runs zero times, so a loop whose
# bounds are not two ascending constants becomes a counted "do while".

INT_HELPER = "ISA_EXT_INT"
# helpers that return Python ints there (the warp's VL and SUBVL, ISA_EXT_INT)
_INT_CALLS = ("ISA_EXT_VL", "ISA_EXT_SUBVL", INT_HELPER)
_LOOP = re.compile(r"^(?P<ind>\s*)do\s+(?P<var>[A-Za-z_]\w*)\s*=\s*(?P<lo>.+?)\s+to\s+(?P<hi>.+?)\s*$")
_SEPARATOR = re.compile(r"<-|<=|>=|!=|<u|>u|=|<|>|,|:|\b(?:if|then|else|do|while|to)\b")
_ARITH = ("+", "-", "*", "/", "%", "&", "|", "^")


def _close(text, i):
    """Index after the bracket group opening at text[i] (strings skipped)."""
    depth = 0
    while i < len(text):
        c = text[i]
        if c == "'":
            i = text.index("'", i + 1)
        elif c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return i


def _items(text, base):
    """``text`` at one nesting level: [(kind, start, end)] with kind "sep",
    "op" or "atom" (positions offset by ``base``)."""
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c.isspace():
            i += 1
            continue
        m = _SEPARATOR.match(text, i)
        if m:
            out.append(("sep", base + i, base + m.end()))
            i = m.end()
            continue
        unary = not out or out[-1][0] != "atom"
        if text.startswith("||", i):
            out.append(("op", base + i, base + i + 2))
            i += 2
            continue
        if c in "+-*/%&|^" and not (unary and c == "-"):
            out.append(("op", base + i, base + i + 1))
            i += 1
            continue
        start = i
        while i < len(text) and text[i] in "¬-":
            i += 1
        if i < len(text) and text[i] == "(":
            i = _close(text, i)
        elif i < len(text) and text[i] == "'":
            i = text.index("'", i + 1) + 1
        else:
            m = re.compile(r"\w+").match(text, i)
            i = m.end() if m else i + 1
        while i < len(text) and text[i] in "([":  # calls, subscripts: (RA)[0:7]
            i = _close(text, i)
        out.append(("atom", base + start, base + i))
    return out


def _intify(line, start, end, ints, edits, problems):
    """Whether line[start:end] is an integer expression there; records in
    ``edits`` the operands to wrap in ISA_EXT_INT and in ``problems`` what no
    wrapping makes safe."""
    items = _items(line[start:end], start)
    segments, current = [], []
    for item in items:
        if item[0] == "sep":
            segments.append(current)
            current = []
        else:
            current.append(item)
    segments.append(current)
    results = []
    for seg in segments:
        kinds = []
        for kind, a, b in seg:
            if kind == "atom":
                kinds.append(_atom_kind(line, a, b, ints, edits, problems))
        ops = [line[a:b] for kind, a, b in seg if kind == "op"]
        is_int = "int" in kinds
        if is_int and "||" in ops:
            problems.append(f"concatenates (||) an integer (a loop index or a value computed "
                            f"from one) in {line[start:end].strip()!r}: an integer there has "
                            "no width")
        if is_int and any(o in _ARITH for o in ops):
            atoms = [(a, b) for kind, a, b in seg if kind == "atom"]
            for (a, b), k in zip(atoms, kinds):
                if k == "val":
                    edits.append((a, b))
        results.append(is_int and "||" not in ops)
    return len(segments) == 1 and results[0]


def _atom_kind(line, a, b, ints, edits, problems):
    """"int" (an integer there), "lit" (a decimal constant) or "val" (a
    SelectableInt there) for the operand line[a:b]; its insides are converted."""
    text = line[a:b]
    core = text.lstrip("¬-")
    at = a + len(text) - len(core)
    complement = "¬" in text[:len(text) - len(core)]
    if core.startswith("("):
        close = _close(line, at)
        kind = "int" if _intify(line, at + 1, close - 1, ints, edits, problems) else "val"
        pos = close
        while pos < b:  # a subscripted group, (RA)[0:7]: bits of it
            kind, close = "val", _close(line, pos)
            _intify(line, pos + 1, close - 1, ints, edits, problems)
            pos = close
    elif core.startswith("'"):
        kind = "val"
    else:
        name = re.match(r"\w*", core).group(0)
        trailers = core[len(name):]
        kind = ("int" if name in ints and not trailers else
                "lit" if name.isdigit() and not trailers else "val")
        pos = at + len(name)
        while pos < b:
            close = _close(line, pos)
            _intify(line, pos + 1, close - 1, ints, edits, problems)
            if line[pos] == "(" and name in _INT_CALLS:
                kind = "int"
            if line[pos] == "[" and name in ints:
                problems.append(f"takes bits of the integer {name} ({core!r}): an integer "
                                "there has no bits to select")
            pos = close
    if complement and kind == "int":
        problems.append(f"complements (¬) an integer in {text!r}: an integer there has no "
                        "width to complement within")
    return kind


def _apply(line, edits):
    for a, b in sorted(set(edits), reverse=True):
        line = f"{line[:a]}{INT_HELPER}({line[a:b]}){line[b:]}"
    return line


def _integer_names(lines):
    """Loop indices, and every name assigned an integer expression, to a fixpoint."""
    ints = {m.group("var") for m in map(_LOOP.match, lines) if m}
    while True:
        more = set()
        for line in lines:
            if _LOOP.match(line) or "<-" not in line:
                continue
            at = line.index("<-")
            target = re.search(r"([A-Za-z_]\w*)\s*$", line[:at])
            if target and target.group(1) not in ints and \
                    _intify(line, at + 2, len(line), ints, [], []):
                more.add(target.group(1))
        if not more:
            return ints
        ints |= more


def _number_products(lines, ints, problems):
    """A name assigned a plain number (a Python int there) and elsewhere a value,
    then the left operand of ``*``: int * SelectableInt fails there (no __rmul__),
    as "32 * k" did (breakage 7).  Not converted: a number of a known width
    ([0]*64) is what such a page means."""
    numbers = {m.group(1) for line in lines
               for m in [re.match(r"^\s*(?:.*?\b(?:then|else)\s+)?([A-Za-z_]\w*)\s*<-\s*\d+\s*$",
                                  line)] if m} - ints
    for line in lines:
        code = re.sub(r"'[^']*'", "''", line)
        for m in re.finditer(r"(?<![\w.])([A-Za-z_]\w*)\s*\*\s*([A-Za-z_]\w*(?![\w(\[])|\()",
                             code):
            # number * number (u * szb, both plain numbers) is an int product there
            if m.group(1) in numbers and m.group(2) not in numbers | ints:
                why = (f"multiplies {m.group(1)}, which a plain number is assigned to (a "
                       f"Python int there, with no * of its SelectableInt): "
                       f"{line.strip()!r}; assign it a number of known width ([0]*64)")
                if why not in problems:
                    problems.append(why)


def integer_width(lines, problems=None):
    """Converted code lines with integer arithmetic made integer there (see above)."""
    problems = [] if problems is None else problems
    found = []
    out = _integer_width(lines, found)
    problems += [p for p in dict.fromkeys(found) if p not in problems]
    return out


def _integer_width(lines, problems):
    ints = _integer_names(lines)
    _number_products(lines, ints, problems)
    out, steps = [], {}  # steps: line index -> the counted loops' steps placed before it
    for n, line in enumerate(lines):
        out += steps.pop(n, [])
        m = _LOOP.match(line)
        if m is None:
            edits = []
            _intify(line, 0, len(line), ints, edits, problems)
            out.append(_apply(line, edits))
            continue
        var, ind = m.group("var"), m.group("ind")
        # two ascending constants; or the plugin's own group walk, whose bound
        # (ISA_EXT_GROUPS, at least one group) must be evaluated once
        if (m.group("lo").isdigit() and m.group("hi").isdigit() and
                int(m.group("lo")) <= int(m.group("hi"))) or var.startswith("isa_ext_"):
            out.append(line)
            continue
        edits = []
        lo_int = _intify(line, m.start("lo"), m.end("lo"), ints, edits, problems)
        _intify(line, m.start("hi"), m.end("hi"), ints, edits, problems)
        m = _LOOP.match(_apply(line, edits))
        lo = m.group("lo") if lo_int or m.group("lo").isdigit() else \
            f"{INT_HELPER}({m.group('lo')})"
        out += [f"{ind}{var} <- {lo}", f"{ind}do while ¬({var} >u {m.group('hi')})"]
        # the body: the lines after it indented deeper (an inner loop's step first)
        end = n + 1
        while end < len(lines) and (not lines[end].strip() or
                                    len(lines[end]) - len(lines[end].lstrip()) > len(ind)):
            end += 1
        while end > n + 1 and not lines[end - 1].strip():
            end -= 1
        steps.setdefault(end, []).insert(0, f"{ind}    {var} <- {var} + 1")
    return out + steps.pop(len(lines), [])


# Constructs of our pseudocode that openpower-isa's lexer/parser does not accept.
_UNSUPPORTED = [
    (re.compile(r"<=u|>=u"), "unsigned <=u/>=u (openpower-isa has only <u and >u)"),
    (re.compile(r"[~⊕≠≤≥×÷←]"), "operator spelling openpower-isa's lexer lacks (use ¬ ^ != <= >= * / <-)"),
    (re.compile(r"\bdo\s+\w+\s*=.*\bby\b"), "'do ... by STEP' loops (openpower-isa has no step)"),
    (re.compile(r'"'), "double-quoted string left after conversion"),
    (re.compile(r"\b[A-Za-z_]\w*\.\w"), "dotted name (openpower-isa reads '.' as attribute access)"),
    (re.compile(r"^\s*(?:.*?\b(?:then|else)\s+)?(?!(?:GPR|FPR|SPR)\(\s*[A-Za-z_]\w*\s*\)\s*<-)"
                r"(?!MEM\()[A-Za-z_]\w*\(.*\)\s*<-"),
     "assignment to a call other than MEM(...) or GPR/FPR/SPR(name)"),
]
_RESERVED = ("def", "for", "return", "switch", "case", "default", "class")


def compat_problems(text, filename="<page>"):
    """Problems that would stop openpower-isa reading a converted page file:
    its page layout (strict line order) and a conservative check of the
    pseudocode against its lexer and grammar."""
    out = []
    lines = text.splitlines()
    i = 0

    def need(cond, what):
        if not cond:
            out.append(f"{filename}:{i + 1}: expected {what}, got {lines[i] if i < len(lines) else 'end of file'!r}")
        return cond

    while i < len(lines):
        if not lines[i].strip() or lines[i].strip().startswith("<!--"):
            i += 1
            continue
        if not need(lines[i].startswith("# "), "'# Title'"):
            return out
        i += 1
        if not (need(i < len(lines) and not lines[i].strip(), "a blank line after the title")):
            return out
        i += 1
        if not need(i < len(lines) and lines[i].strip().endswith("-Form"), "'X-Form'"):
            return out
        i += 2
        if not need(i < len(lines) and lines[i].startswith("*"), "'* mnemonic operands'"):
            return out
        while i < len(lines) and lines[i].strip():
            if not need(lines[i].startswith("*"), "only '*' syntax lines before the blank line"):
                return out
            i += 1
        i += 1
        if not need(i < len(lines) and lines[i].startswith("Pseudo-code:"), "'Pseudo-code:'"):
            return out
        i += 2
        while i < len(lines) and (not lines[i].strip() or lines[i].startswith(" ") or lines[i].startswith("\t")):
            line = lines[i]
            if "\t" in line[:len(line) - len(line.lstrip())]:
                out.append(f"{filename}:{i + 1}: tab in indentation (openpower-isa indents with spaces)")
            code = re.sub(r"'[^']*'", "''", line).split("#", 1)[0]  # strings hold any text
            for pattern, why in _UNSUPPORTED:
                if pattern.search(code):
                    out.append(f"{filename}:{i + 1}: {why}: {line.strip()!r}")
            for word in re.findall(r"[A-Za-z_]\w*", code):
                if word in _RESERVED and not re.search(rf"\b{word}\s*\(", code) and word != "default":
                    out.append(f"{filename}:{i + 1}: {word!r} is a keyword in openpower-isa")
            i += 1
        if not need(i < len(lines) and lines[i].startswith("Special Registers Altered:"),
                    "'Special Registers Altered:'"):
            return out
        i += 2
        while i < len(lines) and lines[i].startswith((" ", "\t")):
            i += 1
    return out
