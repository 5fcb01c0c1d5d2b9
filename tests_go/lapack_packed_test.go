package mxgotest

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/ndarray"
)

// extractdiag, extracttrian and their inverses on batches large enough to be split
// across the cores, read through a transposed (strided) view, against the elements
// picked by index: every matrix, every position, both dtypes.
func TestPackedLargeBatchesStrided(t *testing.T) {
	checkLeaks(t)
	const nb, n = 40, 33 // 40 * 528 trian elements: more than one task's share
	vals := seq(nb * n * n)
	for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64} {
		x := transposeView(t, fromValues(t, dt, vals, nb, n, n), []int{0, 2, 1}) // x[b, i, j] = vals[b, j, i]
		at := func(b, i, j int) float64 { return vals[(b*n+j)*n+i] }
		for _, c := range []struct {
			op, attrs string
			pos       func(p int) (int, int)
			count     int
		}{
			{"diag", "offset=0", func(p int) (int, int) { return p, p }, n},
			{"diag", "offset=-2", func(p int) (int, int) { return p + 2, p }, n - 2},
			{"trian", "offset=0", func(p int) (int, int) { // lower, row by row
				r := 0
				for (r+1)*(r+2)/2 <= p {
					r++
				}
				return r, p - r*(r+1)/2
			}, n * (n + 1) / 2},
		} {
			what := fmt.Sprintf("%s %s %s", c.op, c.attrs, dt)
			got := mustOp(t, "linalg_extract"+c.op, c.attrs, x)
			require.Equal(t, []int{nb, c.count}, got.Shape(), what)
			g := values(t, got)
			for b := 0; b < nb; b++ {
				for p := 0; p < c.count; p++ {
					i, j := c.pos(p)
					require.Equal(t, at(b, i, j), g[b*c.count+p], "%s [%d, %d]", what, b, p)
				}
			}
			back := values(t, mustOp(t, "linalg_make"+c.op, c.attrs, got))
			want := make([]float64, nb*n*n)
			for b := 0; b < nb; b++ {
				for p := 0; p < c.count; p++ {
					i, j := c.pos(p)
					want[(b*n+i)*n+j] = at(b, i, j)
				}
			}
			require.Equal(t, want, back, what+" make")
		}
	}
}
