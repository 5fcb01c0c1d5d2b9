package nn

import "math"

// The cells of RNN, one step of one direction over the batch: forward from the step's
// input and recurrent products, backward from the gradient of the step's state. Each
// mode has its own loop over the (batch, unit) pairs.

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

func (s *rnnState[T]) forward() {
	H, xg, hg, g := s.d.H, s.xg, s.hg, s.g
	switch s.d.mode {
	case "rnn_tanh":
		s.each(func(q, p int) { s.h[q] = tanh(xg[p] + hg[p]) })
	case "rnn_relu":
		s.each(func(q, p int) { s.h[q] = max(xg[p]+hg[p], 0) })
	case "lstm":
		s.each(func(q, p int) {
			i, f := sigm(xg[p]+hg[p]), sigm(xg[p+H]+hg[p+H])
			c, o := tanh(xg[p+2*H]+hg[p+2*H]), sigm(xg[p+3*H]+hg[p+3*H])
			g[p], g[p+H], g[p+2*H], g[p+3*H] = i, f, c, o
			s.c[q] = f*s.cp[q] + i*c
			s.h[q] = o * tanh(s.c[q])
		})
	case "gru":
		s.each(func(q, p int) {
			r, z := sigm(xg[p]+hg[p]), sigm(xg[p+H]+hg[p+H])
			s.hn[q] = hg[p+2*H]
			c := tanh(xg[p+2*H] + r*hg[p+2*H])
			g[p], g[p+H], g[p+2*H] = r, z, c
			s.h[q] = (1-z)*c + z*s.hp[q]
		})
	}
}

// backward turns dh (the gradient of h) into the gradients of the gates' input and
// recurrent products, dx and dr (N, G*H), leaving in dh the part of the gradient of hp
// that does not go through the recurrent product, and in dc (lstm) that of cp.
func (s *rnnState[T]) backward(dh, dc, dx, dr []T) {
	H, g := s.d.H, s.g
	switch s.d.mode {
	case "rnn_tanh":
		s.each(func(q, p int) { dx[p], dr[p], dh[q] = dh[q]*(1-s.h[q]*s.h[q]), dh[q]*(1-s.h[q]*s.h[q]), 0 })
	case "rnn_relu":
		s.each(func(q, p int) {
			dx[p] = 0
			if s.h[q] > 0 {
				dx[p] = dh[q]
			}
			dr[p], dh[q] = dx[p], 0
		})
	case "lstm":
		s.each(func(q, p int) {
			i, f, c, o := g[p], g[p+H], g[p+2*H], g[p+3*H]
			tc := tanh(s.c[q])
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
