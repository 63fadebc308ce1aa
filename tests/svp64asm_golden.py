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

from conftest import gnu_as_words


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

    def test_svp64asm_words_live(isacaller, tmp_path):
        # the table is libre-soc's assembler's output (one batch); a suffix it
        # prints in GNU syntax (not as .long) is assembled by GNU as, as
        # libre-soc's own toolchain does
        from isa_ext.compat.libresoc import svp64asm
        got = svp64asm(isacaller.root, [line for line, _ in table])
        texts = []
        for (line, words), (status, out) in zip(table, got):
            assert status == "ok", (line, out)
            texts += out
        plain = [t for t in texts if not t.startswith(".long")]
        assembled = iter(gnu_as_words(tmp_path, plain) if plain else [])
        flat = [int(t.split()[1], 16) if t.startswith(".long") else next(assembled)
                for t in texts]
        assert flat == [w for _line, words in table for w in words]

    return test_assembles_as_svp64asm, test_disassembles_to_the_same_words, \
        test_svp64asm_words_live
