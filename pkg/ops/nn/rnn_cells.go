package nn

import "math"

// The cells of RNN, one step of one direction over the batch: forward from the step's
// input and recurrent products, backward from the gradient of the step's state.

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

func (s *rnnState[T]) forward() {
	H, gh := s.d.H, s.d.G*s.d.H
	for n := 0; n < s.d.N; n++ {
		xg, hg, g := s.xg[n*gh:(n+1)*gh], s.hg[n*gh:(n+1)*gh], s.g[n*gh:(n+1)*gh]
		hp, h := s.hp[n*H:(n+1)*H], s.h[n*H:(n+1)*H]
		for j := 0; j < H; j++ {
			switch s.d.mode {
			case "rnn_tanh":
				h[j] = tanh(xg[j] + hg[j])
			case "rnn_relu":
				h[j] = max(xg[j]+hg[j], 0)
			case "lstm":
				i, f := sigm(xg[j]+hg[j]), sigm(xg[H+j]+hg[H+j])
				c, o := tanh(xg[2*H+j]+hg[2*H+j]), sigm(xg[3*H+j]+hg[3*H+j])
				g[j], g[H+j], g[2*H+j], g[3*H+j] = i, f, c, o
				s.c[n*H+j] = f*s.cp[n*H+j] + i*c
				h[j] = o * tanh(s.c[n*H+j])
			case "gru":
				r, z := sigm(xg[j]+hg[j]), sigm(xg[H+j]+hg[H+j])
				s.hn[n*H+j] = hg[2*H+j]
				c := tanh(xg[2*H+j] + r*hg[2*H+j])
				g[j], g[H+j], g[2*H+j] = r, z, c
				h[j] = (1-z)*c + z*hp[j]
			}
		}
	}
}

// backward turns dh (the gradient of h) into the gradients of the gates' input and
// recurrent products, dx and dr (N, G*H), leaving in dh the part of the gradient of hp
// that does not go through the recurrent product, and in dc (lstm) that of cp.
func (s *rnnState[T]) backward(dh, dc, dx, dr []T) {
	H, gh := s.d.H, s.d.G*s.d.H
	for n := 0; n < s.d.N; n++ {
		g, gx, gr := s.g[n*gh:(n+1)*gh], dx[n*gh:(n+1)*gh], dr[n*gh:(n+1)*gh]
		for j := 0; j < H; j++ {
			q := n*H + j
			switch s.d.mode {
			case "rnn_tanh":
				gx[j] = dh[q] * (1 - s.h[q]*s.h[q])
				dh[q] = 0
			case "rnn_relu":
				gx[j] = 0
				if s.h[q] > 0 {
					gx[j] = dh[q]
				}
				dh[q] = 0
			case "lstm":
				i, f, c, o := g[j], g[H+j], g[2*H+j], g[3*H+j]
				tc := tanh(s.c[q])
				dct := dc[q] + dh[q]*o*(1-tc*tc)
				gx[j], gx[H+j] = dct*c*i*(1-i), dct*s.cp[q]*f*(1-f)
				gx[2*H+j], gx[3*H+j] = dct*i*(1-c*c), dh[q]*tc*o*(1-o)
				dc[q], dh[q] = dct*f, 0
			case "gru":
				r, z, c := g[j], g[H+j], g[2*H+j]
				dn := dh[q] * (1 - z) * (1 - c*c)
				gx[j] = dn * s.hn[q] * r * (1 - r)
				gx[H+j] = dh[q] * (s.hp[q] - c) * z * (1 - z)
				gx[2*H+j] = dn
				gr[2*H+j] = dn * r
				dh[q] *= z
			}
		}
		if s.d.mode != "gru" {
			copy(gr, gx)
		} else {
			copy(gr[:2*H], gx[:2*H])
		}
	}
}
