"""``mxgo.distributed``: starting the worker processes of a distributed job.

launch (``python -m mxgo.distributed.launch -n N script.py args...``) starts N workers on this
machine with the variables mx.kv.create('dist_sync') reads, and stops them all when one fails.

Import order (each module imports only those before it; tools/check_pyimports.py checks it):

    launch
"""
__all__: list = []  # launch runs as a program (python -m), so the package does not import it
