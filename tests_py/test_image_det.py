"""mx.image's detection pieces: bad inputs raise clear exceptions and leave state intact
(MXNet's behaviour itself is checked by test_mxnet_image_det.py)."""
import numpy as np
import pytest

import mxgo as mx


@pytest.fixture
def det_iter(tmp_path):
    header = mx.recordio.IRHeader(0, 0.0, 0, 0)
    png = mx.recordio.unpack(mx.recordio.pack_img(header, np.zeros((8, 8, 3), np.uint8), img_fmt=".png"))[1]
    (tmp_path / "a.png").write_bytes(png)
    label = [2, 5, 0, 0.1, 0.1, 0.6, 0.7, 1, 0.2, 0.2, 0.9, 0.9]
    return mx.image.ImageDetIter(1, (3, 8, 8), imglist=[[label, "a.png"]], path_root=str(tmp_path))


@pytest.mark.parametrize("make, error", [
    (lambda: mx.image.DetRandomCropAug(aspect_ratio_range="wide"), TypeError),
    (lambda: mx.image.DetRandomPadAug(pad_val="gray"), TypeError),
    (lambda: mx.image.CreateMultiRandCropAugmenter([0.1, 0.2], area_range=[(0.1, 1.0)] * 3), ValueError),
    (lambda: mx.image.CreateDetAugmenter((3, 8, 8), mean=[1, 2]), ValueError),
])
def test_bad_arguments(make, error):
    with pytest.raises(error):
        make()


def test_iterator_errors_leave_state(det_iter):
    assert det_iter.label_shape == (2, 5) and det_iter.provide_label == [("label", (1, 2, 5))]
    with pytest.raises(ValueError, match="reduce"):
        det_iter.reshape(None, (1, 5))
    with pytest.raises(ValueError, match="3 channels"):
        det_iter.reshape((1, 8, 8), None)
    with pytest.raises(TypeError):
        det_iter.sync_label_shape("not an iterator")
    with pytest.raises(NotImplementedError, match="cv2"):
        det_iter.draw_next()
    assert det_iter.label_shape == (2, 5) and det_iter.provide_data == [("data", (1, 3, 8, 8))]
    label = det_iter.next().label[0].asnumpy()
    np.testing.assert_allclose(label[0, 1], [1, 0.2, 0.2, 0.9, 0.9])
    np.testing.assert_allclose(label[0, 0], [0, 0.1, 0.1, 0.6, 0.7])


def test_flip_keeps_boxes_normalized():
    label = np.array([[0, 0.1, 0.2, 0.5, 0.6]], np.float32)
    img, out = mx.image.DetHorizontalFlipAug(1.0)(mx.nd.array(np.arange(12).reshape(2, 2, 3)), label.copy())
    np.testing.assert_allclose(out, [[0, 0.5, 0.2, 0.9, 0.6]], rtol=1e-6)
    np.testing.assert_array_equal(img.asnumpy(), np.arange(12).reshape(2, 2, 3)[:, ::-1])
