"""The classic image datasets, read from the files MXNet 1.9.1 reads in ``root``: MNIST
and Fashion-MNIST's gzipped idx files, CIFAR-10/100's binary batches. A sample is
``(image, label)``: an mx.nd uint8 array (height, width, channels) and a NumPy int32.

mxgo does not download them (gluon.utils has no ``download`` yet): a missing file raises
FileNotFoundError naming it and where MXNet fetches it from. Files that are there are
used as they are (MXNet would re-download one whose SHA-1 differs).

ImageRecordDataset and ImageFolderDataset decode JPEG/PNG images with mx.image.imdecode.
"""
import gzip
import os
import warnings

import numpy as np

from .... import image, recordio
from .... import ndarray as nd
from ..dataset import Dataset, RecordFileDataset

__all__ = ["MNIST", "FashionMNIST", "CIFAR10", "CIFAR100", "ImageRecordDataset", "ImageFolderDataset"]

_REPO = "https://apache-mxnet.s3-accelerate.dualstack.amazonaws.com/"


#: where each dataset lives by default, as MXNet's (fixed at import, as theirs)
_ROOTS = {name: os.path.join(os.getenv("MXNET_HOME", os.path.join("~", ".mxnet")), "datasets", name)
          for name in ("mnist", "fashion-mnist", "cifar10", "cifar100")}


class _DownloadedDataset(Dataset):
    """Samples ``(self._data[i], self._label[i])`` that ``_get_data`` reads from ``root``,
    passed through ``transform(data, label)`` when given."""

    _namespace = ""

    def __init__(self, root, transform):
        self._transform = transform
        self._root = os.path.expanduser(root)
        self._data = self._label = None
        self._get_data()

    def __getitem__(self, idx):
        if self._transform is not None:
            return self._transform(self._data[idx], self._label[idx])
        return self._data[idx], self._label[idx]

    def __len__(self):
        return len(self._label)

    def _files(self, names):
        """The paths of ``names`` in root; FileNotFoundError naming those missing."""
        paths = [os.path.join(self._root, n) for n in names]
        missing = [n for n, p in zip(names, paths) if not os.path.isfile(p)]
        if missing:
            raise FileNotFoundError(
                "%s needs %s in %s; mxgo cannot download them: fetch them from %sgluon/dataset/%s/ (or "
                "the files of the original distribution) and pass their folder as root"
                % (type(self).__name__, ", ".join(missing), self._root, os.environ.get("MXNET_GLUON_REPO", _REPO),
                   self._namespace))
        return paths

    def _get_data(self):
        raise NotImplementedError


class MNIST(_DownloadedDataset):
    """MNIST's handwritten digits: 28x28x1 images and labels 0-9, the training set (60000)
    or, with ``train=False``, the test set (10000)."""

    _namespace = "mnist"

    def __init__(self, root=_ROOTS["mnist"], train=True, transform=None):
        self._train = train
        super().__init__(root, transform)

    def _get_data(self):
        prefix = "train" if self._train else "t10k"
        data_file, label_file = self._files(["%s-images-idx3-ubyte.gz" % prefix, "%s-labels-idx1-ubyte.gz" % prefix])
        with gzip.open(label_file, "rb") as f:
            label = np.frombuffer(f.read()[8:], dtype=np.uint8).astype(np.int32)
        with gzip.open(data_file, "rb") as f:
            data = np.frombuffer(f.read()[16:], dtype=np.uint8)
        if data.size != len(label) * 28 * 28:
            raise ValueError("%s holds %d bytes of pixels, not the %d of %d 28x28 images that %s labels"
                             % (data_file, data.size, len(label) * 784, len(label), label_file))
        self._data = nd.array(data.reshape(len(label), 28, 28, 1), dtype=np.uint8)
        self._label = label


class FashionMNIST(MNIST):
    """Zalando's Fashion-MNIST: MNIST's layout and files, images of 10 kinds of clothing."""

    _namespace = "fashion-mnist"

    def __init__(self, root=_ROOTS["fashion-mnist"], train=True, transform=None):
        super().__init__(root, train, transform)


class CIFAR10(_DownloadedDataset):
    """CIFAR-10: 32x32x3 images of 10 classes, the 5 training batches (50000) or the test
    batch (10000), in the binary version's files (data_batch_1.bin ... test_batch.bin)."""

    _namespace = "cifar10"
    _label_bytes = 1

    def __init__(self, root=_ROOTS["cifar10"], train=True, transform=None):
        self._train = train
        super().__init__(root, transform)

    def _batches(self):
        return ["data_batch_%d.bin" % i for i in range(1, 6)] if self._train else ["test_batch.bin"]

    def _label_column(self):
        return 0

    def _read_batch(self, path):
        row = 3072 + self._label_bytes
        with open(path, "rb") as f:
            raw = np.frombuffer(f.read(), dtype=np.uint8)
        if raw.size % row:
            raise ValueError("%s holds %d bytes, not a whole number of %d-byte records" % (path, raw.size, row))
        raw = raw.reshape(-1, row)
        images = raw[:, self._label_bytes:].reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1)
        return images, raw[:, self._label_column()].astype(np.int32)

    def _get_data(self):
        data, label = zip(*(self._read_batch(p) for p in self._files(self._batches())))
        self._data = nd.array(np.concatenate(data), dtype=np.uint8)
        self._label = np.concatenate(label)


class CIFAR100(CIFAR10):
    """CIFAR-100: 32x32x3 images, labelled by their 20 coarse classes or, with
    ``fine_label=True``, their 100 fine ones; files train.bin and test.bin."""

    _namespace = "cifar100"
    _label_bytes = 2

    def __init__(self, root=_ROOTS["cifar100"], fine_label=False, train=True, transform=None):
        self._fine_label = fine_label
        super().__init__(root, train, transform)

    def _batches(self):
        return ["train.bin" if self._train else "test.bin"]

    def _label_column(self):
        return int(bool(self._fine_label))


def _sample(transform, img, label):
    return (img, label) if transform is None else transform(img, label)


class ImageRecordDataset(RecordFileDataset):
    """The images of a RecordIO file that im2rec (or mx.recordio.pack_img) wrote:
    ``(image, label)``, the image decoded with ``flag`` (1 colour, 0 gray) in RGB and the
    label the record header's."""

    def __init__(self, filename, flag=1, transform=None):
        super().__init__(filename)
        self._flag, self._transform = flag, transform

    def __getitem__(self, idx):
        header, img = recordio.unpack(super().__getitem__(idx))
        return _sample(self._transform, image.imdecode(img, self._flag), header.label)


class ImageFolderDataset(Dataset):
    """The images under ``root``, one folder per class (``root/<class>/<image>``): labels
    number the folders in sorted order (their names in ``synsets``), ``items`` lists
    (path, label). Files other than .jpg, .jpeg and .png, and loose files in ``root``, are
    skipped with a warning."""

    _exts = (".jpg", ".jpeg", ".png")

    def __init__(self, root, flag=1, transform=None):
        self._root = os.path.expanduser(root)
        self._flag, self._transform = flag, transform
        self.synsets, self.items = [], []
        for folder in sorted(os.listdir(self._root)):
            path = os.path.join(self._root, folder)
            if not os.path.isdir(path):
                warnings.warn("Ignoring %s, which is not a directory." % path, stacklevel=2)
                continue
            label = len(self.synsets)
            self.synsets.append(folder)
            for name in sorted(os.listdir(path)):
                ext = os.path.splitext(name)[1]
                if ext.lower() not in self._exts:
                    warnings.warn("Ignoring %s of type %s. Only support %s"
                                  % (os.path.join(path, name), ext, ", ".join(self._exts)), stacklevel=2)
                    continue
                self.items.append((os.path.join(path, name), label))

    def __getitem__(self, idx):
        path, label = self.items[idx]
        return _sample(self._transform, image.imread(path, self._flag), label)

    def __len__(self):
        return len(self.items)
