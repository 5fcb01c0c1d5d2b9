package linalg

import (
	"math"
	"sync"

	"gonum.org/v1/gonum/blas/blas64"
)

// panelLU is gonum's Dgetf2 (the unblocked LU, step for step: pivot, swap, scale by
// the reciprocal, rank-1 update) on a transposed copy of the m x n panel, whose columns
// are then contiguous: in place, the pivot search and the scaling walk a column lda
// apart, and at lda = 256 a load 4 KiB past a pending store waits for it (a third of
// det's time went to the scaling).
func panelLU(m, n int, a []float64, lda int, ipiv []int) (ok bool) {
	bi := blas64.Implementation()
	buf := getScratch(n * m)
	defer putScratch(buf)
	t := *buf // column c of the panel is t[c*m : (c+1)*m]
	transpose(t, m, a, lda, m, n)
	ok = true
	for j := range n {
		col := t[j*m : (j+1)*m]
		p := j + bi.Idamax(m-j, col[j:], 1)
		ipiv[j] = p
		if col[p] == 0 {
			ok = false
		} else {
			if p != j {
				for c := range n {
					t[c*m+j], t[c*m+p] = t[c*m+p], t[c*m+j]
				}
			}
			if aj := col[j]; math.Abs(aj) >= dlamchS {
				bi.Dscal(m-j-1, 1/aj, col[j+1:], 1)
			} else {
				for i := j + 1; i < m; i++ {
					col[i] /= aj
				}
			}
		}
		for c := j + 1; c < n; c++ {
			bi.Daxpy(m-j-1, -t[c*m+j], col[j+1:], 1, t[c*m+j+1:(c+1)*m], 1)
		}
	}
	transpose(a, lda, t, m, n, m)
	return ok
}

// transpose sets dst (rows ldd apart) to the transpose of the rows x cols matrix src
// (rows lds apart): the copies in and out of panelLU's and rightByLeft's scratch.
func transpose(dst []float64, ldd int, src []float64, lds, rows, cols int) {
	for i := range rows {
		for j, v := range src[i*lds : i*lds+cols] {
			dst[j*ldd+i] = v
		}
	}
}

// scratch holds the transposed copies of panelLU and rightByLeft between calls: they
// are made thousands of times a second, and the garbage collector's sweeping of them
// took a tenth of inverse's time.
var scratch sync.Pool

// getScratch returns a buffer of n elements (contents undefined), to give back with
// putScratch.
func getScratch(n int) *[]float64 {
	if b, _ := scratch.Get().(*[]float64); b != nil && cap(*b) >= n {
		*b = (*b)[:n]
		return b
	}
	b := make([]float64, n)
	return &b
}

func putScratch(b *[]float64) { scratch.Put(b) }

// dlamchS is LAPACK's safe minimum, the smallest x whose reciprocal does not overflow.
const dlamchS = 0x1p-1022
