"""isa_ext.compat.plugin (`isa-ext openpower install|check`): pages stay readable by openpower-isa, rows convert to its
table columns, and install/uninstall edit a checkout's files in place."""
import csv
import os
import json
import tarfile
import textwrap

import pytest

from isa_ext.compat import plugin as openpower
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


@pytest.fixture
def fake_checkout(tmp_path):
    """The two directories install() edits, with a minor_22.csv holding only a header
    line and one foreign row."""
    (tmp_path / "openpower" / "isa").mkdir(parents=True)
    tables = tmp_path / "openpower" / "isatables"
    tables.mkdir()
    (tables / "minor_22.csv").write_text(",".join(openpower.MINOR_COLUMNS) + "\n"
                                         "-----11011-,VL,OP_SETVL" + ",0" * 25 + "\n")
    return tmp_path


def test_install_writes_pages_and_rows_and_reinstall_replaces(fake_checkout, full_isa):
    written = openpower.install(EXTS, root=str(fake_checkout), isa=full_isa)
    minor = fake_checkout / "openpower" / "isatables" / "minor_22.csv"
    po22_rows = [r for r in full_isa.rows if r.extension in EXTS and r.match.get("PO") == 22]
    rows = list(csv.DictReader(l for l in minor.read_text().splitlines() if not l.startswith("#")))
    assert rows[0]["opcode"] == "-----11011-"  # the foreign row is kept
    ours = {r["comment"]: r for r in rows[1:]}
    assert set(ours) == {r.mnemonic for r in po22_rows}
    for r in po22_rows:
        assert ours[r.mnemonic]["form"] == r.form.name
        key = ours[r.mnemonic]["opcode"]
        # the key reproduces the row's fixed bits 21..31
        for bit, c in zip(range(21, 32), key):
            if c != "-":
                assert (r.value >> (31 - bit)) & 1 == int(c)
    for ext in EXTS:
        pages = [p for p in full_isa.all_pages if p.extension == ext]
        if pages:
            text = (fake_checkout / "openpower" / "isa" / f"isa_ext_{ext}.mdwn").read_text()
            assert text.count("\nPseudo-code:\n") == len(pages)
    sv_rows = [r for r in full_isa.rows if r.extension in EXTS and r.sv]
    for r in sv_rows:
        rm = fake_checkout / "openpower" / "isatables" / f"{r.sv}.csv"
        got = {x["insn"]: x for x in csv.DictReader(l for l in rm.read_text().splitlines()
                                                   if not l.startswith("#"))}
        # slot 0 as written in our decoder table ("-" = unused), not rm_row's own output
        assert got[r.mnemonic]["0"] == (r.extra[0] if r.extra[0] != "-" else "0")
    before = minor.read_text()
    openpower.install(EXTS, root=str(fake_checkout), isa=full_isa)
    assert minor.read_text() == before  # idempotent
    openpower.uninstall(EXTS, root=str(fake_checkout))
    assert "isa_ext" not in minor.read_text()
    assert not list((fake_checkout / "openpower" / "isa").iterdir())
    assert written


def test_locate_rejects_non_checkout(tmp_path):
    with pytest.raises(openpower.OpenPowerError, match="not an openpower-isa checkout"):
        openpower.locate(str(tmp_path))


def test_cli_reports_errors_without_traceback(tmp_path, capsys):
    assert openpower.main(["install", "--root", str(tmp_path)]) == 2
    assert "not an openpower-isa checkout" in capsys.readouterr().err


def test_assignments_openpower_cannot_parse_become_call_statements():
    # openpower-isa's parser assigns to names, slices, MEM(...) and GPR/FPR/SPR(name)
    conv = openpower._rewrite_call_assignment
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
RM_SLOT_DIVERGENCES = {"mulli", "lq", "stq", "mfspr", "mtspr", "svstep",
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
