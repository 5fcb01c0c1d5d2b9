"""The Trainer (gluon.Trainer), as MXNet 1.x's: applies an mx.optimizer to a set of
Parameters after backward, one updater per context.

Gradients of Parameters on several contexts are summed across them before the update (what
MXNet's 'device' and 'local' KVStores do on one machine), so every copy takes the same
step. Distributed KVStores are not here yet: asking for one raises.
"""
from .. import ndarray as nd
from .. import optimizer as opt
from ..base import MXNetError
from .parameter import Parameter, ParameterDict

_LOCAL_KVSTORES = (None, "device", "local")


class Trainer:
    """Updates params (a ParameterDict, dict or list of Parameters) with optimizer (a name
    with optimizer_params, or an Optimizer) at every ``step``."""

    def __init__(self, params, optimizer, optimizer_params=None, kvstore="device", compression_params=None,
                 update_on_kvstore=None):
        if isinstance(params, (dict, ParameterDict)):
            params = [params[key] for key in sorted(params.keys())]
        if not isinstance(params, (list, tuple)):
            raise ValueError("First argument must be a list or dict of Parameters, got %s." % type(params))
        self._params = []
        self._param2idx = {}
        for i, param in enumerate(params):
            if not isinstance(param, Parameter):
                raise ValueError("First argument must be a list or dict of Parameters, got list of %s."
                                 % type(param))
            self._param2idx[param.name] = i
            self._params.append(param)
            param._set_trainer(self)
        if kvstore not in _LOCAL_KVSTORES:
            raise MXNetError("Trainer(kvstore=%r): mxgo has no KVStore yet; gradients of several contexts are "
                             "summed locally with kvstore='device' or 'local'" % (kvstore,))
        if compression_params:
            raise MXNetError("gradient compression needs a KVStore, which mxgo does not have yet")
        self._compression_params = compression_params
        self._kvstore_params = {"kvstore": kvstore, "update_on_kvstore": update_on_kvstore}
        self._contexts = self._check_contexts()
        self._init_optimizer(optimizer, optimizer_params or {})
        self._scale = self._optimizer.rescale_grad

    def _check_contexts(self):
        contexts = None
        for param in self._params:
            ctx = param.list_ctx()
            if contexts is not None and contexts != ctx:
                raise ValueError("All Parameters must be initialized on the same set of contexts, but Parameter %s is "
                                 "initialized on %s while previous Parameters are initialized on %s."
                                 % (param.name, ctx, contexts))
            contexts = ctx
        return contexts or []

    def _init_optimizer(self, optimizer, optimizer_params):
        param_dict = dict(enumerate(self._params))
        if isinstance(optimizer, opt.Optimizer):
            if optimizer_params:
                raise ValueError("optimizer_params must be None if optimizer is an instance of Optimizer instead of "
                                 "str")
            self._optimizer = optimizer
            self._optimizer.param_dict = param_dict
        else:
            self._optimizer = opt.create(optimizer, param_dict=param_dict, **optimizer_params)
        self._updaters = [opt.get_updater(self._optimizer) for _ in self._contexts]

    @property
    def learning_rate(self):
        return self._optimizer.learning_rate

    @property
    def optimizer(self):
        return self._optimizer

    def set_learning_rate(self, lr):
        """Sets the optimizer's learning rate (refused when it has an lr_scheduler, as in MXNet)."""
        self._optimizer.set_learning_rate(lr)

    def step(self, batch_size, ignore_stale_grad=False):
        """Sums the gradients across contexts, then updates every Parameter with them
        scaled by 1/batch_size (1 if the loss is already a mean)."""
        self._optimizer.rescale_grad = self._scale / batch_size
        self._allreduce_grads()
        self._update(ignore_stale_grad)

    def allreduce_grads(self):
        """Sums each Parameter's gradients across its contexts (step does this, then update)."""
        self._allreduce_grads()

    def update(self, batch_size, ignore_stale_grad=False):
        """Updates the Parameters with their (already reduced) gradients."""
        self._optimizer.rescale_grad = self._scale / batch_size
        self._update(ignore_stale_grad)

    def _allreduce_grads(self):
        if len(self._contexts) < 2:
            return
        for param in self._params:
            if param.grad_req == "null":
                continue
            grads = param.list_grad()
            total = nd.add_n(*[g.as_in_context(grads[0].context) for g in grads])
            for g in grads:
                total.copyto(g)

    def _update(self, ignore_stale_grad=False):
        updates = [[] for _ in self._updaters]
        for i, param in enumerate(self._params):
            if param.grad_req == "null":
                continue
            data = param.list_data()
            if not ignore_stale_grad:
                for arr in data:
                    if not arr._fresh_grad:
                        raise UserWarning(
                            "Gradient of Parameter `%s` on context %s has not been updated by backward since last "
                            "`step`. This could mean a bug in your model that made it only use a subset of the "
                            "Parameters (Blocks) for this iteration. If you are intentionally only using a subset, "
                            "call step with ignore_stale_grad=True to suppress this warning and skip updating of "
                            "Parameters with stale gradient" % (param.name, arr.context))
            for upd, arr, grad in zip(updates, data, param.list_grad()):
                if not ignore_stale_grad or arr._fresh_grad:
                    upd.append((i, grad, arr))
                    arr._fresh_grad = False
        for updater, upd in zip(self._updaters, updates):
            if upd:
                indices, grads, arrays = zip(*upd)
                updater(list(indices), list(grads), list(arrays))

    def save_states(self, fname):
        """Saves the optimizer's states (momentum, ...) and the optimizer to fname."""
        with open(fname, "wb") as f:
            f.write(self._updaters[0].get_states(dump_optimizer=True))

    def load_states(self, fname):
        """Loads what save_states wrote (the Parameters' lr_mult and wd_mult stay this Trainer's)."""
        with open(fname, "rb") as f:
            states = f.read()
        for updater in self._updaters:
            updater.set_states(states)
            updater.optimizer = self._updaters[0].optimizer
        self._optimizer = self._updaters[0].optimizer
        self._optimizer.param_dict = dict(enumerate(self._params))
