"""A GDB remote serial protocol stub for the simulator (``isa-ext gdbserver``).

``protocol`` frames packets, ``target`` maps the machine's registers onto the
layout gdb's ``powerpc:common64`` architecture expects (and describes it in a
target description naming SVSTATE), ``server`` answers gdb's requests.
"""
