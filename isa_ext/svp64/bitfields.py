"""Registers made of named fields (SVSTATE, SVSHAPE0-3): get, put, decode and
make a field value of an integer register value.  Pure: nothing here touches
the machine, so an engine can work on a local copy and commit it once."""


class Layout:
    """``fields``: {name: (first, last)}, MSB0 bit ranges of a ``width``-bit
    register called ``register`` in messages."""

    def __init__(self, register, width, fields):
        self.register, self.width, self.fields = register, width, fields
        # (shift, mask) per field: LSB0 shift into the value
        self.shifts = {name: (width - 1 - b, (1 << (b - a + 1)) - 1)
                       for name, (a, b) in fields.items()}

    def get(self, value, name):
        sh, m = self.shifts[name]
        return (value >> sh) & m

    def put(self, value, name, field):
        sh, m = self.shifts[name]
        if field < 0 or field > m:
            raise ValueError(f"{self.register}.{name}={field} does not fit")
        return (value & ~(m << sh)) | (field << sh)

    def decode(self, value):
        """{field: value} for every field."""
        return {name: self.get(value, name) for name in self.fields}

    def make(self, **fields):
        """A register value from field keywords."""
        value = 0
        for name, field in fields.items():
            value = self.put(value, name, field)
        return value
