"""Power ISA pseudocode: page parser, grammar, compiler to Python, helper library."""
