package ndarray

// What an array carries for package autograd, which sits above this one. MXNet's NDArray
// keeps its autograd entry the same way: the node of the recorded graph that wrote the
// array (or the variable it is), so that an operation recorded later finds its inputs'
// nodes from the arrays alone. This package only carries the entry; an array made by
// Share or a view starts without one (a view is recorded as an operation of its own).
// Arrays are not safe for concurrent recording, as MXNet's are not.

// GradEntry returns the entry package autograd set on a, or nil.
func (a *NDArray) GradEntry() any { return a.entry }

// SetGradEntry sets a's autograd entry (nil clears it).
func (a *NDArray) SetGradEntry(e any) { a.entry = e }

// ShareWithEntry is Share keeping a's autograd entry: the saved inputs of a recorded
// operation, given back to its gradient so that a gradient recorded in turn (higher
// order) links to the same nodes.
func (a *NDArray) ShareWithEntry() *NDArray {
	v := a.Share()
	v.entry = a.entry
	return v
}

// UseInGraph counts (delta +1) or uncounts (-1) an array over s that a recorded graph
// uses, so that a write through any view of that memory while recording is refused
// (InGraph), as MXNet refuses in-place writes to arrays in a graph.
func (s *Storage) UseInGraph(delta int32) { s.graph.Add(delta) }

// InGraph reports whether a recorded graph uses any array over s.
func (s *Storage) InGraph() bool { return s.graph.Load() > 0 }
