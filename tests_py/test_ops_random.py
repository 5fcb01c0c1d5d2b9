"""Random sampling as registry operators (mx.nd.random_uniform / random_normal) and the
seeding contract: results follow the order of calls, whatever order the engine runs in."""
import inspect

import numpy as np
import pytest

import mxgo as mx


def _program(seed):
    mx.random.seed(seed)
    outs = []
    big = mx.nd.random.uniform(shape=(200_000,))          # large: runs on an engine thread
    for i in range(20):
        outs.append(mx.nd.random.normal(i, 1, shape=(50,), dtype="float64"))
        outs.append(mx.nd.random_uniform(-1, 1, shape=(3, 3)))
    outs.append(big * 2)
    return [o.asnumpy() for o in outs]


def test_seeded_programs_repeat_exactly():
    first, second = _program(7), _program(7)
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)
    assert not np.array_equal(_program(8)[0], first[0])


@pytest.mark.parametrize("name, params, lo, hi", [
    ("random_uniform", {"low": -2.0, "high": 3.0}, -2.0, 3.0),
    ("random_normal", {"loc": 5.0, "scale": 1e-30}, 5.0, 5.0),  # MXNet refuses scale 0
])
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "bfloat16"])
def test_registry_forms(name, params, lo, hi, dtype):
    fn = getattr(mx.nd, name)
    assert list(inspect.signature(fn).parameters)[-4:] == ["shape", "dtype", "out", "name"]
    x = fn(**params, shape=(4, 5), dtype=dtype)
    assert x.shape == (4, 5) and mx.base.DTYPE_NAMES[x._code] == dtype
    v = x.astype("float64").asnumpy()
    assert (v >= lo).all() and (v <= hi).all()
    out = mx.nd.zeros((2, 3), dtype=dtype)
    assert fn(**params, shape=(2, 3), dtype=dtype, out=out) is out


@pytest.mark.parametrize("kwargs, error", [
    ({"low": 1.0, "high": 0.0}, ValueError),
    ({"dtype": "int32"}, TypeError),
    ({"shape": (-1, 2)}, ValueError),
])
def test_registry_form_errors(kwargs, error):
    with pytest.raises(error):
        mx.nd.random_uniform(**kwargs)
