"""mx.image and the image datasets against MXNet 1.9.1's OpenCV-based ones (collected only
in .venv-mxnet; see environments.py). Images are encoded by mxgo's pack_img (Go's
encoders; MXNet's needs cv2, absent there) and decoded by both libraries.

Tolerances: PNG decodes exactly (gray: libpng's and OpenCV's gray weights may differ by
1); JPEG differs by IDCT rounding (mxgo emulates libjpeg's chroma upsampling and colour
tables): at most JPEG_MAX per sample and JPEG_MEAN on average on these smooth images
(gray, the luma plane, within 1). uint8 resizes agree within 1 (OpenCV's SIMD rounding),
float32 ones within 1e-3.
"""
import random

import mxnet
import numpy as np
import pytest

import mxgo as mx

JPEG_MAX, JPEG_MEAN = 4, 0.1  # measured: max 2-3, mean 0.02-0.05 (gray within 1), quality 75-95
LIBS = (mxnet, mx)


def picture(h=24, w=32, seed=0):
    """A smooth RGB test picture with some texture (uint8)."""
    y, x = np.mgrid[0:h, 0:w]
    noise = np.random.RandomState(seed).randint(0, 24, (h, w, 3))
    rgb = np.stack([x * 200 // w, y * 200 // h, (x + y) * 100 // (h + w) + 60], axis=-1) + noise
    return rgb.astype(np.uint8)


def encoded(img, fmt):
    """The bytes of RGB ``img`` as fmt, from mxgo's pack_img (which takes OpenCV's BGR)."""
    header = mx.recordio.IRHeader(0, 0.0, 0, 0)
    return mx.recordio.unpack(mx.recordio.pack_img(header, img[:, :, ::-1], quality=90, img_fmt=fmt))[1]


def both(fn, *args, **kwargs):
    return [fn(lib, *args, **kwargs) for lib in LIBS]


@pytest.mark.parametrize("flag", [1, 0])
def test_imdecode_png_exact(flag):
    buf = encoded(picture(), ".png")
    ref, ours = both(lambda lib: lib.image.imdecode(buf, flag=flag).asnumpy())
    assert ours.shape == ref.shape == (24, 32, 3 if flag else 1) and ours.dtype == np.uint8
    assert np.abs(ours.astype(int) - ref).max() <= (0 if flag else 1)
    if flag:
        np.testing.assert_array_equal(ours, picture())


@pytest.mark.parametrize("to_rgb", [True, False])
def test_imdecode_jpeg_within_tolerance(to_rgb):
    buf = encoded(picture(48, 40), ".jpg")
    ref, ours = both(lambda lib: lib.image.imdecode(buf, to_rgb=to_rgb).asnumpy().astype(int))
    diff = np.abs(ours - ref)
    assert ours.shape == ref.shape and diff.max() <= JPEG_MAX and diff.mean() <= JPEG_MEAN, (diff.max(), diff.mean())


def test_imread_and_gray_jpeg(tmp_path):
    path = tmp_path / "a.jpg"
    path.write_bytes(encoded(picture(), ".jpg"))
    ref, ours = both(lambda lib: lib.image.imread(str(path), flag=0).asnumpy().astype(int))
    assert ours.shape == ref.shape == (24, 32, 1) and np.abs(ours - ref).max() <= 1  # the luma plane


@pytest.mark.parametrize("interp", [0, 1, 2, 3, 4])
@pytest.mark.parametrize("size", [(13, 9), (64, 48), (16, 12), (20, 30)])
@pytest.mark.parametrize("dtype", ["uint8", "float32"])
def test_imresize(interp, size, dtype):
    img = picture().astype(dtype)
    ref, ours = both(lambda lib: lib.image.imresize(lib.nd.array(img, dtype=dtype), *size, interp=interp).asnumpy())
    assert ours.shape == ref.shape == (size[1], size[0], 3) and ours.dtype == ref.dtype
    np.testing.assert_allclose(ours.astype(np.float64), ref, atol=1 if dtype == "uint8" else 1e-3, rtol=0)


def test_crops_and_resize_short():
    img = picture(30, 40)
    calls = [lambda lib, a: lib.image.resize_short(a, 20),
             lambda lib, a: lib.image.fixed_crop(a, 3, 4, 20, 10, size=(10, 5), interp=1),
             lambda lib, a: lib.image.center_crop(a, (50, 20))[0],
             lambda lib, a: lib.image.random_crop(a, (16, 16))[0],
             lambda lib, a: lib.image.random_size_crop(a, (12, 12), 0.3, (0.75, 1.33))[0]]
    for call in calls:
        outs = []
        for lib in LIBS:
            random.seed(3)
            outs.append(call(lib, lib.nd.array(img, dtype="uint8")).asnumpy().astype(int))
        assert outs[0].shape == outs[1].shape
        assert np.abs(outs[0] - outs[1]).max() <= 1
    assert mx.image.scale_down((640, 480), (720, 120)) == mxnet.image.scale_down((640, 480), (720, 120))


def test_color_normalize():
    img = picture().astype(np.float32)
    mean, std = np.array([120.0, 110.0, 100.0]), np.array([50.0, 60.0, 70.0])
    ref, ours = both(lambda lib: lib.image.color_normalize(lib.nd.array(img), lib.nd.array(mean),
                                                            lib.nd.array(std)).asnumpy())
    np.testing.assert_allclose(ours, ref, rtol=1e-6)


def test_image_record_dataset(tmp_path):
    rec = mx.recordio.MXIndexedRecordIO(str(tmp_path / "d.idx"), str(tmp_path / "d.rec"), "w")
    for i in range(3):
        rec.write_idx(i, mx.recordio.pack_img(mx.recordio.IRHeader(0, float(i), i, 0), picture(seed=i), img_fmt=".png"))
    rec.close()
    ref, ours = both(lambda lib: lib.gluon.data.vision.ImageRecordDataset(str(tmp_path / "d.rec")))
    assert len(ours) == len(ref) == 3
    for i in range(3):
        np.testing.assert_array_equal(ours[i][0].asnumpy(), ref[i][0].asnumpy())
        assert ours[i][1] == ref[i][1]
    header, img = mx.recordio.unpack_img(ref._record.read_idx(1))
    np.testing.assert_array_equal(img, picture(seed=1))
    assert header.label == 1.0


def test_image_folder_dataset(tmp_path):
    for cls, n in (("cat", 2), ("dog", 1)):
        (tmp_path / cls).mkdir()
        for i in range(n):
            (tmp_path / cls / ("%d.png" % i)).write_bytes(encoded(picture(seed=i), ".png"))
    (tmp_path / "dog" / "notes.txt").write_text("skip me")
    with pytest.warns(UserWarning):
        ref, ours = both(lambda lib: lib.gluon.data.vision.ImageFolderDataset(str(tmp_path)))
    assert ours.synsets == ref.synsets == ["cat", "dog"]
    assert ours.items == ref.items and len(ours) == 3
    for i in range(3):
        np.testing.assert_array_equal(ours[i][0].asnumpy(), ref[i][0].asnumpy())
        assert ours[i][1] == ref[i][1]


AUG_OPTIONS = [dict(), dict(resize=20, rand_crop=True, rand_mirror=True),
               dict(rand_crop=True, rand_resize=True, mean=True, std=True),
               dict(brightness=0.3, contrast=0.3, saturation=0.3, hue=0.2, pca_noise=0.1, rand_gray=0.5,
                    mean=np.array([1.0, 2.0, 3.0]), inter_method=1)]


def dumps(aug):
    return [dumps(t) for t in aug] if isinstance(aug, list) else aug


@pytest.mark.parametrize("options", AUG_OPTIONS)
def test_create_augmenter(options):
    img = picture(30, 40)
    outs, dumped = [], []
    for lib in LIBS:
        augs = lib.image.CreateAugmenter((3, 16, 12), **options)
        dumped.append([dumps(a.dumps()) for a in augs])
        random.seed(5)
        np.random.seed(5)
        x = lib.nd.array(img, dtype="uint8")
        for a in augs:
            x = a(x)
        outs.append(x.asnumpy())
    assert [type(a).__name__ for a in mx.image.CreateAugmenter((3, 16, 12), **options)] == \
           [type(a).__name__ for a in mxnet.image.CreateAugmenter((3, 16, 12), **options)]
    assert dumped[1] == dumped[0]
    assert outs[1].shape == outs[0].shape == (16, 12, 3) and outs[1].dtype == outs[0].dtype
    np.testing.assert_allclose(outs[1], outs[0], rtol=1e-4, atol=1e-2)


def write_rec(tmp_path, n=5):
    rec = mx.recordio.MXIndexedRecordIO(str(tmp_path / "d.idx"), str(tmp_path / "d.rec"), "w")
    for i in range(n):
        rec.write_idx(i, mx.recordio.pack_img(mx.recordio.IRHeader(0, float(i), i, 0), picture(20, 18, seed=i),
                                              img_fmt=".png"))
    rec.close()
    return dict(path_imgrec=str(tmp_path / "d.rec"))


def write_list(tmp_path, n=5):
    lines = []
    for i in range(n):
        (tmp_path / ("%d.png" % i)).write_bytes(encoded(picture(20, 18, seed=i), ".png"))
        lines.append("%d\t%d\t%d\t%d.png\n" % (i, i, 10 * i, i))
    (tmp_path / "d.lst").write_text("".join(lines))
    return dict(path_imglist=str(tmp_path / "d.lst"), path_root=str(tmp_path), label_width=2)


@pytest.mark.parametrize("last", ["pad", "discard", "roll_over"])
@pytest.mark.parametrize("source", [write_rec, write_list])
def test_image_iter(tmp_path, last, source):
    kwargs = source(tmp_path)
    epochs = []
    for lib in LIBS:
        it = lib.image.ImageIter(2, (3, 8, 8), last_batch_handle=last, rand_crop=True, **kwargs)
        random.seed(1)
        got = []
        for _ in range(2):
            got.append([(b.data[0].asnumpy(), b.label[0].asnumpy(), b.pad) for b in it])
            it.reset()
        epochs.append((got, it.provide_data, it.provide_label))
    (ref, ref_data, ref_label), (ours, data, label) = epochs
    assert data == ref_data and label == ref_label
    assert [len(e) for e in ours] == [len(e) for e in ref]
    for e_ours, e_ref in zip(ours, ref):
        for (d, lab, pad), (rd, rlab, rpad) in zip(e_ours, e_ref):
            assert pad == rpad and d.shape == rd.shape == (2, 3, 8, 8)
            np.testing.assert_array_equal(d, rd)
            np.testing.assert_array_equal(lab, rlab)


def test_image_iter_imglist_and_shuffle(tmp_path):
    write_rec(tmp_path)
    imglist = [[float(i), "%d.png" % i] for i in range(3)]
    for i in range(3):
        (tmp_path / ("%d.png" % i)).write_bytes(encoded(picture(10, 12, seed=i), ".png"))
    outs = []
    for lib in LIBS:
        random.seed(2)
        a = lib.image.ImageIter(3, (3, 6, 6), imglist=imglist, path_root=str(tmp_path), shuffle=True)
        b = lib.image.ImageIter(2, (3, 6, 6), path_imgrec=str(tmp_path / "d.rec"), path_imgidx=str(tmp_path / "d.idx"),
                                shuffle=True, num_parts=2, part_index=1)
        outs.append([x.label[0].asnumpy() for it in (a, b) for x in it])
    for o, r in zip(outs[1], outs[0]):
        np.testing.assert_array_equal(o, r)


@pytest.mark.parametrize("args", [(2, 3, 10, 8), (2, 3, 10, 8, (7, 5), 1), (0, 0, 32, 24, 12, 1)])
@pytest.mark.parametrize("batch", [False, True])
def test_crop_resize_transform(args, batch):
    img = np.stack([picture(seed=0), picture(seed=1)]) if batch else picture()
    ref, ours = both(lambda lib: lib.gluon.data.vision.transforms.CropResize(*args)(
        lib.nd.array(img, dtype="uint8")).asnumpy().astype(int))
    assert ours.shape == ref.shape and np.abs(ours - ref).max() <= 1


def test_crop_resize_default_interpolation():
    """MXNet's CropResize fails with a size and its default interpolation=None (it passes
    None to its resize operator); mxgo resizes bilinearly, as MXNet's interpolation=1."""
    out = mx.gluon.data.vision.transforms.CropResize(2, 3, 10, 8, (7, 5))(mx.nd.array(picture(), dtype="uint8"))
    ref = mxnet.gluon.data.vision.transforms.CropResize(2, 3, 10, 8, (7, 5), 1)(mxnet.nd.array(picture(), dtype="uint8"))
    assert np.abs(out.asnumpy().astype(int) - ref.asnumpy()).max() <= 1


@pytest.mark.parametrize("interp", [0, 2, 3])
def test_resize_transform_interpolation(interp):
    img = picture()
    ref, ours = both(lambda lib: lib.gluon.data.vision.transforms.Resize((13, 9), interpolation=interp)(
        lib.nd.array(img, dtype="uint8")).asnumpy().astype(int))
    assert ours.shape == ref.shape == (9, 13, 3) and np.abs(ours - ref).max() <= 1


@pytest.mark.parametrize("zoom", [{}, {"zoom_in": True}, {"zoom_out": True}])
def test_imrotate_and_rotate_transforms(zoom):
    img = picture(12, 10).transpose(2, 0, 1).astype(np.float32)
    batch = np.stack([img, img[::-1]])
    ref, ours = both(lambda lib: lib.image.imrotate(lib.nd.array(img), 30, **zoom).asnumpy())
    np.testing.assert_allclose(ours, ref, atol=1e-3)
    ref, ours = both(lambda lib: lib.image.imrotate(lib.nd.array(batch), lib.nd.array([-20, 45]), **zoom).asnumpy())
    np.testing.assert_allclose(ours, ref, atol=1e-3)
    outs = []
    for lib in LIBS:
        np.random.seed(4)
        T = lib.gluon.data.vision.transforms
        outs.append([T.Rotate(15, **zoom)(lib.nd.array(img)).asnumpy(),
                     T.RandomRotation((-40, 40), rotate_with_proba=0.7, **zoom)(lib.nd.array(batch)).asnumpy()])
    for o, r in zip(outs[1], outs[0]):
        np.testing.assert_allclose(o, r, atol=1e-3)
    for bad, err in [(lambda lib: lib.image.imrotate(lib.nd.array(img, dtype="uint8"), 3), TypeError),
                     (lambda lib: lib.image.imrotate(lib.nd.array(img), 3, True, True), ValueError),
                     (lambda lib: lib.image.imrotate(lib.nd.array(batch), lib.nd.array([1, 2, 3])), ValueError),
                     (lambda lib: lib.gluon.data.vision.transforms.RandomRotation((5, 1)), ValueError)]:
        for lib in LIBS:
            with pytest.raises(err):
                bad(lib)


AUGMENTERS = [("ResizeAug", (14,)), ("ForceResizeAug", ((9, 7), 1)), ("RandomCropAug", ((8, 6),)),
              ("RandomSizedCropAug", ((8, 6), 0.3, (0.8, 1.25))), ("CenterCropAug", ((8, 6), 3)),
              ("BrightnessJitterAug", (0.4,)), ("ContrastJitterAug", (0.4,)), ("SaturationJitterAug", (0.4,)),
              ("HueJitterAug", (0.3,)), ("ColorJitterAug", (0.2, 0.3, 0.4)),
              ("LightingAug", (0.1, np.array([55.46, 4.794, 1.148]), np.eye(3))),
              ("ColorNormalizeAug", (np.array([1.0, 2.0, 3.0]), np.array([2.0, 3.0, 4.0]))), ("RandomGrayAug", (0.9,)),
              ("HorizontalFlipAug", (0.9,)), ("CastAug", ("float64",))]


@pytest.mark.parametrize("name, args", AUGMENTERS)
def test_augmenter(name, args):
    outs = []
    for lib in LIBS:
        aug = getattr(lib.image, name)(*args)
        random.seed(9)
        np.random.seed(9)
        x = lib.nd.array(picture(), dtype="float32")
        outs.append((dumps(aug.dumps()), aug(x).asnumpy()))
    assert outs[1][0] == outs[0][0]
    assert outs[1][1].shape == outs[0][1].shape and outs[1][1].dtype == outs[0][1].dtype
    np.testing.assert_allclose(outs[1][1], outs[0][1], rtol=1e-4, atol=1e-2)


def test_sequential_and_random_order_aug():
    outs = []
    for lib in LIBS:
        ts = [lib.image.BrightnessJitterAug(0.3), lib.image.CastAug("float64"), lib.image.HorizontalFlipAug(1.0)]
        random.seed(2)
        x = lib.nd.array(picture(), dtype="float32")
        outs.append([lib.image.SequentialAug(ts)(x).asnumpy(), lib.image.RandomOrderAug(ts)(x).asnumpy(),
                     dumps(lib.image.SequentialAug(ts).dumps())])
    np.testing.assert_allclose(outs[1][0], outs[0][0], rtol=1e-5)
    np.testing.assert_allclose(outs[1][1], outs[0][1], rtol=1e-5)
    assert outs[1][2] == outs[0][2]


def test_random_rotate():
    outs = []
    for lib in LIBS:
        np.random.seed(6)
        outs.append(lib.image.random_rotate(lib.nd.array(picture(8, 6).transpose(2, 0, 1).astype(np.float32)),
                                            (-30, 30), zoom_in=True).asnumpy())
    np.testing.assert_allclose(outs[1], outs[0], atol=1e-3)
