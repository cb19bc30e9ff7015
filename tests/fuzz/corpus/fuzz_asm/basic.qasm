nop
thrend
nop
nop
