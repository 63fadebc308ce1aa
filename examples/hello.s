# Write "hello, world" with the Linux write system call, then exit with status 0.
#   isa-ext run examples/hello.s
        .text
        .globl  _start
_start: li      r0, 4           # write(fd=1, buf=msg, len)
        li      r3, 1
        lis     r4, msg@ha
        addi    r4, r4, msg@l
        li      r5, len
        sc
        li      r0, 1           # exit(0)
        li      r3, 0
        sc

        .data
msg:    .ascii  "hello, world\n"
        .set    len, 13
