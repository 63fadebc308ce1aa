"""The spec site's "Tests and examples" section: every instruction page names the
tests that use it, and only those (issue 18: 67 pages listed none; `add` cited
a SURED name table, `and` every docstring with the word "and")."""
import textwrap

import pytest

from isa_ext.spec.sources import references_for, scan_references
from isa_ext.spec.sources import tests_for as uses_by_test

# Pages allowed to list no test, each with the reason.  Empty: every row has one.
NO_TEST_EXCEPTIONS = {}


@pytest.fixture(scope="module")
def site(spec_site):
    return spec_site


def section_of(site, name):
    # pages are named by file ("add.html"): a bare mnemonic string here would be
    # a use of that instruction for the scanner under test
    page = (site / "insn" / name).read_text()
    return page.split("<h2>Tests and examples</h2>", 1)[1]


def test_every_instruction_page_lists_a_test(site):
    missing = []
    for page in sorted((site / "insn").glob("*.html")):
        section = section_of(site, page.name)
        if "<code>tests/" not in section and page.stem not in NO_TEST_EXCEPTIONS:
            missing.append(page.stem)
    assert missing == []
    assert all((site / "insn" / f"{slug}.html").is_file() for slug in NO_TEST_EXCEPTIONS)


def test_pages_cite_uses_not_words(site):
    add = section_of(site, "add.html")
    # gpu_reference.py's SURED table {"add": ...} and test_gpu_identity.py's loop
    # over SURED operation names feeding f"sured.{op} ..." are not uses of add
    assert "tests/gpu_reference.py" not in add
    assert "tests/ext/gpu/test_gpu_identity.py" not in add
    assert "<code>tests/core/test_sim_core.py</code>" in add   # "add 3,4,5" there
    and_ = section_of(site, "and.html")
    # the English word in docstrings (test_fuzz.py's) and C comments is no use
    assert "tests/core/test_fuzz.py" not in and_ and "tests/c/" not in and_
    assert "<code>tests/base/test_base_fixed_logical.py</code>" in and_
    # f"sv.fshfl.{mode} ..." in a test parametrized over "idx" and "bfly" uses those
    # two rows, not fshfl.up
    assert "test_seed003_fswz_patterns" in section_of(site, "fshfl.idx.html")
    assert "test_seed003_fswz_patterns" not in section_of(site, "fshfl.up.html")
    # f"sured.{op} ..." over ("add", "min", ...) uses sured.add (= sured.add.u32)
    assert "test_sured_without_a_size_is_u32" in section_of(site, "sured.add.u32.html")
    # the hand-written rows name their test functions
    assert "test_sured_sizes" in section_of(site, "sured.xor.u64.html")
    assert "test_quad_swizzle_add_single_rounds_to_binary32" in section_of(site, "qswz2as.html")


def _project(tmp_path, files):
    # "%" splits each mnemonic in the sources below (removed when written) so
    # that they are not this test's own uses of fadd, blr ...
    for rel, text in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).replace("%", ""))
    return str(tmp_path)


def test_scanner_counts_statements_bare_names_and_templates(tmp_path):
    root = _project(tmp_path, {
        "tests/test_x.py": '''\
            """Docstring: add the two values and or them."""
            import pytest
            # add 3,4,5 in a comment is no use
            PROG = """
                sv.f%add/mr *1, *2, *3
                b%lr
            """

            def test_bare(isa):
                run(isa, "f%neg", FRT=1)
                assert not {"fabs"} & set()
                assert names == {"fmr"}
                git("add", "-A")

            @pytest.mark.parametrize("mode", ["idx", "bfly"])
            def test_template(mode):
                prog = f"sv.f%shfl.{mode} *f32,*f0,r4,r5"

            def test_fragments():
                for op in ("and", "or"):
                    run(f"su%red.{op} r2,r4,r6,1d")
                run(f"{op} 1,2,3")
            ''',
        "tests/helper.py": 'OPS = {"xor": 1}\nPROG = "x%or 3,4,5"\n',
        "tests/c/k.c": '/* and here */\nvoid f(void) { __asm__ volatile("sync" ::: "memory"); }\n',
        "examples/k.s": "# or this\nloop: add%i 3,3,1\n    b%lr\n",
    })
    names = set("add and or xor fadd fneg fabs fmr sync addi blr "
                "fshfl.idx fshfl.bfly fshfl.up sured.and sured.or".split())
    index = scan_references(root, names)
    assert sorted(index) == sorted(set("fadd sv.fadd blr fneg fshfl.idx fshfl.bfly sured.and sured.or "
                                       "xor sync addi".split()))
    assert references_for(index, "fadd".split()) == {"tests/test_x.py": [5]}
    assert references_for(index, "blr".split()) == {"examples/k.s": [3], "tests/test_x.py": [6]}
    assert uses_by_test(index, "fneg".split()) == {"tests/test_x.py": ["test_bare"]}
    assert uses_by_test(index, "fshfl.bfly".split()) == {"tests/test_x.py": ["test_template"]}
    assert uses_by_test(index, "sured.or".split()) == {"tests/test_x.py": ["test_fragments"]}
    assert references_for(index, "xor".split()) == {"tests/helper.py": [2]}
    assert references_for(index, "sync".split()) == {"tests/c/k.c": [2]}
    # without the instruction names only statements count
    plain = scan_references(root)
    assert "fneg" not in plain and "fshfl.idx" not in plain and "fadd" in plain


def test_statements_need_assembly_operands():
    from isa_ext.spec.sources import statement_tokens
    assert statement_tokens('"add 3,4,5"') == {"add"}
    assert statement_tokens("'sv.add/mr *8, *8, *16'") == {"add", "sv.add"}
    assert statement_tokens('"b loop"') == {"b"}
    # prose: words apart, or a lone word operand of a non-branch
    assert statement_tokens('"and then the value"') == set()
    assert statement_tokens('"add them"') == set()
    assert statement_tokens('"add"') == set()


def test_a_declared_whole_table_test_is_listed_on_each_row(tmp_path):
    # a test that draws every row by program says so in one comment line
    from isa_ext.spec import sources
    (tmp_path / "tests" / "x").mkdir(parents=True)
    (tmp_path / "tests" / "x" / "test_all.py").write_text(
        "# spec-site: test_every_row covers every row of extension vector\n"
        "def test_every_row():\n    pass\n"
        "# spec-site: not a declaration of extension base\n")
    (tmp_path / "tests" / "x" / "helper.py").write_text(
        "# spec-site: test_y covers every row of extension base\n")
    assert sources.row_coverage(str(tmp_path)) == {
        "vector": [("tests/x/test_all.py", 1, "test_every_row")]}
    assert sources.row_coverage(None) == {}
