"""Gluon's helpers (gluon.utils): splitting batches across contexts, clipping by the
global norm, downloading files with their SHA-1 checked, hook handles and repr indentation."""
import hashlib
import os
import ssl
import urllib.error
import urllib.request
import uuid
import warnings
import weakref
from collections import OrderedDict

import numpy as np

from .. import ndarray as nd


def indent(s_, num_spaces):
    """s_ with every line after the first indented by num_spaces."""
    lines = s_.split("\n")
    if len(lines) == 1:
        return s_
    return lines[0] + "\n" + "\n".join(" " * num_spaces + line for line in lines[1:])


def split_data(data, num_slice, batch_axis=0, even_split=True):
    """Splits data into num_slice slices along batch_axis (evenly unless told otherwise)."""
    size = data.shape[batch_axis]
    if even_split and size % num_slice != 0:
        raise ValueError("data with shape %s cannot be evenly split into %d slices along axis %d. Use a batch size "
                         "that's multiple of %d or set even_split=False to allow uneven partitioning of data."
                         % (data.shape, num_slice, batch_axis, num_slice))
    if size < num_slice:
        raise ValueError("Too many slices for data with shape %s. Arguments are num_slice=%d and batch_axis=%d."
                         % (data.shape, num_slice, batch_axis))
    step = size // num_slice
    if num_slice == 1:
        return [data]
    if not even_split and batch_axis == 0:
        return [data[i * step:(i + 1) * step] if i < num_slice - 1 else data[i * step:size] for i in range(num_slice)]
    if even_split:
        return nd.split(data, num_outputs=num_slice, axis=batch_axis)
    return [nd.slice_axis(data, batch_axis, i * step, (i + 1) * step if i < num_slice - 1 else size)
            for i in range(num_slice)]


def split_and_load(data, ctx_list, batch_axis=0, even_split=True):
    """Splits data (an NDArray or NumPy array) across ctx_list, one slice per context."""
    if isinstance(data, np.ndarray):
        data = nd.array(data, ctx=ctx_list[0])
    if len(ctx_list) == 1:
        return [data.as_in_context(ctx_list[0])]
    slices = split_data(data, len(ctx_list), batch_axis, even_split)
    return [s.as_in_context(c) for s, c in zip(slices, ctx_list)]


def clip_global_norm(arrays, max_norm, check_isfinite=True):
    """Scales arrays in place so that their joint L2 norm is at most max_norm; returns the
    norm (a float, or an NDArray when check_isfinite is False)."""
    if not arrays:
        raise ValueError("clip_global_norm needs at least one array")
    ctx = arrays[0].context
    flat = [a.reshape((-1,)) for a in arrays]
    total = nd.add_n(*[nd.dot(x, x).as_in_context(ctx) for x in flat]).sqrt()  # in each array's dtype, as MXNet
    value = total.asscalar() if check_isfinite else None
    if check_isfinite and not np.isfinite(value):
        warnings.warn(UserWarning("nan or inf is detected. Clipping results will be undefined."), stacklevel=2)
    scale = nd.minimum(max_norm / (total + 1e-8), nd.ones((1,), dtype=total.dtype, ctx=ctx))
    scales = {}  # one copy per context and dtype
    for a in arrays:
        key = (a.context, a.dtype)
        if key not in scales:
            scales[key] = scale.as_in_context(a.context).astype(a.dtype, copy=False)
        a *= scales[key]
    return value if check_isfinite else total


def check_sha1(filename, sha1_hash):
    """Whether the SHA-1 of the file's content is sha1_hash (40 hex digits)."""
    sha1 = hashlib.sha1()
    with open(filename, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            sha1.update(chunk)
    return sha1.hexdigest() == sha1_hash


def replace_file(src, dst):
    """Moves src onto dst in one step (readers see the old file or the new, never a part);
    src is removed if that fails."""
    try:
        os.replace(src, dst)
    except OSError as err:
        _remove(src)
        raise OSError("Moving downloaded temp file - {}, to {} failed. Please retry the download."
                      .format(src, dst)) from err


def _remove(path):
    try:
        os.remove(path)
    except OSError:
        pass


def download(url, path=None, overwrite=False, sha1_hash=None, retries=5, verify_ssl=True):
    """Downloads url to path (a file, or a directory to put the URL's last part in; by
    default that name in the current directory) unless the file is there already (with
    sha1_hash if given) and overwrite is False; returns the file's name. The content goes
    to a temporary file beside it, renamed into place only once complete and, if
    sha1_hash is given, of that hash; up to ``retries`` tries in all."""
    fname = url.split("/")[-1]
    if path is not None:
        path = os.path.expanduser(path)
        fname = os.path.join(path, fname) if os.path.isdir(path) else path
    elif not fname:
        raise AssertionError("Can't construct file-name from this URL. Please set the `path` option manually.")
    if retries < 0:
        raise AssertionError("Number of retries should be at least 0, currently it's {}".format(retries))
    if not verify_ssl:
        warnings.warn("Unverified HTTPS request is being made (verify_ssl=False). Adding certificate verification is "
                      "strongly advised.", stacklevel=2)
    if not overwrite and os.path.exists(fname) and (not sha1_hash or check_sha1(fname, sha1_hash)):
        return fname
    os.makedirs(os.path.dirname(os.path.abspath(fname)), exist_ok=True)
    context = None if verify_ssl else ssl._create_unverified_context()
    for left in range(max(retries, 1) - 1, -1, -1):  # MXNet tries `retries` times (once for 0)
        try:
            print("Downloading {} from {}...".format(fname, url))
            _fetch(url, fname, sha1_hash, context)
            return fname
        except Exception as err:  # any failure (network, HTTP status, hash) is retried, as in MXNet
            if not left:
                raise
            print("download failed due to {}, retrying, {} attempt{} left".format(repr(err), left,
                                                                                "s" if left > 1 else ""))


def _fetch(url, fname, sha1_hash, context):
    """One try of download: url's content into fname through a temporary file."""
    temp = "{}.{}".format(fname, uuid.uuid4())
    try:
        try:
            response = urllib.request.urlopen(url, context=context)
        except urllib.error.HTTPError as err:
            raise RuntimeError("Failed downloading url {} (HTTP {})".format(url, err.code)) from err
        with response, open(temp, "wb") as f:
            if response.status != 200:
                raise RuntimeError("Failed downloading url {} (HTTP {})".format(url, response.status))
            for chunk in iter(lambda: response.read(1 << 20), b""):
                f.write(chunk)
        if sha1_hash and not check_sha1(temp, sha1_hash):
            raise UserWarning("File {} is downloaded but the content hash does not match. The repo may be outdated or "
                              "download may be incomplete. If the \"repo_url\" is overridden, consider switching to "
                              "the default repo.".format(fname))
        replace_file(temp, fname)
    finally:
        _remove(temp)


def _get_repo_url():
    """The base URL of MXNet's file repository: MXNET_GLUON_REPO, ending in a slash."""
    repo_url = os.environ.get("MXNET_GLUON_REPO", "https://apache-mxnet.s3-accelerate.dualstack.amazonaws.com/")
    return repo_url if repo_url.endswith("/") else repo_url + "/"


def _get_repo_file_url(namespace, filename):
    """The URL of filename under namespace in the repository."""
    return "{base_url}{namespace}/{filename}".format(base_url=_get_repo_url(), namespace=namespace, filename=filename)


class HookHandle:
    """What register_forward_hook returns: ``detach()`` (or leaving a ``with``) removes the hook."""

    _next_id = [0]

    def __init__(self):
        self._hooks_dict_ref = None
        self._id = None

    def attach(self, hooks_dict, hook):
        if self._hooks_dict_ref is not None:
            raise ValueError("The same handle cannot be attached twice.")
        self._id = HookHandle._next_id[0]
        HookHandle._next_id[0] += 1
        hooks_dict[self._id] = hook
        self._hooks_dict_ref = weakref.ref(hooks_dict)

    def detach(self):
        hooks_dict = self._hooks_dict_ref() if self._hooks_dict_ref is not None else None
        if hooks_dict is not None and self._id in hooks_dict:
            del hooks_dict[self._id]

    def __getstate__(self):
        return (self._hooks_dict_ref() if self._hooks_dict_ref is not None else None, self._id)

    def __setstate__(self, state):
        if state[0] is None:
            self._hooks_dict_ref = weakref.ref(OrderedDict())
        else:
            self._hooks_dict_ref = weakref.ref(state[0])
        self._id = state[1]

    def __enter__(self):
        return self

    def __exit__(self, ptype, value, trace):
        self.detach()
