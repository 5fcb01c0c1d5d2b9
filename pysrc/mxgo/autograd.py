"""mx.autograd: recording operations and computing gradients, as MXNet 1.x's.

    x = mx.nd.array([[1, 2], [3, 4]]); x.attach_grad()
    with mx.autograd.record():
        y = (2 * x * x).sum()
    y.backward()            # x.grad is 4 * x

The recording and training flags are per thread, as in MXNet: C keeps them thread-local
(``fastpath.autograd_set``) and every operator call reads them there. The tape is Go's
(pkg/autograd): an operator called while recording, with an input that takes part in a
graph, is recorded; ``backward`` pushes the gradient's operations onto the engine and
returns once they are pushed. Arrays are known here only by the C base's handle.
"""
import itertools

from .base import (RUN_FUNCTION, MXNetError, MXNetTypeError, MXNetValueError, call, callbacks, core, error_result,
                   fastpath)

__all__ = ["record", "pause", "train_mode", "predict_mode", "is_recording", "is_training", "set_recording",
           "set_training", "mark_variables", "backward", "grad", "Function"]

_RECORDING = 1  # bridge.h's MXGO_AG_RECORDING
_TRAINING = 2  # MXGO_AG_TRAINING


def set_recording(is_recording):
    """Sets whether operations are recorded on this thread; returns the previous state."""
    return fastpath.autograd_set(_RECORDING, bool(is_recording))


def set_training(train_mode):
    """Sets training (True) or predicting (False) mode on this thread; returns the previous
    state. Dropout and BatchNorm behave as in training only in training mode."""
    return fastpath.autograd_set(_TRAINING, bool(train_mode))


def is_recording():
    """Whether operations are being recorded on this thread."""
    return bool(fastpath.autograd_mode() & _RECORDING)


def is_training():
    """Whether this thread is in training mode."""
    return bool(fastpath.autograd_mode() & _TRAINING)


class _RecordingStateScope:
    """Sets the recording and training flags (None: leave alone) for a with block, and
    restores them after it."""

    def __init__(self, is_record, train_mode):
        self._enter_is_record = is_record
        self._enter_train_mode = train_mode
        self._prev_is_record = None
        self._prev_train_mode = None

    def __enter__(self):
        if self._enter_is_record is not None:
            self._prev_is_record = set_recording(self._enter_is_record)
        if self._enter_train_mode is not None:
            self._prev_train_mode = set_training(self._enter_train_mode)

    def __exit__(self, ptype, value, trace):
        if self._enter_is_record is not None and self._prev_is_record != self._enter_is_record:
            set_recording(self._prev_is_record)
        if self._enter_train_mode is not None and self._prev_train_mode != self._enter_train_mode:
            set_training(self._prev_train_mode)


def record(train_mode=True):
    """A scope in which operations are recorded for differentiation (in training mode by
    default)::

        with autograd.record():
            y = model(x)
        y.backward()
    """
    return _RecordingStateScope(True, train_mode)


def pause(train_mode=False):
    """A scope, inside ``record``, in which operations are not recorded."""
    return _RecordingStateScope(False, train_mode)


def train_mode():
    """A scope in training mode (recording unchanged)."""
    return _RecordingStateScope(None, True)


def predict_mode():
    """A scope in predicting mode (recording unchanged)."""
    return _RecordingStateScope(None, False)


def _handles(arrays, what):
    """Comma-separated handles of one NDArray or a list of them."""
    if isinstance(arrays, fastpath.NDArrayBase):
        arrays = [arrays]
    if not isinstance(arrays, (list, tuple)):
        raise MXNetTypeError("%s must be an NDArray or a list of NDArrays, got %s" % (what, type(arrays).__name__))
    for a in arrays:
        if not isinstance(a, fastpath.NDArrayBase):
            raise MXNetTypeError("%s must hold NDArrays, got %s" % (what, type(a).__name__))
    return ",".join(str(a._h) for a in arrays), len(arrays)


def _head_grads(head_grads, n):
    """head_grads as handles, 0 for None (ones); "" for none at all."""
    if head_grads is None:
        return ""
    if isinstance(head_grads, fastpath.NDArrayBase):
        head_grads = [head_grads]
    if not isinstance(head_grads, (list, tuple)) or len(head_grads) != n:
        raise MXNetValueError("head_grads must be a list of %d NDArrays or Nones" % n)
    out = []
    for g in head_grads:
        if g is not None and not isinstance(g, fastpath.NDArrayBase):
            raise MXNetTypeError("head_grads must hold NDArrays or None, got %s" % type(g).__name__)
        out.append("0" if g is None else str(g._h))
    return ",".join(out)


def mark_variables(variables, gradients, grad_reqs="write"):
    """Marks arrays as variables whose gradients backward computes into ``gradients``
    (one per variable, same shape and dtype), by ``grad_reqs``: 'write', 'add' or 'null'
    (one for all, or one per variable)."""
    vs, n = _handles(variables, "variables")
    gs, m = _handles(gradients, "gradients")
    if m != n:
        raise MXNetValueError("mark_variables: %d variables and %d gradients" % (n, m))
    reqs = [grad_reqs] * n if isinstance(grad_reqs, str) else list(grad_reqs)
    if len(reqs) != n or not all(isinstance(r, str) for r in reqs):
        raise MXNetValueError("grad_reqs must be a str or a list of %d strs" % n)
    call(core.MarkVariables, vs, gs, ",".join(reqs))


def backward(heads, head_grads=None, retain_graph=False, train_mode=True):
    """Computes the gradients of ``heads`` with respect to the variables (``attach_grad``),
    storing each by its grad_req. ``head_grads`` default to ones."""
    hs, n = _handles(heads, "heads")
    call(core.Backward, hs, _head_grads(head_grads, n), bool(retain_graph), bool(train_mode))


def grad(heads, variables, head_grads=None, retain_graph=None, create_graph=False, train_mode=True):
    """Returns the gradients of ``heads`` with respect to ``variables`` as new arrays,
    leaving the variables' ``.grad`` alone. With ``create_graph`` the gradient is recorded
    too, so it can be differentiated again (``retain_graph`` defaults to it)."""
    hs, n = _handles(heads, "heads")
    single = isinstance(variables, fastpath.NDArrayBase)
    vs, _ = _handles(variables, "variables")
    retain = create_graph if retain_graph is None else retain_graph
    out = call(core.AutogradGrad, hs, vs, _head_grads(head_grads, n), bool(retain), bool(create_graph),
               bool(train_mode))
    cls = type(heads if isinstance(heads, fastpath.NDArrayBase) else heads[0])  # new arrays: the heads' class
    res = [cls(int(h)) for h in out.split(",")]
    return res[0] if single else res



#: Functions recorded and not yet let go by Go (their graph released): id -> Function
_functions: dict = {}
_function_ids = itertools.count(1)


class Function:
    """A differentiable step written in Python, as MXNet 1.x's ``mx.autograd.Function``:
    subclass it with ``forward(self, *inputs)`` and ``backward(self, *output_grads)`` (one
    gradient per input, each of its input's shape and dtype), and call an instance once::

        class Sigmoid(mx.autograd.Function):
            def forward(self, x):
                y = 1 / (1 + mx.nd.exp(-x))
                self.save_for_backward(y)
                return y
            def backward(self, dy):
                y, = self.saved_tensors
                return dy * y * (1 - y)

    ``forward`` runs without recording; while recording, its outputs are recorded as one
    step whose gradient is ``backward``. Both may use any framework on zero-copy views
    (``torch.from_dlpack(x)``). An exception in ``backward`` is raised by the backward
    call that ran it."""

    def __init__(self):
        self._used = False
        self.saved_tensors = ()

    def save_for_backward(self, *args):
        """Keeps arrays for ``backward`` (``self.saved_tensors``)."""
        self.saved_tensors = args

    def forward(self, *inputs):
        raise NotImplementedError

    def backward(self, *output_grads):
        raise NotImplementedError

    def __call__(self, *inputs):
        if self._used:
            raise MXNetError("Each Function instance can only be called once. Please create another instance.")
        self._used = True
        prev = set_recording(False)
        try:
            outputs = self.forward(*inputs)
        finally:
            set_recording(prev)
        single = isinstance(outputs, fastpath.NDArrayBase)
        outs = (outputs,) if single else tuple(outputs)
        if not prev:
            return outputs
        for o in outs:
            if any(o is i for i in inputs):
                raise MXNetError("autograd.Function: forward returned one of its inputs; return a copy")
        ins, _ = _handles(list(inputs), "Function inputs")
        fid = next(_function_ids)
        _functions[fid] = self
        self._cls = type(outs[0])  # the class of the output gradients backward receives
        if not call(core.RecordFunction, fid, ins, _handles(list(outs), "Function outputs")[0]):
            del _functions[fid]  # no input takes part: nothing to differentiate
        return outputs


def _function_runner(cid, run):
    """Called from Go (callback.c) with the GIL held: run, the backward of call cid
    (core.FunctionCall says which Function and its output gradients); not run, Go let
    Function cid go."""
    if not run:
        _functions.pop(cid, None)
        return None
    try:
        fid, handles = call(core.FunctionCall, cid).split(":")
        fn = _functions[int(fid)]
        grads = fn.backward(*[fn._cls(int(h)) for h in handles.split(",")])
        if isinstance(grads, fastpath.NDArrayBase):
            grads = (grads,)
        call(core.FunctionSetGrads, cid, _handles(list(grads), "Function.backward's gradients")[0])
    except BaseException as exc:  # noqa: B902 - reaches backward's caller as its error
        return error_result(exc)
    return None


callbacks.set_runner(RUN_FUNCTION, _function_runner)
