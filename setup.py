"""The package layout; the metadata, extras and entry point are in pyproject.toml.

The spec data lives at the top level of the source tree (``decoder/``,
``pseudocode/``: one source of truth, easy to review) and is installed inside
the package as ``isa_ext.spec_decoder`` / ``isa_ext.spec_pseudocode``, where
``isa_ext.specdata`` finds it through importlib.resources.
"""
import os

from setuptools import setup, find_packages, find_namespace_packages


def installed_inside(package, folder):
    """{package name: source folder} for ``folder`` and every folder below it."""
    subs = find_namespace_packages(where=folder, exclude=["*__pycache__*"])
    return {package: folder, **{f"{package}.{s}": f"{folder}/{s.replace('.', '/')}" for s in subs}}


SPEC_PACKAGES = {**installed_inside("isa_ext.spec_decoder", "decoder"),
                 **installed_inside("isa_ext.spec_pseudocode", "pseudocode"),
                 # docs/errata.md alone: the spec site lists each page's errata
                 "isa_ext.spec_docs": "docs"}

setup(
    packages=find_packages(include=["isa_ext", "isa_ext.*"]) + list(SPEC_PACKAGES),
    package_dir=SPEC_PACKAGES,
    # spec tables and pages, the pseudocode grammar, the PO22 reference list
    package_data={"": ["*.csv", "*.txt", "*.mdwn", "*.lark"], "isa_ext.spec_docs": ["errata.md"]},
    # (the sdist grafts docs/, which would otherwise bring every document along)
    exclude_package_data={"isa_ext.spec_docs": sorted(
        n for n in os.listdir("docs") if n != "errata.md")},
)
