# Sum 1..N: N in r3 on entry, the sum in r3 on exit.
#   isa-ext run examples/sum.s --gpr r3=10      ->  r3 0xa -> 0x37
        mr      r4, r3          # r4 counts N, N-1, ..., 1
        li      r3, 0           # running sum
        cmpdi   r4, 0
        beq     done            # N = 0: the sum is 0
loop:   add     r3, r3, r4
        addi    r4, r4, -1
        cmpdi   r4, 0
        bne     loop
done:   blr                     # LR starts at the end of the program: this ends it
