"""A host terminal's settings in the ppc64 guest's layout (ioctl TCGETS,
TIOCGWINSZ), as QEMU's linux-user translates them: every flag and control
character by its name, from the host's value (Python's termios module) to
the value Linux/powerpc gives it (arch/powerpc/include/uapi/asm/termbits.h,
include/uapi/asm-generic/termbits-common.h).

The guest's struct termios: c_iflag, c_oflag, c_cflag, c_lflag (32 bits
each), c_cc[19], c_line, c_ispeed, c_ospeed (44 bytes).  The speeds are baud
rates, as the kernel fills them; the line discipline is N_TTY (0), which the
host's termios module does not report."""
import struct
import termios

# single-bit flags: name -> the guest's value
IFLAGS = {"IGNBRK": 0x1, "BRKINT": 0x2, "IGNPAR": 0x4, "PARMRK": 0x8, "INPCK": 0x10,
          "ISTRIP": 0x20, "INLCR": 0x40, "IGNCR": 0x80, "ICRNL": 0x100, "IXON": 0x200,
          "IXOFF": 0x400, "IXANY": 0x800, "IUCLC": 0x1000, "IMAXBEL": 0x2000,
          "IUTF8": 0x4000}
OFLAGS = {"OPOST": 0x1, "ONLCR": 0x2, "OLCUC": 0x4, "OCRNL": 0x8, "ONOCR": 0x10,
          "ONLRET": 0x20, "OFILL": 0x40, "OFDEL": 0x80}
CFLAGS = {"CSTOPB": 0x400, "CREAD": 0x800, "PARENB": 0x1000, "PARODD": 0x2000,
          "HUPCL": 0x4000, "CLOCAL": 0x8000, "CMSPAR": 0x40000000, "CRTSCTS": 0x80000000}
LFLAGS = {"ISIG": 0x80, "ICANON": 0x100, "XCASE": 0x4000, "ECHO": 0x8, "ECHOE": 0x2,
          "ECHOK": 0x4, "ECHONL": 0x10, "NOFLSH": 0x80000000, "TOSTOP": 0x400000,
          "ECHOCTL": 0x40, "ECHOPRT": 0x20, "ECHOKE": 0x1, "FLUSHO": 0x800000,
          "PENDIN": 0x20000000, "IEXTEN": 0x400, "EXTPROC": 0x10000000}
# multi-bit fields: (host mask name, {value name: the guest's value})
OFIELDS = [("NLDLY", {"NL0": 0, "NL1": 0x100, "NL2": 0x200, "NL3": 0x300}),
           ("TABDLY", {"TAB0": 0, "TAB1": 0x400, "TAB2": 0x800, "TAB3": 0xC00}),
           ("CRDLY", {"CR0": 0, "CR1": 0x1000, "CR2": 0x2000, "CR3": 0x3000}),
           ("FFDLY", {"FF0": 0, "FF1": 0x4000}),
           ("BSDLY", {"BS0": 0, "BS1": 0x8000}),
           ("VTDLY", {"VT0": 0, "VT1": 0x10000})]
CSIZES = {"CS5": 0, "CS6": 0x100, "CS7": 0x200, "CS8": 0x300}
# baud rates: name -> the guest's CBAUD value (B57600 and up are CBAUDEX on most hosts)
BAUDS = {name: i for i, name in enumerate(
    ["B0", "B50", "B75", "B110", "B134", "B150", "B200", "B300", "B600", "B1200", "B1800",
     "B2400", "B4800", "B9600", "B19200", "B38400", "B57600", "B115200", "B230400", "B460800",
     "B500000", "B576000", "B921600", "B1000000", "B1152000", "B1500000", "B2000000",
     "B2500000", "B3000000", "B3500000", "B4000000"])}
IBSHIFT = 16   # CIBAUD: the input rate's CBAUD value, shifted
CONTROL_CHARS = ["VINTR", "VQUIT", "VERASE", "VKILL", "VEOF", "VMIN", "VEOL", "VTIME",
                 "VEOL2", "VSWTC", "VWERASE", "VREPRINT", "VSUSP", "VSTART", "VSTOP",
                 "VLNEXT", "VDISCARD"]   # the guest's c_cc index is the position
NCCS = 19


def _flags(host, table):
    return sum(g for name, g in table.items()
               if hasattr(termios, name) and host & getattr(termios, name))


def _field(host, mask_name, values):
    """The guest's value of a multi-bit field, by the name of the host's value."""
    mask = getattr(termios, mask_name, 0)
    for name, guest in values.items():
        if hasattr(termios, name) and host & mask == getattr(termios, name):
            return guest
    return 0


def _baud(host_speed):
    """(guest CBAUD value, baud rate) of a host speed constant."""
    for name, guest in BAUDS.items():
        if getattr(termios, name, None) == host_speed:
            return guest, int(name[1:])
    return 0, 0


def guest_termios(attrs, little=True):
    """The 44 bytes of the guest's struct termios for termios.tcgetattr's
    [iflag, oflag, cflag, lflag, ispeed, ospeed, cc]."""
    iflag, oflag, cflag, lflag, ispeed, ospeed, cc = attrs
    o = _flags(oflag, OFLAGS) + sum(_field(oflag, m, v) for m, v in OFIELDS)
    out_code, out_rate = _baud(cflag & termios.CBAUD)
    in_code, _ = _baud((cflag & getattr(termios, "CIBAUD", 0)) >> IBSHIFT)
    c = (_flags(cflag, CFLAGS) + _field(cflag, "CSIZE", CSIZES) + out_code
         + (in_code << IBSHIFT))
    chars = bytearray(NCCS)
    for i, name in enumerate(CONTROL_CHARS):
        if hasattr(termios, name):
            v = cc[getattr(termios, name)]
            chars[i] = v if isinstance(v, int) else v[0]
    return struct.pack("<IIII19sBII" if little else ">IIII19sBII", _flags(iflag, IFLAGS), o, c,
                       _flags(lflag, LFLAGS), bytes(chars), 0, _baud(ispeed)[1] or out_rate,
                       _baud(ospeed)[1] or out_rate)


def guest_winsize(raw, little=True):
    """struct winsize (4 unsigned shorts) from the host's bytes to the guest's order."""
    return struct.pack("<4H" if little else ">4H", *struct.unpack("=4H", raw))
