add.ifz.setf ra0.16a, ra1.8a, 1.0; fmul.rot 3, r0, r1, r2; @pm=1
