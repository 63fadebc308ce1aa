# Entry of the freestanding Linux test programs: hands the initial stack
# pointer (argc, argv, envp, auxv as the kernel laid them) to cmain(sp), then
# exits with its return value.
        .abiversion 2
        .text
        .globl _start
        .type _start,@function
_start:
        lis 2,.TOC.@ha
        addi 2,2,.TOC.@l
        mr 3,1
        clrrdi 1,1,4
        li 0,0
        stdu 0,-64(1)
        bl cmain
        nop
        li 0,234
        sc
