.clone :x, 3
nop ra0
:x
: mnop.ifz rb1
.bit 1, 2
.int4 0x1f
:y
.int2 3
nop
.align 16, 8
.clone :x, 2
