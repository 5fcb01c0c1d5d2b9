package ops

import (
	"strconv"

	"github.com/mxgo/mxgo/pkg/ndarray"
)

// FmtShape formats a shape the way NumPy prints it: (2, 3), (4,), ().
func FmtShape(s []int) string {
	out := "("
	for i, d := range s {
		if i > 0 {
			out += ", "
		}
		out += strconv.Itoa(d)
	}
	if len(s) == 1 {
		out += ","
	}
	return out + ")"
}

// OffsetsOf lists, in C order, the element offsets of every position of a layout.
func OffsetsOf(shape, strides []int, offset int) []int {
	n, _ := ndarray.Size(shape)
	out := make([]int, 0, n)
	ndarray.Rows(shape, []ndarray.Operand{{Strides: strides, Offset: offset}}, func(offs []int, n int, steps []int) {
		for i := 0; i < n; i++ {
			out = append(out, offs[0]+i*steps[0])
		}
	})
	return out
}
