"""The parts of an ELF64 file that loading a program needs -- its header,
program headers and function symbols -- read with struct (System V gABI
and the 64-bit PowerPC ELF ABI).  pyelftools read them before; its import
alone took 25 ms of every ``isa-ext run`` of an ELF.  Anything that does not
fit the file raises :class:`ElfFormatError` with the reason.
"""
import struct

EHDR = "16sHHIQQQIHHHHHH"   # Elf64_Ehdr after e_ident: e_type .. e_shstrndx
PHDR = "IIQQQQQQ"           # Elf64_Phdr
SHDR = "IIQQQQIIQQ"         # Elf64_Shdr
SYM = "IBBHQQ"              # Elf64_Sym
PHDR_SIZE, SHDR_SIZE = struct.calcsize("<" + PHDR), struct.calcsize("<" + SHDR)
PN_XNUM = 0xFFFF            # e_phnum: the count is section 0's sh_info
SHN_XINDEX = 0xFFFF         # e_shstrndx: the index is section 0's sh_link
SHT_SYMTAB, SHT_STRTAB, SHT_DYNSYM = 2, 3, 11
STT_FUNC = 2
ET_DYN = 3
PT_LOAD = 1
# e_machine names for the message about an ELF of another machine
MACHINES = {3: "EM_386", 8: "EM_MIPS", 20: "EM_PPC", 21: "EM_PPC64", 22: "EM_S390",
            40: "EM_ARM", 43: "EM_SPARCV9", 50: "EM_IA_64", 62: "EM_X86_64",
            183: "EM_AARCH64", 243: "EM_RISCV", 258: "EM_LOONGARCH"}


class ElfFormatError(ValueError):
    pass


class Segment:
    """One program header (p_type, p_flags, p_offset, p_vaddr, p_paddr,
    p_filesz, p_memsz, p_align)."""
    __slots__ = ("p_type", "p_flags", "p_offset", "p_vaddr", "p_paddr", "p_filesz",
                 "p_memsz", "p_align")

    def __init__(self, values):
        for name, value in zip(self.__slots__, values):
            setattr(self, name, value)


class ElfFile:
    """``data``: the whole file.  ``elfclass`` (32 or 64), ``little``,
    ``machine`` (e_machine); for a 64-bit file the header's fields as
    attributes (``e_type``, ``e_entry``, ...)."""

    def __init__(self, data):
        self.data = data
        if data[:4] != b"\x7fELF":
            raise ElfFormatError("Magic number does not match")
        ei_class, ei_data = data[4:5], data[5:6]
        if ei_class not in (b"\x01", b"\x02"):
            raise ElfFormatError(f"Invalid EI_CLASS {ei_class!r}")
        if ei_data not in (b"\x01", b"\x02"):
            raise ElfFormatError(f"Invalid EI_DATA {ei_data!r}")
        self.elfclass = 32 if ei_class == b"\x01" else 64
        self.little = ei_data == b"\x01"
        self.order = "<" if self.little else ">"
        # e_type and e_machine sit at the same place in both classes
        self.e_type, self.machine = self._unpack("HH", 16, "ELF header")
        if self.elfclass == 64:
            (_, self.e_type, self.e_machine, self.e_version, self.e_entry, self.e_phoff,
             self.e_shoff, self.e_flags, self.e_ehsize, self.e_phentsize, self.e_phnum,
             self.e_shentsize, self.e_shnum, self.e_shstrndx) = self._unpack(EHDR, 0,
                                                                             "ELF header")

    def machine_name(self):
        return MACHINES.get(self.machine, str(self.machine))

    def _unpack(self, fmt, offset, what):
        fmt = self.order + fmt
        size = struct.calcsize(fmt)
        if offset < 0 or offset + size > len(self.data):
            raise ElfFormatError(f"{what} at offset {offset} (of {size} bytes) is past the "
                                 f"end of the file ({len(self.data)} bytes)")
        return struct.unpack_from(fmt, self.data, offset)

    # -- program headers -------------------------------------------------------
    def segments(self):
        """[Segment] of the program header table."""
        count = self.e_phnum
        if count == PN_XNUM:
            count = self._section_header(0)[7]   # sh_info
        if self.e_phoff > 0 and self.e_phentsize < PHDR_SIZE:
            raise ElfFormatError(f"Too small e_phentsize: {self.e_phentsize}")
        return [Segment(self._unpack(PHDR, self.e_phoff + i * self.e_phentsize,
                                     f"program header {i}"))
                for i in range(count)]

    def segment_data(self, seg):
        return self.data[seg.p_offset:seg.p_offset + seg.p_filesz]

    # -- sections and symbols ------------------------------------------------------
    def _section_header(self, n):
        """(sh_name, sh_type, sh_flags, sh_addr, sh_offset, sh_size, sh_link,
        sh_info, sh_addralign, sh_entsize) of section ``n``."""
        if self.e_shoff > 0 and self.e_shentsize < SHDR_SIZE:
            raise ElfFormatError(f"Too small e_shentsize: {self.e_shentsize}")
        return self._unpack(SHDR, self.e_shoff + n * self.e_shentsize, f"section header {n}")

    def _sections(self):
        if self.e_shoff == 0:
            return []
        count = self.e_shnum or self._section_header(0)[5]   # sh_size of section 0
        return [self._section_header(i) for i in range(count)]

    def _string(self, table_offset, offset):
        """The NUL-terminated string at ``offset`` of a string table ('' when
        it runs off the end of the file)."""
        start = table_offset + offset
        end = self.data.find(b"\0", start)
        if end < 0 or start >= len(self.data):
            return ""
        return self.data[start:end].decode("utf-8", "replace")

    def symbol_tables(self):
        """({section name: section header}, [every section header]); of two
        sections of one name the last."""
        sections = self._sections()
        if not sections:
            return {}, sections
        index = self.e_shstrndx
        if index == SHN_XINDEX:
            index = self._section_header(0)[6]   # sh_link
        names_at = self._section_header(index)[4]
        by_name = {}
        for header in sections:
            name = self._string(names_at, header[0])
            if header[1] in (SHT_SYMTAB, SHT_DYNSYM):
                self._check_symbol_table(name, header)
            by_name[name] = header
        return by_name, sections

    def _check_symbol_table(self, name, header):
        """A symbol table's entries tile it and its names are a string table."""
        size, link, entsize = header[5], header[6], header[9]
        linked = self._section_header(link)
        if linked[1] != SHT_STRTAB:
            raise ElfFormatError(f"SHT_SYMTAB section points at section {link} of type "
                                 f"{linked[1]}, expected SHT_STRTAB")
        if entsize <= 0:
            raise ElfFormatError(f"Expected entry size of section {name!r} to be > 0")
        if size % entsize:
            raise ElfFormatError(f"Expected section size to be a multiple of entry size in "
                                 f"section {name!r}")

    def function_symbols(self, bias=0):
        """{address: name} of the function symbols of .symtab, else .dynsym,
        with their ELFv2 local entry points, and [(start, size, name)]."""
        by_name, _sections = self.symbol_tables()
        out, extents = {}, []
        for name in (".symtab", ".dynsym"):
            header = by_name.get(name)
            if header is None:
                continue
            symbols = self._symbols(name, header)
            for st_name, st_info, st_other, _shndx, st_value, st_size in symbols:
                if st_info & 0xF != STT_FUNC or not st_value:
                    continue
                sym_name = self._string(symbols.strings_at, st_name)
                if not sym_name:
                    continue
                out.setdefault(st_value + bias, sym_name)
                extents.append((st_value + bias, st_size, sym_name))
                # ELFv2: a call from the same TOC enters at the local entry,
                # (1 << st_other.local) bytes in (ABI 3.4.1), for local >= 2
                local = st_other >> 5 & 7
                if local >= 2:
                    out.setdefault(st_value + bias + (1 << local), sym_name)
            if out:
                break
        return out, extents

    def _symbols(self, name, header):
        _name, sh_type, _flags, _addr, offset, size, link, _info, _align, entsize = header
        if sh_type not in (SHT_SYMTAB, SHT_DYNSYM):   # checked by symbol_tables
            return _Symbols([], 0)
        strings_at = self._section_header(link)[4]
        return _Symbols([self._unpack(SYM, offset + i * entsize, f"symbol {i} of {name}")
                         for i in range(size // entsize)], strings_at)


class _Symbols(list):
    """A symbol table's entries and where its string table starts."""

    def __init__(self, entries, strings_at):
        super().__init__(entries)
        self.strings_at = strings_at
