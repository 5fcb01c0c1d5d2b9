"""An MXNet model's parameters, in PyTorch, without copying a weight.

MXNet 1.x saved a model's parameters with mx.nd.save (Gluon's `net.save_parameters`
writes the same .params format). mxgo reads that file with mx.nd.load, and each weight
goes to PyTorch with torch.from_dlpack: the torch tensor is a view of the memory mxgo
loaded the weight into (a write on one side is seen on the other).

The .params file is written by the real MXNet 1.9.1 when it is installed (`import
mxnet`); otherwise mxgo writes it, byte for byte what MXNet would write.

    python examples/params_to_torch.py [PATH]
"""
import os
import sys
import tempfile

import numpy as np
import torch

import mxgo as mx

#: a small MLP, named as Gluon names a Sequential's Dense layers (8 -> 16 -> 4)
SHAPES = {"dense0.weight": (16, 8), "dense0.bias": (16,), "dense1.weight": (4, 16), "dense1.bias": (4,)}


def write_params(path):
    """Writes the model's parameters to path in MXNet's format; returns who wrote it."""
    rng = np.random.default_rng(0)
    values = {name: rng.standard_normal(shape).astype(np.float32) for name, shape in SHAPES.items()}
    try:
        import mxnet
    except ImportError:
        mx.nd.save(path, {name: mx.nd.array(v) for name, v in values.items()})
        return "mxgo"
    mxnet.nd.save(path, {name: mxnet.nd.array(v) for name, v in values.items()})
    return "MXNet %s" % mxnet.__version__


def main():
    if len(sys.argv) > 1:
        run(sys.argv[1])
    else:
        with tempfile.TemporaryDirectory() as tmp:
            run(os.path.join(tmp, "mlp.params"))


def run(path):
    writer = write_params(path)
    params = mx.nd.load(path)  # {name: NDArray}
    print("%s wrote %s (%d bytes): %s" % (writer, path, os.path.getsize(path),
                                          ", ".join("%s %s" % (k, v.shape) for k, v in params.items())))

    # Every weight to PyTorch, zero copy: the tensors view mxgo's memory.
    tensors = {name: torch.from_dlpack(arr) for name, arr in params.items()}
    for name, arr in params.items():
        assert tensors[name].data_ptr() == np.from_dlpack(arr).ctypes.data, name
    print("torch.from_dlpack shares memory with every loaded NDArray")

    model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4))
    for i, layer in ((0, model[0]), (1, model[2])):
        layer.weight = torch.nn.Parameter(tensors["dense%d.weight" % i], requires_grad=False)
        layer.bias = torch.nn.Parameter(tensors["dense%d.bias" % i], requires_grad=False)

    x = torch.linspace(-1, 1, 3 * 8).reshape(3, 8)
    with torch.no_grad():
        y = model(x)
    # MXNet's FullyConnected is y = x W^T + b, as torch.nn.Linear: the same answer in mxgo
    w0, b0, w1, b1 = (params[k] for k in SHAPES)
    h = mx.nd.relu(mx.nd.dot(mx.nd.array(x.numpy()), w0.T) + b0)
    expected = (mx.nd.dot(h, w1.T) + b1).asnumpy()
    np.testing.assert_allclose(y.numpy(), expected, rtol=1e-5, atol=1e-6)
    print("torch forward pass matches mxgo's:", np.round(y.numpy()[0], 4))

    # One memory: a write through torch is seen by mxgo.
    with torch.no_grad():
        model[2].bias[0] = 42.0
    assert params["dense1.bias"].asnumpy()[0] == 42.0
    print("a write through torch shows in mxgo: dense1.bias[0] =", params["dense1.bias"].asnumpy()[0])


if __name__ == "__main__":
    main()
