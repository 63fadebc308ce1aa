"""Run single instructions on openpower-isa's ISACaller (run in its PyPy venv by
tests/test_openpower_plugin_e2e.py, not collected by pytest).

stdin: JSON list of cases {"word": int, "gpr": [32 ints], "fpr": [32 ints]};
stdout: a line "RESULT <json>" with, per case, {"gpr": [...], "fpr": [...]} or
{"illegal": reason} when the instruction raised the installed ILLEGAL helper's
exception (nothing written), or {"error": text} for anything else.
"""
import json
import sys

from openpower.decoder.isa.test_runner import run_tst
from openpower.decoder.power_decoder import create_pdecode
from openpower.decoder.power_decoder2 import PowerDecode2
from openpower.simulator.program import Program


def run_case(case, pdecode2):
    fprs = list(case["fpr"])
    with Program([f".long 0x{case['word']:08x}"], bigendian=False) as prog:
        sim = run_tst(prog, list(case["gpr"]), initial_fprs=fprs, pdecode2=pdecode2)
    return {"gpr": [sim.gpr(i).value for i in range(32)],
            "fpr": [sim.fpr(i).value for i in range(32)]}


def main():
    cases = json.load(sys.stdin)
    pdecode2 = PowerDecode2(create_pdecode(include_fp=True))
    out = []
    for case in cases:
        try:
            out.append(run_case(case, pdecode2))
        except Exception as e:  # the helper's exception, possibly wrapped by the simulator
            chain, seen = e, []
            while chain is not None:
                seen.append(chain)
                chain = chain.__cause__ or chain.__context__
            illegal = next((x for x in seen if type(x).__name__ == "IsaExtIllegal"), None)
            out.append({"illegal": str(illegal)} if illegal is not None
                       else {"error": f"{type(e).__name__}: {e}"[:300]})
    print("RESULT " + json.dumps(out))


if __name__ == "__main__":
    main()
