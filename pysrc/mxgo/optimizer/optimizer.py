"""The optimizer base class, its registry, and the Updater that keeps each weight's state,
as MXNet 1.9.1's ``mxnet.optimizer.optimizer``."""
import os
import pickle
import warnings

import numpy

from ..ndarray import NDArray, cast, clip

__all__ = ["Optimizer", "Updater", "create", "get_updater", "register"]


class Optimizer:
    """The base class of optimizers: learning rate (or ``lr_scheduler``), weight decay,
    gradient rescaling and clipping, per-parameter multipliers, update counts.

    Subclasses define ``create_state(index, weight)`` and ``update(index, weight, grad,
    state)``; ``Optimizer.register`` makes them available to ``create`` by their lower-case
    class name. With ``multi_precision``, float16 weights are updated through a float32
    master copy kept in their state."""

    opt_registry = {}

    def __init__(self, rescale_grad=1.0, param_idx2name=None, wd=0.0, clip_gradient=None, learning_rate=None,
                 lr_scheduler=None, sym=None, begin_num_update=0, multi_precision=False, param_dict=None):
        self.rescale_grad = rescale_grad
        self.lr_scheduler = lr_scheduler
        if lr_scheduler is None and learning_rate is None:
            learning_rate = 0.01
        self.lr = learning_rate
        if lr_scheduler is not None and learning_rate is not None and lr_scheduler.base_lr != learning_rate:
            warnings.warn("learning rate from ``lr_scheduler`` has been overwritten by ``learning_rate`` in optimizer.",
                          UserWarning, stacklevel=2)
            lr_scheduler.base_lr = learning_rate
        self.wd = wd
        self.lr_mult = {}
        self.wd_mult = {}
        self.begin_num_update = begin_num_update
        self.num_update = begin_num_update
        self._all_index_update_counts = {0: {}}
        self._index_update_count = self._all_index_update_counts[0]
        self.clip_gradient = clip_gradient
        self.multi_precision = multi_precision
        self.aggregate_num = 0
        if param_idx2name is None:
            param_idx2name = {}
        if not isinstance(param_idx2name, dict):
            raise TypeError("param_idx2name should be a dict of param indexes to names.")
        self.idx2name = param_idx2name.copy()
        # a symbol's per-argument attributes (__lr_mult__, __wd_mult__), read as MXNet reads them
        self.sym_info = (sym.attr_dict(), sym.list_arguments()) if sym is not None else ()
        self.param_dict = param_dict if param_dict else {}
        self.allow_np_array = False
        self.set_lr_mult({})
        self.set_wd_mult({})

    @staticmethod
    def register(klass):
        """Registers an Optimizer subclass under its lower-case name (a class decorator)."""
        if not isinstance(klass, type):
            raise TypeError("register takes a class, got %r" % (klass,))
        name = klass.__name__.lower()
        if name in Optimizer.opt_registry:
            old = Optimizer.opt_registry[name]
            warnings.warn("WARNING: New optimizer %s.%s is overriding existing optimizer %s.%s"
                          % (klass.__module__, klass.__name__, old.__module__, old.__name__), stacklevel=2)
        Optimizer.opt_registry[name] = klass
        return klass

    @staticmethod
    def create_optimizer(name, **kwargs):
        """An instance of the optimizer registered as ``name`` (any case)."""
        klass = Optimizer.opt_registry.get(name.lower())
        if klass is None:
            raise ValueError("Cannot find optimizer %s" % name)
        return klass(**kwargs)

    @property
    def learning_rate(self):
        """The current learning rate: the scheduler's at ``num_update``, else ``lr``."""
        return self.lr_scheduler(self.num_update) if self.lr_scheduler is not None else self.lr

    def create_state(self, index, weight):
        """The state ``update`` keeps for ``weight`` (None: no state)."""
        return None

    def create_state_multi_precision(self, index, weight):
        """``create_state``, for a float16 weight under ``multi_precision`` preceded by a float32
        master copy: ``(weight32, state)``."""
        if weight.dtype == numpy.float16:
            if self.multi_precision:
                weight32 = weight.astype(numpy.float32)
                return (weight32, self.create_state(index, weight32))
            _warn_float16(type(self).__name__)
        return self.create_state(index, weight)

    def update(self, index, weight, grad, state):
        """Updates ``weight`` in place from ``grad`` and ``state``."""
        raise NotImplementedError()

    def update_multi_precision(self, index, weight, grad, state):
        """``update``, through the float32 master copy of a float16 weight under multi_precision."""
        if self.multi_precision and weight.dtype == numpy.float16:
            weight32, inner = state
            self.update(index, weight32, grad.astype(numpy.float32), inner)
            cast(weight32, dtype=weight.dtype, out=weight)
        else:
            self.update(index, weight, grad, state)

    def set_learning_rate(self, lr):
        """Sets the learning rate; refused (UserWarning, raised as MXNet does) with a scheduler."""
        if self.lr_scheduler is not None:
            raise UserWarning("LRScheduler of the optimizer has already been defined. Note that set_learning_rate can "
                              "mutate the value of the learning rate of the optimizer only when the LRScheduler of the "
                              "optimizer is undefined.")
        self.lr = lr

    def set_lr_scale(self, args_lrscale):
        """Deprecated in MXNet: raises DeprecationWarning (use set_lr_mult)."""
        raise DeprecationWarning

    def _sym_mults(self, attr):
        if not self.sym_info:
            return {}
        attrs, names = self.sym_info
        return {n: float(attrs[n][attr]) for n in names if n in attrs and attr in attrs[n]}

    def set_lr_mult(self, args_lr_mult):
        """Sets the learning-rate multipliers, by parameter name or index."""
        self.lr_mult = self._sym_mults("__lr_mult__")
        self.lr_mult.update(args_lr_mult)

    def _decays(self, name):
        """Whether a parameter of this name gets weight decay by default (MXNet: weights and gammas)."""
        return name.endswith("_weight") or name.endswith("_gamma")

    def set_wd_mult(self, args_wd_mult):
        """Sets the weight-decay multipliers, by parameter name or index; parameters whose
        names do not end in _weight or _gamma get 0 by default, as in MXNet."""
        self.wd_mult = {n: 0.0 for n in self.idx2name.values() if not self._decays(n)}
        self.wd_mult.update(self._sym_mults("__wd_mult__"))
        self.wd_mult.update(args_wd_mult)

    def _set_current_context(self, device_id):
        """Switches the update counts to those of a device (each keeps its own, as in MXNet)."""
        self._index_update_count = self._all_index_update_counts.setdefault(device_id, {})

    def _update_count(self, index):
        """Counts an update of each index and advances ``num_update``."""
        for idx in index if isinstance(index, (list, tuple)) else [index]:
            count = self._index_update_count.get(idx, self.begin_num_update) + 1
            self._index_update_count[idx] = count
            self.num_update = max(count, self.num_update)

    def _mults(self, indices, base, mults, attr):
        values = [base] * len(indices)
        for i, index in enumerate(indices):
            if index in self.param_dict:
                values[i] *= getattr(self.param_dict[index], attr)
            elif index in mults:
                values[i] *= mults[index]
            elif index in self.idx2name:
                values[i] *= mults.get(self.idx2name[index], 1.0)
        return values

    def _get_lrs(self, indices):
        return self._mults(indices, self.learning_rate, self.lr_mult, "lr_mult")

    def _get_lr(self, index):
        return self._get_lrs([index])[0]

    def _get_wds(self, indices):
        return self._mults(indices, self.wd, self.wd_mult, "wd_mult")

    def _get_wd(self, index):
        return self._get_wds([index])[0]

    def _prologue(self, index, weight, grad):
        """Checks the arrays, counts the update, and gives (lr, wd, the index's update count)."""
        if not isinstance(weight, NDArray) or not isinstance(grad, NDArray):
            raise TypeError("weight and grad must be NDArrays, got %s and %s"
                            % (type(weight).__name__, type(grad).__name__))
        self._update_count(index)
        return self._get_lr(index), self._get_wd(index), self._index_update_count[index]

    def _scaled(self, grad, weight=None, wd=0.0):
        """rescale_grad*grad (+ wd*weight), clipped when clip_gradient is set: the gradient of
        the optimizers MXNet writes in NDArray arithmetic."""
        grad = grad * self.rescale_grad
        if weight is not None:
            grad = grad + wd * weight
        return clip(grad, -self.clip_gradient, self.clip_gradient) if self.clip_gradient is not None else grad

    def _clip_kwargs(self, name="clip_gradient"):
        """The rescale and (when set) clipping arguments of the update operators."""
        kwargs = {"rescale_grad": self.rescale_grad}
        if self.clip_gradient:
            kwargs[name] = self.clip_gradient
        return kwargs

    def __getstate__(self):
        state = self.__dict__.copy()
        del state["param_dict"]  # Parameters are not pickled with the optimizer, as in MXNet
        return state

    def __setstate__(self, state):
        self.__dict__ = state
        self.param_dict = {}


def _warn_float16(name):
    warnings.warn("Accumulating with float16 in optimizer can lead to poor accuracy or slow convergence. Consider "
                  "using multi_precision=True option of the %s optimizer" % name, stacklevel=3)


def aggregation_size(default):
    """MXNET_OPTIMIZER_AGGREGATION_SIZE, the number of weights one aggregated update takes."""
    return int(os.getenv("MXNET_OPTIMIZER_AGGREGATION_SIZE", str(default)))


register = Optimizer.register
create = Optimizer.create_optimizer


class Updater:
    """Applies an optimizer to (index, grad, weight) calls, creating each index's state on
    first use; aggregates up to ``optimizer.aggregate_num`` weights of one dtype per update
    when the optimizer supports it (as the Gluon Trainer's and KVStore's updaters do)."""

    def __init__(self, optimizer):
        self.optimizer = optimizer
        self.states = {}
        self.states_synced = {}
        self.aggregate_updates = optimizer.aggregate_num > 0

    def __call__(self, index, grad, weight):
        if isinstance(index, (list, tuple)):
            indices, grads, weights = list(index), list(grad), list(weight)
        else:
            indices, grads, weights = [index], [grad], [weight]
        if weights:
            self.optimizer._set_current_context(weights[0].context.device_id)
        for i, idx in enumerate(indices):
            if isinstance(idx, bytes):
                indices[i] = idx = idx.decode()
            if idx not in self.states:
                self.states[idx] = self.optimizer.create_state_multi_precision(idx, weights[i])
                self.states_synced[idx] = True
            elif not self.states_synced[idx]:
                self.states[idx] = self.sync_state_context(self.states[idx], weights[i].context)
                self.states_synced[idx] = True
        if not self.aggregate_updates:
            for i, w, g in zip(indices, weights, grads):
                self.optimizer.update_multi_precision(i, w, g, self.states[i])
            return
        by_dtype = {}
        for item in zip(indices, weights, grads):
            by_dtype.setdefault(item[1].dtype, []).append(item)
        n = self.optimizer.aggregate_num
        for items in by_dtype.values():
            for start in range(0, len(items), n):
                idx, w, g = (list(x) for x in zip(*items[start:start + n]))
                self.optimizer.update_multi_precision(idx, w, g, [self.states[i] for i in idx])

    def sync_state_context(self, state, context):
        """``state`` (an NDArray, or a tuple or list of them) on ``context``."""
        if isinstance(state, NDArray):
            return state.as_in_context(context)
        if isinstance(state, (tuple, list)):
            return type(state)(self.sync_state_context(s, context) for s in state)
        return state

    def set_states(self, states):
        """Loads the states ``get_states`` saved (and the optimizer, if it was saved too)."""
        states = pickle.loads(states)
        if isinstance(states, tuple) and len(states) == 2:
            self.states, self.optimizer = states
        else:
            self.states = states
        self.states_synced = dict.fromkeys(self.states, False)
        self.aggregate_updates = self.optimizer.aggregate_num > 0  # a loaded optimizer may not aggregate

    def get_states(self, dump_optimizer=False):
        """The pickled states (with the optimizer when ``dump_optimizer``)."""
        return pickle.dumps((self.states, self.optimizer) if dump_optimizer else self.states)


def get_updater(optimizer):
    """An Updater for ``optimizer``."""
    return Updater(optimizer)
