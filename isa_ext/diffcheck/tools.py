"""The oracles: GNU binutils/gcc for ppc64le and qemu-ppc64le, run as subprocesses.

``ISA_EXT_ORACLE_CACHE=DIR`` keeps each oracle answer in DIR, keyed by a hash of
everything the answer depends on (tool flags and the exact input bytes), so that
runs repeating the same programs (mutation testing runs the same tests against
hundreds of mutants) ask the tools once.  Unset, nothing is cached.
"""
import hashlib
import json
import os
import shutil
import subprocess

from ..errors import IsaExtError

PREFIX = "powerpc64le-linux-gnu-"
AS = PREFIX + "as"
LD = PREFIX + "ld"
GCC = PREFIX + "gcc"
OBJDUMP = PREFIX + "objdump"
QEMU = "qemu-ppc64le"

# GNU as accepts every POWER10 mnemonic with -mpower10 (a superset of v3.0B);
# QEMU's matching CPU model executes them.
AS_FLAGS = ("-mpower10", "-mlittle")
QEMU_CPU = "power10"
# Absolute branches (AA=1) need targets below 32 KiB (bca, 16-bit BD) and code
# within 32 MiB of them (the landing pad branches back), so the program is
# linked low: landing pads at LOWPAD_ADDR, text at TEXT_ADDR.
LOWPAD_ADDR = 0x2000
TEXT_ADDR = 0x100000


class ToolMissing(IsaExtError):
    """An external oracle (GNU binutils, gcc, qemu-user) is not installed."""

    def __init__(self, tool):
        self.tool = tool
        super().__init__(f"{tool} is not installed (Debian/Ubuntu: apt-get install "
                         f"{_PACKAGES.get(tool, tool)})")


class ToolFailed(IsaExtError):
    """An oracle tool failed on input the harness produced."""


_PACKAGES = {AS: "binutils-powerpc64le-linux-gnu", LD: "binutils-powerpc64le-linux-gnu",
             OBJDUMP: "binutils-powerpc64le-linux-gnu", GCC: "gcc-powerpc64le-linux-gnu",
             QEMU: "qemu-user"}


def tool(name):
    path = shutil.which(name)
    if path is None:
        raise ToolMissing(name)
    return path


def missing_tools(names=(AS, LD, QEMU)):
    return [n for n in names if shutil.which(n) is None]


def _cache_path(kind, *parts):
    root = os.environ.get("ISA_EXT_ORACLE_CACHE")
    if not root:
        return None
    h = hashlib.sha256()
    for part in parts:
        h.update(part if isinstance(part, bytes) else str(part).encode())
        h.update(b"\0")
    os.makedirs(root, exist_ok=True)
    return os.path.join(root, f"{kind}-{h.hexdigest()}")


def _store(path, data):
    # write then rename: a concurrent reader sees the whole answer or none
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def assemble_and_link(source, workdir, stem):
    """Assemble ``source`` (GNU syntax) and link it statically; returns the ELF path.

    Assembly errors come back as :class:`ToolFailed` with GNU's messages.
    """
    cached = _cache_path("elf", AS_FLAGS, TEXT_ADDR, LOWPAD_ADDR, source)
    if cached and os.path.exists(cached):
        elf_path = os.path.join(workdir, stem + ".elf")
        shutil.copyfile(cached, elf_path)
        return elf_path
    elf_path = _assemble_and_link(source, workdir, stem)
    if cached:
        with open(elf_path, "rb") as f:
            _store(cached, f.read())
    return elf_path


def _assemble_and_link(source, workdir, stem):
    s_path = os.path.join(workdir, stem + ".s")
    o_path = os.path.join(workdir, stem + ".o")
    elf_path = os.path.join(workdir, stem + ".elf")
    with open(s_path, "w", encoding="utf-8") as f:
        f.write(source)
    r = subprocess.run([tool(AS), *AS_FLAGS, "-o", o_path, s_path],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise ToolFailed(f"{AS} failed on {s_path}:\n{r.stderr.strip()}")
    link(o_path, elf_path)
    return elf_path


def link(obj_paths, elf_path):
    if isinstance(obj_paths, str):
        obj_paths = [obj_paths]
    r = subprocess.run([tool(LD), "-static", "--no-warn-rwx-segments",
                        f"-Ttext={TEXT_ADDR:#x}", f"--section-start=.lowpad={LOWPAD_ADDR:#x}",
                        "-o", elf_path, *obj_paths], capture_output=True, text=True)
    if r.returncode != 0 and "no-warn-rwx-segments" in r.stderr:
        r = subprocess.run([tool(LD), "-static", f"-Ttext={TEXT_ADDR:#x}",
                            f"--section-start=.lowpad={LOWPAD_ADDR:#x}",
                            "-o", elf_path, *obj_paths], capture_output=True, text=True)
    if r.returncode != 0:
        raise ToolFailed(f"{LD} failed for {elf_path}:\n{r.stderr.strip()}")
    return elf_path


def assembler_errors(source, workdir, stem):
    """{line number: message} for every line GNU as rejects (empty if none)."""
    s_path = os.path.join(workdir, stem + ".s")
    with open(s_path, "w", encoding="utf-8") as f:
        f.write(source)
    r = subprocess.run([tool(AS), *AS_FLAGS, "-o", os.path.join(workdir, stem + ".o"), s_path],
                       capture_output=True, text=True)
    errors = {}
    for line in r.stderr.splitlines():
        parts = line.split(":", 3)
        if len(parts) >= 4 and parts[0] == s_path and parts[1].strip().isdigit():
            n = int(parts[1])
            errors.setdefault(n, parts[3].strip())
    if r.returncode != 0 and not errors:
        raise ToolFailed(f"{AS} failed on {s_path}:\n{r.stderr.strip()}")
    return errors


class QemuRun:
    """What a program did under QEMU: standard output, exit status, fatal signal."""

    def __init__(self, stdout, status, signal=None, stderr=""):
        self.stdout, self.status, self.signal, self.stderr = stdout, status, signal, stderr


def run_qemu(elf_path, timeout=120):
    cached = None
    if os.environ.get("ISA_EXT_ORACLE_CACHE"):
        with open(elf_path, "rb") as f:
            cached = _cache_path("qemu", QEMU_CPU, f.read())
    if cached and os.path.exists(cached):
        with open(cached, "rb") as f:
            meta_len = int.from_bytes(f.read(4), "little")
            meta = json.loads(f.read(meta_len))
            return QemuRun(f.read(), meta["status"], meta["signal"], meta["stderr"])
    q = _run_qemu(elf_path, timeout)
    if cached:
        meta = json.dumps({"status": q.status, "signal": q.signal,
                           "stderr": q.stderr}).encode()
        _store(cached, len(meta).to_bytes(4, "little") + meta + q.stdout)
    return q


def _run_qemu(elf_path, timeout):
    try:
        r = subprocess.run([tool(QEMU), "-cpu", QEMU_CPU, elf_path], capture_output=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        raise ToolFailed(f"{QEMU} did not finish {elf_path} within {timeout} s") from None
    signal = -r.returncode if r.returncode < 0 else None
    if signal is None and b"uncaught target signal" in r.stderr:
        # qemu-user reports the guest's fatal signal and then dies of it itself
        text = r.stderr.decode(errors="replace")
        signal = int(text.split("uncaught target signal", 1)[1].split()[0])
    return QemuRun(r.stdout, None if signal else r.returncode, signal,
                   r.stderr.decode(errors="replace"))
