.func f(x)
 .if x
  f(x-1)
 .else
  0
 .endif
.endf
ldi r0, f(5)
