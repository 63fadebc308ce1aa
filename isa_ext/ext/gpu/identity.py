"""The GPU identity and geometry of the running warp (seed 002), a machine
configuration the `gpu` pages read.

Seed 002 gives every thread a warp id (gl_WarpIDNV, "in the range 0 to
gl_WarpsPerSMNV-1"), an SM id (gl_SMIDNV, "0 to gl_SMCountNV-1"), a helper-
thread flag (gl_HelperThreadNV, fragment shaders), and the uniforms
gl_WarpsPerSMNV ("the maximum number of warp executing on a SM") and
gl_SMCountNV ("the number of SM on the GPU").  isa_ext runs one warp at a
time (its lanes are the SVP64 vector, its size VL), so these are properties
of the machine the program runs on: given with ``Simulator(gpu=...)`` or
``isa-ext run --gpu KEY=VALUE``, fixed for the run, read by the thread-group
instructions (``warpid``, ``smid``, ``helperthread``, ``warpspersm``,
``smcount``, ``warpsize``; pseudocode/gpu/threadgroup.mdwn) and by SURED,
which helper threads do not perform (seed 004).
"""
from ...records import fields, record

from ...errors import IsaExtError

M64 = (1 << 64) - 1


@record(frozen=True)
class GpuIdentity:
    """One warp's place on the GPU.  ``helper_lanes``: bit i set = lane i is a
    helper thread (seed 002: lanes of a 2x2 quad not covered by the primitive)."""
    warp_id: int = 0
    sm_id: int = 0
    warps_per_sm: int = 1
    sm_count: int = 1
    helper_lanes: int = 0
    # seed 004's header-index form of SURED (#tsPtrIdxU13; docs/errata.md
    # 004-12): the constant bank its immediate indexes (32-bit entries
    # samplerPtr[31:20] | headerPtr[19:0]), the texture header pool (header n is
    # the 32-byte surface descriptor at header_pool + 32*n) and the pool's
    # SetTexHeaderPoolC.MaximumIndex; None: no pool, every header is invalid
    const_bank: int = 0
    header_pool: int = 0
    max_header_index: int = None

    def __post_init__(self):
        for name in fields(self):
            v = getattr(self, name)
            if name == "max_header_index" and v is None:
                continue
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= M64:
                raise IsaExtError(f"gpu {name}={v!r}: expected a whole number "
                                  f"0 .. 2**64-1")
        # seed 002: gl_WarpIDNV in 0 .. gl_WarpsPerSMNV-1, gl_SMIDNV in 0 .. gl_SMCountNV-1
        if self.warps_per_sm < 1 or self.sm_count < 1:
            raise IsaExtError(f"gpu warps_per_sm={self.warps_per_sm} sm_count="
                              f"{self.sm_count}: a GPU has at least one SM and one warp "
                              f"per SM")
        if self.warp_id >= self.warps_per_sm:
            raise IsaExtError(f"gpu warp_id={self.warp_id} is outside 0 .. "
                              f"warps_per_sm-1 = {self.warps_per_sm - 1} (seed 002)")
        if self.sm_id >= self.sm_count:
            raise IsaExtError(f"gpu sm_id={self.sm_id} is outside 0 .. sm_count-1 = "
                              f"{self.sm_count - 1} (seed 002)")

    def header_valid(self, pointer):
        """1 if texture header ``pointer`` is in the pool (seed 004: "Any header
        pointer greater than ... MaximumIndex will be regarded as an 'invalid'
        texture")."""
        return int(self.max_header_index is not None and pointer <= self.max_header_index)

    def helper(self, lane):
        """1 if lane ``lane`` is a helper thread."""
        return (self.helper_lanes >> lane) & 1 if 0 <= lane < 64 else 0

    @classmethod
    def of(cls, value):
        """A GpuIdentity from itself, None (the default machine) or a dict of
        its fields (also the CLI's names, see KEYS)."""
        if value is None:
            return DEFAULT
        if isinstance(value, cls):
            return value
        if isinstance(value, dict):
            known = set(fields(cls))
            kw = {}
            for k, v in value.items():
                name = KEYS.get(k, k)
                if name not in known:
                    raise IsaExtError(f"gpu: unknown setting {k!r}; known: "
                                      + ", ".join(KEYS))
                kw[name] = v
            return cls(**kw)
        raise IsaExtError(f"gpu: expected a GpuIdentity or a dict, not {type(value).__name__}")


DEFAULT = GpuIdentity()

# CLI names (``--gpu warpid=3,smid=1``), after seed 002's NV assembly bindings
KEYS = {"warpid": "warp_id", "smid": "sm_id", "warpspersm": "warps_per_sm",
        "smcount": "sm_count", "helperlanes": "helper_lanes",
        "constbank": "const_bank", "headerpool": "header_pool",
        "maxheaderindex": "max_header_index"}


def identity(state):
    """The identity of the warp ``state`` runs (the default machine: one SM,
    one warp per SM, warp 0 on SM 0, no helper threads)."""
    return getattr(state, "gpu", None) or DEFAULT
