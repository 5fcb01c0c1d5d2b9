package ndarray

// Operand is one array's view of a loop: its strides and starting offset, in elements.
type Operand struct {
	Strides []int
	Offset  int
}

// Rows walks a shape shared by several operands one innermost row at a time. It first
// merges dimensions that are contiguous in every operand, so fully contiguous operands
// become a single row. fn gets the starting offset of each operand, the row length and
// each operand's stride along the row; it must not keep the slices.
func Rows(shape []int, ops []Operand, fn func(offs []int, n int, steps []int)) {
	for _, d := range shape {
		if d == 0 {
			return
		}
	}
	if n, ok := flat(shape, ops); ok { // the common case: one row, without coalescing
		buf := make([]int, 2*len(ops))
		offs, steps := buf[:len(ops):len(ops)], buf[len(ops):]
		for k, op := range ops {
			offs[k], steps[k] = op.Offset, 1
		}
		fn(offs, n, steps)
		return
	}
	shp, strides := coalesce(shape, ops)
	nd := len(shp)
	buf := make([]int, 2*len(ops)+max(nd-1, 0)) // offs, steps and idx in one allocation
	offs, steps := buf[:len(ops):len(ops)], buf[len(ops):2*len(ops):2*len(ops)]
	for k, op := range ops {
		offs[k] = op.Offset
	}
	if nd == 0 {
		fn(offs, 1, steps)
		return
	}
	inner := nd - 1
	for k := range ops {
		steps[k] = strides[k][inner]
	}
	idx := buf[2*len(ops):]
	for {
		fn(offs, shp[inner], steps)
		// odometer over the outer dimensions
		d := inner - 1
		for ; d >= 0; d-- {
			idx[d]++
			for k := range ops {
				offs[k] += strides[k][d]
			}
			if idx[d] < shp[d] {
				break
			}
			for k := range ops {
				offs[k] -= strides[k][d] * shp[d]
			}
			idx[d] = 0
		}
		if d < 0 {
			return
		}
	}
}

// flat reports whether every operand is C-contiguous over shape (what coalesce would
// merge into a single row of unit stride), and the number of elements.
func flat(shape []int, ops []Operand) (int, bool) {
	for _, op := range ops {
		acc := 1
		for d := len(shape) - 1; d >= 0; d-- {
			if shape[d] == 1 {
				continue
			}
			if op.Strides[d] != acc {
				return 0, false
			}
			acc *= shape[d]
		}
	}
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n, true
}

// Coalesce is the shape and the operands' strides that Rows walks (coalesce): for
// kernels that take several rows a call.
func Coalesce(shape []int, ops []Operand) ([]int, [][]int) { return coalesce(shape, ops) }

// coalesce drops dimensions of length 1 and merges neighbours that are contiguous with
// each other in every operand.
func coalesce(shape []int, ops []Operand) ([]int, [][]int) {
	n := len(shape)
	dims := make([]int, 0, (1+len(ops))*n) // the shape's and every operand's, in one allocation
	shp := dims[:0:n]
	strides := make([][]int, len(ops))
	for k := range ops {
		strides[k] = dims[(k+1)*n : (k+1)*n : (k+2)*n]
	}
	for d, n := range shape {
		if n == 1 {
			continue
		}
		last := len(shp) - 1
		merge := last >= 0
		for k, op := range ops {
			if merge && strides[k][last] != op.Strides[d]*n {
				merge = false
			}
		}
		if merge {
			shp[last] *= n
			for k, op := range ops {
				strides[k][last] = op.Strides[d]
			}
			continue
		}
		shp = append(shp, n)
		for k, op := range ops {
			strides[k] = append(strides[k], op.Strides[d])
		}
	}
	return shp, strides
}
