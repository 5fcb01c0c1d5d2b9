package ops

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"

	"github.com/mxgo/mxgo/pkg/ndarray"
)

// GradExpr is a Gradient written as one expression per input (an empty one: the input
// gets no gradient), so that most operators declare their gradient in a line beside
// their forward, the way a textbook writes it:
//
//	sin:      "g * cos(x)"
//	tanh:     "g * (1 - y * y)"
//	multiply: "g * b", "g * a"
//
// Names: x or a is input 0, b input 1, y the result, g the result's gradient, $name the
// number the call's parameter name holds (a float or a scalar). Operators:
// + - * / ** between arrays and numbers (broadcasting, as add … power do), comparisons
// > >= < <= == (1 or 0 in the operands' dtype), unary minus, and calls f(e, …) of any
// registered operator on arrays (without parameters). A gradient whose shape is a
// broadcast of its input's is summed back to it (SumTo). Expressions are parsed when
// the operator registers: a malformed one panics at init, which every test catches.
func GradExpr(exprs ...string) *Gradient {
	roots, uses := parseAll(exprs)
	return &Gradient{Uses: uses, Func: func(c *GradCtx) ([]*ndarray.NDArray, error) { return evalAll(c, roots) }}
}

// GradExprRev is GradExpr for the scalar forms of binary operators (_subtract_scalar …),
// whose gradient depends on their reverse parameter: fwd for data op scalar, rev for
// scalar op data.
func GradExprRev(fwd, rev string) *Gradient {
	f, u1 := parseAll([]string{fwd})
	r, u2 := parseAll([]string{rev})
	return &Gradient{Uses: u1 | u2, Func: func(c *GradCtx) ([]*ndarray.NDArray, error) {
		if c.Attrs.Bool("reverse") {
			return evalAll(c, r)
		}
		return evalAll(c, f)
	}}
}

func parseAll(exprs []string) ([]*gnode, GradUses) {
	roots := make([]*gnode, len(exprs))
	var uses GradUses
	for i, e := range exprs {
		if e != "" {
			p := gparser{src: e}
			roots[i] = p.parse()
			uses |= roots[i].uses()
		}
	}
	return roots, uses
}

// evalAll computes each input's gradient from its expression.
func evalAll(c *GradCtx, roots []*gnode) ([]*ndarray.NDArray, error) {
	{
		grads := make([]*ndarray.NDArray, len(c.Shapes))
		for i, r := range roots {
			if r == nil || i >= len(grads) || !c.Need[i] {
				continue
			}
			v, owned, err := r.eval(c)
			if err == nil {
				grads[i], err = c.SumTo(v, c.Shapes[i])
				if owned {
					v.Release()
				}
			}
			if err != nil {
				ReleaseAll(grads[:i])
				return nil, err
			}
		}
		return grads, nil
	}
}

// gnode is a parsed expression: a name, a number, or an operator applied to args.
type gnode struct {
	name string  // "x", "y", "g", "a", "b"; an operator's registry name for calls
	num  float64 // a number, when name, attr and args are empty
	attr string  // a parameter's number ($name)
	args []*gnode
	sym  string // "+", "-", "*", "/", "**", ">", ... for binary operators
}

// the registry's operator for each binary symbol (its ScalarOp takes a number)
var gsyms = map[string]string{
	"+": "add", "-": "subtract", "*": "multiply", "/": "divide", "**": "power",
	">": "greater", ">=": "greater_equal", "<": "lesser", "<=": "lesser_equal", "==": "equal",
}

// isNum reports whether n is a number: a literal, a parameter, or + - * / ** of numbers.
func (n *gnode) isNum() bool {
	return n.name == "" && (n.sym == "" || (gfold[n.sym] != nil && n.args[0].isNum() && n.args[1].isNum()))
}

// gfold computes the symbols between numbers.
var gfold = map[string]func(x, y float64) float64{
	"+": func(x, y float64) float64 { return x + y }, "-": func(x, y float64) float64 { return x - y },
	"*": func(x, y float64) float64 { return x * y }, "/": func(x, y float64) float64 { return x / y },
	"**": math.Pow,
}

func (n *gnode) uses() GradUses {
	var u GradUses
	switch {
	case n.sym == "" && len(n.args) == 0 && (n.name == "x" || n.name == "a" || n.name == "b"):
		u = UsesInputs
	case n.sym == "" && len(n.args) == 0 && n.name == "y":
		u = UsesOutputs
	}
	for _, a := range n.args {
		u |= a.uses()
	}
	return u
}

// eval computes n; owned says whether the caller must release the result (names give
// the context's arrays themselves).
func (n *gnode) eval(c *GradCtx) (*ndarray.NDArray, bool, error) {
	if n.sym == "" && len(n.args) == 0 {
		switch n.name {
		case "x", "a":
			return c.In[0], false, nil
		case "b":
			return c.In[1], false, nil
		case "y":
			return c.Out[0], false, nil
		case "g":
			return c.OutGrad[0], false, nil
		}
	}
	name := n.name
	if n.sym != "" {
		name = gsyms[n.sym]
	}
	op, err := Lookup(name)
	if err != nil {
		return nil, false, err
	}
	var in []*ndarray.NDArray
	var scalar *gnode
	reverse := false
	for i, a := range n.args {
		if a.isNum() { // a number operand: the scalar form, reversed when it comes first
			scalar, reverse = a, i == 0
			continue
		}
		v, owned, err := a.eval(c)
		if err != nil {
			return nil, false, err
		}
		if owned {
			defer v.Release()
		}
		in = append(in, v)
	}
	var at Attrs
	if scalar != nil {
		if op, err = Lookup(op.ScalarOp); err != nil {
			return nil, false, err
		}
		at = Attrs{"scalar": Scalar{Value: complex(scalar.value(c), 0)}, "reverse": reverse}
	}
	r, err := c.Run(op, in, at)
	return r, true, err
}

// value is a number node's value.
func (n *gnode) value(c *GradCtx) float64 {
	if n.sym != "" {
		return gfold[n.sym](n.args[0].value(c), n.args[1].value(c))
	}
	switch v := c.Attrs[n.attr].(type) {
	case float64:
		return v
	case Scalar:
		return real(v.Value)
	}
	return n.num
}

// gparser is a recursive-descent parser of GradExpr's language.
type gparser struct {
	src string
	pos int
}

func (p *gparser) fail(format string, args ...any) {
	panic(fmt.Sprintf("ops.GradExpr %q at %d: %s", p.src, p.pos, fmt.Sprintf(format, args...)))
}

func (p *gparser) parse() *gnode {
	n := p.compare()
	if p.skip(); p.pos != len(p.src) {
		p.fail("unexpected %q", p.src[p.pos:])
	}
	if n.isNum() {
		p.fail("a gradient of numbers only")
	}
	return n
}

func (p *gparser) skip() {
	for p.pos < len(p.src) && p.src[p.pos] == ' ' {
		p.pos++
	}
}

// accept consumes the first of syms that comes next (longest first) and returns it.
func (p *gparser) accept(syms ...string) string {
	p.skip()
	for _, s := range syms {
		if strings.HasPrefix(p.src[p.pos:], s) {
			p.pos += len(s)
			return s
		}
	}
	return ""
}

// binary parses operands of next joined by the symbols (left-associative).
func (p *gparser) binary(next func() *gnode, syms ...string) *gnode {
	n := next()
	for s := p.accept(syms...); s != ""; s = p.accept(syms...) {
		n = &gnode{sym: s, args: []*gnode{n, next()}}
		if !n.isNum() && n.args[0].isNum() && n.args[1].isNum() {
			p.fail("%s between two numbers", s)
		}
	}
	return n
}

func (p *gparser) compare() *gnode { return p.binary(p.sum, ">=", "<=", "==", ">", "<") }
func (p *gparser) sum() *gnode     { return p.binary(p.product, "+", "-") }
func (p *gparser) product() *gnode { return p.binary(p.unary, "*", "/") }

func (p *gparser) unary() *gnode {
	if p.accept("-") != "" {
		return &gnode{name: "negative", args: []*gnode{p.unary()}}
	}
	base := p.atom()
	if p.skip(); strings.HasPrefix(p.src[p.pos:], "**") {
		p.pos += 2
		return &gnode{sym: "**", args: []*gnode{base, p.unary()}}
	}
	return base
}

func (p *gparser) atom() *gnode {
	p.skip()
	start := p.pos
	if p.accept("(") != "" {
		n := p.compare()
		if p.accept(")") == "" {
			p.fail("missing )")
		}
		return n
	}
	if p.accept("$") != "" {
		for p.pos < len(p.src) && (unicode.IsLetter(rune(p.src[p.pos])) || p.src[p.pos] == '_') {
			p.pos++
		}
		return &gnode{attr: p.src[start+1 : p.pos]}
	}
	for p.pos < len(p.src) && (unicode.IsDigit(rune(p.src[p.pos])) || p.src[p.pos] == '.') {
		p.pos++
	}
	if p.pos > start {
		v, err := strconv.ParseFloat(p.src[start:p.pos], 64)
		if err != nil {
			p.fail("bad number")
		}
		return &gnode{num: v}
	}
	for p.pos < len(p.src) && (unicode.IsLetter(rune(p.src[p.pos])) || unicode.IsDigit(rune(p.src[p.pos])) || p.src[p.pos] == '_') {
		p.pos++
	}
	name := p.src[start:p.pos]
	if name == "" {
		p.fail("expected a name, a number or (")
	}
	if p.accept("(") == "" {
		if !strings.Contains("xyabg", name) || len(name) != 1 {
			p.fail("unknown name %q (x, a, b, y, g)", name)
		}
		return &gnode{name: name}
	}
	n := &gnode{name: name}
	for {
		n.args = append(n.args, p.compare())
		if p.accept(")") != "" {
			return n
		}
		if p.accept(",") == "" {
			p.fail("expected , or )")
		}
	}
}
