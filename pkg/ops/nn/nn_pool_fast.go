package nn

// Max pooling of 2-D planes whose windows all lie inside the input (no padding, no
// window past the edge): the common CNN case (2x2 or 3x3 windows, stride 2) in plain
// loops. forWindows' general path, which clips every window and calls a function per
// output, cost ten times MXNet's time on a LeNet's 2x2 pooling.

// maxInside2D reports whether g is max pooling of 2-D planes with every window inside.
func (g *poolGeom) maxInside2D() bool {
	if g.kind != "max" || g.in[0] != 1 || g.k[0] != 1 {
		return false
	}
	for j := 1; j < 3; j++ {
		if g.convGeom.p[j] != 0 || (g.out[j]-1)*g.s[j]+g.k[j] > g.in[j] {
			return false
		}
	}
	return true
}

// maxPlane2D writes each window's maximum of plane x into y (a NaN never wins, as in
// poolWindow).
func maxPlane2D[T nnFloat](g *poolGeom, x, y []T, lowest T) {
	w, kh, kw := g.in[2], g.k[1], g.k[2]
	i := 0
	for a := range g.out[1] {
		r0 := a * g.s[1]
		for b := range g.out[2] {
			c0 := b * g.s[2]
			m := lowest
			for r := r0; r < r0+kh; r++ {
				for _, v := range x[r*w+c0 : r*w+c0+kw] {
					if v == v { // well predicted; the builtin max has no branch on the data
						m = max(m, v)
					}
				}
			}
			y[i] = m
			i++
		}
	}
}

// unmaxPlane2D adds each window's gradient gy to the first element of x (in scan order)
// equal to the window's maximum y, or to every one with allTies. Which element is the
// maximum follows the data, so the loop adds gy times 0 or 1 instead of branching.
func unmaxPlane2D[T nnFloat](g *poolGeom, x, y, gy, dx []T) {
	w, kh, kw := g.in[2], g.k[1], g.k[2]
	ties := 0
	if g.allTies {
		ties = 1
	}
	i := 0
	for a := range g.out[1] {
		r0 := a * g.s[1]
		for b := range g.out[2] {
			c0 := b * g.s[2]
			yi, gi, taken := y[i], gy[i], 0
			for r := r0; r < r0+kh; r++ {
				for j := r*w + c0; j < r*w+c0+kw; j++ {
					hit := 0
					if x[j] == yi {
						hit = 1
					}
					dx[j] += gi * T(hit&^(taken&^ties))
					taken |= hit
				}
			}
			i++
		}
	}
}
