"""The enumerations openpower-isa's case files import from
``openpower.decoder.power_enums``, as values."""
from enum import Enum

__all__ = ["FMinMaxMode"]


class FMinMaxMode(Enum):
    """Values of the FMM field of ``fminmax`` (openpower-isa's fptrans page
    and power_enums), named as its assembler aliases."""
    fminnum08 = 0b0000
    fmin19 = 0b0001
    fminnum19 = 0b0010
    fminc = 0b0011
    fminmagnum08 = 0b0100
    fminmag19 = 0b0101
    fminmagnum19 = 0b0110
    fminmagc = 0b0111
    fmaxnum08 = 0b1000
    fmax19 = 0b1001
    fmaxnum19 = 0b1010
    fmaxc = 0b1011
    fmaxmagnum08 = 0b1100
    fmaxmag19 = 0b1101
    fmaxmagnum19 = 0b1110
    fmaxmagc = 0b1111
