package mxgotest

import (
	"fmt"
	"math"
	"testing"

	"github.com/mxgo/mxgo/pkg/ndarray"
)

// LayerNorm's fused gradient along the last axis (_backward_LayerNorm_data, _params)
// against the formula in float64: dx = inv*(h - mean(h) - xhat*mean(h*xhat)) with
// h = g*gamma, dgamma = sum over rows of g*xhat, dbeta = sum of g; one row, one element a
// row, odd lengths, more rows than a parameter block (64), float32 and float64.
func TestLayerNormFusedGradMatchesFormula(t *testing.T) {
	checkLeaks(t)
	for _, shape := range [][]int{{1, 1}, {3, 1}, {1, 7}, {2, 3, 17}, {65, 33}, {130, 5}} {
		n := shape[len(shape)-1]
		rows := prod(shape) / n
		for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64} {
			x, xv := nnRandom(t, dt, 1, shape...)
			g, gv := nnRandom(t, dt, 2, shape...)
			gamma, gam := nnRandom(t, dt, 3, n)
			eps := float64(float32(1e-5))
			dx, params := make([]float64, len(xv)), make([]float64, 2*n)
			for r := range rows {
				row, gr := xv[r*n:(r+1)*n], gv[r*n:(r+1)*n]
				var s, q, sh, shx float64
				for _, v := range row {
					s += v
				}
				m := s / float64(n)
				for _, v := range row {
					q += (v - m) * (v - m)
				}
				inv := 1 / math.Sqrt(q/float64(n)+eps)
				for j, v := range row {
					sh += gr[j] * gam[j]
					shx += gr[j] * gam[j] * (v - m) * inv
					params[j] += gr[j] * (v - m) * inv
					params[n+j] += gr[j]
				}
				for j, v := range row {
					dx[r*n+j] = inv * (gr[j]*gam[j] - sh/float64(n) - (v-m)*inv*shx/float64(n))
				}
			}
			tol := map[ndarray.DType]float64{ndarray.Float32: 2e-5, ndarray.Float64: 1e-12}[dt]
			what := fmt.Sprintf("%v %v", shape, dt)
			nnClose(t, mustOp(t, "_backward_LayerNorm_data", "", x, gamma, g), dx, 10*tol, "dx of "+what)
			nnClose(t, mustOp(t, "_backward_LayerNorm_params", "", x, gamma, g), params, 10*tol, "dgamma, dbeta of "+what)
		}
	}
}
