"""MXNet 1.9.1's ImageIter: batches of augmented images, (batch, C, H, W) float32, with
their labels, read from a RecordIO file (.rec, with its .idx for random access), an image
list file (``index\\tlabel...\\tpath`` lines, paths under ``path_root``) or a Python list.

mxgo has no mx.io: a batch is a small DataBatch here (``data``, ``label``, ``pad``,
``index``), and ``provide_data``/``provide_label`` are (name, shape) pairs, as MXNet's.
"""
import os
import random

import numpy as np

from .. import ndarray as nd
from .. import recordio
from .augment import CreateAugmenter
from .image import imdecode

__all__ = ["ImageIter"]


class DataBatch:
    """One batch: lists of data and label arrays; ``pad`` trailing samples are filler."""

    def __init__(self, data, label=None, pad=None, index=None):
        self.data, self.label, self.pad, self.index = data, label, pad, index


class ImageIter:
    """Iterates over images in batches of ``batch_size`` shaped ``data_shape`` (3, H, W)
    after ``aug_list`` (default ``CreateAugmenter(data_shape, **kwargs)``). The last,
    partial batch: 'pad' fills it from the start (``pad`` says how many), 'discard' drops
    it, 'roll_over' carries it into the next epoch."""

    def __init__(self, batch_size, data_shape, label_width=1, path_imgrec=None, path_imglist=None, path_root=None,
                 path_imgidx=None, shuffle=False, part_index=0, num_parts=1, aug_list=None, imglist=None,
                 data_name="data", label_name="softmax_label", dtype="float32", last_batch_handle="pad", **kwargs):
        if not (path_imgrec or path_imglist or isinstance(imglist, list)):
            raise ValueError("ImageIter needs path_imgrec, path_imglist or imglist")
        if dtype not in ("int32", "float32", "int64", "float64"):
            raise ValueError("%s label not supported" % dtype)
        if last_batch_handle not in ("pad", "discard", "roll_over"):
            raise ValueError("last_batch_handle must be 'pad', 'discard' or 'roll_over', got %r" % (last_batch_handle,))
        self.check_data_shape(data_shape)
        self.imgrec, self.imgidx = None, None
        if path_imgrec and path_imgidx:
            self.imgrec = recordio.MXIndexedRecordIO(path_imgidx, path_imgrec, "r")
            self.imgidx = list(self.imgrec.keys)
        elif path_imgrec:
            self.imgrec = recordio.MXRecordIO(path_imgrec, "r")
        keys, self.imglist = None, None
        if path_imglist:
            with open(path_imglist) as f:
                rows = [line.strip().split("\t") for line in f if line.strip()]
            self.imglist = {int(r[0]): (nd.array(r[1:-1], dtype=dtype), r[-1]) for r in rows}
            keys = [int(r[0]) for r in rows]
        elif isinstance(imglist, list):
            self.imglist = {str(i + 1): (self._label(img, dtype), img[-1]) for i, img in enumerate(imglist)}
            keys = list(self.imglist)
        self.path_root = path_root
        self.provide_data = [(data_name, (batch_size,) + tuple(data_shape))]
        self.provide_label = [(label_name, (batch_size, label_width) if label_width > 1 else (batch_size,))]
        self.batch_size, self.data_shape, self.label_width = batch_size, tuple(data_shape), label_width
        self.shuffle, self.last_batch_handle = shuffle, last_batch_handle
        if self.imgrec is None:
            self.seq = keys
        elif shuffle or num_parts > 1 or path_imgidx:
            if self.imgidx is None:
                raise ValueError("ImageIter: shuffle and num_parts > 1 need path_imgidx with path_imgrec")
            self.seq = self.imgidx
        else:
            self.seq = None
        if num_parts > 1:
            if not 0 <= part_index < num_parts:
                raise ValueError("part_index %d must be in [0, num_parts=%d)" % (part_index, num_parts))
            n = len(self.seq) // num_parts
            self.seq = self.seq[part_index * n:(part_index + 1) * n]
        self.auglist = CreateAugmenter(data_shape, **kwargs) if aug_list is None else aug_list
        self.num_image = len(self.seq) if self.seq is not None else None
        self.hard_reset()

    @staticmethod
    def _label(img, dtype):
        if len(img) > 2:
            return nd.array(img[:-1], dtype=dtype)
        return nd.array([img[0]] if np.isscalar(img[0]) else img[0], dtype=dtype)

    def reset(self):
        """Starts a new epoch (reshuffled with ``shuffle``); a rolled-over partial batch
        stays, to be completed by this epoch's first images."""
        if self.seq is not None and self.shuffle:
            random.shuffle(self.seq)
        if self.last_batch_handle != "roll_over" or self._cache is None:
            if self.imgrec is not None:
                self.imgrec.reset()
            self.cur, self._allow_read = 0, True

    def hard_reset(self):
        """Starts a new epoch, dropping any rolled-over batch."""
        self._cache = None
        self.reset()

    def __iter__(self):
        return self

    def __next__(self):
        return self.next()

    def next_sample(self):
        """(label, encoded image bytes) of the next image; StopIteration at the end."""
        if not self._allow_read:
            raise StopIteration
        if self.seq is None:
            s = self.imgrec.read()
            if s is None:
                if self.last_batch_handle != "discard":
                    self.imgrec.reset()
                raise StopIteration
            header, img = recordio.unpack(s)
            return header.label, img
        if self.cur >= self.num_image:
            if self.last_batch_handle != "discard":
                self.cur = 0
            raise StopIteration
        idx = self.seq[self.cur]
        self.cur += 1
        if self.imgrec is not None:
            header, img = recordio.unpack(self.imgrec.read_idx(idx))
            return (header.label if self.imglist is None else self.imglist[idx][0]), img
        label, fname = self.imglist[idx]
        return label, self.read_image(fname)

    def imdecode(self, s):
        """The decoded image; an undecodable one raises RuntimeError naming it."""
        try:
            return imdecode(s)
        except Exception as err:  # any decoding failure, reported with the image's name
            idx = self.seq[self.cur - 1] if self.seq is not None else self.cur
            name = "filename: %s" % self.imglist[idx][1] if self.imglist is not None else "index: %s" % idx
            raise RuntimeError("Broken image %s, %s" % (name, err)) from None

    def read_image(self, fname):
        with open(os.path.join(self.path_root or "", fname), "rb") as f:
            return f.read()

    @staticmethod
    def check_data_shape(data_shape):
        """Raises ValueError unless ``data_shape`` is (3, H, W)."""
        if len(data_shape) != 3:
            raise ValueError("data_shape should have length 3, with dimensions CxHxW")
        if data_shape[0] != 3:
            raise ValueError("This iterator expects inputs to have 3 channels.")

    @staticmethod
    def check_valid_image(data):
        """Raises RuntimeError if the first image of ``data`` has no shape."""
        if len(data[0].shape) == 0:
            raise RuntimeError("Data shape is wrong")

    def augmentation_transform(self, data):
        for aug in self.auglist:
            data = aug(data)
        return data

    def postprocess_data(self, datum):
        return nd.transpose(datum, axes=(2, 0, 1))

    def _batchify(self, data, label, i=0):
        """Fills samples i.. of the batch; returns how many are filled."""
        try:
            while i < self.batch_size:
                lab, s = self.next_sample()
                data[i] = self.postprocess_data(self.augmentation_transform(self.imdecode(s)))
                lab = lab.asnumpy() if isinstance(lab, nd.NDArray) else np.asarray(lab)
                label[i] = lab.reshape(label.shape[1:]) if lab.size == int(np.prod(label.shape[1:])) else lab
                i += 1
        except StopIteration:
            if not i:
                raise
        return i

    def _new_label(self):
        return nd.empty(self.provide_label[0][1])

    def next(self):
        """The next DataBatch; StopIteration at the epoch's end."""
        if self._cache is not None:
            data, label, i = self._cache
        else:
            data, label = nd.zeros(self.provide_data[0][1]), self._new_label()
            i = self._batchify(data, label)
        pad = self.batch_size - i
        if pad:
            if self.last_batch_handle == "discard":
                raise StopIteration
            if self.last_batch_handle == "roll_over" and self._cache is None:
                self._cache = (data, label, i)
                raise StopIteration
            self._batchify(data, label, i)
            if self.last_batch_handle == "pad":
                self._allow_read = False
            else:
                self._cache = None
        return DataBatch([data], [label], pad=pad)
