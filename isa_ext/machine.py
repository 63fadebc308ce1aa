"""Architectural state: registers, sparse memory, SPRs.

Plain Python ints and lists, so that compiled pseudocode reads ``s.gpr[3]``
directly.  SVP64 extends the register files to 128 entries and the CR to
128 four-bit fields; scalar code simply uses the first 32 / 8.
"""
import sys

from .errors import Trap

M64 = (1 << 64) - 1
PAGE_BITS = 12
PAGE_SIZE = 1 << PAGE_BITS
PAGE_MASK = PAGE_SIZE - 1
# a memoryview cast reads and writes in the host's byte order: views serve a
# little-endian guest only on a little-endian host
HOST_LITTLE = sys.byteorder == "little"


# Guest memory a program may touch (write) by default: 1 GiB, in 4 KiB pages
# (`isa-ext run --mem-limit`, Simulator(mem_limit=...)).
DEFAULT_MEM_LIMIT = 1 << 30
# A write(2) moves at most this many bytes per call (a short write beyond), as
# Linux caps one call at MAX_RW_COUNT; here small enough to keep the host safe.
MAX_WRITE_BYTES = 16 << 20


class MemoryView:
    """A Memory seen through an object that changes some accesses (a trace's log,
    a store group's journal): the attributes it does not define are the
    memory's, read and written, so pages that set RESERVE still reach it."""

    _own = ("mem",)

    def __init__(self, mem):
        object.__setattr__(self, "mem", mem)

    def __getattr__(self, name):
        return getattr(self.mem, name)

    def __setattr__(self, name, value):
        if name in self._own:
            object.__setattr__(self, name, value)
        else:
            setattr(self.mem, name, value)

    # a translated block's access through this object is its read or write
    # (never the memory's own: that would bypass what this object changes)
    def block_read(self, addr, n):
        return self.read(addr, n)

    def block_write(self, addr, n, value):
        return self.write(addr, n, value)


class _Pages(dict):
    """Memory.pages: a dict that drops a page's views (Memory.views) whenever
    the page is replaced or removed, by whoever does it (mprotect, munmap)."""

    __slots__ = ("views",)

    def __init__(self, views, *args):
        super().__init__(*args)
        self.views = views

    def _drop(self, key):
        for v in self.views:
            v.pop(key, None)

    def _drop_all(self):
        for v in self.views:
            v.clear()

    def __setitem__(self, key, page):
        self._drop(key)
        super().__setitem__(key, page)

    def __delitem__(self, key):
        self._drop(key)
        super().__delitem__(key)

    def pop(self, key, *default):
        self._drop(key)
        return super().pop(key, *default)

    def setdefault(self, key, page=None):
        self._drop(key)
        return super().setdefault(key, page)

    def popitem(self):
        self._drop_all()
        return super().popitem()

    def clear(self):
        self._drop_all()
        super().clear()

    def update(self, *args, **kw):
        self._drop_all()
        super().update(*args, **kw)

    def __ior__(self, other):
        self.update(other)
        return self


class Memory:
    """Sparse byte-addressed memory of 4 KiB pages, zero where never written.

    ``little`` selects the byte order of multi-byte accesses (MSR[LE]).
    ``limit``: the most bytes of pages a guest may write into existence; the
    store that would pass it traps (kind "limit") before writing anything.
    """

    # write() takes its one-page fast path only where write_bytes is this
    # class's own (a subclass recording stores sees every one)
    _own_write_bytes = True

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        cls._own_write_bytes = cls.write_bytes is Memory.write_bytes

    def __init__(self, little=True, limit=DEFAULT_MEM_LIMIT):
        # Views of pages for translated blocks' inline accesses (CPython; see
        # fill_views): page number -> the page as 2-, 4-, 8-byte words, read
        # (any page) and written (a writable page holding no decoded code,
        # while no reservation is held: a store through a view needs no check)
        self.read2, self.read4, self.read8 = {}, {}, {}
        self.write1, self.write2, self.write4, self.write8 = {}, {}, {}, {}
        self._write_views = (self.write1, self.write2, self.write4, self.write8)
        self.views = (self.read2, self.read4, self.read8) + self._write_views
        self._pages = _Pages(self.views)
        self.little = little
        self.limit = limit
        # the load-and-reserve reservation (lwarx ... stwcx.): live flag, length
        # in bytes, address.  A single-thread model: the reservation is lost by
        # a store-conditional and, as Book II 1.7.3.1 lets an implementation
        # do, by any store at all (write_bytes clears it), so stwcx. succeeds
        # only when no store came between it and its lwarx.  (The flag is the
        # ``reserve`` property: taking a reservation drops the write views.)
        self._reserved = 0
        self.reserve_length = 0
        self.reserve_addr = 0
        # Words (address >> 2) a simulator holds decoded; a store into one of them
        # calls on_code_write() so that the next fetch decodes the new bytes
        # (self-modifying code is exact, with or without icbi/isync).
        self.code_words = set()
        # the pages (address >> PAGE_BITS) of those words, or more (a page
        # stays listed until the words are forgotten): a translated block's
        # store looks its page up here and checks the words only on a hit
        self.code_pages = set()
        self.on_code_write = None
        # fault(addr, write): called before a page the guest never touched is
        # read or created, and before a store into a read-only page; a Linux
        # process raises its SIGSEGV trap there for an address outside its
        # memory map or against its protection (isa_ext/linux).  None: all
        # memory exists.  A read-only page is held as ``bytes`` rather than a
        # bytearray: reads (and translated blocks' inline loads) take it as
        # any page, a store into it fails (TypeError) and goes to write_fault
        # (so the store paths cost nothing more for protection)
        self.fault = None

    @property
    def pages(self):
        """Page number -> bytearray (bytes: read-only), for pages that exist."""
        return self._pages

    @pages.setter
    def pages(self, pages):
        self._pages._drop_all()
        self._pages = _Pages(self.views, pages)

    @property
    def reserve(self):
        """The reservation's live flag (RESERVE)."""
        return self._reserved

    @reserve.setter
    def reserve(self, value):
        # a store through a write view would not clear a reservation: while
        # one is held, every store takes Memory.write
        if value and not self._reserved:
            for v in self._write_views:
                v.clear()
        self._reserved = value

    def fill_views(self, key):
        """Give page ``key`` its views, where it may have them: a translated
        block's access that found none (block_read, block_write) calls this,
        so the next access to the page is inline.  Only for a little-endian
        memory on a little-endian host (a view's byte order is the host's)."""
        p = self._pages.get(key)
        if p is None or not (self.little and HOST_LITTLE):
            return
        if key not in self.read4:
            m = memoryview(p)
            self.read2[key], self.read4[key], self.read8[key] = \
                m.cast("H"), m.cast("I"), m.cast("Q")
        if type(p) is bytearray and not self._reserved and key not in self.code_pages and \
                key not in self.write4:
            self.write1[key] = p
            self.write2[key], self.write4[key], self.write8[key] = \
                self.read2[key], self.read4[key], self.read8[key]

    def block_read(self, addr, n):
        """Memory.read for a translated block's inline load that found no view."""
        value = self.read(addr, n)
        self.fill_views((addr & M64) >> PAGE_BITS)
        return value

    def block_write(self, addr, n, value):
        """Memory.write for a translated block's inline store that found no view."""
        self.write(addr, n, value)
        self.fill_views((addr & M64) >> PAGE_BITS)

    def watch_code(self, start, end):
        """Watch the bytes [start, end) as decoded code (on_code_write on a
        store into them)."""
        self.code_words.update(range(start >> 2, (end + 3) >> 2))
        first, last = start >> PAGE_BITS, (end - 1) >> PAGE_BITS
        self.code_pages.update(range(first, last + 1))
        for v in self._write_views:   # a store there must check the words
            for k in range(first, last + 1):
                v.pop(k, None)

    def forget_code(self):
        """Stop watching any code (the simulator forgot what it decoded)."""
        self.code_words.clear()
        self.code_pages.clear()

    def code_store(self, addr, n):
        """After a store of ``n`` bytes at ``addr`` that wrote memory itself (a
        translated block's inline store): whether it hit decoded code, which
        is then forgotten as Memory.write forgets it."""
        words = self.code_words
        first, last = addr >> 2, (addr + n - 1) >> 2
        if first in words or last in words or (
                last - first > 1 and any(first <= w <= last for w in words)):
            self.forget_code()
            if self.on_code_write is not None:
                self.on_code_write()

    @property
    def reservation(self):
        """The reservation as one value, (reserve, reserve_length, reserve_addr),
        for whoever must take it back (a discarded SVP64 store group)."""
        return self.reserve, self.reserve_length, self.reserve_addr

    @reservation.setter
    def reservation(self, value):
        self.reserve, self.reserve_length, self.reserve_addr = value

    def _page(self, addr):
        key = addr >> PAGE_BITS
        p = self._pages.get(key)
        if p is None:
            if self.fault is not None:
                self.fault(addr, True)
            if (len(self._pages) + 1) << PAGE_BITS > self.limit:
                self._over_limit(addr)
            p = self._pages[key] = bytearray(PAGE_SIZE)
        return p

    def _over_limit(self, addr):
        from .errors import Trap
        raise Trap(f"guest memory limit reached: a store at 0x{addr:x} needs a new page "
                   f"beyond the {self.limit} bytes allowed (--mem-limit, "
                   f"Simulator(mem_limit=...))", "limit")

    def write_fault(self, addr):
        """A store into a read-only page (one held as bytes): the fault hook's
        trap, or a trap of its own."""
        if self.fault is not None:
            self.fault(addr, True)
        raise Trap(f"store into read-only memory at 0x{addr:x}", "segv")

    def _reserve(self, addr, n):
        """Trap before a write of n bytes at addr if its new pages pass the
        limit or one of its pages is read-only."""
        first, last = addr >> PAGE_BITS, (addr + n - 1) >> PAGE_BITS
        if last - first > (self.limit >> PAGE_BITS):
            self._over_limit(addr)
        pages = self._pages
        for k in range(first, last + 1):
            if type(pages.get(k)) is bytes:
                self.write_fault(max(addr, k << PAGE_BITS))
        new = sum(1 for k in range(first, last + 1) if k not in self._pages)
        if new and self.fault is not None:   # every page checked before any is written
            for k in range(first, last + 1):
                if k not in self._pages:
                    self.fault(max(addr, k << PAGE_BITS), True)
        if (len(self._pages) + new) << PAGE_BITS > self.limit:
            self._over_limit(addr)

    def mapped_prefix(self, addr, n):
        """How many bytes from addr on lie in pages the guest has (written or
        loaded): what a system call may read before it would fault."""
        addr &= M64
        end = addr + n
        pos = addr
        while pos < end and (pos >> PAGE_BITS) in self._pages:
            pos = ((pos >> PAGE_BITS) + 1) << PAGE_BITS
        return min(pos, end) - addr

    def read_bytes(self, addr, n):
        addr &= M64
        off = addr & PAGE_MASK
        if off + n <= PAGE_SIZE:
            p = self._pages.get(addr >> PAGE_BITS)
            if p is not None:
                return bytes(p[off:off + n])
            if self.fault is not None and n:
                self.fault(addr, False)
            return bytes(n)
        out, pos = [], 0  # page by page
        while pos < n:
            a = (addr + pos) & M64
            o = a & PAGE_MASK
            k = min(PAGE_SIZE - o, n - pos)
            p = self._pages.get(a >> PAGE_BITS)
            if p is None and self.fault is not None:
                self.fault(a, False)
            out.append(bytes(p[o:o + k]) if p is not None else bytes(k))
            pos += k
        return b"".join(out)

    def write_bytes(self, addr, data):
        self._reserved = 0
        addr &= M64
        off = addr & PAGE_MASK
        if off + len(data) <= PAGE_SIZE:
            try:
                self._page(addr)[off:off + len(data)] = data
            except TypeError:   # a read-only page
                self.write_fault(addr)
        else:  # page by page (ELF segments, large buffers)
            self._reserve(addr, len(data))
            pos, n = 0, len(data)
            while pos < n:
                a = (addr + pos) & M64
                o = a & PAGE_MASK
                k = min(PAGE_SIZE - o, n - pos)
                self._page(a)[o:o + k] = data[pos:pos + k]
                pos += k
        if self.code_words and data:  # per store: two set look-ups while code is decoded
            self.code_store(addr, len(data))

    def read(self, addr, n):
        addr &= M64
        off = addr & PAGE_MASK
        p = self._pages.get(addr >> PAGE_BITS)
        if p is not None and off + n <= PAGE_SIZE:
            return int.from_bytes(p[off:off + n], "little" if self.little else "big")
        return int.from_bytes(self.read_bytes(addr, n), "little" if self.little else "big")

    def write(self, addr, n, value):
        addr &= M64
        off = addr & PAGE_MASK
        p = self._pages.get(addr >> PAGE_BITS)
        if p is None or off + n > PAGE_SIZE or n <= 0 or not self._own_write_bytes:
            self.write_bytes(addr, (value & ((1 << (8 * n)) - 1)).to_bytes(
                n, "little" if self.little else "big"))
            return
        # write_bytes for a store within one page it already has (the common
        # case: no page to create, so no limit to check), in the same order
        self._reserved = 0
        try:
            p[off:off + n] = (value & ((1 << (8 * n)) - 1)).to_bytes(
                n, "little" if self.little else "big")
        except TypeError:   # a read-only page
            self.write_fault(addr)
        if addr >> PAGE_BITS in self.code_pages:  # (one page: off + n <= PAGE_SIZE)
            self.code_store(addr, n)

    def read_word(self, addr):
        """An instruction word (4 bytes, in the memory's byte order)."""
        return self.read(addr, 4)

    def load(self, addr, data):
        self.write_bytes(addr, bytes(data))

    def snapshot(self):
        return {k: bytes(v) for k, v in self._pages.items()}

    def nonzero_ranges(self):
        """(address, bytes) runs of non-zero memory, for reports and comparisons."""
        out = []
        for key in sorted(self._pages):
            page = self._pages[key]
            i = 0
            while i < PAGE_SIZE:
                if page[i]:
                    j = i
                    while j < PAGE_SIZE and page[j]:
                        j += 1
                    out.append(((key << PAGE_BITS) + i, bytes(page[i:j])))
                    i = j
                else:
                    i += 1
        return out


# SPR numbers reachable through mfspr/mtspr -> state attribute
# darn's initial seed (State.darn_seed): any fixed value makes runs repeatable
DARN_SEED = 0x0123456789ABCDEF

SPR_ATTRS = {1: "xer", 8: "lr", 9: "ctr", 815: "tar", 720: "svstate", 256: "vrsave",
             705: "svshape0", 706: "svshape1", 707: "svshape2", 708: "svshape3",
             896: "ppr"}
# SPRs a problem-state program may read but not write -> state attribute
# (SPRG3's user alias: the supervisor's value, 0 under Linux user mode as QEMU)
SPR_READ_ONLY = {259: "sprg3"}
# user-level SPR numbers of the v3.1 book that isa_ext does not model, and why
# (each traps with its reason: docs/gnu_scalar.md "User-level SPRs")
_HTM = "an HTM SPR: the machine has no transactional memory (no PPC_FEATURE2_HTM)"
_EBB = ("an event-based branch SPR: event-based branches are not modelled (Linux "
        "enables the facility only for a perf EBB event)")
_PMU = "a performance monitor SPR: the performance monitor is not modelled"
SPR_UNMODELLED = {
    3: "DSCR's problem-state alias: the data stream control register is not modelled",
    17: "DSCR is privileged",
    13: "AMR's problem-state alias: storage keys are not modelled",
    29: "AMR is privileged",
    128: "TFHAR is " + _HTM, 129: "TFIAR is " + _HTM, 130: "TEXASR is " + _HTM,
    131: "TEXASRU is " + _HTM,
    512: "SPEFSCR belongs to the embedded category, out of scope",
    898: "PPR32 is not modelled",
    **{n: f"{name} is {_EBB}" for n, name in (
        (800, "BESCRS"), (801, "BESCRSU"), (802, "BESCRR"), (803, "BESCRRU"),
        (804, "EBBHR"), (805, "EBBRR"), (806, "BESCR"))},
    **{n: f"{name} is {_PMU}" for n, name in (
        (768, "SIER"), (769, "MMCR2"), (770, "MMCRA"), (771, "PMC1"), (772, "PMC2"),
        (773, "PMC3"), (774, "PMC4"), (775, "PMC5"), (776, "PMC6"), (779, "MMCR0"),
        (780, "SIAR"), (781, "SDAR"), (782, "MMCR1"), (736, "SIER2"), (737, "SIER3"),
        (738, "MMCR3"))},
    **{n: "a no-op SPR number (808-811): not modelled" for n in (808, 809, 810, 811)},
}
SPR_NAMES = {attr: n for n, attr in SPR_ATTRS.items()}
# SPRs held whole in one attribute of their own (no write rule, no narrower
# width, nothing else derived from them): mfspr/mtspr of one is a read/write of
# that attribute, which block translation inlines (translate/specialise.py)
SPR_PLAIN = {8: "lr", 9: "ctr", 815: "tar"}
TB_MHZ = 512              # POWER's Time Base frequency
TB_TICKS_PER_READ = TB_MHZ   # without a clock: one read, 1 us later
# the Time Base, readable by a program (mfspr 268/269, mftb) but written only by
# the supervisor: a deterministic counter that each read advances (State.tb)
SPR_TB, SPR_TBU = 268, 269
# SPRs narrower than 64 bits (SVSHAPE0-3 are 32-bit, openpower-isa sprs.csv):
# mtspr keeps the low bits
SPR_WIDTHS = {705: 32, 706: 32, 707: 32, 708: 32, 256: 32}


# The Program Priority Register: PRI is bits 11:13 (MSB 0), the rest reserved.
# A thread starts at medium low, as Linux starts one (INIT_PPR); a problem-state
# program may set low, medium low and medium (010, 011, 100: the or 1,1,1 /
# 6,6,6 / 2,2,2 hints or mtspr); another value leaves PRI as it was
PPR_PRI_SHIFT = 50
INIT_PPR = 0b011 << PPR_PRI_SHIFT
PROBLEM_STATE_PRIORITIES = (0b010, 0b011, 0b100)


def _ppr_write(old, v):
    pri = (v >> PPR_PRI_SHIFT) & 7
    return pri << PPR_PRI_SHIFT if pri in PROBLEM_STATE_PRIORITIES else old


# SPRs whose mtspr keeps only what a problem-state program may set:
# number -> (old value, value written) -> new value
SPR_WRITE_RULES = {896: _ppr_write}


def _spr_trap(n):
    """The illegal-instruction trap of mfspr/mtspr on an SPR the machine lacks."""
    why = SPR_UNMODELLED.get(n)
    return Trap(f"SPR {n}: {why}" if why else f"SPR {n} is not implemented", "illegal")


def cr_pack(fields):
    """The 32-bit CR value of fields CR0..CR7 (CR0 in the top nibble)."""
    v = 0
    for i in range(8):
        v = (v << 4) | fields[i]
    return v


def cr_unpack(fields, v):
    """Set fields CR0..CR7 from a 32-bit CR value."""
    for i in range(8):
        fields[i] = (v >> (28 - 4 * i)) & 0xF


class ProgramExit(Exception):
    """Raised by the exit/exit_group system calls."""

    def __init__(self, status):
        self.status = status
        super().__init__(f"exit {status}")


class State:
    """The machine's architectural state."""

    NGPR = 128
    NCRF = 128

    def __init__(self, little=True, mem_limit=DEFAULT_MEM_LIMIT):
        self.gpr = [0] * self.NGPR
        self.fpr = [0] * self.NGPR
        self.cr = [0] * self.NCRF
        self.lr = self.ctr = self.tar = 0
        self.so = self.ov = self.ca = self.ov32 = self.ca32 = 0
        self.xer_rest = 0
        self.msr = (1 << 63) | (1 if little else 0)  # SF (64-bit) and LE
        self.fpscr = 0
        # the vector-scalar registers (docs/vector.md): VSR i < 32 is FPR i
        # (doubleword 0, in self.fpr, so the FP instructions keep their one
        # list) joined to vsr_dw1[i] (doubleword 1); VSR 32 + i is VR i, a
        # 128-bit int in self.vr.  FPRs 32..127 are SVP64's alone.
        self.vsr_dw1 = [0] * 32
        self.vr = [0] * 32
        # 32 bits: NJ is 0x10000, SAT is 1.  NJ starts set, as Linux starts a
        # process (arch/powerpc/kernel/process.c start_thread), and QEMU's
        # linux-user does
        self.vscr = 0x10000
        self.vrsave = 0
        self.sprg3 = 0  # read-only in problem state (SPR_READ_ONLY)
        # hashst/hashchk's key (SPR 468, privileged: a program cannot read or
        # set it; the Linux layer draws one per process as the kernel does)
        self.hashkeyr = 0
        self.ppr = INIT_PPR   # the program priority (SPR 896; the or Rx,Rx,Rx hints)
        self.svstate = 0
        # darn's deterministic random number generator: a splitmix64 sequence
        # from this seed (random_number); set it to vary or replay the values
        self.darn_seed = DARN_SEED
        # SVP64 REMAP shapes (isa_ext/svp64/remap.py has the layout)
        self.svshape0 = self.svshape1 = self.svshape2 = self.svshape3 = 0
        # address of the instruction a one-shot REMAP applies to (-1: none); set
        # by svremap/svindex/svshape2 (REMAPNEXT in their pages), moved past each
        # SVP64 instruction it applies to (isa_ext/svp64/svstate.remap_active)
        self.remap_next = -1
        # the element-index tables of the remapped instruction being run
        # (read by its generated loop), None otherwise
        self.sv_tables = None
        # what the last SVSTATE_NEXT (svstep) found: whether it ended the loop,
        # and the REMAP loop-end flags at the position read (0b111: no REMAP)
        self.sv_end = 0
        self.sv_loopends = 7
        # the stepping context of the prefixed instruction running a page that
        # uses SVSTATE (svstep), None otherwise (executor.SVInsn)
        self.sv_loop = None
        # a fail-first sub-vector group in progress (executor.SVInsn): (address
        # of its instruction, GPR and FPR snapshots, memory journal or None), so
        # that a group resumed after an element-level interrupt can still be
        # taken back whole; None when no group is open
        self.sv_group = None
        self.pc = 0
        self.mem = Memory(little, mem_limit)
        self.stdout = bytearray()
        self.stderr = bytearray()
        self.syscall_handler = None
        self.tb = 0
        # a clock the Time Base follows (nanoseconds, the Linux layer's own:
        # mftb and clock_gettime then agree); None: a counter each read advances
        self.tb_clock_ns = None

    # -- SPRs -----------------------------------------------------------
    @property
    def xer(self):
        return (self.so << 31) | (self.ov << 30) | (self.ca << 29) | \
            (self.ov32 << 19) | (self.ca32 << 18) | self.xer_rest

    @xer.setter
    def xer(self, v):
        self.so = (v >> 31) & 1
        self.ov = (v >> 30) & 1
        self.ca = (v >> 29) & 1
        self.ov32 = (v >> 19) & 1
        self.ca32 = (v >> 18) & 1
        self.xer_rest = v & 0x7F

    def spr_read(self, n):
        if n == SPR_TB or n == SPR_TBU:
            if self.tb_clock_ns is None:
                self.tb = (self.tb + TB_TICKS_PER_READ) & M64
            else:   # POWER's Time Base runs at 512 MHz: 512 ticks a microsecond
                self.tb = self.tb_clock_ns() * TB_MHZ // 1000 & M64
            return self.tb if n == SPR_TB else self.tb >> 32
        attr = SPR_ATTRS.get(n) or SPR_READ_ONLY.get(n)
        if attr is None:
            raise _spr_trap(n)
        return getattr(self, attr)

    def spr_write(self, n, v):
        attr = SPR_ATTRS.get(n)
        if attr is None:
            if n in SPR_READ_ONLY or n in (SPR_TB, SPR_TBU):
                raise Trap(f"SPR {n} is read-only in problem state (mtspr)", "illegal")
            raise _spr_trap(n)
        v &= (1 << SPR_WIDTHS.get(n, 64)) - 1
        rule = SPR_WRITE_RULES.get(n)
        setattr(self, attr, v if rule is None else rule(getattr(self, attr), v))

    # -- vector-scalar registers ----------------------------------------
    def vsr_read(self, n):
        """VSR n (0..63) as a 128-bit int, doubleword 0 in the high bits."""
        if n < 32:
            return (self.fpr[n] << 64) | self.vsr_dw1[n]
        return self.vr[n - 32]

    def vsr_write(self, n, v):
        if n < 32:
            self.fpr[n] = v >> 64
            self.vsr_dw1[n] = v & M64
        else:
            self.vr[n - 32] = v

    @property
    def crval(self):
        return cr_pack(self.cr)

    @crval.setter
    def crval(self, v):
        cr_unpack(self.cr, v)

    # -- darn -------------------------------------------------------------
    def random_number(self, l):
        """darn's result for L (0: 32-bit conditioned, zero-extended; 1:
        64-bit conditioned; 2: 64-bit raw).  Deterministic: splitmix64 over
        ``darn_seed``, which each call advances.  All ones is the ISA's error
        value, never a random result, so it is skipped."""
        while True:
            self.darn_seed = (self.darn_seed + 0x9E3779B97F4A7C15) & M64
            z = self.darn_seed
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
            z ^= z >> 31
            if l == 0:
                return z & 0xFFFFFFFF
            if z != M64:
                return z

    # -- system calls ---------------------------------------------------
    def syscall(self, vectored=False):
        """sc (vectored False) or scv: the handler the program runs under (a
        Linux process's, isa_ext/linux) or the minimal built-in one."""
        if vectored:
            if getattr(self.syscall_handler, "supports_scv", False):
                return self.syscall_handler(self, vectored=True)
            raise Trap("scv is emulated only for Linux ELF programs (docs/linux.md)",
                       "syscall")
        if self.syscall_handler is not None:
            return self.syscall_handler(self)
        return linux_syscall(self)

    def copy_registers(self):
        """A snapshot of the registers (not memory), for diffs and rollback."""
        return {
            "gpr": list(self.gpr), "fpr": list(self.fpr), "cr": list(self.cr),
            "lr": self.lr, "ctr": self.ctr, "tar": self.tar, "xer": self.xer,
            "msr": self.msr, "fpscr": self.fpscr, "svstate": self.svstate,
            "svshape0": self.svshape0, "svshape1": self.svshape1,
            "svshape2": self.svshape2, "svshape3": self.svshape3,
            "vsr_dw1": list(self.vsr_dw1), "vr": list(self.vr),
            "vscr": self.vscr, "vrsave": self.vrsave, "ppr": self.ppr,
        }

    def restore_registers(self, snap):
        self.gpr[:] = snap["gpr"]
        self.fpr[:] = snap["fpr"]
        self.cr[:] = snap["cr"]
        self.lr, self.ctr, self.tar = snap["lr"], snap["ctr"], snap["tar"]
        self.xer = snap["xer"]
        self.msr, self.fpscr, self.svstate = snap["msr"], snap["fpscr"], snap["svstate"]
        for name in ("svshape0", "svshape1", "svshape2", "svshape3"):
            setattr(self, name, snap[name])
        # (a snapshot taken before the vector state existed has none)
        self.vsr_dw1[:] = snap.get("vsr_dw1", [0] * 32)
        self.vr[:] = snap.get("vr", [0] * 32)
        self.vscr, self.vrsave = snap.get("vscr", 0), snap.get("vrsave", 0)
        self.ppr = snap.get("ppr", INIT_PPR)


SYS_WRITE = 4
SYS_EXIT = 1
SYS_EXIT_GROUP = 234
SYS_PRCTL = 171
PR_GET_FPEXC, PR_SET_FPEXC = 11, 12
MSR_FE0, MSR_FE1 = 1 << 11, 1 << 8  # MSR bits 52 and 55 (MSB0)
EINVAL, EBADF, EFAULT = 22, 9, 14


def _syscall_error(s, errno):
    """The kernel's error return: errno in r3, CR0.SO set."""
    s.gpr[3] = errno
    s.cr[0] |= 1


def _prctl(s):
    """prctl(PR_SET_FPEXC / PR_GET_FPEXC): the only way a Linux program sets
    MSR.FE0/FE1, the floating-point exception mode (Linux
    arch/powerpc/kernel/process.c: mode 0 disabled, 1 FE1, 2 FE0, 3 both;
    PR_GET stores the mode as a 32-bit int at the address in r4)."""
    option, arg = s.gpr[3], s.gpr[4]
    if option == PR_SET_FPEXC and arg <= 3:
        s.msr = (s.msr & ~(MSR_FE0 | MSR_FE1)) | ((arg << 10) & MSR_FE0) | ((arg << 8) & MSR_FE1)
        return 0
    if option == PR_GET_FPEXC:
        mode = ((s.msr & MSR_FE0) >> 10) | ((s.msr & MSR_FE1) >> 8)
        s.mem.write(arg, 4, mode)
        return 0
    return -EINVAL


def linux_syscall(s):
    """The few Linux (ppc64) user system calls a small program needs.

    Number in r0, arguments in r3..r8, result in r3; errors set CR0.SO as the
    kernel does.
    """
    num = s.gpr[0]
    if num in (SYS_EXIT, SYS_EXIT_GROUP):
        raise ProgramExit(s.gpr[3] & 0xFF)
    if num == SYS_WRITE:
        fd, buf, n = s.gpr[3], s.gpr[4], s.gpr[5]
        if fd not in (1, 2):
            return _syscall_error(s, EBADF)
        # as the kernel: at most MAX_WRITE_BYTES per call (a short write), and only
        # from the guest's pages: none readable -> EFAULT, some -> a short write
        n = min(n, MAX_WRITE_BYTES)
        readable = s.mem.mapped_prefix(buf, n)
        if n and not readable:
            return _syscall_error(s, EFAULT)
        data = s.mem.read_bytes(buf, readable)
        if fd == 1:
            s.stdout += data
        else:
            s.stderr += data
        s.gpr[3] = readable
        s.cr[0] &= ~1
        return
    if num == SYS_PRCTL:
        r = _prctl(s)
        s.gpr[3] = -r if r < 0 else r
        if r < 0:
            s.cr[0] |= 1
        else:
            s.cr[0] &= ~1
        return
    raise Trap(f"unsupported system call {num}", "syscall")
