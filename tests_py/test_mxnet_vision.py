"""gluon.data.vision against MXNet 1.9.1's (collected only in .venv-mxnet; see
environments.py): the datasets read tiny files in the real formats, written here, and give
MXNet's samples (MXNet's download is bypassed: the files are there); the deterministic
transforms give MXNet's outputs; the random ones give what MXNet's give for some draw
(flips: the image or its mirror, both seen; colour: MXNet's formula with one alpha in range)."""
import gzip
import os
import random
import struct

import mxnet
import mxnet.gluon.data.vision.datasets as mxnet_datasets
import numpy as np
import pytest

import mxgo as mx

RNG = np.random.default_rng(0)
LIBS = (mxnet, mx)


@pytest.fixture
def offline(monkeypatch):
    """MXNet's datasets use the files in root as they are, as mxgo's do."""
    monkeypatch.setattr(mxnet_datasets, "download", lambda url, path, sha1_hash: os.path.join(path, url.split("/")[-1]))
    monkeypatch.setattr(mxnet_datasets, "check_sha1", lambda path, sha1: True)


def write_mnist(root, prefix, n):
    images, labels = RNG.integers(0, 256, (n, 28, 28), dtype=np.uint8), RNG.integers(0, 10, n, dtype=np.uint8)
    with gzip.open(os.path.join(root, prefix + "-images-idx3-ubyte.gz"), "wb") as f:
        f.write(struct.pack(">IIII", 2051, n, 28, 28) + images.tobytes())
    with gzip.open(os.path.join(root, prefix + "-labels-idx1-ubyte.gz"), "wb") as f:
        f.write(struct.pack(">II", 2049, n) + labels.tobytes())


def write_cifar(root, names, label_bytes, n):
    for name in names:
        rows = np.concatenate([RNG.integers(0, 100, (n, label_bytes), dtype=np.uint8),
                               RNG.integers(0, 256, (n, 3072), dtype=np.uint8)], axis=1)
        with open(os.path.join(root, name), "wb") as f:
            f.write(rows.tobytes())


def assert_same_samples(ours, theirs):
    assert len(ours) == len(theirs)
    for i in range(len(ours)):
        (od, ol), (td, tl) = ours[i], theirs[i]
        assert od.shape == td.shape and od.dtype == td.dtype
        np.testing.assert_array_equal(od.asnumpy(), td.asnumpy())
        assert ol == tl and np.asarray(ol).dtype == np.asarray(tl).dtype


@pytest.mark.parametrize("name", ["MNIST", "FashionMNIST"])
@pytest.mark.parametrize("train", [True, False])
def test_mnist(tmp_path, offline, name, train):
    write_mnist(str(tmp_path), "train" if train else "t10k", 3)
    ours = getattr(mx.gluon.data.vision, name)(str(tmp_path), train=train)
    theirs = getattr(mxnet.gluon.data.vision, name)(str(tmp_path), train=train)
    assert_same_samples(ours, theirs)


@pytest.mark.parametrize("train", [True, False])
def test_cifar10(tmp_path, offline, train):
    write_cifar(str(tmp_path), ["data_batch_%d.bin" % i for i in range(1, 6)] + ["test_batch.bin"], 1, 2)
    assert_same_samples(mx.gluon.data.vision.CIFAR10(str(tmp_path), train=train),
                        mxnet.gluon.data.vision.CIFAR10(str(tmp_path), train=train))


@pytest.mark.parametrize("fine", [False, True])
def test_cifar100_with_transform(tmp_path, offline, fine):
    write_cifar(str(tmp_path), ["train.bin", "test.bin"], 2, 3)
    kw = dict(fine_label=fine, transform=lambda data, label: (data.astype("float32") / 255, label + 1))
    assert_same_samples(mx.gluon.data.vision.CIFAR100(str(tmp_path), **kw),
                        mxnet.gluon.data.vision.CIFAR100(str(tmp_path), **kw))


def both(make, x):
    """make(lib.gluon.data.vision.transforms)(x) in each library, as NumPy; mxgo's hybridized
    gives the same."""
    outs = [make(lib.gluon.data.vision.transforms)(lib.nd.array(x, dtype=x.dtype)).asnumpy() for lib in LIBS]
    hybrid = make(mx.gluon.data.vision.transforms)
    hybrid.hybridize()
    np.testing.assert_array_equal(hybrid(mx.nd.array(x, dtype=x.dtype)).asnumpy(), outs[1])
    return outs


IMAGES = [RNG.integers(0, 256, (5, 4, 3), dtype=np.uint8), RNG.integers(0, 256, (2, 5, 4, 3), dtype=np.uint8),
          RNG.uniform(0, 255, (4, 6, 1)).astype(np.float32)]


@pytest.mark.parametrize("x", IMAGES, ids=["hwc", "nhwc", "float"])
def test_to_tensor_normalize_cast(x):
    for make in (lambda T: T.ToTensor(), lambda T: T.Cast("float16"),
                 lambda T: T.Compose([T.ToTensor(), T.Normalize(0.25, 2.0)]),
                 lambda T: T.Compose([T.Cast(), T.ToTensor(), T.Normalize((0.1, 0.2, 0.3)[:x.shape[-1]],
                                                                           (0.5, 0.25, 2.0)[:x.shape[-1]])])):
        ours, theirs = both(make, x)
        assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
        np.testing.assert_allclose(ours, theirs, rtol=1e-6)


def test_normalize_wrong_channels_raises_as_mxnet():
    x = np.zeros((3, 2, 2), np.float32)
    for lib in LIBS:
        with pytest.raises(lib.base.MXNetError):
            lib.gluon.data.vision.transforms.Normalize((0.1, 0.2), (1.0, 1.0))(lib.nd.array(x)).wait_to_read()


@pytest.mark.parametrize("name,op", [("RandomFlipLeftRight", "flip_left_right"),
                                     ("RandomFlipTopBottom", "flip_top_bottom")])
def test_random_flips(name, op):
    """The image or MXNet's flip of it, both seen. MXNet 1.9.1's flips leave the middle
    row (column) of an odd height (width) unwritten, so the image's sides are even here.
    A batch is refused, as MXNet refuses it."""
    x = RNG.integers(0, 256, (4, 6, 3), dtype=np.uint8)
    flipped = getattr(mxnet.nd.image, op)(mxnet.nd.array(x, dtype=x.dtype)).asnumpy()
    mx.random.seed(1)
    flip = getattr(mx.gluon.data.vision.transforms, name)()
    seen = {flip(mx.nd.array(x, dtype=x.dtype)).asnumpy().tobytes() for _ in range(16)}
    assert seen == {x.tobytes(), flipped.tobytes()}
    for lib in LIBS:
        with pytest.raises(lib.base.MXNetError):
            getattr(lib.gluon.data.vision.transforms, name)()(lib.nd.array(IMAGES[1], dtype=np.uint8)).wait_to_read()


def blend_alpha(out, x, ref):
    """The alpha with out == alpha * x + (1 - alpha) * ref everywhere (asserted)."""
    alpha = ((out - ref) / (x - ref)).ravel()[0]
    np.testing.assert_allclose(out, alpha * x + (1 - alpha) * ref, rtol=1e-5, atol=1e-3)
    return alpha


@pytest.mark.parametrize("name", ["RandomBrightness", "RandomContrast", "RandomSaturation"])
def test_random_colour(name):
    x = IMAGES[0].astype(np.float32)
    ref = {"RandomBrightness": np.zeros_like(x),
           "RandomContrast": np.full_like(x, (x * [0.299, 0.587, 0.114]).sum(-1).mean()),
           "RandomSaturation": np.broadcast_to(x[..., 2:] * 0.114, x.shape)}[name]  # MXNet's gray level
    for lib in LIBS:
        make = getattr(lib.gluon.data.vision.transforms, name)
        lib.random.seed(7)
        out = make(0.4)(lib.nd.array(x)).asnumpy()
        assert 0.6 <= blend_alpha(out, x, ref) <= 1.4
        lib.random.seed(7)
        as_uint8 = make(0.4)(lib.nd.array(IMAGES[0], dtype=np.uint8)).asnumpy()
        np.testing.assert_array_equal(as_uint8, np.clip(out, 0, 255).astype(np.uint8))



@pytest.mark.parametrize("stage", [0, 1, 2])
def test_random_color_jitter_one_stage(stage):
    """With one amount set, the jitter is that stage's blend with one alpha in range, in both
    libraries; with several, both give images of the input's shape and dtype (the order of
    the stages is random)."""
    x = IMAGES[0].astype(np.float32)
    ref = [np.zeros_like(x), np.full_like(x, (x * [0.299, 0.587, 0.114]).sum(-1).mean()),
           np.broadcast_to(x[..., 2:] * 0.114, x.shape)][stage]
    args = [0.0, 0.0, 0.0, 0.0]
    args[stage] = 0.3
    for lib in LIBS:
        jitter = lib.gluon.data.vision.transforms.RandomColorJitter(*args)
        assert 0.7 <= blend_alpha(jitter(lib.nd.array(x)).asnumpy(), x, ref) <= 1.3
        out = lib.gluon.data.vision.transforms.RandomColorJitter(0.2, 0.2, 0.2, 0.1)(
            lib.nd.array(IMAGES[0], dtype=np.uint8))
        assert out.shape == x.shape and out.dtype == np.uint8
        with pytest.raises(lib.base.MXNetError):
            lib.gluon.data.vision.transforms.RandomColorJitter(0.2)(lib.nd.array(x[..., :2])).wait_to_read()


def test_random_color_jitter_hue_and_order():
    """Hue alone turns by a factor drawn from [-hue, hue] (replayed from mxgo's generator:
    the stages' order, then the factor), as MXNet's operator pinned to it turns; mxgo's
    seeded draws repeat; with every amount 0 mxgo gives the image back (MXNet leaves its
    output unwritten)."""
    x = IMAGES[0].astype(np.float32)
    mx.random.seed(5)
    ours = mx.gluon.data.vision.transforms.RandomColorJitter(hue=0.2)(mx.nd.array(x)).asnumpy()
    mx.random.seed(5)
    mx.nd.random.shuffle(mx.nd.arange(4)).wait_to_read()
    f = mx.nd.random.uniform(-0.2, 0.2, shape=(1,)).asscalar() % 1.0  # MXNet's factors are >= 0: -f is 1 - f
    np.testing.assert_allclose(ours, mxnet.nd.image.random_hue(mxnet.nd.array(x), f, f).asnumpy(), atol=1e-3)
    assert np.abs(ours - x).max() > 1.0
    jitter = mx.gluon.data.vision.transforms.RandomColorJitter(0.3, 0.3, 0.3)
    mx.random.seed(9)
    first = [jitter(mx.nd.array(x)).asnumpy() for _ in range(3)]
    mx.random.seed(9)
    np.testing.assert_array_equal(np.stack(first), np.stack([jitter(mx.nd.array(x)).asnumpy() for _ in range(3)]))
    np.testing.assert_array_equal(mx.gluon.data.vision.transforms.RandomColorJitter()(mx.nd.array(x)).asnumpy(), x)

def test_random_lighting():
    """MXNet's offset: the PCA eigenvectors times eigenvalues times N(0, alpha) weights, the
    same for every pixel (the weights recovered here are within 5 alpha)."""
    eig = np.array([[-0.5675, 0.7192, 0.4009], [-0.5808, -0.0045, -0.8140], [-0.5836, -0.6948, 0.4203]]) * [55.46, 4.794, 1.148]
    x = IMAGES[0].astype(np.float32)
    for lib in LIBS:
        make = lib.gluon.data.vision.transforms.RandomLighting
        lib.random.seed(3)
        offset = (make(0.1)(lib.nd.array(x)).asnumpy() - x).reshape(-1, 3)
        np.testing.assert_allclose(offset, np.broadcast_to(offset[0], offset.shape), atol=1e-3)
        assert np.abs(np.linalg.solve(eig, offset[0])).max() < 0.5
        lib.random.seed(3)
        as_uint8 = make(0.1)(lib.nd.array(IMAGES[0], dtype=np.uint8)).asnumpy()
        np.testing.assert_array_equal(as_uint8, np.clip(x + offset.reshape(x.shape), 0, 255).astype(np.uint8))


@pytest.mark.parametrize("shape,size,keep", [((5, 7, 3), (4, 3), False), ((6, 8, 3), 4, False), ((6, 9, 1), 4, True),
                                             ((2, 10, 12, 3), (7, 5), False), ((9, 5, 3), 7, True),
                                             ((4, 4, 1), (9, 6), False), ((13, 9, 3), (20, 31), False)])
@pytest.mark.parametrize("dtype", [np.float32, np.uint8])
def test_resize(shape, size, keep, dtype):
    x = RNG.integers(0, 256, shape).astype(dtype)
    assert_same_image(*both(lambda T: T.Resize(size, keep_ratio=keep), x), x.shape)


def assert_same_image(ours, theirs, in_shape):
    """Equal (float: to rounding); a uint8 image enlarged along both axes within 1, where
    OpenCV's rounding departs from the fixed-point arithmetic that mxgo emulates."""
    assert ours.shape == theirs.shape and ours.dtype == theirs.dtype
    both_up = ours.shape[-3] > in_shape[-3] and ours.shape[-2] > in_shape[-2]
    atol = 1 if ours.dtype == np.uint8 and both_up else 1e-3
    np.testing.assert_allclose(ours.astype(np.float64), theirs, rtol=1e-5, atol=atol)


@pytest.mark.parametrize("shape,size", [((9, 8, 3), 4), ((7, 10, 3), (5, 3)), ((3, 4, 3), (6, 5)), ((6, 6, 1), (8, 4))])
@pytest.mark.parametrize("dtype", [np.float32, np.uint8])
def test_center_crop(shape, size, dtype):
    x = RNG.integers(0, 256, shape).astype(dtype)
    w, h = (size, size) if isinstance(size, int) else size
    enlarged = x.shape[0] < h or x.shape[1] < w  # cropped to the aspect ratio, then enlarged
    assert_same_image(*both(lambda T: T.CenterCrop(size), x), (0, 0, 0) if enlarged else x.shape)


@pytest.mark.parametrize("shape,size,scale", [((12, 10, 3), 6, (0.08, 1.0)), ((8, 9, 3), (5, 7), 0.5),
                                              ((6, 6, 1), (4, 4), (2.0, 3.0))])  # the last falls back to the centre
@pytest.mark.parametrize("dtype", [np.float32, np.uint8])
def test_random_resized_crop(shape, size, scale, dtype):
    """With Python's random seeded alike, MXNet's crop."""
    x = RNG.integers(0, 256, shape).astype(dtype)
    outs = []
    for lib in LIBS:
        random.seed(11)
        crop = lib.gluon.data.vision.transforms.RandomResizedCrop(size, scale=scale)
        outs.append(np.stack([crop(lib.nd.array(x, dtype=x.dtype)).asnumpy() for _ in range(3)]))
    assert_same_image(*outs, (0, 0, 0))


@pytest.mark.parametrize("factor", [0.0, 0.1, 0.5, 1.3, 1.9])
def test_hue_shift(factor):
    """The hue turn against MXNet's operator with its factor pinned (min = max), grays and
    primaries included; RandomHue(0) (factor 1) against MXNet's RandomHue(0)."""
    x = RNG.integers(0, 256, (6, 5, 3)).astype(np.float32)
    x[0, :3] = [[10, 10, 10], [255, 0, 0], [0, 255, 0]]
    theirs = mxnet.nd.image.random_hue(mxnet.nd.array(x), factor, factor).asnumpy()
    ours = mx.gluon.data.vision.transforms._shift_hue(mx.nd, mx.nd.array(x), factor).asnumpy()
    np.testing.assert_allclose(ours, theirs, atol=1e-3)
    assert_same_image(*both(lambda T: T.RandomHue(0), x.astype(np.uint8)), x.shape)
