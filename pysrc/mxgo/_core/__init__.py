"""The array core: what every Python namespace of mxgo builds on, private to the package.

mx.nd (mxgo/ndarray/) is built on it today; mx.np and mx.npx, mx.autograd and mx.gluon are
to be built on it too, so that all of them share one kind of array: a Go handle in the C
base class ``fastpath.NDArrayBase`` (mxgo/base.py creates the C module). The modules here
know arrays only by that C base, never by a namespace's class:

- dlpack.py: ``from_dlpack``, DLPack import of capsules and producers (in C where it can)
- array.py: allocation (``empty``), values between NumPy and mxgo, shapes in Go's wire form
- registry.py: the Go operator registry (``OPS``) and ``invoke``, which runs an operator

Import order (each module imports only those before it; tools/check_pyimports.py checks it):

    dlpack, array ← registry

This package's __init__ imports nothing: import its modules.
"""
