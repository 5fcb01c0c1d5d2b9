"""mx.image and mx.recordio's pack_img/unpack_img on their own: round trips through Go's
codecs, shapes and dtypes, reproducible random crops, and bad inputs raising MXNet's
error types (numbers against MXNet are in test_mxnet_image.py)."""
import random

import numpy as np
import pytest

import mxgo as mx

IMG = np.random.RandomState(0).randint(0, 256, (10, 12, 3)).astype(np.uint8)
HEADER = mx.recordio.IRHeader(0, 1.0, 5, 0)


def png(img=IMG):
    return mx.recordio.unpack(mx.recordio.pack_img(HEADER, img, img_fmt=".png"))[1]


@pytest.mark.parametrize("fmt", [".png", ".jpg"])
def test_pack_unpack_round_trip(fmt):
    smooth = (np.arange(10)[:, None, None] * 9 + np.arange(12)[None, :, None] * 7 + [0, 40, 80]).astype(np.uint8)
    header, img = mx.recordio.unpack_img(mx.recordio.pack_img(HEADER, smooth, quality=100, img_fmt=fmt))
    assert header == HEADER and img.shape == smooth.shape and img.dtype == np.uint8
    assert np.abs(img.astype(int) - smooth).max() <= (0 if fmt == ".png" else 8)


def test_imdecode_channels_and_order():
    buf = png()
    rgb = mx.image.imdecode(buf)
    assert isinstance(rgb, mx.nd.NDArray) and rgb.shape == (10, 12, 3) and rgb.dtype == np.uint8
    np.testing.assert_array_equal(rgb.asnumpy(), IMG[:, :, ::-1])  # pack_img took BGR
    np.testing.assert_array_equal(mx.image.imdecode(bytearray(buf), to_rgb=False).asnumpy(), IMG)
    np.testing.assert_array_equal(mx.image.imdecode(mx.nd.array(np.frombuffer(buf, np.uint8), dtype="uint8")).asnumpy(),
                                  rgb.asnumpy())
    assert mx.image.imdecode(buf, flag=0).shape == (10, 12, 1)
    gray = png(IMG[:, :, :1])
    assert mx.image.imdecode(gray, flag=-1).shape == (10, 12, 1) and mx.image.imdecode(gray).shape == (10, 12, 3)
    rgba = np.concatenate([IMG, np.full((10, 12, 1), 7, np.uint8)], axis=-1)
    np.testing.assert_array_equal(mx.image.imdecode(png(rgba), flag=-1, to_rgb=False).asnumpy(), rgba)
    out = mx.nd.zeros((10, 12, 3), dtype="uint8")
    assert mx.image.imdecode(buf, out=out) is out and (out.asnumpy() == rgb.asnumpy()).all()


def test_imread(tmp_path):
    (tmp_path / "a.png").write_bytes(png())
    assert mx.image.imread(str(tmp_path / "a.png")).shape == (10, 12, 3)
    with pytest.raises(mx.MXNetError, match="cannot find"):
        mx.image.imread(str(tmp_path / "missing.png"))


@pytest.mark.parametrize("bad, err", [(b"not an image", mx.MXNetError), (b"", mx.MXNetError),
                                      (png()[:40], mx.MXNetError), ("text", ValueError), (3, ValueError)])
def test_imdecode_bad_input(bad, err):
    with pytest.raises(err):
        mx.image.imdecode(bad)


def test_imdecode_bad_flag():
    with pytest.raises(ValueError, match="flag"):
        mx.image.imdecode(png(), flag=2)


def test_pack_img_bad_input():
    with pytest.raises(mx.MXNetError, match="uint8"):
        mx.recordio.pack_img(HEADER, IMG.astype(np.float32))
    with pytest.raises(ValueError, match="format"):
        mx.recordio.pack_img(HEADER, IMG, img_fmt=".bmp")
    with pytest.raises(ValueError, match="quality"):
        mx.recordio.pack_img(HEADER, IMG, quality=0)


@pytest.mark.parametrize("interp", [0, 1, 2, 3, 4, 9, 10])
@pytest.mark.parametrize("dtype", ["uint8", "float32"])
def test_imresize_shapes(interp, dtype):
    a = mx.nd.array(IMG, dtype=dtype)
    for w, h in ((5, 4), (30, 20)):
        out = mx.image.imresize(a, w, h, interp=interp)
        assert out.shape == (h, w, 3) and out.dtype == a.dtype


def test_imresize_constant_image_stays_constant():
    a = mx.nd.full((9, 7, 3), 200, dtype="uint8")
    for interp in (0, 1, 2, 3, 4):
        assert (mx.image.imresize(a, 4, 13, interp=interp).asnumpy() == 200).all()


@pytest.mark.parametrize("args, err", [((mx.nd.zeros((4, 4)), 2, 2), mx.MXNetError),
                                       ((mx.nd.zeros((4, 4, 3)), 0, 2), mx.MXNetError),
                                       ((IMG, 2, 2), TypeError)])
def test_imresize_bad_input(args, err):
    with pytest.raises(err):
        mx.image.imresize(*args)


@pytest.mark.parametrize("interp, err", [(5, ValueError), (-1, ValueError), ("1", ValueError)])
def test_imresize_bad_interp(interp, err):
    with pytest.raises(err):
        mx.image.imresize(mx.nd.array(IMG, dtype="uint8"), 3, 3, interp=interp)


def test_crops():
    a = mx.nd.array(IMG, dtype="uint8")
    assert mx.image.resize_short(a, 5).shape == (5, 6, 3)
    out, box = mx.image.center_crop(a, (6, 4))
    assert out.shape == (4, 6, 3) and box == (3, 3, 6, 4)
    np.testing.assert_array_equal(out.asnumpy(), IMG[3:7, 3:9])
    assert mx.image.fixed_crop(a, 1, 2, 4, 3).shape == (3, 4, 3)
    assert mx.image.scale_down((640, 480), (720, 120)) == (640, 106)
    norm = mx.image.color_normalize(mx.nd.array(IMG), mx.nd.array([1.0, 2.0, 3.0]), mx.nd.array([2.0, 2.0, 2.0]))
    np.testing.assert_allclose(norm.asnumpy(), (IMG - np.array([1.0, 2.0, 3.0])) / 2, rtol=1e-6)


def test_random_crops_reproducible():
    a = mx.nd.array(IMG, dtype="uint8")
    draws = []
    for _ in range(2):
        random.seed(7)
        draws.append((mx.image.random_crop(a, (5, 5))[1], mx.image.random_size_crop(a, (4, 4), 0.2, (0.5, 2))[1]))
    assert draws[0] == draws[1]
    out, (x0, y0, w, h) = mx.image.random_crop(a, (5, 5))
    assert out.shape == (5, 5, 3) and 0 <= x0 <= 7 and 0 <= y0 <= 5
    with pytest.raises(TypeError, match="unexpected"):
        mx.image.random_size_crop(a, (4, 4), 0.2, (0.5, 2), bogus=1)


def test_augmenters_dump_and_shapes():
    augs = mx.image.CreateAugmenter((3, 6, 5), resize=8, rand_crop=True, rand_mirror=True, mean=True, std=True,
                                    brightness=0.2, hue=0.1)
    assert [type(a).__name__ for a in augs] == ["ResizeAug", "RandomCropAug", "HorizontalFlipAug", "CastAug",
                                                "ColorJitterAug", "HueJitterAug", "ColorNormalizeAug"]
    assert augs[0].dumps() == '["resizeaug", {"size": 8, "interp": 2}]'
    assert augs[4].dumps() == ["colorjitteraug", ['["brightnessjitteraug", {"brightness": 0.2}]']]
    x = mx.nd.array(IMG, dtype="uint8")
    for a in augs:
        x = a(x)
    assert x.shape == (6, 5, 3) and x.dtype == np.float32
    with pytest.raises(ValueError, match="rand_crop"):
        mx.image.CreateAugmenter((3, 6, 5), rand_resize=True)
    with pytest.raises(ValueError, match="mean"):
        mx.image.CreateAugmenter((3, 6, 5), mean=[1, 2])


def test_image_iter_errors(tmp_path):
    (tmp_path / "good.png").write_bytes(png())
    (tmp_path / "bad.png").write_bytes(b"broken")
    it = mx.image.ImageIter(2, (3, 4, 4), imglist=[[0, "good.png"], [1, "bad.png"]], path_root=str(tmp_path))
    assert it.provide_data == [("data", (2, 3, 4, 4))] and it.provide_label == [("softmax_label", (2,))]
    with pytest.raises(RuntimeError, match="Broken image filename: bad.png"):
        it.next()
    for kwargs in (dict(), dict(imglist=[], data_shape=(1, 4, 4)), dict(imglist=[], data_shape=(3, 4)),
                   dict(imglist=[], last_batch_handle="keep"), dict(imglist=[], dtype="uint8")):
        args = dict(batch_size=2, data_shape=(3, 4, 4))
        args.update(kwargs)
        with pytest.raises(ValueError):
            mx.image.ImageIter(**args)
