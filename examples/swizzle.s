# mv.swiz (seed 001): a vec4 of 32-bit values X Y Z W held in the register pair
# r4 (Y||X) and r5 (W||Z).  "W.Y." in place writes W into X's position and Y into
# Z's position, leaving the Y and W positions ("." skips) as they are.
#   isa-ext run examples/swizzle.s   ->  r4 = 0xb_0000000d (Y||W), r5 = 0xd_0000000b (W||Y)
        li      r4, 0xb         # r4 = Y || X = 0x0000000b_0000000a
        sldi    r4, r4, 32
        ori     r4, r4, 0xa
        li      r5, 0xd         # r5 = W || Z = 0x0000000d_0000000c
        sldi    r5, r5, 32
        ori     r5, r5, 0xc
        mv.swiz r4, r4, "W.Y."
        blr
