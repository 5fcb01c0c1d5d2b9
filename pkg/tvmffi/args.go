package tvmffi

import (
	"math"
	"strconv"
	"strings"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ops"
)

// Type indices of TVM-FFI values (TVMFFITypeIndex); tvmffi.h has C's copies.
const (
	TypeNone        = 0
	TypeInt         = 1
	TypeBool        = 2
	TypeFloat       = 3
	TypeDLTensorPtr = 7
	TypeRawStr      = 8
	TypeSmallStr    = 11
	TypeStr         = 65
	TypeShape       = 69
	TypeTensor      = 70
	TypeArray       = 71
)

// headerSize is the size of TVMFFIObject, which every object's cell follows.
const headerSize = 24

// Any is TVMFFIAny as Go sees it: 16 bytes, laid out as C's mxgo_ffi_any.
type Any struct {
	TypeIndex int32
	SmallLen  uint32 // a small string's length; zero otherwise
	V         uint64 // the value: int64, float64 bits, a pointer, or small-string bytes
}

// IntAny, FloatAny and BoolAny make scalar arguments.
func IntAny(v int64) Any     { return Any{TypeIndex: TypeInt, V: uint64(v)} }
func FloatAny(v float64) Any { return Any{TypeIndex: TypeFloat, V: math.Float64bits(v)} }
func BoolAny(v bool) Any {
	if v {
		return Any{TypeIndex: TypeBool, V: 1}
	}
	return Any{TypeIndex: TypeBool}
}

func (a *Any) ptr() unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&a.V)) }

// cell is the address of an object's cell, after its header.
func (a *Any) cell() unsafe.Pointer { return unsafe.Add(a.ptr(), headerSize) }

// TypeName names a's type for error messages.
func (a *Any) TypeName() string {
	switch a.TypeIndex {
	case TypeNone:
		return "None"
	case TypeInt:
		return "int"
	case TypeBool:
		return "bool"
	case TypeFloat:
		return "float"
	case TypeDLTensorPtr:
		return "DLTensor*"
	case TypeRawStr, TypeSmallStr, TypeStr:
		return "str"
	case TypeShape:
		return "Shape"
	case TypeTensor:
		return "Tensor"
	case TypeArray:
		return "Array"
	}
	return "TVM-FFI type " + strconv.Itoa(int(a.TypeIndex))
}

// Tensor returns the DLTensor a holds (a Tensor object or a DLTensor*), or nil.
func (a *Any) Tensor() unsafe.Pointer {
	switch a.TypeIndex {
	case TypeTensor:
		return a.cell()
	case TypeDLTensorPtr:
		return a.ptr()
	}
	return nil
}

// Str returns the string a holds and whether it holds one.
func (a *Any) Str() (string, bool) {
	switch a.TypeIndex {
	case TypeSmallStr:
		n := min(int(a.SmallLen), 8)
		return string(unsafe.Slice((*byte)(unsafe.Pointer(&a.V)), 8)[:n]), true
	case TypeRawStr:
		p := (*byte)(a.ptr())
		n := 0
		for *(*byte)(unsafe.Add(unsafe.Pointer(p), n)) != 0 {
			n++
		}
		return string(unsafe.Slice(p, n)), true
	case TypeStr:
		b := (*struct {
			data *byte
			size uintptr
		})(a.cell())
		return string(unsafe.Slice(b.data, b.size)), true
	}
	return "", false
}

// Ints returns the integers of a Shape, of an Array of ints (None elements as nil when
// allowNone) or of a single int.
func (a *Any) Ints(allowNone bool) ([]*int64, error) {
	switch a.TypeIndex {
	case TypeInt:
		v := int64(a.V)
		return []*int64{&v}, nil
	case TypeShape:
		c := (*struct {
			data *int64
			size uintptr
		})(a.cell())
		out := make([]*int64, c.size)
		for i, v := range unsafe.Slice(c.data, c.size) {
			out[i] = &v
		}
		return out, nil
	case TypeArray:
		elems, err := a.Elems()
		if err != nil {
			return nil, err
		}
		out := make([]*int64, len(elems))
		for i := range elems {
			switch e := &elems[i]; {
			case e.TypeIndex == TypeInt:
				v := int64(e.V)
				out[i] = &v
			case e.TypeIndex == TypeNone && allowNone:
			default:
				return nil, mxerr.TypeErr("element %d is %s, not an int", i, e.TypeName())
			}
		}
		return out, nil
	}
	return nil, mxerr.TypeErr("expected a tuple of ints, got %s", a.TypeName())
}

// Elems returns the elements of an Array.
func (a *Any) Elems() ([]Any, error) {
	if a.TypeIndex != TypeArray {
		return nil, mxerr.TypeErr("expected an Array, got %s", a.TypeName())
	}
	c := (*struct {
		data *Any
		size int64
	})(a.cell())
	if c.size < 0 || c.size > 1<<30 {
		return nil, mxerr.ValueErr("an Array of %d elements", c.size)
	}
	return unsafe.Slice(c.data, int(c.size)), nil
}

// ParamWire is a parameter value in ParseAttrs' wire form for a parameter of kind k.
// None is "None" for the kinds that take it; ok is false for None given to other kinds,
// which leaves the parameter at its default.
func ParamWire(k ops.ParamKind, a *Any) (wire string, ok bool, err error) {
	if a.TypeIndex == TypeNone {
		switch k {
		case ops.ParamAxes, ops.ParamOptInt, ops.ParamOptFloat, ops.ParamOptDType, ops.ParamOptInts:
			return "None", true, nil
		}
		return "", false, nil
	}
	bad := func() (string, bool, error) {
		return "", false, mxerr.TypeErr("a %s parameter cannot be %s", k, a.TypeName())
	}
	switch k {
	case ops.ParamInt, ops.ParamOptInt:
		if a.TypeIndex != TypeInt {
			return bad()
		}
		return strconv.FormatInt(int64(a.V), 10), true, nil
	case ops.ParamFloat, ops.ParamOptFloat:
		switch a.TypeIndex {
		case TypeInt:
			return strconv.FormatInt(int64(a.V), 10), true, nil
		case TypeFloat:
			return strconv.FormatFloat(math.Float64frombits(a.V), 'g', -1, 64), true, nil
		}
		return bad()
	case ops.ParamBool:
		if a.TypeIndex != TypeBool && a.TypeIndex != TypeInt {
			return bad()
		}
		if a.V > 1 {
			return "", false, mxerr.ValueErr("a bool parameter cannot be %d", int64(a.V))
		}
		return strconv.FormatBool(a.V == 1), true, nil
	case ops.ParamScalar:
		switch a.TypeIndex {
		case TypeInt, TypeBool:
			return "i:" + strconv.FormatInt(int64(a.V), 10), true, nil
		case TypeFloat:
			return "f:" + strconv.FormatFloat(math.Float64frombits(a.V), 'g', -1, 64), true, nil
		}
		return bad()
	case ops.ParamAxes, ops.ParamShape, ops.ParamOptInts:
		ints, err := a.Ints(k == ops.ParamOptInts)
		if err != nil {
			return "", false, err
		}
		parts := make([]string, len(ints))
		for i, v := range ints {
			parts[i] = "None"
			if v != nil {
				parts[i] = strconv.FormatInt(*v, 10)
			}
		}
		if len(parts) == 0 {
			return "()", true, nil
		}
		return strings.Join(parts, ","), true, nil
	case ops.ParamFloats: // a number or an Array of them (MXNet's lrs and wds)
		elems := []Any{*a}
		if a.TypeIndex == TypeArray {
			var err error
			if elems, err = a.Elems(); err != nil {
				return "", false, err
			}
		}
		parts := make([]string, len(elems))
		for i := range elems {
			w, set, err := ParamWire(ops.ParamFloat, &elems[i])
			if err != nil {
				return "", false, err
			}
			if !set {
				return "", false, mxerr.TypeErr("element %d of a floats parameter is None", i)
			}
			parts[i] = w
		}
		if len(parts) == 0 {
			return "()", true, nil
		}
		return strings.Join(parts, ","), true, nil
	case ops.ParamDType, ops.ParamOptDType, ops.ParamString:
		s, isStr := a.Str()
		if !isStr {
			return bad()
		}
		if strings.ContainsAny(s, ";=") {
			return "", false, mxerr.ValueErr("invalid value %q", s)
		}
		return s, true, nil
	}
	return bad()
}

// Call is a decoded call of an operator's global function.
type Call struct {
	In    []unsafe.Pointer // the DLTensors of the inputs given (optional ones left out)
	Out   unsafe.Pointer   // out's DLTensor, or nil
	Attrs string           // the parameters in ParseAttrs' wire form
}

// Decode reads a global function's arguments for op: its inputs (a Tensor or DLTensor*
// each; None for an optional one, and then for those after it; a variadic operator takes
// one Array of them), then out (a tensor or None; may be left out with all parameters),
// then the parameters in op's order, trailing ones optional (defaults).
func Decode(op *ops.Op, args []Any) (Call, error) {
	var c Call
	nin := len(op.Inputs)
	if len(args) < nin {
		return c, mxerr.TypeErr("%s takes %d input(s) (%s), then out, then parameters; got %d argument(s)",
			op.Name, nin, strings.Join(op.Inputs, ", "), len(args))
	}
	if op.Variadic() {
		elems, err := args[0].Elems()
		if err != nil {
			return c, mxerr.TypeErr("%s: its inputs are one Array (list) of tensors: %v", op.Name, err)
		}
		for i := range elems {
			t := elems[i].Tensor()
			if t == nil {
				return c, mxerr.TypeErr("%s: input %d is %s, not a tensor", op.Name, i, elems[i].TypeName())
			}
			c.In = append(c.In, t)
		}
	} else {
		omitted := -1
		for i := range nin {
			a := &args[i]
			optional := strings.HasSuffix(op.Inputs[i], "?")
			switch t := a.Tensor(); {
			case t != nil && omitted < 0:
				c.In = append(c.In, t)
			case t != nil:
				return c, mxerr.ValueErr("%s: input %s is given after %s was omitted", op.Name, op.Inputs[i], op.Inputs[omitted])
			case a.TypeIndex == TypeNone && optional:
				if omitted < 0 {
					omitted = i
				}
			default:
				return c, mxerr.TypeErr("%s: input %s must be a tensor, got %s", op.Name, op.Inputs[i], a.TypeName())
			}
		}
	}
	rest := args[nin:]
	if len(rest) > 0 {
		if c.Out = rest[0].Tensor(); c.Out == nil && rest[0].TypeIndex != TypeNone {
			return c, mxerr.TypeErr("%s: out must be a tensor or None, got %s", op.Name, rest[0].TypeName())
		}
		rest = rest[1:]
	}
	if len(rest) > len(op.Params) {
		return c, mxerr.TypeErr("%s takes %d parameter(s), got %d", op.Name, len(op.Params), len(rest))
	}
	var attrs []string
	for i := range rest {
		p := op.Params[i]
		w, ok, err := ParamWire(p.Kind, &rest[i])
		if err != nil {
			return c, mxerr.New(mxerr.KindOf(err), "%s: parameter %s: %v", op.Name, p.Name, err)
		}
		if ok {
			attrs = append(attrs, p.Name+"="+w)
		}
	}
	c.Attrs = strings.Join(attrs, ";")
	return c, nil
}
