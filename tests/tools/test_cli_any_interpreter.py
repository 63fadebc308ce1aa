"""``isa-ext`` as its own process under the interpreter running the tests
(CPython, and PyPy in CI's run of tests/pypy_core.txt): the README's PyPy
instructions run ``isa-ext run`` there, whose exit froze the collector with
``gc.freeze``, which PyPy does not have."""
import os
import subprocess
import sys

from conftest import ROOT


def test_isa_ext_run_as_a_process_exits_cleanly(tmp_path):
    src = tmp_path / "exit.s"
    src.write_text("li 0,1\nli 3,7\nsc\n")
    env = dict(os.environ, PYTHONPATH=ROOT)
    proc = subprocess.run([sys.executable, "-m", "isa_ext", "run", str(src)],
                          capture_output=True, text=True, env=env, timeout=300)
    assert "Traceback" not in proc.stderr, proc.stderr
    assert "exit status: 7" in proc.stdout, proc.stdout + proc.stderr
