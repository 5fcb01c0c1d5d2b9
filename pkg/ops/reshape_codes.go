package ops

import (
	"slices"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// MXNetShape resolves MXNet's reshape codes in spec against the source shape src, as
// MXNet 1.x's Reshape does: 0 copies the source dimension, -1 is inferred from the
// others (at most one), -2 copies all the remaining source dimensions, -3 merges the next
// two source dimensions into one, and -4 splits the next source dimension into the two
// that follow it in spec (one of them may be -1). With reverse, src and spec are matched
// from the right. The result's size is not checked here (the reshape does that).
func MXNetShape(src, spec []int, reverse bool) ([]int, error) {
	bad := func(why string) error {
		return mxerr.ValueErr("reshape: cannot reshape %v into %v: %s", src, spec, why)
	}
	d, s := slices.Clone(src), slices.Clone(spec)
	if reverse {
		slices.Reverse(d)
		slices.Reverse(s)
	}
	var out []int
	si, infer := 0, -1
	next := func() (int, error) {
		if si >= len(d) {
			return 0, bad("the codes use more dimensions than the source has")
		}
		si++
		return d[si-1], nil
	}
	for i := 0; i < len(s); i++ {
		switch p := s[i]; {
		case p == 0:
			v, err := next()
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		case p == -1:
			if infer >= 0 {
				return nil, bad("only one dimension can be inferred (-1)")
			}
			infer = len(out)
			out = append(out, 1)
			si++
		case p == -2:
			out = append(out, d[min(si, len(d)):]...)
			si = len(d)
		case p == -3:
			a, err := next()
			if err != nil {
				return nil, err
			}
			b, err := next()
			if err != nil {
				return nil, err
			}
			out = append(out, a*b)
		case p == -4:
			if i+2 >= len(s) {
				return nil, bad("-4 must be followed by two dimensions")
			}
			v, err := next()
			if err != nil {
				return nil, err
			}
			a, b := s[i+1], s[i+2]
			i += 2
			switch {
			case a == -1 && b == -1, a < -1 || b < -1 || a == 0 || b == 0:
				return nil, bad("-4 splits into two positive dimensions, one of which may be -1")
			case a == -1:
				if v%b != 0 {
					return nil, bad("the split does not divide the dimension")
				}
				a = v / b
			case b == -1:
				if v%a != 0 {
					return nil, bad("the split does not divide the dimension")
				}
				b = v / a
			}
			if (a == 0 && v != 0) || (a != 0 && (v%a != 0 || v/a != b)) {
				return nil, bad("the split does not match the dimension")
			}
			out = append(out, a, b)
		case p > 0:
			out = append(out, p)
			si++
		default:
			return nil, bad("unknown code")
		}
	}
	if infer >= 0 {
		total, known := ndarray.Size(src)
		if known != nil {
			return nil, known
		}
		rest := 1
		for i, v := range out {
			if i != infer {
				rest *= v
			}
		}
		switch {
		case total == 0:
			out[infer] = 0
		case rest == 0 || total%rest != 0:
			return nil, bad("the size does not divide")
		default:
			out[infer] = total / rest
		}
	}
	if reverse {
		slices.Reverse(out)
	}
	if out == nil {
		out = []int{}
	}
	return out, nil
}
