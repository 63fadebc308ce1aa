"""SVP64 prefix recognition: primary opcode 1 with MSB0 bits 7 AND 9 set."""
import pytest

from isa_ext.encoding import is_svp64_prefix
from isa_ext.sim import Simulator


@pytest.mark.parametrize("word,expected", [
    (0x05400000, True),    # PO=1 (0x04000000) | bit 7 (0x01000000) | bit 9 (0x00400000)
    (0x05000000, False),   # bit 9 clear
    (0x04400000, False),   # bit 7 clear
    (0x04000000, False),   # neither
    (0x09400000, False),   # PO=2 with bits 7 and 9
    (0x07FFFFFF, True),    # every RM bit set
])
def test_prefix_bits(word, expected):
    assert is_svp64_prefix(word) is expected


def test_po1_word_without_bit_9_is_illegal_not_an_8_byte_instruction(isa):
    # 0x05000000 has PO=1 and bit 7 but not bit 9: not a prefix, and no other
    # instruction uses PO 1, so it traps at its own address as a 4-byte word
    sim = Simulator(isa)
    sim.load_words([0x05000000, 0x38600001])
    res = sim.run(max_steps=3)
    assert res.stop == "trap" and res.trap.pc == 0x1000 and res.trap.word == 0x05000000
    assert "no instruction matches" in res.trap.reason
