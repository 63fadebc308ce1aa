"""Checks on isa_ext's own source (run as ``python -m isa_ext.tools.<name>``)."""
