"""libre-soc's own tools as oracles: its SVP64 assembler (``SVP64Asm``), run in
the PyPy venv that ``../shared/tools/isacaller-setup DIR`` builds.

One process serves a whole batch (openpower-isa takes seconds to import)."""
import json
import os
import subprocess

from ..errors import IsaExtError

_MARK = "@@isa_ext-json@@"

# runs inside openpower-isa's venv: assemble each line on its own, so one
# rejected line does not hide the others
_SVP64ASM = r"""
import json, sys
from openpower.insndb.asm import SVP64Asm
out = []
for line in json.load(sys.stdin):
    try:
        out.append(["ok", [str(s) for s in SVP64Asm([line])]])
    except Exception as e:
        out.append(["error", "%s: %s" % (type(e).__name__, e)])
sys.stdout.write("\n" + MARK + "\n" + json.dumps(out) + "\n")
""".replace("MARK", repr(_MARK))


def run_python(root, code, stdin="", timeout=1800):
    """Run ``code`` in the openpower-isa venv under ``root``; its stdout."""
    python = os.path.join(root, "venv", "bin", "python")
    if not os.path.isfile(python):
        raise IsaExtError(f"{root}: no openpower-isa venv (build one with "
                          "../shared/tools/isacaller-setup DIR)")
    env = dict(os.environ, SILENCELOG="1", AS="powerpc64le-linux-gnu-as",
               LD="powerpc64le-linux-gnu-ld", OBJCOPY="powerpc64le-linux-gnu-objcopy")
    env.pop("PYTHONPATH", None)
    r = subprocess.run([python, "-c", code], input=stdin, capture_output=True, text=True,
                       env=env, timeout=timeout, cwd=root)
    if r.returncode != 0:
        raise IsaExtError(f"openpower-isa failed (exit {r.returncode}): {r.stderr[-2000:]}")
    return r.stdout


def svp64asm(root, lines):
    """libre-soc's SVP64Asm on each line: [("ok", [text, ...]) or ("error", why)].

    Each text is one 32-bit word: ``.long 0x...`` for a prefix or an instruction
    GNU as does not know, else the suffix instruction in GNU syntax."""
    out = run_python(root, _SVP64ASM, json.dumps(list(lines)))
    return [tuple(r) for r in json.loads(out.split(_MARK, 1)[1])]
