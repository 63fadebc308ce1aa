"""Options shared by the commands that load and run a program (``run``,
``diag``, ``gdbserver``): the program's format and load address, initial
registers, SPRs and memory.  Every bad value is one clear error line."""
import argparse
import struct

from ..errors import IsaExtError

ASM_SUFFIXES = (".s", ".S", ".asm")
M64 = (1 << 64) - 1
# --spr names -> (State attribute, width in bits); SVSHAPE0-3 are 32-bit SPRs
# (openpower-isa sprs.csv), XER and CR are 32-bit in the 64-bit machine's view
SPECIAL_REGS = {"lr": 64, "ctr": 64, "tar": 64, "xer": 32, "svstate": 64,
                "svshape0": 32, "svshape1": 32, "svshape2": 32, "svshape3": 32,
                "fpscr": 64, "cr": 32, "vscr": 32, "vrsave": 32}
FORMATS = ("auto", "asm", "elf", "raw")


def suggest(name, choices):
    """`` (did you mean X?)`` for a near-miss name, else ``""``."""
    import difflib
    close = difflib.get_close_matches(name, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""


def count(text):
    """An argparse type: a whole number >= 0."""
    try:
        v = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if v < 0:
        raise argparse.ArgumentTypeError(f"{text} is negative: expected 0 or more")
    return v


def address(text):
    """An argparse type: an address 0 .. 2**64-1, decimal or 0x hex."""
    try:
        v = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an address (expected a number such as 0x1000)") from None
    if not 0 <= v <= M64:
        raise argparse.ArgumentTypeError(f"address {text} is outside 0 .. 0x{M64:x}")
    return v


def add_machine_options(p, registers=True):
    p.add_argument("--format", choices=FORMATS, default="auto",
                   help="how to read PROG (default auto: ELF by its magic, assembly when "
                        "it is .s/.S/.asm or plain text, raw instruction bytes otherwise)")
    p.add_argument("--base", type=address, default=0x1000, metavar="ADDR",
                   help="load address of assembly or raw programs (default 0x1000)")
    p.add_argument("--big-endian", action="store_true",
                   help="big-endian machine (an ELF sets its own byte order)")
    p.add_argument("--mem-limit", type=size_value, default=None, metavar="BYTES",
                   help="guest memory a program may write, e.g. 512M, 2G (default 1G); "
                        "a store past it stops the run with a 'limit' trap")
    p.add_argument("--openpower-root", metavar="PATH", default=None,
                   help="an openpower-isa checkout: run its own instruction pages "
                        "(PATH/openpower/isa/*.mdwn, read unchanged) in place of isa_ext's")
    p.add_argument("--openpower-pages", choices=("replace", "beside"), default="replace",
                   help="with --openpower-root: 'replace' (default) runs its page where "
                        "both have one; 'beside' keeps isa_ext's and adds only the others")
    p.add_argument("--no-translate", action="store_true",
                   help="run one instruction at a time instead of translating straight-line "
                        "code into blocks (same results; also ISA_EXT_TRANSLATE=0)")
    p.add_argument("--gpu", action="append", default=[], metavar="KEY=VALUE",
                   help="the GPU identity and geometry the gpu instructions read (seed 002; "
                        "repeatable, also warpid=1,smid=2): warpid (default 0), smid (0), "
                        "warpspersm (1), smcount (1), helperlanes (a lane mask, 0); "
                        "warpid < warpspersm, smid < smcount; for SURED's header-index "
                        "form (seed 004): constbank, headerpool (addresses, 0) and "
                        "maxheaderindex (SetTexHeaderPoolC.MaximumIndex; unset: no pool)")
    if not registers:
        return
    p.add_argument("--gpr", action="append", default=[], metavar="rN=VALUE",
                   help="set a GPR r0..r127 before running (repeatable; also r3=1,r4=2); "
                        "VALUE is a 64-bit integer, negative ones as two's complement")
    p.add_argument("--fpr", action="append", default=[], metavar="fN=VALUE",
                   help="set an FPR f0..f127: a float (1.5, -2, inf) stored as a double, "
                        "or raw 64-bit pattern bits written in hex (0x3ff8000000000000)")
    p.add_argument("--vsr", action="append", default=[], metavar="vsN=VALUE",
                   help="set a vector-scalar register vs0..vs63 (128 bits; vs0..vs31 share "
                        "their high doubleword with f0..f31, vs32..vs63 are v0..v31)")
    p.add_argument("--vr", action="append", default=[], metavar="vN=VALUE",
                   help="set a vector register v0..v31 (128 bits; the same as vs32..vs63)")
    p.add_argument("--spr", action="append", default=[], metavar="NAME=VALUE",
                   help="set a special register before running: "
                        + ", ".join(SPECIAL_REGS) + " (repeatable; also lr=4,ctr=5)")
    p.add_argument("--mem", action="append", default=[], metavar="ADDR=FILE",
                   help="copy FILE's bytes into memory at ADDR before running (repeatable)")


def machine_isa(args, profile=None):
    """The ISA the machine options ask for: None (the simulator's own default)
    unless --openpower-root names a checkout."""
    if getattr(args, "openpower_root", None) is None:
        if getattr(args, "openpower_pages", "replace") != "replace":
            raise IsaExtError("--openpower-pages needs --openpower-root PATH")
        return None
    from ..isa import ISA
    from ..compat import root
    return ISA(profile=profile, page_source=root.read(args.openpower_root, args.openpower_pages))


# -- values -------------------------------------------------------------------

def size_value(text):
    """An argparse type: '1G', '512M', '64K' or a number of bytes (0x... too), at
    least one page."""
    units = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
    t = text.strip().lower().removesuffix("ib").removesuffix("b")
    scale = units.get(t[-1:], 1)
    try:
        value = int(t[:-1] if scale > 1 else t, 0) * scale
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"bad size {text!r}: expected e.g. 1G, 512M, 4096") from None
    if value < 4096:
        raise argparse.ArgumentTypeError(f"--mem-limit {text!r}: at least 4096 bytes")
    return value


def int_value(text, bits=64):
    """An integer that fits ``bits`` bits, signed or unsigned; negative ones wrap."""
    v = int(text, 0)
    if not -(1 << (bits - 1)) <= v < (1 << bits):
        raise ValueError(f"{text} does not fit in {bits} bits")
    return v & ((1 << bits) - 1)


def fpr_value(text):
    """Raw bits when written in hex/binary/octal (0x...), else a float as a double."""
    body = text.lstrip("+-").lower()
    if body[:2] in ("0x", "0b", "0o"):
        return int_value(text)
    try:
        return struct.unpack("<Q", struct.pack("<d", float(text)))[0]
    except ValueError:
        raise ValueError(f"{text!r} is neither a float nor 0x raw bits") from None


def parse_assignments(items, option, prefix, parse_value, limit=128):
    """['r3=5', 'r4=0x10,r5=-1'] -> {3: 5, 4: 16, 5: 2**64-1}."""
    out = {}
    for part in _parts(items):
        name, value = _split(part, option, f"{prefix}N=VALUE")
        num = name[len(prefix):] if name.startswith(prefix) else name
        if not num.isdigit():
            hint = ""
            if name in SPECIAL_REGS:
                hint = f": {name} is a special register, use --spr {part}"
            elif name[:1] in "rf" and name[1:].isdigit():
                other = "--gpr" if name[0] == "r" else "--fpr"
                hint = f": use {other} {part}"
            elif name[:2] == "vs" and name[2:].isdigit():
                hint = f": use --vsr {part}"
            raise IsaExtError(f"bad register setting {option} {part}: expected "
                              f"{prefix}N=VALUE{hint}")
        if int(num) >= limit:
            raise IsaExtError(f"{option} {part}: no register {prefix}{int(num)} "
                              f"(registers are {prefix}0..{prefix}{limit - 1})")
        out[int(num)] = _value(part, option, value, parse_value)
    return out


def parse_special(items):
    """['ctr=5', 'lr=0x2000,xer=0x20000000'] -> {'ctr': 5, ...} (range-checked)."""
    out = {}
    for part in _parts(items):
        name, value = _split(part, "--spr", "NAME=VALUE")
        bits = SPECIAL_REGS.get(name)
        if bits is None:
            raise IsaExtError(f"--spr {part}: unknown register {name!r}"
                              + suggest(name, SPECIAL_REGS)
                              + f"; known: {', '.join(SPECIAL_REGS)}")
        out[name] = _value(part, "--spr", value, lambda t: int_value(t, bits))
    return out


def parse_gpu(items):
    """['warpid=3,smid=1'] -> a GpuIdentity (isa_ext/ext/gpu/identity.py), or None
    when no --gpu was given."""
    from ..ext.gpu.identity import GpuIdentity, KEYS
    if not items:
        return None
    out = {}
    for part in _parts(items):
        name, value = _split(part, "--gpu", "KEY=VALUE")
        if name not in KEYS:
            raise IsaExtError(f"--gpu {part}: unknown setting {name!r}" + suggest(name, KEYS)
                              + f"; known: {', '.join(KEYS)}")
        out[name] = _value(part, "--gpu", value, int_value)
    try:
        return GpuIdentity.of(out)
    except IsaExtError as e:
        raise IsaExtError(f"--gpu: {e}") from None


def parse_memory(items):
    """['0x2000=data.bin'] -> [(0x2000, b'...')]."""
    out = []
    for item in items:
        addr, sep, path = item.partition("=")
        if not sep or not path:
            raise IsaExtError(f"--mem {item}: expected ADDR=FILE")
        try:
            where = address(addr.strip())
        except argparse.ArgumentTypeError as e:
            raise IsaExtError(f"--mem {item}: {e}") from None
        with open(path, "rb") as f:
            out.append((where, f.read()))
    return out


def _parts(items):
    for item in items:
        for part in item.split(","):
            if part.strip():
                yield part.strip()


def _split(part, option, form):
    name, sep, value = part.partition("=")
    if not sep or not value.strip():
        raise IsaExtError(f"{option} {part}: expected {form}")
    return name.strip().lower(), value.strip()


def _value(part, option, value, parse_value):
    try:
        return parse_value(value)
    except ValueError as e:
        raise IsaExtError(f"{option} {part}: bad value: {e}") from None


# -- loading ---------------------------------------------------------------------

def looks_like_text(data):
    """UTF-8 with nothing but printable characters and line/tab whitespace:
    assembly source, never instruction words (those hold NULs and control bytes)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return bool(text.strip()) and all(c.isprintable() or c in "\t\n\r\f" for c in text)


def program_format(path, data, wanted="auto"):
    from ..elf import is_elf
    if wanted != "auto":
        return wanted
    if is_elf(data):
        return "elf"
    if path.endswith(ASM_SUFFIXES) or looks_like_text(data):
        return "asm"
    return "raw"


def load_program(sim, args):
    path = args.program
    with open(path, "rb") as f:
        data = f.read()
    kind = program_format(path, data, getattr(args, "format", "auto"))
    if kind != "elf" and (getattr(args, "guest_args", None) or getattr(args, "linux", False)):
        raise IsaExtError(f"{path}: program arguments and --linux are for ELF programs "
                          f"(this one is {kind})")
    if kind == "elf":
        from ..elf import load_elf
        load_elf(sim, path, getattr(args, "linux_opts", None))
    elif kind == "asm":
        from ..asm import decode_source
        text = decode_source(data, path)  # not UTF-8: an error at its line and column
        prog = sim.load_asm(text, filename=path, addr=args.base)
        sim.state.pc = prog.entry
    else:
        sim.load_bytes(data, addr=args.base)


def prepare_machine(sim, args):
    """Load the program, then apply --mem, --gpr, --fpr, --vsr, --vr, --spr (in that order);
    --gpu sets the machine's GPU identity."""
    gpu = parse_gpu(getattr(args, "gpu", []))
    gprs = parse_assignments(args.gpr, "--gpr", "r", int_value)
    fprs = parse_assignments(args.fpr, "--fpr", "f", fpr_value)
    vsrs = parse_assignments(getattr(args, "vsr", []), "--vsr", "vs",
                             lambda t: int_value(t, 128), limit=64)
    vrs = parse_assignments(getattr(args, "vr", []), "--vr", "v",
                            lambda t: int_value(t, 128), limit=32)
    sprs = parse_special(args.spr)
    memory = parse_memory(args.mem)
    load_program(sim, args)
    s = sim.state
    if gpu is not None:
        s.gpu = gpu
    for addr, data in memory:
        s.mem.load(addr, data)
    if memory:
        sim.invalidate()
    for i, v in gprs.items():
        s.gpr[i] = v
    for i, v in fprs.items():
        s.fpr[i] = v
    for i, v in vsrs.items():
        s.vsr_write(i, v)
    for i, v in vrs.items():
        s.vr[i] = v
    for name, v in sprs.items():
        if name == "cr":
            s.crval = v
        else:
            setattr(s, name, v)


def translate_option(args):
    """Simulator(translate=...) for ``--no-translate``: off, else the default
    (on unless ISA_EXT_TRANSLATE=0)."""
    return False if getattr(args, "no_translate", False) else None
