"""``isa-ext disasm FILE``: disassemble raw instruction words or an ELF's code.

An ELF (recognised by its magic) is disassembled section by section (every
executable section, at its address, in the ELF's byte order); anything else is
raw words at ``--base``, little-endian unless ``--big-endian``.
"""


def register(sub):
    p = sub.add_parser("disasm", help="disassemble raw words or an ELF file")
    p.add_argument("file", help="raw instruction bytes or an ELF (its executable sections)")
    p.add_argument("--big-endian", action="store_true", help="raw words are big-endian")
    p.add_argument("--base", type=lambda t: int(t, 0), default=0x1000,
                   help="address of the first raw word (default 0x1000)")
    p.set_defaults(func=run)


def code_regions(path, data, args):
    """[(name, address, bytes, little)] to disassemble."""
    from ..elf import is_elf
    if not is_elf(data):
        return [(None, args.base, data, not args.big_endian)]
    from elftools.elf.elffile import ELFFile
    from elftools.common.exceptions import ELFError
    from ..elf import ElfError
    regions = []
    with open(path, "rb") as f:
        try:
            elf = ELFFile(f)
            for sec in elf.iter_sections():
                executable = sec["sh_flags"] & 0x4  # SHF_EXECINSTR
                if executable and sec["sh_type"] == "SHT_PROGBITS":
                    regions.append((sec.name, sec["sh_addr"], sec.data(), elf.little_endian))
        except (ELFError, ValueError, OSError) as e:  # OSError: a seek past the end
            raise ElfError(f"{path}: malformed ELF file (pyelftools: {e})") from None
    return regions


def run(args):
    from ..disasm import Disassembler
    from ..isa import ISA
    with open(args.file, "rb") as f:
        data = f.read()
    dis = Disassembler(ISA())
    for name, addr, code, little in code_regions(args.file, data, args):
        if name:
            print(f"section {name}:")
        for at, words, text in dis.lines(code, addr, little):
            shown = " ".join(f"{w:08x}" for w in words)
            print(f"{at:08x}  {shown:<17}  {text}")
    return 0
