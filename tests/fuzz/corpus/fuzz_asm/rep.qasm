.set N, 3
.rep i, N
 ldi ra0+i, i
.endr
:l brr -, r:l
