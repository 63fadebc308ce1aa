"""Combinational decoder for mv.swiz / fmv.swiz and their SVP64 (MVRM-2P-2S1D) form.

Inputs: the two instruction words at PC (``word0``) and PC+4 (``word1``).  When
``word0`` is an SVP64 prefix (primary opcode 1, bits 7 and 9 set) the instruction is
the 64-bit ``sv.`` form: ``word1`` is the suffix and the prefix carries the 24-bit RM
(RM[0] = prefix bit 6, RM[1] = bit 8, RM[2:23] = bits 10:31); otherwise ``word0`` is
the instruction.  Outputs: ``prefixed`` and ``rm`` (the decoded prefix), which
instruction, the register fields and their EXTRA2-extended numbers, the four decoded
selectors, the sub-vector lengths and MASK_SRC, the illegal conditions, and
``atomic`` for the issue logic (a swizzle group must complete before any interrupt
is taken).

Bit numbering: the ISA numbers bits MSB0; amaranth slices are LSB0.  ``_msb0(v, a, b,
n)`` selects MSB0 bits a..b of an n-bit value so that the code reads like the spec.
The Python decoder :func:`isa_ext.ext.swizzle.decode_swizzle` is the reference; the
tests simulate this module against it.
"""
from amaranth.hdl import Module, Signal, Cat, Const, Mux
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from . import (KIND_SKIP, KIND_ZERO, KIND_ONE, KIND_COPY, RM_FIELDS)

PO_SWIZZLE = 22
XO_MV = 0b0011
XO_FMV = 0b1011


def _msb0(value, first, last, width):
    return value[width - 1 - last: width - first]


def _rm(rm, name):
    a, b = RM_FIELDS[name]
    return _msb0(rm, a, b, 24)


class SwizzleDecoder(wiring.Component):
    word0: In(32)          # the word at PC
    word1: In(32)          # the word at PC+4 (the suffix when word0 is a prefix)

    prefixed: Out(1)       # an SVP64 prefix followed by a swizzle suffix
    rm: Out(24)            # RM of the prefix (0 when not prefixed)
    match: Out(1)          # the instruction is mv.swiz or fmv.swiz
    is_fmv: Out(1)
    rt: Out(5)
    ra: Out(5)
    even_ok: Out(1)        # both 5-bit register fields even
    sel_kind: Out(2).array(4)   # per destination X Y Z W: KIND_SKIP/ZERO/ONE/COPY
    sel_src: Out(2).array(4)    # source sub-element for KIND_COPY
    illegal_odd: Out(1)
    illegal_reserved: Out(1)
    illegal_range: Out(1)
    illegal: Out(1)
    atomic: Out(1)
    rt_ext: Out(7)         # EXTRA2-extended register numbers (= rt/ra unprefixed)
    ra_ext: Out(7)
    rt_vec: Out(1)
    ra_vec: Out(1)
    subvl: Out(3)          # 1..4
    src_subvl: Out(3)      # 1..4
    mask_src: Out(3)
    dst_group: Out(3)      # sub-elements per group after the pack/unpack rule
    src_group: Out(3)

    def elaborate(self, platform):
        m = Module()
        w0 = self.word0
        is_prefix = (_msb0(w0, 0, 5, 32) == 1) & _msb0(w0, 7, 7, 32) & _msb0(w0, 9, 9, 32)
        insn = Signal(32)
        rm = Signal(24)
        m.d.comb += insn.eq(Mux(is_prefix, self.word1, w0))
        # RM[0] = prefix bit 6, RM[1] = bit 8, RM[2:23] = bits 10:31 (MSB0)
        m.d.comb += rm.eq(Mux(is_prefix, Cat(_msb0(w0, 10, 31, 32), _msb0(w0, 8, 8, 32),
                                             _msb0(w0, 6, 6, 32)), 0))
        po = _msb0(insn, 0, 5, 32)
        xo = _msb0(insn, 28, 31, 32)
        imm = _msb0(insn, 16, 27, 32)
        m.d.comb += [
            self.match.eq((po == PO_SWIZZLE) & ((xo == XO_MV) | (xo == XO_FMV))),
            self.is_fmv.eq(self.match & (xo == XO_FMV)),
            self.rt.eq(Mux(self.match, _msb0(insn, 6, 10, 32), 0)),
            self.ra.eq(Mux(self.match, _msb0(insn, 11, 15, 32), 0)),
            self.prefixed.eq(is_prefix & self.match),
            self.rm.eq(Mux(self.prefixed, rm, 0)),
        ]
        m.d.comb += self.even_ok.eq(self.match & ~self.rt[0] & ~self.ra[0])

        # selectors: destination position p in imm bits 3p..3p+2 (MSB0 of the 12 bits)
        reserved = Signal(4)
        for p in range(4):
            sel = _msb0(imm, 3 * p, 3 * p + 2, 12)
            kind = self.sel_kind[p]
            with m.If(~self.match):
                m.d.comb += kind.eq(KIND_SKIP)
            with m.Elif(sel[2]):
                m.d.comb += [kind.eq(KIND_COPY), self.sel_src[p].eq(sel[0:2])]
            with m.Elif(sel == 0b010):
                m.d.comb += kind.eq(KIND_ZERO)
            with m.Elif(sel == 0b011):
                m.d.comb += kind.eq(KIND_ONE)
            with m.Else():
                m.d.comb += kind.eq(KIND_SKIP)
            m.d.comb += reserved[p].eq(self.match & (sel == 0b001))

        # MVRM-2P-2S1D: EXTRA2 specs, sub-vector lengths, source mask
        subvl = Signal(3)
        src_subvl = Signal(3)
        m.d.comb += [
            subvl.eq(_rm(rm, "SUBVL") + 1),
            src_subvl.eq(_rm(rm, "src_SUBVL") + 1),
        ]
        for field5, spec, ext, vec in ((self.rt, _rm(rm, "Rdest_EXTRA2"), self.rt_ext, self.rt_vec),
                                       (self.ra, _rm(rm, "Rsrc_EXTRA2"), self.ra_ext, self.ra_vec)):
            with m.If(~self.prefixed | ~self.match):
                m.d.comb += ext.eq(field5)
            with m.Elif(spec[1]):   # vector: field << 2 | bit << 1
                m.d.comb += [ext.eq(Cat(Const(0, 1), spec[0], field5)), vec.eq(1)]
            with m.Else():          # scalar: bit << 5 | field
                m.d.comb += ext.eq(Cat(field5, spec[0]))

        dst_group = Signal(3)
        src_group = Signal(3)
        with m.If(~self.prefixed | ~self.match):
            m.d.comb += [self.subvl.eq(Mux(self.match, 4, 0)),
                         self.src_subvl.eq(Mux(self.match, 4, 0)),
                         dst_group.eq(Mux(self.match, 4, 0)),
                         src_group.eq(Mux(self.match, 4, 0))]
        with m.Else():
            m.d.comb += [self.subvl.eq(subvl), self.src_subvl.eq(src_subvl),
                         self.mask_src.eq(_rm(rm, "MASK_SRC"))]
            # pack/unpack: a side with SUBVL 1 facing a wider side is planar and
            # takes that side's group size
            with m.If((subvl == 1) & (src_subvl > 1)):
                m.d.comb += [dst_group.eq(src_subvl), src_group.eq(src_subvl)]
            with m.Elif((src_subvl == 1) & (subvl > 1)):
                m.d.comb += [dst_group.eq(subvl), src_group.eq(subvl)]
            with m.Else():
                m.d.comb += [dst_group.eq(subvl), src_group.eq(src_subvl)]
        m.d.comb += [self.dst_group.eq(dst_group), self.src_group.eq(src_group)]

        beyond = Signal(4)
        for p in range(4):
            m.d.comb += beyond[p].eq(self.prefixed & (p < dst_group)
                                     & (self.sel_kind[p] == KIND_COPY)
                                     & (self.sel_src[p] >= src_group))
        m.d.comb += [
            self.illegal_odd.eq(self.match & ~self.prefixed & ~self.even_ok),
            self.illegal_reserved.eq(reserved.any()),
            self.illegal_range.eq(self.match & beyond.any()),
            self.illegal.eq(self.illegal_odd | self.illegal_reserved | self.illegal_range),
            self.atomic.eq(self.match),
        ]
        return m


def generate(out_dir):
    """Write swizzle_decoder.il (RTLIL) and swizzle_decoder.v (Verilog) to ``out_dir``."""
    import os
    from amaranth.back import rtlil, verilog
    os.makedirs(out_dir, exist_ok=True)
    paths = []
    for ext, backend in (("il", rtlil), ("v", verilog)):
        text = backend.convert(SwizzleDecoder(), name="swizzle_decoder")
        path = os.path.join(out_dir, f"swizzle_decoder.{ext}")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        paths.append(path)
    return paths
