package ops

// TrainingAttr is the reserved attribute through which a TrainAware operator learns the
// caller's training flag (MXNet's OpContext.is_train). It is not a parameter: callers
// cannot pass it; package autograd adds it from the thread's mode, and a recorded call
// keeps it in its attributes, so the gradient knows which behaviour the forward had.
const TrainingAttr = "__is_train"

// Training reports whether a call of a TrainAware operator runs in training mode.
func Training(at Attrs) bool {
	t, _ := at[TrainingAttr].(bool)
	return t
}

// WithTraining is at with the training flag set for op when train and op is
// TrainAware; at itself (possibly nil) otherwise.
func WithTraining(op *Op, at Attrs, train bool) Attrs {
	if !train || !op.TrainAware {
		return at
	}
	if at == nil {
		at = Attrs{}
	}
	at[TrainingAttr] = true
	return at
}
