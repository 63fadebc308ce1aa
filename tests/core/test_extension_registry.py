"""Extensions register into the registry of the ISA that names them
(isa_ext/extension.py): ISAs with different extensions coexist in one
process, whatever was built or imported first, and what an ISA knows is
exactly what its extensions registered."""
import os
import pathlib
import re

import pytest

from conftest import ROOT
from isa_ext.errors import SpecError, Trap
from isa_ext.extension import Extension
from isa_ext.isa import ISA
from isa_ext.sim import Simulator
from isa_ext.svp64 import svstate as SV

# sv.mv.swiz/vec4/svec4 *8, *16, "WZYX" (tests/svp64/test_svp64_mvrm.py's words)
SV_SWIZ = [0x0540EB00, 0x5844FAC3]


def run_words(isa, words, **regs):
    sim = Simulator(isa=isa)
    sim.load_words(words)
    sim.state.svstate = SV.make(maxvl=1, vl=1)
    for r, v in regs.items():
        sim.state.gpr[int(r[1:])] = v
    return sim.run()


def test_isas_with_different_extensions_coexist():
    # built in the order that used to leak: the widest first
    full = ISA()
    swizzle = ISA(extensions=["base", "swizzle"])
    base = ISA(extensions=["base"])
    gpu = ISA(extensions=["base", "gpu"])
    assert base.extensions == ["base"]
    # RM categories: each ISA has its own extensions' only
    assert "MVRM-2P-2S1D" in full.categories and "MVRM-2P-2S1D" in swizzle.categories
    assert "MVRM-2P-2S1D" not in base.categories and "MVRM-2P-2S1D" not in gpu.categories
    assert any(c.startswith("VSRM") for c in gpu.categories)
    assert not any(c.startswith("VSRM") for c in swizzle.categories)
    # pseudocode helpers
    for name in ("LANE", "GROUP", "F32ADD_FTZ_RN"):
        assert name in gpu.library.intrinsics and name not in base.library.intrinsics
    assert "SVSTATE_NEXT" in full.library.intrinsics
    assert "SVSTATE_NEXT" not in swizzle.library.intrinsics
    assert "VL" in gpu.library.names and "VL" not in swizzle.library.names
    # hooks
    assert base.prefix_handler is None and base.sv_assemble is None
    assert swizzle.prefix_handler is not None and swizzle.sv_assemble is None
    assert full.sv_assemble is not None
    assert set(base.operand_types) == set()
    assert set(swizzle.operand_types) == {"swizzle"} and set(gpu.operand_types) == {"surfdim"}
    assert base.prefixed_forms == [] and len(gpu.prefixed_forms) == 1
    # running: the swizzle ISA runs sv.mv.swiz (WZYX reverses r16..r19 into
    # r8..r11); the base ISA has no SVP64 prefix: word 0 is not an instruction
    r = run_words(swizzle, SV_SWIZ, r16=100, r17=101, r18=102, r19=103)
    assert r.stop == "end" and r.gpr[8:12] == [103, 102, 101, 100]
    r = run_words(base, SV_SWIZ)
    assert r.trap is not None and r.trap.kind == "illegal" and r.pc == 0x1000


def test_extension_objects_and_names_mix():
    seen = []
    probe = Extension("probe", setup=lambda reg: seen.append(sorted(reg.isa.extensions)))
    isa = ISA(extensions=["base", probe])
    assert isa.extensions == ["base", "probe"] and seen == [["base", "probe"]]
    needy = Extension("needy", requires=["svp64"])
    assert ISA(extensions=["base", needy]).extensions == ["base", "svp64", "needy"]
    with pytest.raises(SpecError, match="unknown extension"):
        ISA(extensions=["base", "nosuch"])
    with pytest.raises(SpecError, match="neither a name nor an Extension"):
        ISA(extensions=["base", 42])


def _helper_extension(tmp_path, module, rounding):
    """An extension ``avg`` whose AVG intrinsic adds ``rounding`` before the
    halving, in a module of its own (the compiled code differs between two)."""
    spec = tmp_path / "spec"
    (spec / "decoder" / "avg").mkdir(parents=True, exist_ok=True)
    (spec / "pseudocode" / "avg").mkdir(parents=True, exist_ok=True)
    (spec / "decoder" / "avg" / "avg.csv").write_text(
        "mnemonic,form,match,syntax,suffix,in,out,rc,sv,extra\n"
        'avgu,X,PO=9 XO=7,"RT,RA,RB",,RA RB,RT,,,\n')
    (spec / "pseudocode" / "avg" / "avg.mdwn").write_text(
        "# Average Unsigned\n\nX-Form\n\n* avgu RT,RA,RB\n\nPseudo-code:\n\n"
        "    RT <- AVG((RA), (RB))\n\nSpecial Registers Altered:\n\n    None\n")
    (tmp_path / f"{module}.py").write_text(
        "from isa_ext.extension import Extension\n"
        "from isa_ext.pseudocode.compiler import Val\n\n\n"
        "def setup(reg):\n"
        "    reg.intrinsic('AVG', lambda comp, a, b: "
        f"Val(f'((({{a.code}}) + ({{b.code}}) + {rounding}) >> 1)', 64))\n\n\n"
        f"EXTENSION = Extension('avg', root={str(spec)!r}, setup=setup)\n")


def test_compiled_page_cache_keys_on_the_extensions_helpers(tmp_path, monkeypatch):
    # two extensions of one name and one page whose intrinsic expands
    # differently: the second must not run the first's cached code
    monkeypatch.setenv("ISA_EXT_CACHE", str(tmp_path / "cache"))
    monkeypatch.syspath_prepend(str(tmp_path))
    _helper_extension(tmp_path, "avg_floor", 0)
    _helper_extension(tmp_path, "avg_ceil", 1)
    import avg_floor
    import avg_ceil
    word = 9 << 26 | 3 << 21 | 4 << 16 | 5 << 11 | 7 << 1  # avgu 3,4,5 (X-form)
    results = []
    for ext in (avg_floor.EXTENSION, avg_ceil.EXTENSION):
        isa = ISA(extensions=["base", ext])
        sim = Simulator(isa=isa)
        sim.load_words([word])
        sim.state.gpr[4], sim.state.gpr[5] = 10, 5
        results.append(sim.run().gpr[3])
        isa.save_cache()
    assert list((tmp_path / "cache" / "compiled").glob("*/*.entry"))  # pages were cached
    # (10 + 5) / 2 rounded down, then up
    assert results == [7, 8]


def test_no_extension_writes_into_shared_tables():
    # the acceptance: extensions register through their ISA's
    # registry, never into module-level tables or attributes of the ISA
    shared = re.compile(r"\b(INTRINSICS|RUNTIME|INLINE|INLINE_ASSIGN|SETTERS|NAMES|"
                        r"CONSTANTS|CATEGORIES)\b(\[[^]]*\]\s*=[^=]|\.(setdefault|update)\()|"
                        r"register_category\(|EXTENSION_HOOKS|\bisa\.\w+ = |setattr\(isa|"
                        r"\blibrary\.[A-Z_]+\b")
    offenders = []
    for path in sorted(pathlib.Path(ROOT, "isa_ext", "ext").rglob("*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if shared.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert offenders == []


def test_unknown_category_traps_in_an_isa_without_it():
    base = ISA(extensions=["base", "svp64"])
    with pytest.raises(Trap, match="MVRM-2P-2S1D"):
        base.category("MVRM-2P-2S1D")


def test_machine_option_of_an_extension_configures_any_machine():
    # Simulator(gpu=...) is the gpu extension's option: taken with the
    # extension on, and (a keyword of the simulator) with it off
    for exts in (["base", "gpu"], ["base"]):
        sim = Simulator(isa=ISA(extensions=exts), gpu={"warp_id": 1, "warps_per_sm": 2})
        assert (sim.state.gpu.warp_id, sim.state.gpu.warps_per_sm) == (1, 2)
    with pytest.raises(Exception, match="no extension has the machine option 'nosuch'"):
        ISA(extensions=["base"]).configure_machine(None, "nosuch", 1)
