"""Invalid DLPack tensors, one wrong field each, for the validation tests and the
isolated bad-input catalogue (bad_inputs.py)."""
import numpy as np

from dlpack_producer import NULL

_F64 = np.arange(6.0)           # 48 bytes of float64, 16-byte aligned at least
_F32 = np.arange(8, dtype=np.float32)

#: name -> (substring the message must contain, capsule() overrides describing an invalid
#: tensor over _F64 unless "array" says otherwise). One field is wrong in each.
INVALID = {
    # dtype: codes mxgo has no type for, vector lanes, bit widths that do not fit the code
    "code_opaque": ("dtype.code", {"dtype": (3, 64, 1)}),
    "code_float8": ("dtype.code", {"dtype": (7, 8, 1)}),
    "code_99": ("dtype.code", {"dtype": (99, 64, 1)}),
    "lanes_2": ("dtype.lanes", {"dtype": (2, 64, 2)}),
    "lanes_0": ("dtype.lanes", {"dtype": (2, 64, 0)}),
    "bits_float8": ("dtype.bits", {"dtype": (2, 8, 1)}),
    "bits_int7": ("dtype.bits", {"dtype": (0, 7, 1)}),
    "bits_bool16": ("dtype.bits", {"dtype": (6, 16, 1)}),
    "bits_complex32": ("dtype.bits", {"dtype": (5, 32, 1)}),
    "bits_bfloat32": ("dtype.bits", {"dtype": (4, 32, 1)}),
    "bits_uint2": ("dtype.bits", {"dtype": (1, 2, 1)}),
    # shape
    "negative_dim": ("shape", {"shape": (-6,)}),
    "negative_dim_2d": ("shape", {"ndim": 2, "shape": (2, -3), "strides": (3, 1)}),
    "null_shape": ("shape", {"shape": NULL}),
    "element_count_overflow": ("shape", {"ndim": 2, "shape": (2 ** 62, 8), "strides": (8, 1)}),
    # byte sizes: the span of the strides times the item size does not fit an int
    "byte_size_overflow": ("strides", {"shape": (2,), "strides": (2 ** 61,)}),
    "byte_size_overflow_big_span": ("strides", {"shape": (2 ** 61,), "strides": (1,)}),
    "stride_extent_overflow": ("strides", {"shape": (3,), "strides": (2 ** 62,)}),
    "negative_strides_below_zero": ("strides", {"data": 64, "shape": (10,), "strides": (-100,)}),
    # data
    "null_data": ("data", {"data": 0}),
    "byte_offset_overflow": ("byte_offset", {"byte_offset": 2 ** 63}),
    # devices mxgo cannot address: GPUs too, since tests_py runs without a CUDA driver
    # (conftest; page-locked host memory, (3, 0), is host memory and imported)
    "device_cuda": ("device", {"device": (2, 0)}),
    "device_cuda_managed": ("device", {"device": (13, 0)}),
    "device_rocm": ("device", {"device": (10, 0)}),
    "device_unknown": ("device", {"device": (99, 0)}),
    # ndim outside [0, 64]
    "ndim_negative": ("ndim", {"ndim": -1}),
    "ndim_65": ("ndim", {"ndim": 65}),
    "ndim_huge": ("ndim", {"ndim": 2 ** 31 - 1}),
}

#: only versioned tensors have a version
INVALID_VERSIONED = {
    "version_major_2": ("version", {"version": (2, 0)}),
    "version_major_huge": ("version", {"version": (2 ** 32 - 1, 0)}),
}


def make_invalid(producer, overrides, form):
    """A capsule from CountingProducer ``producer`` with ``overrides`` (an INVALID entry's),
    legacy or versioned by ``form``; returns (capsule, tag)."""
    overrides = dict(overrides)
    array = overrides.pop("array", _F64)
    return producer.capsule(array, versioned=form == "versioned", **overrides)
