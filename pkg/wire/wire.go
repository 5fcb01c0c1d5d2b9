// Package wire decodes the text encodings mxgo's Python layer uses to pass shapes, axis
// lists and index keys through gopy, which marshals slices one element at a time.
// Everything here reads untrusted strings: errors carry their Python exception kind.
package wire

import (
	"strconv"
	"strings"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// Ints parses a comma-separated list of integers ("" is the empty list), such as a list
// of array handles.
func Ints(s string) ([]int, error) {
	if s == "" {
		return nil, nil
	}
	parts := strings.Split(s, ",")
	out := make([]int, len(parts))
	for i, p := range parts {
		v, err := strconv.ParseInt(p, 10, 64)
		if err != nil {
			return nil, mxerr.ValueErr("invalid integer %q in %q", p, s)
		}
		out[i] = int(v)
	}
	return out, nil
}

// Dims parses a shape or an axis list: Ints, at most ndarray.MaxDims of them.
func Dims(s string) ([]int, error) {
	if n := strings.Count(s, ",") + 1; s != "" && n > ndarray.MaxDims {
		return nil, mxerr.ValueErr("%d dimensions exceed the maximum of %d", n, ndarray.MaxDims)
	}
	return Ints(s)
}

// Key decodes an index key encoded by mxgo's Python layer: components separated by
// ';', each "i<int>", "s<start>:<stop>:<step>" (empty bounds are None), "n" (None) or
// "e" (Ellipsis).
func Key(s string) ([]ndarray.KeyItem, error) {
	if s == "" {
		return nil, nil
	}
	parts := strings.Split(s, ";")
	if len(parts) > 2*ndarray.MaxDims {
		return nil, mxerr.IndexErr("too many indices (%d)", len(parts))
	}
	key := make([]ndarray.KeyItem, len(parts))
	for i, p := range parts {
		if p == "" {
			return nil, mxerr.IndexErr("empty index component in %q", s)
		}
		switch body := p[1:]; p[0] {
		case 'i':
			v, err := strconv.ParseInt(body, 10, 64)
			if err != nil {
				return nil, mxerr.IndexErr("invalid integer index %q", body)
			}
			key[i] = ndarray.KeyItem{Kind: ndarray.KeyInt, Start: int(v)}
		case 's':
			bounds := strings.Split(body, ":")
			if len(bounds) != 3 {
				return nil, mxerr.IndexErr("invalid slice %q", body)
			}
			k := ndarray.KeyItem{Kind: ndarray.KeySlice}
			fields := []struct {
				v   *int
				has *bool
			}{{&k.Start, &k.HasStart}, {&k.Stop, &k.HasStop}, {&k.Step, &k.HasStep}}
			for j, b := range bounds {
				if b == "" {
					continue
				}
				v, err := strconv.ParseInt(b, 10, 64)
				if err != nil {
					return nil, mxerr.IndexErr("invalid slice bound %q", b)
				}
				*fields[j].v, *fields[j].has = int(v), true
			}
			key[i] = k
		case 'n':
			key[i] = ndarray.KeyItem{Kind: ndarray.KeyNewAxis}
		case 'e':
			key[i] = ndarray.KeyItem{Kind: ndarray.KeyEllipsis}
		default:
			return nil, mxerr.IndexErr("invalid index component %q", p)
		}
	}
	return key, nil
}
