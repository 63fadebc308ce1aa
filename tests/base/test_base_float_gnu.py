"""The FP table rows against GNU as: every mnemonic variant of decoder/base/float.csv
assembled in one invocation, each word compared with isa_ext.encoding.encode."""
import os


from conftest import gnu_as_words
from isa_ext.encoding import encode

# operand values: distinct registers, a negative displacement, non-trivial masks
VALUES = {"FRT": 1, "FRS": 5, "FRA": 2, "FRB": 3, "FRC": 4, "RA": 6, "RB": 7, "D": -8,
          "BF": 3, "BT": 5, "FLM": 0x55, "L": 0, "W": 1, "U": 9, "BFA": 6, "DRM": 5, "RM": 2}


def float_rows(isa):
    return [r for r in isa.rows if os.path.basename(r.where.split(":")[0]) == "float.csv"]


def variants(isa):
    for row in float_rows(isa):
        for mnemonic in sorted(row.variants):
            yield row, mnemonic


def asm_line(row, mnemonic):
    ops = []
    for op in row.operands:
        if op.base:
            ops.append(f"{VALUES[op.field]}({VALUES[op.base]})")
        else:
            ops.append(str(VALUES[op.field]))
    return f"{mnemonic} {','.join(ops)}"


def test_every_float_variant_matches_gnu_as(isa, tmp_path):
    items = list(variants(isa))
    assert len(items) > 100   # 67 rows, most with a "." variant
    words = gnu_as_words(tmp_path, ["\t.text"] + [f"\t{asm_line(r, m)}" for r, m in items])
    assert len(words) == len(items)
    wrong = []
    for (row, mnemonic), word in zip(items, words):
        fields = {op.field: VALUES[op.field] for op in row.operands}
        fields.update({op.base: VALUES[op.base] for op in row.operands if op.base})
        ours = encode(isa, mnemonic, **fields)
        if ours != word:
            wrong.append(f"{asm_line(row, mnemonic)}: gnu {word:08x} ours {ours:08x}")
        decoded = isa.decode(word)
        if decoded is None or decoded.mnemonic != mnemonic:
            wrong.append(f"{asm_line(row, mnemonic)}: decodes as "
                         f"{decoded.mnemonic if decoded else None}")
    assert not wrong, "\n".join(wrong)


def test_golden_scalar_suffixes(isa, shared_dir):
    # the golden file's 32-bit suffix words of sv.fadd/sv.fadds/sv.fmr/sv.fneg/sv.stfd
    # are plain scalar encodings (registers 32.. live in the prefix's EXTRA bits)
    expected = {"fadd": 0xFD10C02A, "fadds": 0xED10C02A, "fmr": 0xFD008090,
                "fneg": 0xFD008050, "stfd": 0xD9020008}
    seen = set()
    with open(os.path.join(shared_dir, "golden", "svp64_encodings.tsv")) as f:
        for line in f:
            asm, words = line.rstrip("\n").split("\t")
            base = asm.split()[0].split("/")[0]
            if base.startswith("sv.") and base[3:] in expected:
                assert int(words.split()[-1], 16) == expected[base[3:]]
                seen.add(base[3:])
    assert seen == set(expected)
    # decode them: fields as the ISA defines (e.g. stfd FRS=8, RA=2, D=8)
    d = isa.decode(0xD9020008)
    assert (d.mnemonic, d.fields["FRS"], d.fields["RA"], d.fields["D"]) == ("stfd", 8, 2, 8)
    d = isa.decode(0xFD10C02A)
    assert (d.mnemonic, d.fields["FRT"], d.fields["FRA"], d.fields["FRB"]) == ("fadd", 8, 16, 24)


def test_golden_rows_have_openpower_extra_mapping(isa):
    # openpower-isa RM-1P-2S1D.csv / RM-2P-1S1D.csv / LDSTRM-2P-2S.csv columns 0..3
    want = {
        "fadd": ("RM-1P-2S1D", ("d:FRT;d:CR1", "s:FRA", "s:FRB", "-")),
        "fadds": ("RM-1P-2S1D", ("d:FRT;d:CR1", "s:FRA", "s:FRB", "-")),
        "fmr": ("RM-2P-1S1D", ("d:FRT;d:CR1", "s:FRB", "-", "-")),
        "fneg": ("RM-2P-1S1D", ("d:FRT;d:CR1", "s:FRB", "-", "-")),
        "stfd": ("LDSTRM-2P-2S", ("s:FRS", "s:RA", "-", "-")),
    }
    for m, (sv, extra) in want.items():
        row, _ = isa.by_mnemonic[m]
        assert (row.sv, row.extra) == (sv, extra), m
