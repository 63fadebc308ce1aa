"""The three checks every table of libre-soc assembler words gets: isa_ext
assembles each line to the words, disassembles the words to text that assembles
back to them, and (live, with ISACaller's SVP64Asm) the table is SVP64Asm's own
output.  A test module binds them to its table:

    (test_assembles_as_svp64asm, test_disassembles_to_the_same_words,
     test_svp64asm_words_live) = svp64asm_word_tests(SVP64ASM_WORDS)
"""
import pytest

from isa_ext.asm import assemble
from isa_ext.disasm import disassemble


def words_of(isa, line):
    return list(assemble(line + "\n", isa=isa, base=0).words)


def svp64asm_word_tests(table):
    @pytest.mark.parametrize("line, words", table)
    def test_assembles_as_svp64asm(isa, line, words):
        assert words_of(isa, line) == words

    @pytest.mark.parametrize("line, words", table)
    def test_disassembles_to_the_same_words(isa, line, words):
        data = b"".join(w.to_bytes(4, "little") for w in words)
        (_addr, _w, text), = disassemble(isa, data)
        assert words_of(isa, text) == words

    def test_svp64asm_words_live(isacaller):
        # the table is libre-soc's assembler's output (one batch)
        from isa_ext.diffcheck.libresoc import svp64asm
        got = svp64asm(isacaller.root, [line for line, _ in table])
        for (line, words), (status, texts) in zip(table, got):
            assert status == "ok", (line, texts)
            assert [int(t.split()[1], 16) for t in texts] == words, line

    return test_assembles_as_svp64asm, test_disassembles_to_the_same_words, \
        test_svp64asm_words_live
