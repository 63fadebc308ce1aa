"""Hardware models in amaranth (>= 0.5).  ``isa-ext hdl --out DIR`` writes them as
RTLIL and Verilog."""
