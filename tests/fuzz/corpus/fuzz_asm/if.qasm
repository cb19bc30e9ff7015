.if 1
.else
