// Package autograd records operations on arrays that take part in a gradient and runs
// their gradients backward, as MXNet 1.x's Imperative::RecordOp and Backward do.
//
// An array takes part when it is a variable (MarkVariables: attach_grad) or the result
// of a recorded operation on one. Recording happens in Invoke, when the caller's Mode
// says so (front ends keep the mode per thread, as MXNet keeps it thread-local); only
// operations with an input taking part are recorded. A recorded operation is a node
// that keeps the arrays its operator's gradient reads (ops.GradUses) and the entries of
// its inputs; each result carries an entry naming its node. Backward walks the nodes
// reachable from the heads in reverse order of recording and calls each operator's
// Gradient, whose operator calls are pushed to the engine like any others: backward
// returns once they are pushed. Unless the graph is retained, the nodes it walked then
// release what they keep, so memory stays flat across training steps.
//
// A graph dropped without backward lets go of what it keeps when Go collects its nodes.
//
//	tape.go      nodes, entries, Mode, Invoke and recording, variables, the write check
//	backward.go  Backward and Grad: the reverse walk, gradient sums, grad_req, the
//	             constants of a recorded gradient (create_graph)
//	custom.go    recorded steps that are not registered operators (views, copies, user
//	             Functions, which let go of what they hold outside Go through onFree)
package autograd
