package reduce

import "github.com/mxgo/mxgo/pkg/ops"

// redLanes is the number of running maxima (minima) of redMaxLanes: independent
// comparisons the CPU overlaps, where one running maximum waits on each comparison.
const redLanes = 8

// redMaxLanes is redMaxFold's fold of v into one non-NaN m, in redLanes lanes, and
// reports true; or reports false (doing nothing) where the lanes could give other bits
// than the serial fold: rows with a NaN (the serial fold keeps the first NaN's bits),
// a maximum of ±0 (the serial fold keeps the first of 0 and -0, which lanes lose), short
// rows, and with ops.SetFastKernels off. Equal values other than zeros have equal bits.
func redMaxLanes[A redOrdered](m A, v []A, isMax bool) (A, bool) {
	if len(v) < 4*redLanes || !ops.FastKernels() || v[0] != v[0] {
		return m, false
	}
	var l [redLanes]A
	for k := range l {
		l[k] = v[0]
	}
	n := len(v) / redLanes * redLanes
	if isMax {
		for i := 0; i < n; i += redLanes {
			for k, x := range v[i : i+redLanes : i+redLanes] {
				if !(x <= l[k]) {
					if x != x {
						return m, false
					}
					l[k] = x
				}
			}
		}
	} else {
		for i := 0; i < n; i += redLanes {
			for k, x := range v[i : i+redLanes : i+redLanes] {
				if !(x >= l[k]) {
					if x != x {
						return m, false
					}
					l[k] = x
				}
			}
		}
	}
	better := func(x, r A) bool { return (isMax && x > r) || (!isMax && x < r) }
	r := l[0]
	for _, x := range l[1:] {
		if better(x, r) {
			r = x
		}
	}
	for _, x := range v[n:] {
		if x != x {
			return m, false
		}
		if better(x, r) {
			r = x
		}
	}
	if r == 0 {
		return m, false
	}
	if better(r, m) {
		return r, true
	}
	return m, true
}
