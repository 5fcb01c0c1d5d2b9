"""The Trainer (gluon.Trainer), as MXNet 1.x's: applies an mx.optimizer to a set of
Parameters after backward, one updater per context.

Gradients of Parameters on several contexts are summed across them before the update (what
MXNet's 'device' and 'local' KVStores do on one machine), so every copy takes the same
step. With a distributed store (kvstore='dist_sync' or a KVStore object), made at the first
step as in MXNet, rank 0's Parameters are broadcast to every worker, and each step sums the
gradients over the workers with the store's pushpull: into the Parameters through the
store's updater (update_on_kvstore, MXNet's default for 'dist' stores, which here runs on
every worker alike), or in the gradients' own memory, updated by the Trainer.
"""
import os

from .. import kvstore as kvs
from .. import ndarray as nd
from .. import optimizer as opt
from ..base import MXNetError
from .parameter import Parameter, ParameterDict

_LOCAL_KVSTORES = (None, "device", "local")
_NOT_ON_KVSTORE = ("%s() when parameters are updated on kvstore is not supported. Try setting `update_on_kvstore` "
                   "to False when creating trainer.")


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
        if not (kvstore is None or isinstance(kvstore, (str, kvs.KVStoreBase))):
            raise TypeError("kvstore must be KVStore, str or None")
        if compression_params:
            raise MXNetError("gradient compression is not supported by mxgo's kvstore: its all-reduce sums the "
                             "gradients exactly")
        self._compression_params = compression_params
        self._kvstore_params = {"kvstore": kvstore, "update_on_kvstore": update_on_kvstore}
        self._kvstore, self._update_on_kvstore, self._kv_initialized = None, False, False
        self._params_to_init = []
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

    def _init_kvstore(self):
        """Makes the store (only a given or distributed one: one process's contexts are
        summed here) and whether it runs the updates; MXNET_UPDATE_ON_KVSTORE=0 turns the
        default off, as in MXNet."""
        config = self._kvstore_params
        kvstore = config["kvstore"]
        if isinstance(kvstore, str) and kvstore not in _LOCAL_KVSTORES:
            kvstore = kvs.create(kvstore)
        if isinstance(kvstore, kvs.KVStoreBase):
            update_on_kvstore = config["update_on_kvstore"]
            if update_on_kvstore is None:
                update_on_kvstore = bool(int(os.getenv("MXNET_UPDATE_ON_KVSTORE", "1")))
            update_on_kvstore = bool(update_on_kvstore) and kvstore.is_capable(kvs.KVStoreBase.OPTIMIZER)
            if update_on_kvstore:
                kvstore.set_optimizer(self._optimizer)
            self._kvstore, self._update_on_kvstore = kvstore, update_on_kvstore
            self._params_to_init = list(self._params)
        self._kv_initialized = True

    def _init_params(self):
        """Gives the store each Parameter that has its arrays (rank 0's values, pulled into
        every worker's)."""
        waiting = []
        for param in self._params_to_init:
            if param._deferred_init:
                waiting.append(param)
                continue
            data = param.list_data()
            self._kvstore.broadcast(self._param2idx[param.name], data[0], data)
        self._params_to_init = waiting

    def _ready(self):
        if not self._kv_initialized:
            self._init_kvstore()
        if self._params_to_init:
            self._init_params()

    def step(self, batch_size, ignore_stale_grad=False):
        """Sums the gradients across contexts (and workers), then updates every Parameter
        with them scaled by 1/batch_size (1 if the loss is already a mean)."""
        self._optimizer.rescale_grad = self._scale / batch_size
        self._ready()
        self._allreduce_grads()
        self._update(ignore_stale_grad)

    def allreduce_grads(self):
        """Sums each Parameter's gradients across its contexts and workers (step does this,
        then update)."""
        self._ready()
        if self._kvstore is not None and self._update_on_kvstore:
            raise AssertionError(_NOT_ON_KVSTORE % "allreduce_grads")
        self._allreduce_grads()

    def update(self, batch_size, ignore_stale_grad=False):
        """Updates the Parameters with their (already reduced) gradients."""
        self._ready()
        if self._kvstore is not None and self._update_on_kvstore:
            raise AssertionError(_NOT_ON_KVSTORE % "update")
        self._optimizer.rescale_grad = self._scale / batch_size
        self._update(ignore_stale_grad)

    def _allreduce_grads(self):
        if self._kvstore is not None:
            # Last Parameters first: backward writes their gradients first, so each one's
            # all-reduce (which waits only for its own array) runs while the engine still
            # computes the earlier layers' gradients.
            for i, param in reversed(list(enumerate(self._params))):
                if param.grad_req != "null":
                    out = param.list_data() if self._update_on_kvstore else None
                    self._kvstore.pushpull(i, param.list_grad(), out=out, priority=-i)
            return
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
                    if not self._update_on_kvstore:  # else the store's pushpull has updated arr
                        upd.append((i, grad, arr))
                    arr._fresh_grad = False
        for updater, upd in zip(self._updaters, updates):
            if upd:
                indices, grads, arrays = zip(*upd)
                updater(list(indices), list(grads), list(arrays))

    def save_states(self, fname):
        """Saves the optimizer's states (momentum, ...) and the optimizer to fname."""
        self._ready()
        if self._update_on_kvstore:
            self._kvstore.save_optimizer_states(fname, dump_optimizer=True)
            return
        with open(fname, "wb") as f:
            f.write(self._updaters[0].get_states(dump_optimizer=True))

    def load_states(self, fname):
        """Loads what save_states wrote (the Parameters' lr_mult and wd_mult stay this Trainer's)."""
        self._ready()
        if self._update_on_kvstore:
            self._kvstore.load_optimizer_states(fname)
            self._optimizer = self._kvstore._updater.optimizer
            self._optimizer.param_dict = dict(enumerate(self._params))
            return
        with open(fname, "rb") as f:
            states = f.read()
        for updater in self._updaters:
            updater.set_states(states)
            updater.optimizer = self._updaters[0].optimizer
        self._optimizer = self._updaters[0].optimizer
        self._optimizer.param_dict = dict(enumerate(self._params))
