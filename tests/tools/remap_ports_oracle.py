"""Write decoder/svp64/remap_ports.txt from openpower-isa's SVP64 RM tables.

    python tests/tools/remap_ports_oracle.py OPENPOWER_ISA_DIR > decoder/svp64/remap_ports.txt

REMAP's operand slots are the decoder's register ports (SVme bits RA RB RC RT
EA/FRS = in1 in2 in3 out out2); openpower-isa's isatables/RM-*.csv and
LDSTRM-*.csv give each SVP64 row's ports.  Only register names are kept
(RA_OR_ZERO is RA; immediates and CR fields are dropped, "-" = no register).
"""
import csv
import glob
import os
import sys

PORTS = ("in1", "in2", "in3", "out", "out2")
REGS = {"RA", "RB", "RC", "RS", "RT", "FRA", "FRB", "FRC", "FRS", "FRT"}


def main(root):
    rows = {}
    for path in sorted(glob.glob(os.path.join(root, "openpower", "isatables", "*RM-*.csv"))):
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                ports = []
                for port in PORTS:
                    name = (row.get(port) or "").replace("RA_OR_ZERO", "RA")
                    ports.append(name if name in REGS else "-")
                # minor_59/63 rows are keyed "XO/XO=name" (`1/8=fneg`): the
                # name after "=" is the mnemonic
                rows[row["insn"].rpartition("=")[2]] = ports
    print("# REMAP operand slots: openpower-isa's decoder ports of each SVP64 row")
    print("# (isatables RM-*.csv / LDSTRM-*.csv, snapshot 3cb597b9), written by")
    print("# tests/tools/remap_ports_oracle.py.  Columns: mnemonic in1 in2 in3 out out2")
    print("# (SVme bits RA RB RC RT EA/FRS); '-' = no register on that port.")
    for name in sorted(rows):
        print(name, *rows[name])


if __name__ == "__main__":
    main(sys.argv[1])
