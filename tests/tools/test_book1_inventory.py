"""The Book I inventory the differential counts against
(isa_ext/diffcheck/book1_inventory.txt, tools/book1_inventory.py: openpower-isa's
Book I pages, GNU objdump's names of GNU gas's and LLVM's test words, binutils'
opcode table): every in-scope variant is in isa_ext's tables, so the
differential draws it or names why not (tests/tools/test_diffcheck.py runs it);
every out-of-scope one says why."""
from isa_ext.diffcheck import book1
from isa_ext.diffcheck.generate import NOT_SANDWICHABLE, targets
from isa_ext.isa import ISA


def test_the_inventory_holds_book1_across_its_chapters():
    inv = book1.inventory()
    # a sample of each chapter, taken from the book's index (not from isa_ext)
    for name in ("addo.", "divdeuo.", "rldimi.", "cmprb", "bclrl", "crnand", "mcrxrx",
                 "fmadds.", "fre", "mffscrni", "fcfidus.", "lq", "stqcx.", "ldat", "dcbz",
                 "paddi", "pld", "pstfd", "pdepd", "cnttzdm", "setnbcr", "brd", "hashst"):
        assert inv.get(name, "absent") is None, name
    for name, why in (("dadd", "decimal floating point"), ("tbegin.", "HTM"),
                      ("mtmsr", "privileged"), ("lvx", "vmx")):
        assert why in (inv.get(name) or ""), (name, inv.get(name))


def test_every_in_scope_variant_is_in_the_tables():
    isa = ISA(extensions=["base"])
    table = {t.mnemonic for t in targets(isa)}
    c = book1.coverage(set(), {}, table)
    assert c["not in the tables"] == []
    # those the differential cannot draw say why
    drawn = {t.mnemonic for t in targets(isa) if t.family != "skip"}
    for name in c["not drawn"]:
        if name not in drawn:
            assert name in NOT_SANDWICHABLE or name.rstrip(".") in NOT_SANDWICHABLE or \
                any(t.reason for t in targets(isa) if t.mnemonic == name), name


def test_a_variant_missing_from_the_tables_is_a_gap():
    c = book1.coverage({"add"}, {}, {"add", "add."})
    assert "addo." in c["not in the tables"] and "add" in c["exercised"]
    assert "add." in c["not drawn"]
    assert any("GAP" in line and "addo." in line
               for line in book1.summary_lines({"add"}, {}, {"add", "add."}))
