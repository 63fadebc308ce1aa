"""isa_ext.compat.plugin (`isa-ext openpower install|check`): pages stay readable by openpower-isa, rows convert to its
table columns, and install/uninstall edit a checkout's files in place."""
import csv
import os
import json
import tarfile
import textwrap

import pytest

from isa_ext.compat import plugin as openpower
from isa_ext.compat.plugin import installer, planner, rewriter
from isa_ext.isa import ISA

EXTS = [e for e in openpower.DEFAULT_EXTENSIONS]


@pytest.fixture(scope="module")
def full_isa():
    return ISA()


def test_extension_pages_compile_with_openpower_isas_own_parser(full_isa, isacaller):
    """openpower-isa's parser (GardenSnakeCompiler, run in the ISACaller venv) is the
    oracle: every converted extension page compiles, and our checker agrees (it finds
    nothing in pages the real parser accepts)."""
    blocks = {}
    for page in full_isa.all_pages:
        if page.extension in EXTS:
            text = openpower.convert_page(page)
            code = text.split("Pseudo-code:\n\n", 1)[1].split("\nSpecial Registers Altered:", 1)[0]
            # openpower-isa's page reader dedents the block before compiling it
            blocks[page.where] = textwrap.dedent(code)
            assert openpower.compat_problems(text, page.where) == []
    assert blocks
    out = isacaller.run(textwrap.dedent("""
        import json, sys
        from openpower.decoder.pseudo.parser import GardenSnakeCompiler
        failed = {}
        for where, code in json.load(sys.stdin).items():
            try:
                GardenSnakeCompiler(debug=False).compile(code, mode="exec", filename=where)
            except Exception as e:
                failed[where] = repr(e)[:300]
        print("RESULT", json.dumps(failed))
        """), stdin=json.dumps(blocks), timeout=600)
    failed = json.loads(out.rsplit("RESULT ", 1)[1])
    assert failed == {}


@pytest.mark.parametrize("code, why", [
    ("    x <- a <=u b + 1", "<=u"), ("    y <- ~a", "operator spelling"),
    ("    do i = 0 to 7 by 2\n        x <- i", "'do ... by STEP'"),
    ("\tx <- 1", "tab in indentation"), ("    return <- 1", "keyword"),
])
def test_checker_flags_constructs_openpower_isa_lacks(code, why):
    text = ("# T\n\nX-Form\n\n* t RT\n\nPseudo-code:\n\n" + code +
            "\n\nSpecial Registers Altered:\n\n    None\n")
    problems = openpower.compat_problems(text, "t.mdwn")
    assert any(why in p and p.startswith("t.mdwn:9") for p in problems), problems


def test_checker_flags_layout_openpower_isa_rejects():
    text = "# T\n\nX-Form\n\nsome description\n* t RT\n\nPseudo-code:\n\n    x <- 1\n"
    assert any("'* mnemonic operands'" in p for p in openpower.compat_problems(text, "t.mdwn"))


def test_conversion_requotes_and_rewrites_inclusive_unsigned(full_isa):
    page = full_isa.all_pages[0]
    page = type(page)(**{**page.__dict__, "code": 'if a >=u b then ILLEGAL("no: x.y")\n'})
    text = openpower.convert_page(page)
    assert "    if ¬(a <u b) then ILLEGAL('no: x.y')" in text.splitlines()


# the files of an openpower-isa checkout that install reads or edits
CHECKOUT_PARTS = ("openpower/isa/", "openpower/isatables/", "openpower/isafunctions/",
                  "src/openpower/decoder/power_enums.py", "src/openpower/decoder/helpers.py",
                  "src/openpower/decoder/isa/caller.py")


@pytest.fixture(scope="module")
def vendored_checkout(tmp_path_factory):
    """Those files of the vendored openpower-isa (master 3cb597b9), unpacked once."""
    from conftest import shared_path
    root = tmp_path_factory.mktemp("op") / "openpower-isa"
    with tarfile.open(shared_path("vendor", "openpower-isa.tar.gz")) as tar:
        members = [m for m in tar.getmembers() if m.isfile() and
                   m.name.split("/", 1)[-1].startswith(CHECKOUT_PARTS)]
        tar.extractall(root.parent, members=members)
    return root


@pytest.fixture
def checkout(vendored_checkout, tmp_path):
    import shutil
    return shutil.copytree(vendored_checkout, tmp_path / "openpower-isa")


def snapshot(root):
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_install_adds_what_openpower_isa_lacks_and_uninstall_restores_bytes(checkout, full_isa):
    before = snapshot(checkout)
    report = []
    openpower.install(EXTS, root=str(checkout), isa=full_isa, report=report)
    after = snapshot(checkout)
    minor = (checkout / "openpower" / "isatables" / "minor_22.csv").read_text()
    rows = {r["comment"]: r for r in csv.DictReader(
        l for l in minor.splitlines()[1:] if not l.startswith("#"))}
    # its own rows are kept; ours are added with no register in the typed columns
    # (In1Sel has no RAp: breakage 3), so its sv_analysis classes them non-SV
    assert rows["setvl"]["opcode"] == "-----11011-"
    for m in ("mv.swiz", "fmv.swiz"):
        assert (rows[m]["in1"], rows[m]["out"], rows[m]["form"]) == ("NONE", "NONE", "DQ")
    # key = instruction bits 21..31: mv.swiz's XO 0b0011 is bits 28:31 (seed 001)
    assert rows["mv.swiz"]["opcode"] == "-------0011" and rows["fmv.swiz"]["opcode"] == "-------1011"
    # nothing openpower-isa defines is installed again (breakage 2: setvl, svstep)
    pages = "".join(after[k].decode() for k in after if k.startswith("openpower/isa/isa_ext_"))
    assert "* mv.swiz RTp,RAp,imm" in pages and "* fmv.swiz FRTp,FRAp,imm" in pages
    assert "* setvl" not in pages and "* svstep" not in pages
    # breakage 10: under an SVP64 prefix the page walks the MVRM-2P-2S1D element groups
    # and runs the sv.mv.swiz group page per group (names the engine supplies become
    # helper calls); without one it runs the scalar page
    assert ("Pseudo-code:\n\n    if ISA_EXT_SVP64() = 1 then\n"
            "        do isa_ext_g = 0 to ISA_EXT_GROUPS('mv.swiz') - 1\n"
            "            ISA_EXT_GROUP(isa_ext_g)\n") in pages
    assert "            src <- SRC_SUB(3) || SRC_SUB(2) || SRC_SUB(1) || SRC_SUB(0)\n" in pages
    assert "                    if IN_PLACE() = 0 then DST_SUB_assign(i, 0)\n" in pages
    assert "    else\n        if RTp[4] = 1 then ILLEGAL(" in pages
    helpers = after["src/openpower/decoder/isa_ext_helpers.py"].decode()
    assert "SV_ROWS = {'mv.swiz': {'mnemonic': 'mv.swiz', 'regfile': 'GPR', 'dst_bits': " \
        "(6, 10), 'src_bits': (11, 15)}" in helpers
    # ...reached through the hook before ISACaller's element loop
    caller = after["src/openpower/decoder/isa/caller.py"].decode()
    assert ("        if self.ISA_EXT_SV_CALL(ins_name, info):\n"
            "            self.pc.update(self.namespace, self.is_svp64_mode)\n"
            "            return asmop\n        # isa_ext end\n"
            "        if (self.is_svp64_mode or ins_name in ['svstep']):\n") in caller
    assert "setvl: skipped: openpower-isa already defines it" in report
    # fields its DQ-form lacks (breakage 6), in its "Instruction Fields" syntax
    fields = after["openpower/isatables/fields.text"].decode()
    assert "    RAp (11:15)\n" in fields and "    imm (16:27)\n" in fields
    assert fields.count("    imm (16:27)\n") == 1
    # mnemonic registration (breakage 5) and the ILLEGAL helper (breakage 8)
    enums = after["src/openpower/decoder/power_enums.py"].decode()
    insns = enums[enums.index("_insns = ["):]
    assert '"mv.swiz", "fmv.swiz",' in insns[:insns.index("\n]")]
    assert "def ILLEGAL(self" in after["src/openpower/decoder/isa_ext_helpers.py"].decode()
    # breakage 11: the thread-group ops are installed as vector-scope pages: their
    # form GTG (Form enum member, fields), operand names passed as strings to the
    # LANE helpers, the warp's names as helper calls, one decoder row per mnemonic
    assert "    # isa_ext (isa-ext openpower install)\n    GTG = 47\n" in enums
    assert "    GOP (21:25)\n" in fields and "Formats: GTG\n" in fields
    assert "                    if LANE('RA', i, k) != 0 then votes[63 - i] <- 1\n" in pages
    assert "        if GOP = 1 then LANE_assign('RT', i, ACTIVE())\n" in pages
    # our loops run zero times when start > end, its RANGE() counts down: a loop
    # with a non-constant bound becomes a counted "do while" (rewriter.integer_width)
    assert ("    i <- 0\n    do while ¬(i >u ISA_EXT_VL() - 1)\n") in pages
    assert "do i = 0 to ISA_EXT_VL() - 1" not in pages
    assert rows["lanemasklt"]["opcode"] == "00111001100" and rows["ballot"]["form"] == "GTG"
    assert "VS_ROWS = {" in helpers and "'ballot': {'operands': {'RT': {'bits': (6, 10), 'regfile': 'GPR', " \
        "'slot': 0, 'dest': True}, 'RA': {'bits': (11, 15), 'regfile': 'GPR', 'slot': 1, " \
        "'dest': False}}, 'etype': 3}" in helpers
    # each mnemonic lists only its own operands: fshfl's FPRs, not shfl's GPRs
    assert "'fshfl.idx': {'operands': {'FRT': {'bits': (6, 10), 'regfile': 'FPR'" in helpers
    assert "'shfl.idx': {'operands': {'RT': {'bits': (6, 10), 'regfile': 'GPR'" in helpers
    # the shuffles' lane arithmetic is integer there (ISA_EXT_INT on what is combined
    # with a loop index), the quad swizzles call the installed FPADD
    assert "                j <- i + ISA_EXT_INT(b)\n" in pages
    assert "                maxLane <- minLane | ISA_EXT_INT((clamp & ¬segmask))\n" in pages
    assert "            src <- q + ISA_EXT_INT(variant)\n" in pages
    assert "FPADD(v, LANE('FRB', i, k), 32)" in pages and "def FPADD(self, a, b, bits)" in helpers
    assert not [r for r in report if r.startswith(("shfl", "fshfl", "qswz"))]
    # SURED: its calls of functions openpower-isa defines with another meaning go to
    # ones of ours (EXTS to XLEN, EXTZ64 keeping 64 bits), its stores store the
    # value's low bytes as a SelectableInt (rewriter._mem_store)
    assert "            x <- EXTS64(c0[32:63])\n" in pages
    assert "            rowpitch <- ISA_EXT_EXTZ64(MEM(dp + 8, 4))\n" in pages
    assert "                    MEM(ea, 4) <- ISA_EXT_MEMVAL(r, 4)\n" in pages
    assert "def GROUP(self, field, n, lane, k)" in helpers
    # every GPU op is installed; the sv.* group pages are too
    assert not [r for r in report if r.startswith("sured")]
    assert not [r for r in report if r.startswith(("sv.mv.swiz", "sv.fmv.swiz", "ballot"))]
    # check on the installed checkout: our own rows and fields are no problem
    assert not [p for p in openpower.check(EXTS, root=str(checkout), isa=full_isa)
                if p.startswith(("mv.swiz:", "fmv.swiz:"))]
    openpower.install(EXTS, root=str(checkout), isa=full_isa)
    assert snapshot(checkout) == after  # installing again replaces: same bytes
    openpower.uninstall(EXTS, root=str(checkout))
    assert snapshot(checkout) == before


def test_install_order_of_arguments_does_not_matter(checkout, full_isa, capsys):
    # breakage 1: "install --root X swizzle" was "unrecognized arguments"
    from isa_ext.cli import main as cli_main
    assert cli_main(["openpower", "install", "--root", str(checkout), "swizzle"]) == 0
    assert (checkout / "openpower" / "isa" / "isa_ext_swizzle.mdwn").is_file()
    assert cli_main(["openpower", "uninstall", "swizzle", "--root", str(checkout)]) == 0
    assert not (checkout / "openpower" / "isa" / "isa_ext_swizzle.mdwn").exists()


def test_check_names_each_reason_an_instruction_would_not_run(checkout, full_isa):
    problems = openpower.check(EXTS, root=str(checkout), isa=full_isa)
    # every GPU op runs there now (their form is added, their loop arithmetic made
    # integer, FPADD, GROUP, TRAP_AT_LANE ... installed; breakages 4 and 11)
    assert not [p for p in problems if p.startswith(("ballot:", "laneid:", "lanemask",
                                                     "shfl", "fshfl", "qswz", "sured"))]
    # what install fixes itself is not a problem
    assert not [p for p in problems if p.startswith(("mv.swiz:", "fmv.swiz:", "sv."))]


def test_check_names_an_svp64_category_no_installed_walk_handles(checkout, full_isa,
                                                                  monkeypatch):
    # breakage 10's class: an sv.* group page of a category openpower-isa has no table
    # for and the installed helper does not walk (here: as if MVRM were not walked)
    monkeypatch.setattr(planner, "GROUP_CATEGORIES", ())
    problems = openpower.check(["swizzle"], root=str(checkout), isa=full_isa)
    assert any(p.startswith("sv.mv.swiz: SVP64 category MVRM-2P-2S1D: a table openpower-isa "
                            "does not read") for p in problems)


def test_check_refuses_a_checkout_without_the_element_loop_hook_point(checkout, full_isa):
    # the group walk runs from a hook before ISACaller's SVP64 element loop: another
    # openpower-isa whose call() lacks that line gets nothing half-installed
    caller = checkout / "src" / "openpower" / "decoder" / "isa" / "caller.py"
    caller.write_text(caller.read_text().replace(
        "        if (self.is_svp64_mode or ins_name in ['svstep']):\n", ""))
    problems = openpower.check(["swizzle"], root=str(checkout), isa=full_isa)
    assert any(p.startswith("checkout: src/openpower/decoder/isa/caller.py: no single") and
               "SVP64 element loop" in p for p in problems)


def test_check_reports_a_field_that_clashes_with_openpower_isas_form(checkout, full_isa):
    fields = checkout / "openpower" / "isatables" / "fields.text"
    fields.write_text(fields.read_text() + "    imm (16:31)\n        clash\n        Formats: DQ\n")
    problems = openpower.check(["swizzle"], root=str(checkout), isa=full_isa)
    assert "mv.swiz: field imm is bits ((16, 27),) here but ((16, 31),) in its DQ-form" in problems


def test_locate_rejects_non_checkout(tmp_path):
    with pytest.raises(openpower.OpenPowerError, match="not an openpower-isa checkout"):
        openpower.locate(str(tmp_path))


def test_cli_reports_errors_without_traceback(tmp_path, capsys):
    assert openpower.main(["install", "--root", str(tmp_path)]) == 2
    assert "not an openpower-isa checkout" in capsys.readouterr().err


def test_assignments_openpower_cannot_parse_become_call_statements():
    # openpower-isa's parser assigns to names, slices, MEM(...) and GPR/FPR/SPR(name)
    conv = rewriter._rewrite_call_assignment
    assert conv("    LANE(RT, i) <- v + 1") == "    LANE_assign(RT, i, v + 1)"
    assert conv("    if a = 1 then DST_SUB(i) <- src[0:63]") == \
        "    if a = 1 then DST_SUB_assign(i, src[0:63])"
    assert conv("    GPR(RTp+1) <- x") == "    GPR_assign(RTp+1, x)"
    for kept in ("    GPR(rt1) <- x", "    MEM(EA, 8) <- (RS)", "    RT <- LANE(RA, i)",
                 "    x[0:3] <- 0b0000"):
        assert conv(kept) == kept
    assert openpower.compat_problems("# T\n\nX-Form\n\n* t RT\n\nPseudo-code:\n\n"
                                     "    LANE(RT, i) <- 1\n\nSpecial Registers Altered:\n\n"
                                     "    None\n")


@pytest.fixture(scope="module")
def openpower_rm_rows():
    """openpower-isa's own SVP64 RM tables (isatables/RM-*.csv, LDSTRM-*.csv) from the
    vendored snapshot: {insn: (table name, row)}."""
    from conftest import shared_path
    tarball = shared_path("vendor", "openpower-isa.tar.gz")
    rows = {}
    with tarfile.open(tarball) as tar:
        for m in tar.getmembers():
            name = os.path.basename(m.name)
            if "/isatables/" in m.name and name.endswith(".csv") and "RM-" in name:
                text = tar.extractfile(m).read().decode()
                for r in csv.DictReader(text.splitlines()):
                    rows[r["insn"]] = (name[:-4], r)
    assert len(rows) > 150
    return rows


# Base rows whose operand columns (in1..out, Etype) openpower-isa fills the way rm_row
# does: sources in slot order, no CR/RA_OR_ZERO special columns.  Covers EXTRA3 and
# EXTRA2 (4-operand) rows, immediate and D-form loads.
RM_OPERAND_ROWS = ["add", "subf", "addi", "addic.", "mullw", "divd", "modsw", "cmpb",
                   "extsw", "andi.", "maddld", "maddhd", "fadd", "fdivs", "fmadd",
                   "fnmsubs", "fsel", "lwz", "ldu", "lfd", "lbzu"]
# where our slot text knowingly differs from openpower-isa's table (CR0/RTp/SPR
# spelling): their slot columns are not compared
RM_SLOT_DIVERGENCES = {"mulli", "lq", "stq", "lqarx", "mfspr", "mtspr", "svstep",
                       # openpower-isa's slot 0 omits the read of BT/BF that
                       # these read-modify-write CR ops make (it lists s:RT for
                       # absdacs/ternlogi), and gives addg6s, which has no Rc,
                       # a d:CR0 it never writes
                       "crternlogi", "crbinlog", "crfternlogi", "crfbinlog", "addg6s"}


def _openpower_form(row):
    # openpower-isa writes RA_OR_ZERO where RA=0 reads as 0; the register is RA
    return {c: v.replace("RA_OR_ZERO", "RA") for c, v in row.items()}


@pytest.mark.parametrize("insn", RM_OPERAND_ROWS)
def test_rm_row_operand_columns_match_openpower_isas_table(full_isa, openpower_rm_rows, insn):
    row = next(r for r in full_isa.rows if r.mnemonic == insn and r.sv)
    table, theirs = openpower_rm_rows[insn]
    theirs, ours = _openpower_form(theirs), openpower.rm_row(row)
    assert row.sv == table
    for col in ("insn", "Ptype", "Etype", "0", "1", "2", "3", "in1", "in2", "in3", "out"):
        assert (col, ours[col]) == (col, theirs[col])


def test_rm_row_slots_and_table_match_openpower_isa_for_every_shared_row(full_isa,
                                                                         openpower_rm_rows):
    shared = [r for r in full_isa.rows if r.sv and r.extension in ("base", "svp64")
              and r.mnemonic in openpower_rm_rows]
    assert len(shared) > 150
    wrong = []
    for row in shared:
        table, theirs = openpower_rm_rows[row.mnemonic]
        ours = openpower.rm_row(row)
        cols = ["Ptype"] + ([] if row.mnemonic in RM_SLOT_DIVERGENCES else ["0", "1", "2", "3"])
        wrong += [(row.mnemonic, c, ours[c], theirs[c]) for c in cols if ours[c] != theirs[c]]
        if row.sv != table:
            wrong.append((row.mnemonic, "table", row.sv, table))
    assert wrong == []


@pytest.mark.parametrize("line, converted", [
    # Power ISA Book I 1.3.4: comparisons bind tighter than & and |; openpower-isa's
    # parser binds & and | tighter, so operands holding a comparison get parentheses
    # (breakage 12)
    ("    if GOP = 3 & k = i then x <- 1", "    if (GOP = 3) & (k = i) then x <- 1"),
    ("    x <- a = b | c", "    x <- (a = b) | c"),
    ("    if a <u b | c >u d then", "    if (a <u b) | (c >u d) then"),
    # nothing to do: || is concatenation, & without a comparison, grouped already
    ("    y <- a || b", "    y <- a || b"),
    # || (concatenation, binding tighter than comparisons) is not a cut point
    ("    if a = 1 & b || c = d then", "    if (a = 1) & (b || c = d) then"),
    ("    t <- GPR(RA) & 0xff", "    t <- GPR(RA) & 0xff"),
    ("    if (a = 1) & b then c <- d & e", "    if (a = 1) & b then c <- d & e"),
    # a number times a name is an integer product here; openpower-isa has no
    # SelectableInt.__rmul__ and keeps a 2-bit k's width in k*32 (breakage 7)
    ("    dst[96-32*i:127-32*i] <- src[96-32*k:127-32*k]",
     "    dst[96-EXTZ(i)*32:127-EXTZ(i)*32] <- src[96-EXTZ(k)*32:127-EXTZ(k)*32]"),
    ("    a <- k*32 + x", "    a <- EXTZ(k)*32 + x"),
    ("    z <- [0]*128", "    z <- [0]*128"),
])
def test_conversion_keeps_meaning_under_openpower_isas_parser(line, converted):
    assert rewriter._requote(line) == converted


def test_cli_check_and_install_the_gpu_ops(checkout, capsys):
    from isa_ext.cli import main as cli_main
    before = snapshot(checkout)
    assert cli_main(["openpower", "check", "gpu", "--root", str(checkout)]) == 0
    assert "openpower-isa compatible: gpu" in capsys.readouterr().out
    # install adds every GPU op, leaving nothing out
    assert cli_main(["openpower", "install", "--root", str(checkout), "gpu"]) == 0
    err = capsys.readouterr().err
    assert "not installed" not in err
    assert cli_main(["openpower", "uninstall", "--root", str(checkout), "gpu"]) == 0
    assert snapshot(checkout) == before
    # the whole swizzle extension, sv.* forms included, runs there now (breakage 10)
    assert cli_main(["openpower", "check", "swizzle", "--root", str(checkout)]) == 0
    assert "openpower-isa compatible: swizzle" in capsys.readouterr().out


def test_a_checkout_of_another_layout_is_refused_before_anything_is_written(checkout, full_isa):
    enums = checkout / "src" / "openpower" / "decoder" / "power_enums.py"
    enums.write_text(enums.read_text().replace("_insns = [", "_insns = list(["))
    before = snapshot(checkout)
    problems = openpower.check(["swizzle"], root=str(checkout), isa=full_isa)
    assert problems == ["checkout: src/openpower/decoder/power_enums.py: no '_insns = [' "
                        "list to register mnemonics in"]
    assert openpower.main(["install", "--root", str(checkout), "swizzle"]) == 1
    assert snapshot(checkout) == before


def test_check_reports_a_decoder_key_openpower_isa_already_uses(checkout, full_isa):
    # a row of its own whose bits 21..31 pattern also matches mv.swiz's -------0011
    minor = checkout / "openpower" / "isatables" / "minor_22.csv"
    minor.write_text(minor.read_text() + "-----000011,ALU,OP_NOP" + ",0" * 25 + "\n")
    problems = openpower.check(["swizzle"], root=str(checkout), isa=full_isa)
    assert "mv.swiz: minor_22.csv key -------0011 overlaps openpower-isa's -----000011" \
        in problems


def test_a_failing_install_leaves_nothing_behind(checkout, full_isa, monkeypatch):
    before = snapshot(checkout)

    def fail(*args):
        raise OSError("disk full")
    monkeypatch.setattr(installer, "_insert_before_close", fail)
    with pytest.raises(OSError):
        openpower.install(["swizzle"], root=str(checkout), isa=full_isa)
    assert snapshot(checkout) == before


def test_installed_helper_module_stands_alone_in_openpower_isa():
    # it is copied into openpower-isa and runs in its PyPy venv: it may import only
    # openpower-isa and the standard library, and every helper it claims to provide
    # is a function it defines
    import ast
    import sys
    tree = ast.parse(planner._helpers_source())
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import)
                for a in n.names}
    imported |= {n.module.split(".")[0] for n in ast.walk(tree)
                 if isinstance(n, ast.ImportFrom)}
    assert "openpower" in imported and imported - {"openpower"} <= set(sys.stdlib_module_names)
    defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    assert set(planner.provided_helpers()) <= defined
    # the names the group pages read are among them (as calls)
    assert set(rewriter.GROUP_NAMES) <= set(planner.provided_helpers())


# --- integer width (the shuffles' and quad swizzles' lane arithmetic) ---------------

def test_integer_width_wraps_what_is_combined_with_a_loop_index():
    # i is an integer (a loop index); b a 6-bit field there: "i + b" would wrap at 64
    # in its SelectableInt, so b becomes its integer value; j, assigned from i, is an
    # integer too, and so what it meets ("j | (x & y)", a group) is wrapped as well
    lines = ["    do i = 0 to VL - 1", "        j <- i + b", "        j <- j | (x & y)",
             "        t <- rb[58:63]", "        m[63 - i] <- t"]
    problems = []
    assert openpower.integer_width(lines, problems) == [
        "    i <- 0", "    do while ¬(i >u VL - 1)", "        j <- i + ISA_EXT_INT(b)",
        "        j <- j | ISA_EXT_INT((x & y))", "        t <- rb[58:63]",
        "        m[63 - i] <- t", "        i <- i + 1"]
    assert problems == []
    # two ascending constants: its RANGE() runs the same values, the loop stays
    assert openpower.integer_width(["    do k = 0 to 3", "        x <- k"]) == \
        ["    do k = 0 to 3", "        x <- k"]


def test_integer_width_counts_loops_up_as_ours_do():
    # "do k = 1 to SEGW" with SEGW = 0 runs zero times here and k = 1, 0 there
    # (RANGE counts down): a counted loop, its step after the body's last line,
    # an inner loop's step before the outer one's
    got = openpower.integer_width(["    do k = 1 to SEGW", "        do n = k to 7",
                                   "            w[n] <- 1", "    x <- 0"])
    assert got == ["    k <- 1", "    do while ¬(k >u SEGW)", "        n <- k",
                   "        do while ¬(n >u 7)", "            w[n] <- 1",
                   "            n <- n + 1", "        k <- k + 1", "    x <- 0"]


@pytest.mark.parametrize("line, why", [
    # y holds a Python int there after "y <- 0": "y * p" has no operator there
    ("        y <- 0\n        z <- y * p", "multiplies y, which a plain number is assigned to"),
    ("        x <- ¬i", "complements (¬) an integer"),
    ("        x <- i || 0b1", "concatenates (||) an integer"),
    ("        x <- i[63]", "takes bits of the integer i"),
])
def test_check_names_integer_arithmetic_the_conversion_cannot_make_safe(
        checkout, full_isa, monkeypatch, line, why):
    # an integer has no width there: no wrapping makes these mean what they mean here
    problems = []
    openpower.integer_width(["    do i = 0 to VL - 1", *line.split("\n")], problems)
    assert any(why in p for p in problems), problems
    # check reports it for the instruction, and install leaves it out
    from isa_ext import records
    body = "\n".join(x[4:] for x in line.split("\n"))
    pages = [records.replace(p, code=p.code + f"\ndo i = 0 to VL - 1\n{body}\n")
             if p.title == "Shuffle" else p for p in full_isa.all_pages]
    monkeypatch.setattr(full_isa, "all_pages", pages)
    got = openpower.check(["gpu"], root=str(checkout), isa=full_isa)
    assert any(p.startswith("shfl.idx: ") and why in p for p in got), got


def test_check_names_a_function_openpower_isa_lacks(checkout, full_isa, monkeypatch):
    # breakage 8/11's class: a page calling a function neither openpower-isa nor the
    # installed helpers define is named by check and left out by install
    from isa_ext import records
    pages = [records.replace(p, code=p.code + "\nx <- SURFACE_LOOKUP(1)\n")
             if p.title == "Surface Reduction" else p for p in full_isa.all_pages]
    monkeypatch.setattr(full_isa, "all_pages", pages)
    got = openpower.check(["gpu"], root=str(checkout), isa=full_isa)
    assert "sured.add.u32: calls SURFACE_LOOKUP, which openpower-isa's simulator does not " \
        "define (no helper installed for it)" in got
    report = []
    openpower.install(["gpu"], root=str(checkout), isa=full_isa, report=report)
    assert any(r.startswith("sured.add.u32: not installed: calls SURFACE_LOOKUP") for r in report)
    assert not any(r.startswith("shfl.idx:") for r in report)
