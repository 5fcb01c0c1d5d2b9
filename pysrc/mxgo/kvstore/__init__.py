"""``mx.kv`` (also ``mx.kvstore``): MXNet 1.9.1's KVStore, the key-value store through which
the copies of a model's weights and gradients meet, on one machine or across worker
processes.

    kv = mx.kv.create('dist_sync')        # every worker, started by python -m mxgo.distributed.launch
    kv.init(3, weight)                    # rank 0's value everywhere
    kv.pushpull(3, grad)                  # grad summed over every worker, in place

base holds KVStoreBase and its registry; engine the collective engine the
'dist_*' stores reduce with (PyTorch's torch.distributed on gloo, handed the mxgo arrays'
own memory through DLPack; imported from torch only when a dist store is made); kvstore the
KVStore and ``create``. There are no parameter servers: every worker all-reduces and runs the same
update (set_optimizer), so 'dist_async' and the server and scheduler roles are refused.

Import order (each module imports only those before it; tools/check_pyimports.py checks it):

    base ← engine ← kvstore
"""
from . import base, engine, kvstore
from .base import KVStoreBase
from .kvstore import KVStore, create

__all__ = ["KVStoreBase", "KVStore", "create", "base", "engine", "kvstore"]
