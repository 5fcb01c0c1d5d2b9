"""The gradient column of tools/mxnet_coverage.py: how each MXNet name's gradient is
accounted for. A name is covered by gradient cases of its own (tests_py/mxnet_diff_grad*.py),
by those of the name it is the same operator as (an NDArray method and its nd function,
MXNet's other spellings), or has no gradient to compare (NOT_APPLICABLE, with why)."""
import fnmatch

#: names with no gradient to compare, and why (fnmatch patterns)
NOT_APPLICABLE = {
    "not a function of arrays: creation, files, metadata, the engine, exchange": [
        "nd.array", "nd.empty", "nd.zeros", "nd.ones", "nd.full", "nd.arange", "nd.linspace", "nd.eye", "nd.NDArray",
        "nd.from_dlpack", "nd.from_numpy", "nd.load", "nd.load_frombuffer", "nd.save", "nd.waitall",
        "nd.to_dlpack_for_read", "nd.to_dlpack_for_write", "NDArray.to_dlpack_for_*", "NDArray.shape", "NDArray.dtype",
        "NDArray.size", "NDArray.ndim", "NDArray.context", "NDArray.ctx", "NDArray.handle", "NDArray.writable",
        "NDArray.__bool__", "NDArray.__len__", "NDArray.__hash__", "NDArray.__repr__", "NDArray.asnumpy",
        "NDArray.asscalar", "NDArray.wait_to_read", "NDArray.as_in_context"],
    "in place: refused while recording on an array a graph uses, as in MXNet": ["NDArray.__i*__"],
    "draws random numbers (with array parameters a zero gradient, as MXNet's: nd.sample_normal's cases)": [
        "nd.random.*", "nd.random_*", "nd.sample_*", "nd.normal", "nd.uniform", "nd.shuffle"],
    "an optimizer's update: it writes its weight and states in place, after backward (not differentiable in MXNet)": [
        "nd.*_update", "nd.*_update_phase[12]", "nd.all_finite", "nd.multi_all_finite", "nd.multi_sum_sq",
        "nd.multi_lars", "nd.reset_arrays"],
}

#: names that are the same operator as another name (whose gradient cases count for them)
SAME_AS = {
    "nd.Concat": "nd.concat", "nd.concatenate": "nd.concat", "nd.ElementWiseSum": "nd.add_n",
    "nd.Flatten": "nd.flatten", "nd.Reshape": "nd.reshape", "nd.SwapAxis": "nd.swapaxes", "nd.Cast": "nd.cast",
    "nd.crop": "nd.slice", "nd.reverse": "nd.flip", "nd.SliceChannel": "nd.split", "nd.split_v2": "nd.split",
    "nd.broadcast_plus": "nd.broadcast_add", "nd.broadcast_minus": "nd.broadcast_sub",
    "nd.broadcast_axes": "nd.broadcast_axis", "nd.add": "NDArray.__add__", "nd.subtract": "NDArray.__sub__",
    "nd.multiply": "NDArray.__mul__", "nd.divide": "NDArray.__truediv__", "nd.true_divide": "NDArray.__truediv__",
    "nd.power": "NDArray.__pow__", "nd.broadcast_power": "NDArray.__pow__", "nd.broadcast_mod": "nd.modulo",
    "NDArray.__mod__": "nd.modulo", "NDArray.__rmod__": "nd.modulo", "NDArray.__div__": "NDArray.__truediv__",
    "NDArray.__rdiv__": "NDArray.__rtruediv__", "NDArray.__abs__": "nd.abs",
    "nd.broadcast_maximum": "nd.maximum", "nd.broadcast_minimum": "nd.minimum",
    "nd.elemwise_add": "nd.broadcast_add", "nd.elemwise_sub": "nd.broadcast_sub", "nd.elemwise_mul": "nd.broadcast_mul",
    "nd.elemwise_div": "nd.broadcast_div", "nd.equal": "NDArray.__eq__", "nd.not_equal": "NDArray.__ne__",
    "nd.greater": "NDArray.__gt__", "nd.greater_equal": "NDArray.__ge__", "nd.lesser": "NDArray.__lt__",
    "nd.lesser_equal": "NDArray.__le__", "nd.broadcast_equal": "NDArray.__eq__", "nd.broadcast_not_equal": "NDArray.__ne__",
    "nd.broadcast_greater": "NDArray.__gt__", "nd.broadcast_greater_equal": "NDArray.__ge__",
    "nd.broadcast_lesser": "NDArray.__lt__", "nd.broadcast_lesser_equal": "NDArray.__le__",
    "nd.broadcast_logical_and": "nd.logical_and", "nd.logical_or": "nd.broadcast_logical_or",
    "nd.logical_xor": "nd.broadcast_logical_xor", "nd.ctc_loss": "nd.CTCLoss", "nd.Pad": "nd.pad",
    "nd.Softmax": "nd.SoftmaxOutput", "nd.moveaxis": "nd.swapaxes", "NDArray.copy": "NDArray.copyto",
}


def not_applicable(name):
    """Why name has no gradient to compare, or None."""
    for why, patterns in NOT_APPLICABLE.items():
        if any(fnmatch.fnmatchcase(name, p) for p in patterns):
            return why
    return None


def same_as(name):
    """The name whose gradient cases count for name (an NDArray method counts as its nd
    function, an nd.linalg_<fn> as nd.linalg.<fn>), or None."""
    if name in SAME_AS:
        return SAME_AS[name]
    if name.startswith("NDArray."):
        return "nd." + name[len("NDArray."):]
    if name.startswith("nd.linalg_"):
        return "nd.linalg." + name[len("nd.linalg_"):]
    return None


def status(name, grads):
    """(mark, key) of name's gradient: grads maps names to their gradient case counts."""
    if grads.get(name):
        return "%d" % grads[name], "cases"
    other = same_as(name)
    if other and not grads.get(other):
        other = same_as(other)  # NDArray.split_v2 -> nd.split_v2 -> nd.split
    if other and grads.get(other):
        return "as `%s`" % other, "as another name"
    why = not_applicable(name)
    if why:
        return "n/a", "not applicable"
    return "none yet", "none yet"
