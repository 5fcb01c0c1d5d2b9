package mxgotest

import (
	"fmt"
	"math"
	"testing"

	"github.com/mxgo/mxgo/pkg/ndarray"
)

// BatchNorm's fused training gradient (_backward_BatchNorm_stats, then _data) against
// the formula in float64: per channel mean, biased variance, sum(g), sum(g*xhat) and
// dx = gamma*inv*(g - mean(g) - xhat*mean(g*xhat)), over channel axes first, middle and
// last, odd sizes, one element a channel, fix_gamma on and off, float32 and float64.
func TestBatchNormFusedGradMatchesFormula(t *testing.T) {
	checkLeaks(t)
	for _, tc := range []struct {
		shape []int
		axis  int
	}{{[]int{2, 3, 5, 7}, 1}, {[]int{5, 4}, 1}, {[]int{2, 3, 4}, 2}, {[]int{3, 2, 1}, 0}, {[]int{1, 3, 1, 1}, 1}} {
		outer, inner := 1, 1
		for i, d := range tc.shape {
			if i < tc.axis {
				outer *= d
			} else if i > tc.axis {
				inner *= d
			}
		}
		c, n := tc.shape[tc.axis], float64(outer*inner)
		for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64} {
			x, xv := nnRandom(t, dt, 1, tc.shape...)
			g, gv := nnRandom(t, dt, 2, tc.shape...)
			gamma, gam := nnRandom(t, dt, 3, c)
			eps := float64(float32(1e-3)) // as MXNet stores eps
			st, dxs := make([]float64, 4*c), [2][]float64{make([]float64, len(xv)), make([]float64, len(xv))}
			for j := range c {
				at := func(o, i int) int { return (o*c+j)*inner + i }
				var s, q, sg, sgx float64
				for o := range outer {
					for i := range inner {
						s += xv[at(o, i)]
					}
				}
				m := s / n
				for o := range outer {
					for i := range inner {
						q += (xv[at(o, i)] - m) * (xv[at(o, i)] - m)
					}
				}
				inv := 1 / math.Sqrt(q/n+eps)
				for o := range outer {
					for i := range inner {
						sg += gv[at(o, i)]
						sgx += gv[at(o, i)] * (xv[at(o, i)] - m) * inv
					}
				}
				st[j], st[c+j], st[2*c+j], st[3*c+j] = m, q/n, sg, sgx
				for o := range outer {
					for i := range inner {
						d := inv * (gv[at(o, i)] - sg/n - (xv[at(o, i)]-m)*inv*sgx/n)
						dxs[0][at(o, i)], dxs[1][at(o, i)] = d*gam[j], d
					}
				}
			}
			tol := map[ndarray.DType]float64{ndarray.Float32: 2e-5, ndarray.Float64: 1e-12}[dt]
			what := fmt.Sprintf("%v axis %d %v", tc.shape, tc.axis, dt)
			attrs := fmt.Sprintf("axis=%d;eps=0.001", tc.axis)
			stats := mustOp(t, "_backward_BatchNorm_stats", attrs, x, g)
			nnClose(t, stats, st, 10*tol, "stats of "+what)
			for i, fix := range []bool{false, true} {
				nnClose(t, mustOp(t, "_backward_BatchNorm_data", attrs+fmt.Sprintf(";fix_gamma=%v", fix), x, g, stats, gamma),
					dxs[i], 10*tol, fmt.Sprintf("dx (fix_gamma %v) of %s", fix, what))
			}
		}
	}
}
