# Entry point of the freestanding test programs: TOC pointer, a stack frame,
# main(), then the exit system call with main's return value.
        .abiversion 2
        .text
        .globl _start
        .type _start,@function
_start:
        lis 2,.TOC.@ha
        addi 2,2,.TOC.@l
        clrrdi 1,1,4
        li 0,0
        stdu 0,-64(1)
        bl main
        nop
        li 0,1
        sc
