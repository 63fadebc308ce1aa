"""The SVP64 engine: prefix/RM decoding, EXTRA, SVSTATE, predication, loops, assembler."""
