"""A glibc program killed by SIGSEGV (tests/linux/progs/crash.c) with output
pending in stdio's buffers, against qemu-ppc64le: what reaches stdout and
stderr, and in which order (one pipe for both), is byte for byte QEMU's for
each buffering (a pipe's stdout fully buffered, line buffered, unbuffered,
flushed by hand); the status is 139.  isa-ext's note of the fault names the pc
and the address, which come from objdump (the faulting instruction) and the C
source (NULL, or a member 0x18 bytes into a NULL struct)."""
import os
import re
import subprocess
import sys

import pytest

from conftest import CLEAN_ENV, SYSROOT, TESTS_DIR, glibc_builds, need_tool

PROGS = os.path.join(TESTS_DIR, "linux", "progs")
PIE_BASE = 0x10000000   # docs/linux.md: where isa-ext places a position-independent program
# each emulator's own last words; the program's partial stderr line runs into them
QEMU_NOTE = re.compile(rb"qemu: uncaught target signal 11 \(Segmentation fault\)"
                       rb" - core dumped\n$")
ISA_EXT_NOTE = re.compile(rb"isa-ext: trap at pc=0x([0-9a-f]+) word=0x([0-9a-f]{8}) \(segv\): "
                          rb"SIGSEGV: (read of|write to) unmapped address 0x([0-9a-f]+)\n$")


@pytest.fixture(scope="module")
def crash(tmp_path_factory):
    return glibc_builds(tmp_path_factory.mktemp("crash"), os.path.join(PROGS, "crash.c"))


def run(cmd, merge):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, env=CLEAN_ENV, timeout=600,
                       stderr=subprocess.STDOUT if merge else subprocess.PIPE)
    return r.stdout, r.stderr, r.returncode


def qemu(exe, args, merge=False):
    out, err, status = run([need_tool("qemu-ppc64le"), "-L", SYSROOT, exe, *args], merge)
    return out, err, status if status >= 0 else 128 - status


def isa_ext(exe, kind, args, merge=False):
    sysroot = ["--sysroot", SYSROOT] if kind == "dynamic" else []
    return run([sys.executable, "-m", "isa_ext", "run", "--linux", *sysroot, exe, "--", *args],
               merge)


def without(note, text):
    """``text`` less the emulator's note at its end (which must be there)."""
    m = note.search(text)
    assert m is not None, text
    return text[:m.start()], m


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["static", "dynamic"])
@pytest.mark.parametrize("buffering", ["full", "line", "none", "flushed"])
def test_pending_output_at_a_crash_matches_qemu(crash, kind, buffering):
    exe = crash[kind]
    # one pipe for both streams: the order the bytes left the program
    q_merged, _, q_status = qemu(exe, [buffering], merge=True)
    got_merged, _, status = isa_ext(exe, kind, [buffering], merge=True)
    assert q_status == status == 139
    assert without(ISA_EXT_NOTE, got_merged)[0] == without(QEMU_NOTE, q_merged)[0]
    # and each stream alone
    q_out, q_err, _ = qemu(exe, [buffering])
    out, err, _ = isa_ext(exe, kind, [buffering])
    assert out == q_out and without(ISA_EXT_NOTE, err)[0] == without(QEMU_NOTE, q_err)[0]
    # (the buffering did matter: a fully buffered stdout is lost, the rest not)
    assert (b"stdout line 1\n" in q_out) == (buffering != "full")
    assert (b"stdout partial" in q_out) == (buffering == "none")


def faulting_instruction(exe, function):
    """(address, word) of the load or store in ``function`` (objdump -d)."""
    text = subprocess.run([need_tool("powerpc64le-linux-gnu-objdump"), "-d", exe],
                          capture_output=True, text=True, check=True).stdout
    body = text.split(f"<{function}>:\n", 1)[1].split("\n\n", 1)[0]
    for line in body.splitlines():
        addr, raw, insn = line.split("\t")[:3]
        if re.match(r"(lwa|lwz|ld|stw|std) ", insn):
            little_endian_bytes = bytes.fromhex(raw.replace(" ", ""))
            return int(addr.rstrip(":"), 16), int.from_bytes(little_endian_bytes, "little")
    raise AssertionError(f"no load or store in {function}: {body}")


@pytest.mark.parametrize("kind, access, function, rw, address", [
    ("static", "read", "load_from", b"read of", 0),
    ("static", "write", "store_to", b"write to", 0),
    ("static", "field", "field_of", b"read of", 0x18),   # offsetof(struct record, field)
    ("dynamic", "field", "field_of", b"read of", 0x18),
])
def test_the_fault_note_names_pc_and_address(crash, kind, access, function, rw, address):
    exe = crash[kind]
    pc, word = faulting_instruction(exe, function)
    if kind == "dynamic":
        pc += PIE_BASE
    _out, err, status = isa_ext(exe, kind, ["full", access])
    assert status == 139
    note = without(ISA_EXT_NOTE, err)[1]
    assert (int(note[1], 16), int(note[2], 16)) == (pc, word), err
    assert (note[3], int(note[4], 16)) == (rw, address), err
