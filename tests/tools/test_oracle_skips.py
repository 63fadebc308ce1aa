"""What a newcomer without the oracles sees (issue 18: "test skips name the
tool, not the Debian package, and the README never says that some tests need
../shared/").  Package names are Debian's (`dpkg -S /usr/bin/TOOL` on bookworm:
qemu-user provides qemu-ppc64le, gcc-powerpc64le-linux-gnu the unversioned
powerpc64le-linux-gnu-gcc, binutils-powerpc64le-linux-gnu the assembler)."""
import os
import pathlib
import shutil
import subprocess

import pytest

import conftest

from conftest import ROOT as CHECKOUT
ROOT = pathlib.Path(CHECKOUT)

DEBIAN = {"qemu-ppc64le": "qemu-user", "powerpc64le-linux-gnu-gcc": "gcc-powerpc64le-linux-gnu",
          "powerpc64le-linux-gnu-as": "binutils-powerpc64le-linux-gnu",
          "powerpc64le-linux-gnu-objdump": "binutils-powerpc64le-linux-gnu",
          "yosys": "yosys", "chromium": "chromium", "gdb-multiarch": "gdb-multiarch"}


@pytest.mark.parametrize("tool", sorted(DEBIAN))
def test_a_missing_tool_skip_names_its_debian_package(tool, monkeypatch):
    monkeypatch.delenv("ISA_EXT_REQUIRE_TOOLS", raising=False)
    monkeypatch.setattr(conftest.shutil, "which", lambda name: None)
    with pytest.raises(pytest.skip.Exception) as skipped:
        conftest.need_tool(tool)
    assert f"{tool} not installed (apt-get install {DEBIAN[tool]};" in str(skipped.value)


def test_in_ci_a_missing_tool_fails_with_the_same_words(monkeypatch):
    monkeypatch.setenv("ISA_EXT_REQUIRE_TOOLS", "1")
    monkeypatch.setattr(conftest.shutil, "which", lambda name: None)
    with pytest.raises(pytest.fail.Exception) as failed:
        conftest.need_tool("qemu-ppc64le")
    assert "apt-get install qemu-user" in str(failed.value)


def test_package_names_are_what_dpkg_says_where_installed():
    dpkg = shutil.which("dpkg")
    if dpkg is None:
        pytest.skip("not a Debian system (no dpkg)")
    for tool in DEBIAN:
        path = shutil.which(tool)
        if path is None:
            continue
        out = subprocess.run([dpkg, "-S", path], capture_output=True, text=True).stdout
        assert out.split(":")[0] == conftest.tool_package(tool), (tool, out)


def test_a_missing_shared_file_skip_names_shared(monkeypatch):
    monkeypatch.delenv("ISA_EXT_REQUIRE_TOOLS", raising=False)
    monkeypatch.setattr(conftest, "SHARED", "/nonexistent-shared")
    with pytest.raises(pytest.skip.Exception) as skipped:
        conftest.shared_path("golden", "x.json")
    assert "../shared/golden/x.json not beside the checkout" in str(skipped.value)


def test_readme_says_which_tests_need_what():
    # the README's quick start points to docs/testing.md, which says it in full
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "(docs/testing.md: the other test commands, the oracles and what CI runs)" in readme
    text = " ".join((ROOT / "docs" / "testing.md").read_text(encoding="utf-8").split())
    assert "skip with the Debian package to install when it is missing" in text
    assert "Some tests also need `../shared/` beside the checkout" in text
    assert "`ISA_EXT_ISACALLER=DIR`" in text and "(`ISA_EXT_REQUIRE_TOOLS=1`) they fail" in text
    assert os.path.isfile(ROOT / ".ci" / "run")
