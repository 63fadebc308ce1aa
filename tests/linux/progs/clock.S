# The virtual clock against a hand count of retired instructions: reads
# CLOCK_MONOTONIC, runs 3 + 1000 instructions (a bdnz loop), reads it again,
# sleeps 1.5 s, reads it again and reads CLOCK_REALTIME; writes the four
# timespecs (64 bytes) to stdout and exits 0.
        .abiversion 2
        .text
        .globl _start
_start:
        addi 31,1,-256          # the timespecs, below the initial stack pointer
        li 0,246                # clock_gettime(CLOCK_MONOTONIC, r31)
        li 3,1
        mr 4,31
        sc
        li 9,1000               # 2 instructions, then 1000 bdnz
        mtctr 9
1:      bdnz 1b
        li 0,246                # 3 instructions, then the sc that reads
        li 3,1
        addi 4,31,16
        sc
        li 9,1                  # nanosleep({1, 500000000}, NULL)
        std 9,64(31)
        lis 9,0x1dcd            # 500000000 = 0x1dcd6500
        ori 9,9,0x6500
        std 9,72(31)
        li 0,162
        addi 3,31,64
        li 4,0
        sc
        li 0,246                # clock_gettime(CLOCK_MONOTONIC, r31 + 32)
        li 3,1
        addi 4,31,32
        sc
        li 0,246                # clock_gettime(CLOCK_REALTIME, r31 + 48)
        li 3,0
        addi 4,31,48
        sc
        li 0,4                  # write(1, r31, 64)
        li 3,1
        mr 4,31
        li 5,64
        sc
        li 0,234                # exit_group(0)
        li 3,0
        sc
