// A sequence of plane rotations applied to neighbouring rows (rot_f64.c), the
// eigenvector update of the tridiagonal QL iteration; driven from Go by rot64.go.
#ifndef MXGO_ROT_F64_H
#define MXGO_ROT_F64_H

// mxgo_drot_seq applies, for i = hi-1 down to lo, the rotation (c[i], s[i]) to rows i
// and i+1 of z (rows ld apart, n elements each): row i+1 = fma(s, row i, c * row i+1),
// row i = fma(-s, row i+1, c * row i), both from the rows before the rotation.
void mxgo_drot_seq(double *z, long ld, long n, long lo, long hi, const double *c, const double *s);

// mxgo_drot_seq_par is mxgo_drot_seq cut into parts blocks of columns (multiples of 8, the
// kernel's), run on the pool's threads (par.h): every column is rotated on its own, so
// the cut changes no bit.
void mxgo_drot_seq_par(double *z, long ld, long n, long lo, long hi, const double *c, const double *s, long parts);

#endif
