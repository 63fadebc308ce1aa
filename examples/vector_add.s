# SVP64 horizontal-first vector add: one prefixed instruction adds four
# elements, r8..r11 = r16..r19 + r24..r27.
#   isa-ext run examples/vector_add.s   ->  r8..r11 = 0xb 0x16 0x21 0x2c
        li      r16, 1
        li      r17, 2
        li      r18, 3
        li      r19, 4
        li      r24, 10
        li      r25, 20
        li      r26, 30
        li      r27, 40
        setvl   0,0,4,0,1,1     # MAXVL = VL = 4
        sv.add  *8, *16, *24    # element i: r(8+i) = r(16+i) + r(24+i), i = 0..3
        blr
