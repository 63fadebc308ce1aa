"""The README's test command is a quick run: without paths it leaves out the tests
that tests/slow_tests.txt lists or that are marked slow; --slow (CI) and naming files
run them; a list entry that names no test fails the collection."""
import pytest

from conftest import TESTS_DIR

TESTS = {
    "test_a": """
        import pytest

        def test_quick():
            pass

        def test_listed():
            pass

        @pytest.mark.parametrize("n", [1, 2])
        def test_listed_params(n):
            pass

        @pytest.mark.slow
        def test_marked():
            pass
    """,
}


@pytest.fixture
def project(pytester, monkeypatch):
    monkeypatch.delenv("ISA_EXT_SLOW", raising=False)
    pytester.makeini("[pytest]\ntestpaths = tests\nmarkers =\n    slow: slow\n    long: long\n")
    tests = pytester.mkdir("tests")
    (tests / "conftest.py").write_text(open(f"{TESTS_DIR}/conftest.py", encoding="utf-8").read())
    (tests / "test_a.py").write_text(__import__("textwrap").dedent(TESTS["test_a"]))
    (tests / "slow_tests.txt").write_text("# a comment\ntests/test_a.py::test_listed\n"
                                          "tests/test_a.py::test_listed_params\n")
    return pytester


def test_default_run_leaves_the_slow_tests_out(project):
    r = project.runpytest("-p", "no:cacheprovider")
    r.assert_outcomes(passed=1, deselected=4)
    r.stdout.fnmatch_lines(["*quick run: tests marked slow or long were left out*"])


def test_slow_option_runs_everything(project):
    project.runpytest("--slow", "-p", "no:cacheprovider").assert_outcomes(passed=5)


def test_environment_runs_everything(project, monkeypatch):
    monkeypatch.setenv("ISA_EXT_SLOW", "1")
    project.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=5)


def test_naming_a_file_runs_its_slow_tests(project):
    project.runpytest("tests/test_a.py", "-p", "no:cacheprovider").assert_outcomes(passed=5)


def test_not_slow_still_runs_the_listed_tests(project):
    # tools/mutation.py selects -m "not slow": the listed campaigns kill mutants too
    project.runpytest("-m", "not slow", "-p", "no:cacheprovider").assert_outcomes(
        passed=4, deselected=1)


def test_a_listed_test_that_does_not_exist_fails_the_collection(project):
    (project.path / "tests" / "slow_tests.txt").write_text("tests/test_a.py::test_gone\n")
    r = project.runpytest("-p", "no:cacheprovider")
    assert r.ret != 0
    r.stderr.fnmatch_lines(["*slow_tests.txt names tests that do not exist: "
                            "tests/test_a.py::test_gone*"])
