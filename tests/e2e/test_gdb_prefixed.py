"""gdb's stepi over v3.1 prefixed instructions (isa-ext gdbserver): one stepi
runs the whole 8-byte instruction and the PC moves by 8 (the addresses and
values by hand, Power ISA v3.1 Book I 3.3.9 and 3.3.2)."""
import re

from test_gdbserver import Server, gdb_session, reg

PROG = """\
    pli r3, 0x123456789     # 0x1000 (8 bytes) r3 = 0x123456789
    pla r4, 0               # 0x1008 (8 bytes) r4 = CIA = 0x1008
    li r5, 1                # 0x1010
    li r0, 1                # 0x1014 exit system call
    li r3, 0                # 0x1018
    sc                      # 0x101c
"""


def test_stepi_runs_one_prefixed_instruction(tmp_path):
    server = Server(tmp_path, PROG)
    out = gdb_session(server, "stepi", "info registers pc r3", "stepi",
                      "info registers pc r4 r5", "continue")
    pcs = [int(v, 16) for v in re.findall(r"^pc +(0x[0-9a-f]+)", out, re.M)]
    assert pcs == [0x1008, 0x1010]
    assert reg(out, "r3") == 0x123456789 and reg(out, "r4") == 0x1008
    assert reg(out, "r5") == 0  # the li after it has not run
    assert "exited normally" in out or "exited with code 00" in out
