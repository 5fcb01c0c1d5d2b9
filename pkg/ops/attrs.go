package ops

import (
	"slices"
	"strconv"
	"strings"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// ParamKind is the type of an operator parameter.
type ParamKind string

// Parameter kinds and their wire forms (see ParseAttrs).
const (
	ParamInt    ParamKind = "int"    // "3"
	ParamFloat  ParamKind = "float"  // "2.5", "inf", "nan"
	ParamBool   ParamKind = "bool"   // "1" or "0"
	ParamAxes   ParamKind = "axes"   // "None" or "0,-1" (one or more axes)
	ParamShape  ParamKind = "shape"  // "2,3" ("" or "()" is the 0-d shape)
	ParamDType  ParamKind = "dtype"  // "float32"
	ParamScalar ParamKind = "scalar" // "i:5", "f:2.5", "c:1,-2" (a Python number)
	ParamOptInt ParamKind = "optint" // "None" or "3"
	ParamString ParamKind = "str"    // "clip": one of the parameter's Choices
	// ParamOptDType is "None" or a dtype name (MXNet's optional dtype parameters).
	ParamOptDType ParamKind = "optdtype"
	// ParamOptInts is a tuple of ints and Nones, "None,1,-2" (MXNet's slice bounds).
	ParamOptInts ParamKind = "optints"
	// ParamFloats is a tuple of floats, "0.1,0.2" ("()" when empty; MXNet's lrs and wds).
	ParamFloats ParamKind = "floats"
	// ParamOptFloat is "None" or a float (MXNet's optional doubles: RNN's state clipping).
	ParamOptFloat ParamKind = "optfloat"
)

// Param declares an operator parameter. Default is in wire form; "" makes the
// parameter required.
type Param struct {
	Name    string
	Kind    ParamKind
	Default string
	Doc     string
	// Choices lists the values a ParamString takes.
	Choices []string
}

// Attrs are an operator's parameters, parsed and checked against its declaration.
type Attrs map[string]any

// ParseAttrs parses "name=value;name=value" against params, applying defaults; an
// unknown or missing name is a TypeError, a malformed value a ValueError.
func ParseAttrs(op *Op, s string) (Attrs, error) {
	if s == "" && len(op.Params) == 0 && op.Prepare == nil {
		return nil, nil // nothing to parse or add: reading a nil map is fine
	}
	given := map[string]string{}
	if s != "" {
		for _, kv := range strings.Split(s, ";") {
			k, v, ok := strings.Cut(kv, "=")
			if !ok {
				return nil, mxerr.ValueErr("%s: malformed parameter %q", op.Name, kv)
			}
			given[k] = v
		}
	}
	at := Attrs{}
	for _, p := range op.Params {
		v, ok := given[p.Name]
		delete(given, p.Name)
		if !ok {
			if p.Default == "" {
				return nil, mxerr.TypeErr("%s: missing required parameter %q", op.Name, p.Name)
			}
			v = p.Default
		}
		x, err := parseValue(p.Kind, v)
		if err == nil && p.Kind == ParamString && !slices.Contains(p.Choices, v) {
			err = mxerr.ValueErr("%q is not one of %s", v, strings.Join(p.Choices, ", "))
		}
		if err != nil {
			return nil, mxerr.ValueErr("%s: parameter %s: %v", op.Name, p.Name, err)
		}
		at[p.Name] = x
	}
	for k := range given {
		return nil, mxerr.TypeErr("%s got an unexpected parameter %q", op.Name, k)
	}
	return at, nil
}

func parseValue(kind ParamKind, v string) (any, error) {
	switch kind {
	case ParamInt:
		return strconv.Atoi(v)
	case ParamFloat:
		return strconv.ParseFloat(v, 64)
	case ParamBool:
		return strconv.ParseBool(v)
	case ParamAxes:
		if v == "None" {
			return []int(nil), nil
		}
		axes, err := parseIntList(v)
		if err == nil && len(axes) == 0 {
			return []int{}, nil
		}
		return axes, err
	case ParamShape:
		return parseIntList(v)
	case ParamDType:
		return ndarray.ParseDType(v)
	case ParamScalar:
		return parseScalar(v)
	case ParamOptInt:
		if v == "None" {
			return nil, nil
		}
		return strconv.Atoi(v)
	case ParamString:
		return v, nil
	case ParamOptFloat:
		if v == "None" {
			return nil, nil
		}
		return strconv.ParseFloat(v, 64)
	case ParamOptDType:
		if v == "None" {
			return nil, nil
		}
		return ndarray.ParseDType(v)
	case ParamOptInts:
		return parseOptInts(v)
	case ParamFloats:
		return parseFloats(v)
	}
	return nil, mxerr.TypeErr("unknown parameter kind %q", kind)
}

func parseIntList(v string) ([]int, error) {
	if v == "" || v == "()" { // "()": a 0-d shape as a default ("" marks a required parameter)
		return []int{}, nil
	}
	parts := strings.Split(v, ",")
	if len(parts) > ndarray.MaxDims {
		return nil, mxerr.ValueErr("%d values exceed the maximum of %d", len(parts), ndarray.MaxDims)
	}
	out := make([]int, len(parts))
	for i, p := range parts {
		x, err := strconv.Atoi(p)
		if err != nil {
			return nil, err
		}
		out[i] = x
	}
	return out, nil
}

func parseFloats(v string) ([]float64, error) {
	if v == "" || v == "()" {
		return []float64{}, nil
	}
	parts := strings.Split(v, ",")
	out := make([]float64, len(parts))
	for i, p := range parts {
		x, err := strconv.ParseFloat(p, 64)
		if err != nil {
			return nil, err
		}
		out[i] = x
	}
	return out, nil
}

func parseScalar(v string) (Scalar, error) {
	tag, body, _ := strings.Cut(v, ":")
	switch tag {
	case "i":
		x, err := strconv.ParseInt(body, 10, 64)
		if u, uerr := strconv.ParseUint(body, 10, 64); err != nil && uerr == nil {
			// 2**63 <= u < 2**64: Int keeps its bits (as arithmetic wants), Value its value
			return Scalar{IsInt: true, Int: int64(u), Value: complex(float64(u), 0)}, nil
		}
		return Scalar{IsInt: true, Int: x, Value: complex(float64(x), 0)}, err
	case "f":
		x, err := strconv.ParseFloat(body, 64)
		return Scalar{Value: complex(x, 0)}, err
	case "c":
		re, im, _ := strings.Cut(body, ",")
		r, err1 := strconv.ParseFloat(re, 64)
		i, err2 := strconv.ParseFloat(im, 64)
		if err1 != nil || err2 != nil {
			return Scalar{}, mxerr.ValueErr("malformed complex %q", body)
		}
		return Scalar{Value: complex(r, i)}, nil
	}
	return Scalar{}, mxerr.ValueErr("malformed scalar %q", v)
}

// Int returns an int parameter.
func (a Attrs) Int(name string) int { return a[name].(int) }

// Float returns a float parameter.
func (a Attrs) Float(name string) float64 { return a[name].(float64) }

// Floats returns a floats parameter.
func (a Attrs) Floats(name string) []float64 { return a[name].([]float64) }

// Bool returns a bool parameter.
func (a Attrs) Bool(name string) bool { return a[name].(bool) }

// Ints returns an axes or shape parameter; nil means None (for axes: all of them).
func (a Attrs) Ints(name string) []int { return a[name].([]int) }

// OptInt returns an optint parameter and whether it is set (not None).
func (a Attrs) OptInt(name string) (int, bool) {
	v, ok := a[name].(int)
	return v, ok
}

// OptFloat returns an optfloat parameter and whether it is set (not None).
func (a Attrs) OptFloat(name string) (float64, bool) {
	v, ok := a[name].(float64)
	return v, ok
}

// OptDType returns an optdtype parameter and whether it is set (not None).
func (a Attrs) OptDType(name string) (ndarray.DType, bool) {
	v, ok := a[name].(ndarray.DType)
	return v, ok
}

// Str returns a string parameter.
func (a Attrs) Str(name string) string { return a[name].(string) }

// DType returns a dtype parameter.
func (a Attrs) DType(name string) ndarray.DType { return a[name].(ndarray.DType) }

// Scalar returns a scalar parameter.
func (a Attrs) Scalar(name string) Scalar { return a[name].(Scalar) }

// NormalizeAxes resolves axes (nil: all) against ndim: negative axes count from the
// end; out of range or repeated axes are errors. The result is sorted.
func NormalizeAxes(axes []int, ndim int) ([]int, error) {
	if axes == nil {
		out := make([]int, ndim)
		for i := range out {
			out[i] = i
		}
		return out, nil
	}
	seen := make([]bool, ndim)
	out := make([]int, 0, len(axes))
	for _, ax := range axes {
		a := ax
		if a < 0 {
			a += ndim
		}
		if a < 0 || a >= ndim {
			return nil, mxerr.New(mxerr.Index, "axis %d is out of bounds for array of dimension %d", ax, ndim)
		}
		if seen[a] {
			return nil, mxerr.ValueErr("duplicate value in axis")
		}
		seen[a] = true
		out = append(out, a)
	}
	sortInts(out)
	return out, nil
}

func sortInts(x []int) {
	for i := 1; i < len(x); i++ {
		for j := i; j > 0 && x[j] < x[j-1]; j-- {
			x[j], x[j-1] = x[j-1], x[j]
		}
	}
}

// parseOptInts parses "None,1,-2" (an optints parameter; "" and "()" are the empty
// tuple, "()" being the form a default takes, since a default of "" means required).
func parseOptInts(v string) ([]OptInt, error) {
	if v == "" || v == "()" {
		return []OptInt{}, nil
	}
	parts := strings.Split(v, ",") // any number: split_v2's indices are not axes
	out := make([]OptInt, len(parts))
	for i, p := range parts {
		if p == "None" {
			continue
		}
		x, err := strconv.Atoi(p)
		if err != nil {
			return nil, err
		}
		out[i] = OptInt{V: x, Set: true}
	}
	return out, nil
}

// OptInt is one entry of an optints parameter: an int, or None when !Set.
type OptInt struct {
	V   int
	Set bool
}

// OptInts returns an optints parameter.
func (a Attrs) OptInts(name string) []OptInt { return a[name].([]OptInt) }
