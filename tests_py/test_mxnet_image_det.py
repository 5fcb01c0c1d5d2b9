"""mx.image's detection augmenters and ImageDetIter against MXNet 1.9.1's (collected only
in .venv-mxnet; see environments.py): with the same seeds of Python's ``random`` and
NumPy's, the same crops, pads, flips, labels and batches. Images are PNG (exact decodes);
resizes agree within 1 (uint8) as in test_mxnet_image.py.
"""
import random

import mxnet
import numpy as np
import pytest

import mxgo as mx
from test_mxnet_image import dumps, encoded, picture

LIBS = (mxnet, mx)
#: [class, xmin, ymin, xmax, ymax, difficult] rows; the last is degenerate (dropped on parsing)
OBJECTS = np.array([[0, 0.1, 0.2, 0.5, 0.6, 0], [1, 0.4, 0.1, 0.9, 0.8, 1], [2, 0.05, 0.5, 0.3, 0.95, 0],
                    [1, 0.5, 0.5, 0.5, 0.7, 0]], dtype=np.float32)


def raw_label(i):
    """A raw detection label: header [4, 6, 0, 0] then 1 to 3 objects (and a degenerate one)."""
    return np.concatenate([[4, 6, 0, 0], OBJECTS[i % 3:].ravel()]).astype(np.float32)


def seeded_runs(aug, img, n=6):
    """(image, label) of ``aug`` on ``img`` and OBJECTS' first 3 rows, for seeds 0..n-1."""
    got = []
    for seed in range(n):
        random.seed(seed)
        np.random.seed(seed)
        got += aug(img, OBJECTS[:3].copy())
    return got


def chain(augs):
    def run(x, label):
        for aug in augs:
            x, label = aug(x, label)
        return x, label
    return run


def assert_same(ours, ref, atol=0):
    assert len(ours) == len(ref)
    for o, r in zip(ours, ref):
        o, r = (np.asarray(x.asnumpy() if hasattr(x, "asnumpy") else x) for x in (o, r))
        assert o.shape == r.shape and o.dtype == r.dtype
        np.testing.assert_allclose(o, r, rtol=1e-5, atol=atol)


AUGS = [("DetHorizontalFlipAug", (0.5,), {}), ("DetRandomCropAug", (), {}),
        ("DetRandomCropAug", (0.3, 1.0, (0.2, 0.6)), dict(min_eject_coverage=0.6, max_attempts=10)),
        ("DetRandomPadAug", (), {}), ("DetRandomPadAug", ((0.5, 2.0), 2.0, 20, 7), {})]


def _defined(lib, name, args, kwargs, aug):
    """aug, or for MXNet's pad with a number pad_val v the same pad with the colour (v, 0, 0):
    MXNet passes the number as a one-element tuple, and its copyMakeBorder reads the second
    and third colour values past the tuple's end (whatever the heap holds there: 0 in most
    runs, 128 in one after a default pad). (v, 0, 0) is OpenCV's meaning of a number, and
    mxgo's."""
    if lib is mxnet and name == "DetRandomPadAug" and len(args) > 3 and not isinstance(args[3], tuple):
        return lib.image.DetRandomPadAug(*args[:3], (args[3], 0, 0), **kwargs)
    return aug


@pytest.mark.parametrize("name, args, kwargs", AUGS)
def test_det_augmenter(name, args, kwargs):
    outs = []
    for lib in LIBS:
        aug = getattr(lib.image, name)(*args, **kwargs)
        img = lib.nd.array(picture(24, 32), dtype="uint8")
        outs.append([aug.dumps()] + seeded_runs(_defined(lib, name, args, kwargs, aug), img))
    assert outs[1][0] == outs[0][0]
    assert_same(outs[1][1:], outs[0][1:])


def test_borrow_and_select():
    outs = []
    for lib in LIBS:
        im = lib.image
        borrow = im.DetBorrowAug(im.ResizeAug(12))
        select = im.DetRandomSelectAug([im.DetRandomCropAug(0.3), im.DetHorizontalFlipAug(1.0), borrow], 0.3)
        img = lib.nd.array(picture(24, 32), dtype="uint8")
        dumped = [dumps(borrow.dumps()), dumps(select.dumps()), dumps(im.DetRandomSelectAug([], 0.2).dumps())]
        outs.append(dumped + seeded_runs(select, img))
    assert outs[1][:3] == outs[0][:3]
    assert_same(outs[1][3:], outs[0][3:], atol=1)


OPTIONS = [dict(), dict(resize=20, rand_crop=0.7, rand_pad=0.6, rand_mirror=True, mean=True, std=True,
                pad_val=30),
           dict(rand_crop=1, min_object_covered=[0.1, 0.5], area_range=[(0.1, 1.0), (0.5, 2.0)], brightness=0.2,
                contrast=0.2, saturation=0.2, hue=0.1, pca_noise=0.05, rand_gray=0.3)]


@pytest.mark.parametrize("options", OPTIONS)
def test_create_det_augmenter(options):
    outs = []
    for lib in LIBS:
        augs = lib.image.CreateDetAugmenter((3, 16, 12), **options)
        img = lib.nd.array(picture(24, 32), dtype="uint8")
        outs.append([[dumps(a.dumps()) for a in augs]] + seeded_runs(chain(augs), img, 4))
    assert outs[1][0] == outs[0][0]
    assert_same(outs[1][1:], outs[0][1:], atol=2e-2)


def test_multi_rand_crop():
    outs = []
    for lib in LIBS:
        aug = lib.image.CreateMultiRandCropAugmenter([0.1, 0.3, 0.7], (0.5, 2.0), [(0.1, 1.0), (0.3, 1.0), (0.6, 1.0)],
                                                     0.5, 20, skip_prob=0.2)
        img = lib.nd.array(picture(24, 32), dtype="uint8")
        outs.append([dumps(aug.dumps())] + seeded_runs(aug, img))
    assert outs[1][0] == outs[0][0]
    assert_same(outs[1][1:], outs[0][1:])


def write_det_rec(tmp_path, n=5):
    rec = mx.recordio.MXIndexedRecordIO(str(tmp_path / "d.idx"), str(tmp_path / "d.rec"), "w")
    for i in range(n):
        header = mx.recordio.IRHeader(0, raw_label(i), i, 0)
        rec.write_idx(i, mx.recordio.pack_img(header, picture(20, 26, seed=i), img_fmt=".png"))
    rec.close()
    return dict(path_imgrec=str(tmp_path / "d.rec"), path_imgidx=str(tmp_path / "d.idx"))


def write_det_list(tmp_path, n=5):
    for i in range(n):
        (tmp_path / ("%d.png" % i)).write_bytes(encoded(picture(20, 26, seed=i), ".png"))
    return dict(imglist=[[raw_label(i).tolist(), "%d.png" % i] for i in range(n)], path_root=str(tmp_path))


def epochs(it, n=2):
    got = []
    for _ in range(n):
        got += [x for b in it for x in (b.data[0], b.label[0], b.pad)]
        it.reset()
    return got


@pytest.mark.parametrize("shuffle, last", [(False, "pad"), (True, "pad"), (True, "discard"), (False, "roll_over")])
@pytest.mark.parametrize("source", [write_det_rec, write_det_list])
def test_image_det_iter(tmp_path, source, shuffle, last):
    kwargs = source(tmp_path)
    outs = []
    for lib in LIBS:
        random.seed(3)
        np.random.seed(3)
        it = lib.image.ImageDetIter(2, (3, 10, 12), shuffle=shuffle, rand_crop=0.5, rand_pad=0.5, rand_mirror=True,
                                    last_batch_handle=last, **kwargs)
        outs.append([it.provide_data, it.provide_label, it.label_shape] + epochs(it))
    assert outs[1][:3] == outs[0][:3]
    assert_same(outs[1][3:], outs[0][3:], atol=1)


def test_reshape_and_sync_label_shape(tmp_path):
    kwargs = write_det_rec(tmp_path, 3)
    (tmp_path / "x.png").write_bytes(encoded(picture(8, 8), ".png"))
    outs = []
    for lib in LIBS:
        a = lib.image.ImageDetIter(2, (3, 8, 8), last_batch_handle="roll_over", **kwargs)
        b = lib.image.ImageDetIter(2, (3, 8, 8), imglist=[[raw_label(2).tolist(), "x.png"]],
                                   path_root=str(tmp_path))
        b.sync_label_shape(a)
        got = [a.label_shape, b.label_shape, b.provide_label]
        a.reshape((3, 6, 10), (5, 6))
        got += [a.provide_data, a.provide_label]
        for shape in [(2, 6), (5, 5), (5,)]:
            with pytest.raises(ValueError):
                a.reshape(None, shape)
        with pytest.raises(ValueError):
            a.reshape((1, 6, 10))
        a.reshape((3, 8, 8))  # back: the augmenters still make 8 x 8 images
        outs.append(got + epochs(a))
    assert outs[1][:5] == outs[0][:5]
    assert_same(outs[1][5:], outs[0][5:])


@pytest.mark.parametrize("label", [[2, 5, 0, 0.1, 0.1, 0.2], [2, 4, 0, 0.1, 0.1, 0.2, 0.2], [2, 5, 0, 0.3, 0.1, 0.2, 0.2]])
def test_bad_labels(tmp_path, label):
    (tmp_path / "a.png").write_bytes(encoded(picture(8, 8), ".png"))
    for lib in LIBS:
        with pytest.raises(RuntimeError):
            lib.image.ImageDetIter(1, (3, 8, 8), imglist=[[label, "a.png"]], path_root=str(tmp_path))


BAD = [("DetRandomCropAug", dict(area_range=(0.5, 0.1))), ("DetRandomCropAug", dict(aspect_ratio_range=(0, 1))),
       ("DetRandomPadAug", dict(area_range=(1.0, 1.0))), ("DetRandomPadAug", dict(aspect_ratio_range=(2, 1))),
       ("DetBorrowAug", dict(augmenter=None)), ("DetRandomSelectAug", dict(aug_list=[None]))]


@pytest.mark.parametrize("name, kwargs", BAD)
def test_bad_augmenter_arguments(name, kwargs):
    """MXNet's own types: its warnings.warn call with a range as category raises TypeError."""
    errors = []
    for lib in LIBS:
        with pytest.raises((TypeError, ValueError)) as err:
            getattr(lib.image, name)(**kwargs)
        errors.append(err.type)
    assert errors[1] is errors[0]


def test_det_augmenter_base():
    outs = []
    for lib in LIBS:
        aug = lib.image.DetAugmenter(p=0.5, mean=np.array([1.0, 2.0]), size=(3, 4))
        with pytest.raises(NotImplementedError):
            aug(lib.nd.zeros((2, 2, 3)), OBJECTS)
        outs.append(aug.dumps())
    assert outs[1] == outs[0]
