package main

import (
	"testing"

	"github.com/mxgo/mxgo/pkg/ops"
)

// The Python literals of defaults no registered operator has yet (tests_py/test_typing.py
// checks the real ones against op.py's decoding).
func TestPyDefault(t *testing.T) {
	for _, c := range []struct {
		kind      ops.ParamKind
		wire, py  string
		wantError bool
	}{
		{ops.ParamInt, "-3", "-3", false},
		{ops.ParamInt, "x", "", true},
		{ops.ParamFloat, "2", "2.0", false},
		{ops.ParamFloat, "1e-07", "1e-07", false},
		{ops.ParamFloat, "inf", "...", false},
		{ops.ParamBool, "1", "True", false},
		{ops.ParamBool, "0", "False", false},
		{ops.ParamAxes, "None", "None", false},
		{ops.ParamAxes, "0", "(0,)", false},
		{ops.ParamShape, "", "()", false},
		{ops.ParamShape, "2,-1", "(2, -1)", false},
		{ops.ParamDType, "float32", `"float32"`, false},
		{ops.ParamScalar, "i:5", "5", false},
		{ops.ParamScalar, "f:0.5", "0.5", false},
		{ops.ParamScalar, "c:1,-2", "...", false},
		{ops.ParamOptInt, "None", "None", false},
		{ops.ParamOptInt, "-2", "-2", false},
		{ops.ParamOptInt, "x", "", true},
		{ops.ParamString, "clip", `"clip"`, false},
	} {
		py, err := pyDefault(c.kind, c.wire)
		if (err != nil) != c.wantError || (err == nil && py != c.py) {
			t.Errorf("pyDefault(%s, %q) = %q, %v; want %q (error: %v)", c.kind, c.wire, py, err, c.py, c.wantError)
		}
	}
}

func TestDocstring(t *testing.T) {
	for doc, want := range map[string]string{
		"One line.\n":         `"""One line."""`,
		"a\n\nb \"x\"":        `"""a` + "\n\n    " + `b "x\""""`,
		`a \d and """ inside`: `"""a \\d and \"\"\" inside"""`,
	} {
		if got := docstring(doc); got != want {
			t.Errorf("docstring(%q) = %s; want %s", doc, got, want)
		}
	}
}
