package nn

import (
	"math"

	"github.com/mxgo/mxgo/internal/simd"
)

// The cells of RNN, one step of one direction over the batch: forward from the step's
// input and recurrent products (the activations over whole rows, rnnAct), backward from
// the gradient of the step's state, each mode by its own loop over the (batch, unit) pairs.

// rnnState is one step: xg and hg the input and recurrent products (N, G*H), biases
// included; hp, h the previous and new states (N, H); cp, c the cell states (lstm); g
// the activated gates (N, G*H); hn gru's recurrent n product (N, H).
type rnnState[T nnFloat] struct {
	d                    *rnnDims
	xg, hg, hp, h, cp, c []T
	g, hn                []T
}

func sigm[T nnFloat](x T) T { return T(1 / (1 + math.Exp(-float64(x)))) }
func tanh[T nnFloat](x T) T { return T(math.Tanh(float64(x))) }

// rnnAct applies fn (simd.Sigmoid or simd.Tanh) to x in place: float32 rows through
// the vector kernels where the CPU has them (as the unary operators do), else element
// by element in float64.
func rnnAct[T nnFloat](fn simd.Unary, x []T) {
	if f, ok := any(x).([]float32); ok && simd.Unary32(fn, f, f) {
		return
	}
	act := sigm[T]
	if fn == simd.Tanh {
		act = tanh[T]
	}
	for i, v := range x {
		x[i] = act(v)
	}
}

// each calls fn for every (batch row n, unit j) with q = n*H + j and p = n*G*H + j, the
// unit's first gate.
func (s *rnnState[T]) each(fn func(q, p int)) {
	H, gh := s.d.H, s.d.G*s.d.H
	for n := 0; n < s.d.N; n++ {
		for j := 0; j < H; j++ {
			fn(n*H+j, n*gh+j)
		}
	}
}

// rows applies fn to gates [from, to) (in units of H) of every batch row of g.
func (s *rnnState[T]) rows(fn simd.Unary, from, to int) {
	H, gh := s.d.H, s.d.G*s.d.H
	for n := 0; n < s.d.N; n++ {
		rnnAct(fn, s.g[n*gh+from*H:n*gh+to*H])
	}
}

func (s *rnnState[T]) forward() {
	H, xg, hg, g, h := s.d.H, s.xg, s.hg, s.g, s.h[:s.d.N*s.d.H]
	if s.d.G == 1 {
		for i := range h {
			h[i] = xg[i] + hg[i]
		}
		if s.d.mode == "rnn_tanh" {
			rnnAct(simd.Tanh, h)
		} else {
			for i, v := range h {
				h[i] = max(v, 0)
			}
		}
		return
	}
	for i := range g[:s.d.N*s.d.G*H] {
		g[i] = xg[i] + hg[i]
	}
	if s.d.mode == "lstm" {
		s.rows(simd.Sigmoid, 0, 2)
		s.rows(simd.Tanh, 2, 3)
		s.rows(simd.Sigmoid, 3, 4)
		s.each(func(q, p int) { s.c[q] = g[p+H]*s.cp[q] + g[p]*g[p+2*H] })
		copy(h, s.c)
		rnnAct(simd.Tanh, h)
		s.each(func(q, p int) { h[q] *= g[p+3*H] })
		return
	}
	s.rows(simd.Sigmoid, 0, 2) // gru: r and z, then n = tanh(x_n + r * (h2h_n + its bias))
	s.each(func(q, p int) {
		s.hn[q] = hg[p+2*H]
		g[p+2*H] = xg[p+2*H] + g[p]*s.hn[q]
	})
	s.rows(simd.Tanh, 2, 3)
	s.each(func(q, p int) { h[q] = (1-g[p+H])*g[p+2*H] + g[p+H]*s.hp[q] })
}

// backward turns dh (the gradient of h) into the gradients of the gates' input and
// recurrent products, dx and dr (N, G*H), leaving in dh the part of the gradient of hp
// that does not go through the recurrent product, and in dc (lstm) that of cp; tmp
// (N*H) is scratch.
func (s *rnnState[T]) backward(dh, dc, dx, dr, tmp []T) {
	H, g := s.d.H, s.g
	switch s.d.mode {
	case "rnn_tanh":
		s.each(func(q, p int) {
			dx[p] = dh[q] * (1 - s.h[q]*s.h[q])
			dr[p], dh[q] = dx[p], 0
		})
	case "rnn_relu":
		s.each(func(q, p int) {
			dx[p] = 0
			if s.h[q] > 0 {
				dx[p] = dh[q]
			}
			dr[p], dh[q] = dx[p], 0
		})
	case "lstm":
		tcs := tmp[:s.d.N*H]
		copy(tcs, s.c)
		rnnAct(simd.Tanh, tcs)
		s.each(func(q, p int) {
			i, f, c, o := g[p], g[p+H], g[p+2*H], g[p+3*H]
			tc := tcs[q]
			dct := dc[q] + dh[q]*o*(1-tc*tc)
			dx[p], dx[p+H] = dct*c*i*(1-i), dct*s.cp[q]*f*(1-f)
			dx[p+2*H], dx[p+3*H] = dct*i*(1-c*c), dh[q]*tc*o*(1-o)
			dr[p], dr[p+H], dr[p+2*H], dr[p+3*H] = dx[p], dx[p+H], dx[p+2*H], dx[p+3*H]
			dc[q], dh[q] = dct*f, 0
		})
	case "gru":
		s.each(func(q, p int) {
			r, z, c := g[p], g[p+H], g[p+2*H]
			dn := dh[q] * (1 - z) * (1 - c*c)
			dx[p] = dn * s.hn[q] * r * (1 - r)
			dx[p+H] = dh[q] * (s.hp[q] - c) * z * (1 - z)
			dx[p+2*H] = dn
			dr[p], dr[p+H], dr[p+2*H] = dx[p], dx[p+H], dn*r
			dh[q] *= z
		})
	}
}
