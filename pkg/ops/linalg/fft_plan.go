package linalg

import (
	"math"
	"math/bits"
	"sync"
)

// The 1-d discrete Fourier transform of any length n, unnormalized:
// X[k] = sum_j x[j] exp(-2 pi i jk/n), in complex128. A power of two runs the iterative
// radix-2 Cooley-Tukey; any other length Bluestein's chirp-z, which turns the DFT into a
// circular convolution of a power-of-two length m >= 2n-1 (three radix-2 transforms).
// Both are O(n log n). The inverse is the forward transform of the conjugate, conjugated.

// fftPlan holds what a length needs, computed once per length and shared by all calls.
type fftPlan struct {
	n       int
	twiddle []complex128 // radix-2: exp(-2 pi i k/n), k < n/2
	rev     []int        // radix-2: the bit-reversal permutation
	chirp   []complex128 // Bluestein: exp(-pi i k^2/n), k < n
	kernel  []complex128 // Bluestein: the transform of the conjugate chirp, length m
	inner   *fftPlan     // Bluestein: the radix-2 plan of length m
}

var fftPlans sync.Map // n -> *fftPlan

// maxCachedPlan bounds the lengths whose plans stay cached (a Bluestein plan of length n
// holds about 5n complex numbers): longer transforms plan per call, which their own
// O(n log n) work dwarfs anyway.
const maxCachedPlan = 1 << 16

// planFor returns the plan of length n >= 1 (cached up to maxCachedPlan).
func planFor(n int) *fftPlan {
	if p, ok := fftPlans.Load(n); ok {
		return p.(*fftPlan)
	}
	p := newPlan(n)
	if n <= maxCachedPlan {
		q, _ := fftPlans.LoadOrStore(n, p)
		return q.(*fftPlan)
	}
	return p
}

// unitRoot is exp(-2 pi i num/den), with num reduced first so that large k^2 stay exact.
func unitRoot(num, den int) complex128 {
	s, c := math.Sincos(-2 * math.Pi * float64(num%den) / float64(den))
	return complex(c, s)
}

func newPlan(n int) *fftPlan {
	p := &fftPlan{n: n}
	if n&(n-1) == 0 {
		p.twiddle = make([]complex128, n/2)
		for k := range p.twiddle {
			p.twiddle[k] = unitRoot(k, n)
		}
		shift := 64 - bits.TrailingZeros(uint(n))
		p.rev = make([]int, n)
		for i := range p.rev {
			if n > 1 {
				p.rev[i] = int(bits.Reverse64(uint64(i)) >> shift)
			}
		}
		return p
	}
	m := 1 << bits.Len(uint(2*n-2))
	p.inner = planFor(m)
	p.chirp = make([]complex128, n)
	p.kernel = make([]complex128, m)
	for k := range p.chirp {
		p.chirp[k] = unitRoot(k*k, 2*n) // exp(-pi i k^2/n); k^2 mod 2n keeps the angle small
		c := complex(real(p.chirp[k]), -imag(p.chirp[k]))
		p.kernel[k] = c
		if k > 0 {
			p.kernel[m-k] = c
		}
	}
	p.inner.radix2(p.kernel)
	return p
}

// transform replaces x (length n) by its DFT (inverse: its unnormalized inverse DFT);
// work is Bluestein's scratch (length m, or nil to allocate it).
func (p *fftPlan) transform(x, work []complex128, inverse bool) {
	if inverse {
		conjAll(x)
		defer conjAll(x)
	}
	if p.inner == nil {
		p.radix2(x)
		return
	}
	m := len(p.kernel)
	if len(work) < m {
		work = make([]complex128, m)
	}
	work = work[:m]
	for k, c := range p.chirp {
		work[k] = x[k] * c
	}
	clear(work[p.n:])
	p.inner.radix2(work)
	for k := range work {
		work[k] *= p.kernel[k]
	}
	conjAll(work) // the inverse transform of the product: the convolution
	p.inner.radix2(work)
	conjAll(work)
	scale := 1 / float64(m)
	for k, c := range p.chirp {
		x[k] = work[k] * c * complex(scale, 0)
	}
}

// radix2 is the in-place iterative decimation-in-time transform of a power-of-two length.
func (p *fftPlan) radix2(x []complex128) {
	n := p.n
	for i, j := range p.rev {
		if i < j {
			x[i], x[j] = x[j], x[i]
		}
	}
	for size := 2; size <= n; size <<= 1 {
		half, step := size/2, n/size
		for start := 0; start < n; start += size {
			for k := 0; k < half; k++ {
				t := x[start+k+half] * p.twiddle[k*step]
				x[start+k+half] = x[start+k] - t
				x[start+k] += t
			}
		}
	}
}

func conjAll(x []complex128) {
	for i, z := range x {
		x[i] = complex(real(z), -imag(z))
	}
}
