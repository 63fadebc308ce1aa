# Seed 003's warp-level inclusive plus-scan on a 32-lane "warp" of FPRs:
# f0..f31 hold the input x_i; afterwards lane i holds x_0 + ... + x_i.
# Each step: Ry = SHFL.UP Rx by n (segment width 2**5 = 32 lanes), P1 = which
# lanes had a source in range, then @P1 FADD Rx, Ry, Rx as a predicated sv.fadds.
    setvl 0,0,32,0,1,1
    sv.fshfli.up *f32,*f0,1,5
    sv.shflvi.up r3,1,5
    sv.fadds/m=r3 *f0,*f32,*f0
    sv.fshfli.up *f32,*f0,2,5
    sv.shflvi.up r3,2,5
    sv.fadds/m=r3 *f0,*f32,*f0
    sv.fshfli.up *f32,*f0,4,5
    sv.shflvi.up r3,4,5
    sv.fadds/m=r3 *f0,*f32,*f0
    sv.fshfli.up *f32,*f0,8,5
    sv.shflvi.up r3,8,5
    sv.fadds/m=r3 *f0,*f32,*f0
    sv.fshfli.up *f32,*f0,16,5
    sv.shflvi.up r3,16,5
    sv.fadds/m=r3 *f0,*f32,*f0
    blr
