"""check-spec: passes on the project, and reports each kind of deliberate
breakage in a copy of the spec with the file, line and names involved.

Broken copies are compared with the same copy before the edit, so the tests
hold whatever instructions the project has (and whatever it has in progress).
"""
import os
import shutil

import pytest

from isa_ext.cli import main
from isa_ext.isa import ISA
from isa_ext.spec.checks import check_spec
from isa_ext.spec.rm import parse_category
from conftest import ROOT

PROJECT_ROOT = ROOT


def test_project_spec_passes(capsys):
    status = main(["check-spec"])
    out, err = capsys.readouterr()
    assert status == 0, out + err
    assert "check-spec: OK" in out


@pytest.fixture
def spec_copy(tmp_path):
    for part in ("decoder", "pseudocode"):
        shutil.copytree(os.path.join(PROJECT_ROOT, part), tmp_path / part)
    return str(tmp_path)


def _problems(root):
    problems, _ = check_spec(root=root)
    return {str(p) for p in problems}


def _new_problems(root, edit):
    """Problems the edit introduces (those of the unedited copy removed)."""
    before = _problems(root)
    edit()
    return sorted(_problems(root) - before)


def _file_of(where):
    return os.path.abspath(where.rsplit(":", 1)[0])


def _page_block(page):
    """(path, first line index, end line index) of a page's text in its file."""
    path = _file_of(page.where)
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines(keepends=True)
    start = page.line - 1
    end = start + 1
    while end < len(lines) and not lines[end].startswith("# "):
        end += 1
    return path, lines, start, end


def _rows_with_own_page(isa):
    """Rows whose page serves no other row (removing it affects one row)."""
    users = {}
    for row in isa.rows:
        if row.page is not None:
            users.setdefault(id(row.page), []).append(row)
    return [rows[0] for rows in users.values() if len(rows) == 1]


def test_missing_page_is_reported(spec_copy):
    isa = ISA(root=spec_copy)
    row = _rows_with_own_page(isa)[0]
    path, lines, start, end = _page_block(row.page)

    def remove_page():
        with open(path, "w", encoding="utf-8") as f:
            f.writelines(lines[:start] + lines[end:])

    new = _new_problems(spec_copy, remove_page)
    row_where = row.where.replace(PROJECT_ROOT, spec_copy)
    assert any(f"[pages] row {row.mnemonic} has no pseudocode page" in p
               and p.startswith(row_where) for p in new), new


def test_page_without_row_is_reported(spec_copy):
    isa = ISA(root=spec_copy)
    page = isa.rows[0].page
    path = _file_of(page.where)

    def add_orphan():
        with open(path, "a", encoding="utf-8") as f:
            f.write(f"\n# Orphan\n\n{page.form}-Form\n\n* zzorphan\n\nPseudo-code:\n\n"
                    "    x <- 0b1\n\nSpecial Registers Altered:\n\n    None\n")

    new = _new_problems(spec_copy, add_orphan)
    assert any("[pages] page 'Orphan' (zzorphan) has no table row" in p for p in new), new


def test_unknown_field_in_pseudocode_is_reported(spec_copy):
    isa = ISA(root=spec_copy)
    row = _rows_with_own_page(isa)[0]
    # a field of some other form that this row's form lacks
    foreign = next(name for form in isa.forms.forms.values() for name in form.fields
                   if name not in row.form.fields and name.isupper() and len(name) > 1
                   and name not in ("CR", "LR", "CTR", "XER", "MSR", "NIA", "CIA", "SO", "OV", "CA"))
    path, lines, start, end = _page_block(row.page)
    code_at = next(i for i in range(start, end) if lines[i].strip() == "Pseudo-code:")
    body = next(i for i in range(code_at + 1, end) if lines[i].strip())
    indent = lines[body][:len(lines[body]) - len(lines[body].lstrip())]

    def use_foreign_field():
        edited = lines[:body] + [f"{indent}chk_tmp <- {foreign}\n"] + lines[body:]
        with open(path, "w", encoding="utf-8") as f:
            f.writelines(edited)

    new = _new_problems(spec_copy, use_foreign_field)
    assert any("[compile]" in p and f"unknown name {foreign!r}" in p
               and f"form {row.form.name}" in p
               and _file_of(p.split(": ", 1)[0]) == path and p.split(": ", 1)[0].endswith(f":{body + 1}")
               for p in new), new


def test_overlapping_encoding_is_reported(spec_copy):
    isa = ISA(root=spec_copy)
    row = isa.rows[0]
    path = _file_of(row.where)
    lineno = int(row.where.rsplit(":", 1)[1])
    with open(path, encoding="utf-8") as f:
        line = f.read().splitlines()[lineno - 1]
    clone = "zzclone" + line[len(row.mnemonic):]  # same encoding, another name

    def add_clone():
        with open(path, "a", encoding="utf-8") as f:
            f.write(clone + "\n")

    new = _new_problems(spec_copy, add_clone)
    overlap = [p for p in new if "[overlap]" in p]
    assert overlap and any(row.mnemonic in p and "zzclone" in p and "can decode the same word" in p
                           for p in overlap), new


def test_uncovered_form_bits_are_reported(spec_copy):
    forms = os.path.join(spec_copy, "decoder", "forms.txt")

    def add_short_form():
        with open(forms, "a", encoding="utf-8") as f:
            f.write("\nform ZZSHORT\n    PO 0:5\n    RT 6:10\n    XO 21:30\n")

    new = _new_problems(spec_copy, add_short_form)
    assert any("form ZZSHORT leaves bit(s) 11:20, 31 uncovered" in p for p in new), new


def test_signopt_of_no_operand_is_reported(spec_copy):
    forms = os.path.join(spec_copy, "decoder", "forms.txt")

    def add_bad_signopt():
        with open(forms, "a", encoding="utf-8") as f:
            f.write("\nsignopt addi UI\nsignopt nosuchinsn SI\n")

    new = _new_problems(spec_copy, add_bad_signopt)
    assert any("signopt addi UI: no instruction addi with operand UI" in p for p in new), new
    assert any("signopt nosuchinsn SI" in p for p in new), new


def test_rm_category_mismatch_is_reported(spec_copy):
    isa = ISA(root=spec_copy)
    row = next(r for r in isa.rows
               if parse_category(r.sv) and parse_category(r.sv).family == "RM"
               and parse_category(r.sv).sources < 3 and _problems_of_row(isa, r) == [])
    cat = parse_category(row.sv)
    wrong = f"RM-{cat.predicates}P-{cat.sources + 2}S{cat.dests}D" if cat.dests else \
        f"RM-{cat.predicates}P-{cat.sources + 2}S"
    path = _file_of(row.where)
    lineno = int(row.where.rsplit(":", 1)[1])

    def miscategorise():
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines(keepends=True)
        assert lines[lineno - 1].count("," + row.sv + ",") == 1
        lines[lineno - 1] = lines[lineno - 1].replace("," + row.sv + ",", "," + wrong + ",")
        with open(path, "w", encoding="utf-8") as f:
            f.writelines(lines)

    new = _new_problems(spec_copy, miscategorise)
    assert any(f"[rm] {row.mnemonic}: {wrong} means {cat.sources + 2} source(s)" in p for p in new), new


def _problems_of_row(isa, row):
    from isa_ext.spec.checks import check_rm
    return [p for p in check_rm(isa) if p.where == row.where]


def test_ldst_category_on_non_memory_row_is_reported(spec_copy):
    isa = ISA(root=spec_copy)
    row = next(r for r in isa.rows if r.sv.startswith("RM-") and "MEM" not in r.ins + r.outs)
    path = _file_of(row.where)
    lineno = int(row.where.rsplit(":", 1)[1])

    def make_ldst():
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines(keepends=True)
        lines[lineno - 1] = lines[lineno - 1].replace("," + row.sv + ",", ",LDST" + row.sv + ",")
        with open(path, "w", encoding="utf-8") as f:
            f.writelines(lines)

    new = _new_problems(spec_copy, make_ldst)
    assert any(f"{row.mnemonic}: LDST{row.sv} is a load/store category but the row does not access MEM"
               in p for p in new), new


def test_unloadable_spec_fails_with_location(spec_copy, capsys):
    path = os.path.join(spec_copy, "decoder", "base", "zz_broken.csv")
    with open(path, "w", encoding="utf-8") as f:
        f.write("mnemonic,form,match,syntax\nzzbad,NOSUCHFORM,PO=1,\n")
    status = main(["check-spec", "--spec-root", spec_copy])
    out, err = capsys.readouterr()
    assert status == 1
    assert "zz_broken.csv:2: [load] unknown form 'NOSUCHFORM'" in out
    assert "1 problem(s)" in err


def test_cli_fails_on_broken_copy_and_names_the_problem(spec_copy, capsys):
    forms = os.path.join(spec_copy, "decoder", "forms.txt")
    with open(forms, "a", encoding="utf-8") as f:
        f.write("\nform ZZSHORT\n    PO 0:5\n")
    status = main(["check-spec", "--spec-root", spec_copy])
    out, err = capsys.readouterr()
    assert status == 1
    assert "[forms] form ZZSHORT leaves bit(s) 6:31 uncovered" in out
    assert "Traceback" not in out + err


def test_missing_spec_root_is_bad_input(tmp_path, capsys):
    status = main(["check-spec", "--spec-root", str(tmp_path / "nowhere")])
    assert status == 2
    assert "no such directory" in capsys.readouterr().err
