package mxgotest

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
	"github.com/mxgo/mxgo/pkg/wire"
)

// The strings the Python layer sends through gopy are parsed in Go; whatever a caller
// passes, parsing returns a value or an error of the documented kind, never a panic.

// encodeKey is the Python layer's key encoding (ndarray.py), used to check round trips.
func encodeKey(key []ndarray.KeyItem) string {
	bound := func(v int, has bool) string {
		if !has {
			return ""
		}
		return strconv.Itoa(v)
	}
	parts := make([]string, len(key))
	for i, k := range key {
		switch k.Kind {
		case ndarray.KeyInt:
			parts[i] = "i" + strconv.Itoa(k.Start)
		case ndarray.KeySlice:
			parts[i] = "s" + bound(k.Start, k.HasStart) + ":" + bound(k.Stop, k.HasStop) + ":" + bound(k.Step, k.HasStep)
		case ndarray.KeyNewAxis:
			parts[i] = "n"
		case ndarray.KeyEllipsis:
			parts[i] = "e"
		}
	}
	return strings.Join(parts, ";")
}

func FuzzWireKey(f *testing.F) {
	for _, s := range []string{"", "i0", "i-1;s::-2", "e;n", "s1:2:3;i4;e", "s:::", "x", ";", "i", "s1:2",
		"i9223372036854775807", "i9223372036854775808", "s-9223372036854775808::"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		key, err := wire.Key(s)
		if err != nil {
			require.Equal(t, mxerr.Index, mxerr.KindOf(err), "%v", err)
			return
		}
		require.LessOrEqual(t, len(key), 2*ndarray.MaxDims)
		again, err := wire.Key(encodeKey(key))
		require.NoError(t, err)
		require.Equal(t, key, again, "re-encoding %q", s)
	})
}

func FuzzWireDims(f *testing.F) {
	for _, s := range []string{"", "0", "2,3", "-1,4", ",", "1,,2", "+3", " 1", "9223372036854775808",
		strings.Repeat("1,", ndarray.MaxDims) + "1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ints, errInts := wire.Ints(s)
		dims, err := wire.Dims(s)
		if err != nil {
			require.Equal(t, mxerr.Value, mxerr.KindOf(err), "%v", err)
			require.True(t, errInts != nil || len(ints) > ndarray.MaxDims, "Dims refused what Ints accepts: %v", err)
			return
		}
		require.NoError(t, errInts)
		require.Equal(t, ints, dims)
		require.LessOrEqual(t, len(dims), ndarray.MaxDims)
		parts := make([]string, len(dims))
		for i, d := range dims {
			parts[i] = strconv.Itoa(d)
		}
		again, err := wire.Dims(strings.Join(parts, ","))
		require.NoError(t, err)
		require.Equal(t, dims, again)
	})
}

// FuzzAttrs parses operator parameter strings against every registered operator.
func FuzzAttrs(f *testing.F) {
	for _, s := range []string{"", "axis=0", "axis=(0,1);keepdims=1", "dtype=float32", "scalar=1.5",
		"a_min=-inf;a_max=nan", "axis=", "=", ";", "axis=(", "axis=(1,,2)", "keepdims=maybe", "shape=(2,-1)"} {
		f.Add(s)
	}
	all := ops.Ops()
	f.Fuzz(func(t *testing.T, s string) {
		for _, op := range all {
			at, err := ops.ParseAttrs(op, s)
			if err != nil {
				k := mxerr.KindOf(err)
				require.True(t, k == mxerr.Type || k == mxerr.Value, "%s: %v", op.Name, err)
				require.Contains(t, err.Error(), op.Name)
				continue
			}
			require.Len(t, at, len(op.Params), op.Name)
		}
	})
}
