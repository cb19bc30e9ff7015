:1
mov r0, :1f
mov r1, :1
:1 :
brr.allcs -, :1
ldcoend
mov tmu0_s, element_number
.clone :1, 64
