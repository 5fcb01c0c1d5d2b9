"""MXNet 1.9.1's detection augmenters and ImageDetIter (mxnet.image.detection).

A detection augmenter maps (image, label) to (image, label): the label is a NumPy array
of object rows [class, xmin, ymin, xmax, ymax, extra...], coordinates normalized to
[0, 1]. Random draws come from Python's ``random`` in MXNet's order, so that a seed
reproduces MXNet's crops, pads and flips.
"""
import logging
import random
from math import sqrt
from numbers import Number

import numpy as np

from .. import ndarray as nd
from .augment import Augmenter, CastAug, ForceResizeAug, ResizeAug, _color_augs, _Dumped
from .image import fixed_crop
from .imageiter import ImageIter

__all__ = ["DetAugmenter", "DetBorrowAug", "DetRandomSelectAug", "DetHorizontalFlipAug", "DetRandomCropAug",
           "DetRandomPadAug", "CreateMultiRandCropAugmenter", "CreateDetAugmenter", "ImageDetIter"]


class DetAugmenter(_Dumped):
    """Base class of the detection augmenters: called with (src, label), returns (src, label)."""

    def __call__(self, src, label):
        raise NotImplementedError("Must override implementation.")


class DetBorrowAug(DetAugmenter):
    """Applies an image Augmenter that leaves the labels unchanged."""

    def __init__(self, augmenter):
        if not isinstance(augmenter, Augmenter):
            raise TypeError("Borrowing from invalid Augmenter")
        super().__init__(augmenter=augmenter.dumps())
        self.augmenter = augmenter

    def dumps(self):
        return [type(self).__name__.lower(), self.augmenter.dumps()]

    def __call__(self, src, label):
        return self.augmenter(src), label


class DetRandomSelectAug(DetAugmenter):
    """Skips with probability ``skip_prob`` (always when ``aug_list`` is empty), else
    applies one of ``aug_list``, picked by shuffling the list in place as MXNet does."""

    def __init__(self, aug_list, skip_prob=0):
        super().__init__(skip_prob=skip_prob)
        aug_list = list(aug_list) if isinstance(aug_list, (list, tuple)) else [aug_list]
        if not all(isinstance(aug, DetAugmenter) for aug in aug_list):
            raise ValueError("Allow DetAugmenter in list only")
        self.aug_list, self.skip_prob = aug_list, skip_prob if aug_list else 1

    def dumps(self):
        return [type(self).__name__.lower(), [aug.dumps() for aug in self.aug_list]]

    def __call__(self, src, label):
        if random.random() < self.skip_prob:
            return src, label
        random.shuffle(self.aug_list)
        return self.aug_list[0](src, label)


class DetHorizontalFlipAug(DetAugmenter):
    """With probability ``p``, mirrors the image and its boxes (label flipped in place)."""

    def __init__(self, p):
        super().__init__(p=p)
        self.p = p

    def __call__(self, src, label):
        if random.random() < self.p:
            src = nd.flip(src, axis=1)
            label[:, 1], label[:, 3] = 1.0 - label[:, 3], 1.0 - label[:, 1]
        return src, label


def _pair(v, name, owner):
    """A (low, high) range; a single number means (v, v)."""
    if isinstance(v, (tuple, list)):
        return v
    if not isinstance(v, Number):
        raise TypeError("%s: %s must be a number or a (low, high) pair, got %r" % (owner, name, v))
    return (v, v)


def _areas(boxes):
    """Areas of [xmin, ymin, xmax, ymax] rows (0 for empty boxes)."""
    return np.maximum(0, boxes[:, 2] - boxes[:, 0]) * np.maximum(0, boxes[:, 3] - boxes[:, 1])


class _Proposer(DetAugmenter):
    """Shared by crop and pad: ranges of aspect ratio (w / h) and area (fraction of the
    image's), tried up to ``max_attempts`` times; an invalid range refuses to build
    (MXNet's warning call itself raises TypeError there)."""

    def __init__(self, min_area_max, **kwargs):
        name = type(self).__name__
        aspect_ratio_range = kwargs["aspect_ratio_range"] = _pair(kwargs["aspect_ratio_range"], "aspect_ratio_range",
                                                                  name)
        area_range = kwargs["area_range"] = _pair(kwargs["area_range"], "area_range", name)
        super().__init__(**kwargs)  # in MXNet's order: dumps shows it
        if area_range[1] <= min_area_max or area_range[0] > area_range[1]:
            raise TypeError("%s: invalid area_range %s" % (name, (area_range,)))
        if aspect_ratio_range[0] <= 0 or aspect_ratio_range[0] > aspect_ratio_range[1]:
            raise TypeError("%s: invalid aspect_ratio_range %s" % (name, (aspect_ratio_range,)))
        self.aspect_ratio_range, self.area_range = aspect_ratio_range, area_range
        self.max_attempts = kwargs["max_attempts"]
        self.enabled = True

    def _proposal(self, label, height, width):
        """(x, y, w, h, new label) of the first acceptable region, or ()."""
        if not self.enabled or height <= 0 or width <= 0:
            return ()
        min_area, max_area = self.area_range[0] * height * width, self.area_range[1] * height * width
        for _ in range(self.max_attempts):
            ratio = random.uniform(*self.aspect_ratio_range)
            found = ratio > 0 and self._try(label, height, width, ratio, min_area, max_area)
            if found:
                return found
        return ()

    def _try(self, label, height, width, ratio, min_area, max_area):
        """(x, y, w, h, new label) of a region of aspect ratio ``ratio``, or () if it fails."""
        raise NotImplementedError("Must override implementation.")


class DetRandomCropAug(_Proposer):
    """A random crop of constrained aspect ratio and area that covers more than
    ``min_object_covered`` of every box it touches; boxes left with no more than
    ``min_eject_coverage`` of their area are dropped (no box left: another try)."""

    def __init__(self, min_object_covered=0.1, aspect_ratio_range=(0.75, 1.33), area_range=(0.05, 1.0),
                 min_eject_coverage=0.3, max_attempts=50):
        super().__init__(0, min_object_covered=min_object_covered, aspect_ratio_range=aspect_ratio_range,
                         area_range=area_range, min_eject_coverage=min_eject_coverage, max_attempts=max_attempts)
        self.min_object_covered, self.min_eject_coverage = min_object_covered, min_eject_coverage

    def __call__(self, src, label):
        crop = self._proposal(label, src.shape[0], src.shape[1])
        if crop:
            x, y, w, h, label = crop
            src = fixed_crop(src, x, y, w, h, None)
        return src, label

    def _try(self, label, height, width, ratio, min_area, max_area):
        h, max_h = int(round(sqrt(min_area / ratio))), int(round(sqrt(max_area / ratio)))
        if round(max_h * ratio) > width:
            max_h = int((width + 0.4999999) / ratio)  # the largest max_h whose width fits
        max_h = min(max_h, height)
        h = min(h, max_h)
        if h < max_h:
            h = random.randint(h, max_h)
        w = int(round(h * ratio))
        if w * h < min_area:  # nudge h to fix the rounding
            h += 1
            w = int(round(h * ratio))
        if w * h > max_area:
            h -= 1
            w = int(round(h * ratio))
        if not (min_area <= w * h <= max_area and 0 <= w <= width and 0 <= h <= height):
            return ()
        y, x = random.randint(0, max(0, height - h)), random.randint(0, max(0, width - w))
        box = (x / width, y / height, (x + w) / width, (y + h) / height)
        if w * h < 2 or not self._covers(label, box, width * height):
            return ()
        out = self._cropped_labels(label, box[0], box[1], w / width, h / height)
        return () if out is None else (x, y, w, h, out)

    def _covers(self, label, box, pixels):
        """Whether ``box`` covers more than min_object_covered of each box (over 2 pixels) it meets."""
        areas = _areas(label[:, 1:5])
        boxes = label[areas * pixels > 2, 1:5]
        if not len(boxes):
            return False
        inter = np.stack([np.maximum(boxes[:, 0], box[0]), np.maximum(boxes[:, 1], box[1]),
                          np.minimum(boxes[:, 2], box[2]), np.minimum(boxes[:, 3], box[3])], axis=1)
        inter[(inter[:, 0] >= inter[:, 2]) | (inter[:, 1] >= inter[:, 3])] = 0
        coverages = _areas(inter) / _areas(boxes)
        coverages = coverages[coverages > 0]
        return coverages.size > 0 and coverages.min() > self.min_object_covered

    def _cropped_labels(self, label, x, y, w, h):
        out = label.copy()
        out[:, (1, 3)] = np.clip((out[:, (1, 3)] - x) / w, 0, 1)
        out[:, (2, 4)] = np.clip((out[:, (2, 4)] - y) / h, 0, 1)
        coverage = _areas(out[:, 1:5]) * w * h / _areas(label[:, 1:5])
        keep = (out[:, 3] > out[:, 1]) & (out[:, 4] > out[:, 2]) & (coverage > self.min_eject_coverage)
        return out[keep] if keep.any() else None


class DetRandomPadAug(_Proposer):
    """Places the image at a random spot of a larger canvas (aspect ratio and area
    fraction in range, at least 2 pixels wider and taller) filled with ``pad_val``."""

    def __init__(self, aspect_ratio_range=(0.75, 1.33), area_range=(1.0, 3.0), max_attempts=50,
                 pad_val=(128, 128, 128)):
        if not isinstance(pad_val, (list, tuple, Number)):
            raise TypeError("DetRandomPadAug: pad_val must be a number or a tuple, got %r" % (pad_val,))
        super().__init__(1.0, aspect_ratio_range=aspect_ratio_range, area_range=area_range,
                         max_attempts=max_attempts, pad_val=pad_val)
        self.pad_val = pad_val

    def __call__(self, src, label):
        height, width = src.shape[0], src.shape[1]
        pad = self._proposal(label, height, width)
        if pad:
            x, y, w, h, label = pad
            canvas = np.empty((h, w) + tuple(src.shape[2:]), dtype=src.dtype)
            canvas[...] = self.pad_val if isinstance(self.pad_val, (list, tuple)) else self._scalar_fill(src.shape)
            canvas[y:y + height, x:x + width] = src.asnumpy()
            src = nd.array(canvas, dtype=src.dtype)
        return src, label

    def _scalar_fill(self, shape):
        """MXNet's OpenCV border takes a number v as the colour (v, 0, 0)."""
        return np.pad([self.pad_val], (0, shape[2] - 1)) if len(shape) > 2 else self.pad_val

    def _try(self, label, height, width, ratio, min_area, max_area):
        h, max_h = int(round(sqrt(min_area / ratio))), int(round(sqrt(max_area / ratio)))
        if round(h * ratio) < width:
            h = int((width + 0.499999) / ratio)  # wide enough for the image
        h = min(max(h, height), max_h)
        if h < max_h:
            h = random.randint(h, max_h)
        w = int(round(h * ratio))
        if h - height < 2 or w - width < 2:
            return ()  # marginal padding is not helpful
        y, x = random.randint(0, max(0, h - height)), random.randint(0, max(0, w - width))
        out = label.copy()
        out[:, (1, 3)] = (out[:, (1, 3)] * width + x) / w
        out[:, (2, 4)] = (out[:, (2, 4)] * height + y) / h
        return x, y, w, h, out


def CreateMultiRandCropAugmenter(min_object_covered=0.1, aspect_ratio_range=(0.75, 1.33), area_range=(0.05, 1.0),
                                 min_eject_coverage=0.3, max_attempts=50, skip_prob=0):
    """A DetRandomSelectAug over DetRandomCropAugs: each argument given as a list gives
    one value per augmenter (lists of one, or non-lists, are shared by all)."""
    params = [p if isinstance(p, list) else [p]
              for p in (min_object_covered, aspect_ratio_range, area_range, min_eject_coverage, max_attempts)]
    num = max(len(p) for p in params)
    if any(len(p) not in (1, num) for p in params):
        raise ValueError("CreateMultiRandCropAugmenter: list arguments must have the same length (or 1), got %s"
                         % [len(p) for p in params])
    params = [p * num if len(p) == 1 else p for p in params]
    return DetRandomSelectAug([DetRandomCropAug(*args) for args in zip(*params)], skip_prob=skip_prob)


def CreateDetAugmenter(data_shape, resize=0, rand_crop=0, rand_pad=0, rand_gray=0, rand_mirror=False, mean=None,
                       std=None, brightness=0, contrast=0, saturation=0, pca_noise=0, hue=0, inter_method=2,
                       min_object_covered=0.1, aspect_ratio_range=(0.75, 1.33), area_range=(0.05, 3.0),
                       min_eject_coverage=0.3, max_attempts=50, pad_val=(127, 127, 127)):
    """MXNet's detection augmenter list for ``data_shape`` (C, H, W): resize, random
    crop (probability rand_crop) and pad (rand_pad), mirror, forced resize, cast, colour
    jitter, hue, lighting, gray, normalize (mean/std True: ImageNet's)."""
    augs = [DetBorrowAug(ResizeAug(resize, inter_method))] if resize > 0 else []
    if rand_crop > 0:
        augs.append(CreateMultiRandCropAugmenter(min_object_covered, aspect_ratio_range, area_range,
                                                 min_eject_coverage, max_attempts, skip_prob=1 - rand_crop))
    if rand_mirror > 0:
        augs.append(DetHorizontalFlipAug(0.5))
    if rand_pad > 0:  # as late as possible: the padded image is larger
        pad = DetRandomPadAug(aspect_ratio_range, (1.0, area_range[1]), max_attempts, pad_val)
        augs.append(DetRandomSelectAug([pad], 1 - rand_pad))
    borrowed = [ForceResizeAug((data_shape[2], data_shape[1]), inter_method), CastAug()]
    borrowed += _color_augs(brightness, contrast, saturation, hue, pca_noise, rand_gray, mean, std, np.array)
    return augs + [DetBorrowAug(aug) for aug in borrowed]


class ImageDetIter(ImageIter):
    """ImageIter for detection: a raw label is [header_width, object_width, header...,
    objects...] (objects of at least 5 values: class, xmin, ymin, xmax, ymax, ...);
    batches' labels are (batch, max objects, object_width), padded with -1 rows. Samples
    whose label or image turn out invalid are skipped. ``aug_list`` defaults to
    ``CreateDetAugmenter(data_shape, **kwargs)``."""

    def __init__(self, batch_size, data_shape, path_imgrec=None, path_imglist=None, path_root=None, path_imgidx=None,
                 shuffle=False, part_index=0, num_parts=1, aug_list=None, imglist=None, data_name="data",
                 label_name="label", last_batch_handle="pad", **kwargs):
        super().__init__(batch_size, data_shape, path_imgrec=path_imgrec, path_imglist=path_imglist,
                         path_root=path_root, path_imgidx=path_imgidx, shuffle=shuffle, part_index=part_index,
                         num_parts=num_parts, aug_list=[], imglist=imglist, data_name=data_name,
                         label_name=label_name, last_batch_handle=last_batch_handle)
        self.auglist = CreateDetAugmenter(data_shape, **kwargs) if aug_list is None else aug_list
        self.label_shape = self._estimate_label_shape()
        self.provide_label = [(label_name, (batch_size,) + self.label_shape)]

    def _estimate_label_shape(self):
        """(most objects in one sample, object width), reading every label once."""
        count, width = 0, None
        self.reset()
        try:
            while True:
                label = self._parse_label(self.next_sample()[0])
                count, width = max(count, label.shape[0]), label.shape[1]
        except StopIteration:
            pass
        self.reset()
        if width is None:
            raise ValueError("ImageDetIter: no samples to read")
        return count, width

    @staticmethod
    def _parse_label(label):
        """The valid object rows (xmax > xmin, ymax > ymin) of a raw label."""
        raw = (label.asnumpy() if isinstance(label, nd.NDArray) else np.asarray(label)).ravel()
        if raw.size < 7:
            raise RuntimeError("Label shape is invalid: " + str(raw.shape))
        header_width, obj_width = int(raw[0]), int(raw[1])
        if obj_width <= 0 or (raw.size - header_width) % obj_width != 0:
            raise RuntimeError("Label shape %s inconsistent with annotation width %d." % (raw.shape, obj_width))
        out = raw[header_width:].reshape(-1, obj_width)
        out = out[(out[:, 3] > out[:, 1]) & (out[:, 4] > out[:, 2])]
        if not len(out):
            raise RuntimeError("Encounter sample with no valid label.")
        return out

    @staticmethod
    def _check_valid_label(label):
        if len(label.shape) != 2 or label.shape[1] < 5:
            raise RuntimeError("Label with shape (1+, 5+) required, %s received." % str(label))
        if not ((label[:, 0] >= 0) & (label[:, 3] > label[:, 1]) & (label[:, 4] > label[:, 2])).any():
            raise RuntimeError("Invalid label occurs.")

    def reshape(self, data_shape=None, label_shape=None):
        """Changes the batches' data shape (3, H, W) and/or label shape (objects, width):
        objects may only grow, the width may not change."""
        if data_shape is not None:
            self.check_data_shape(data_shape)
            self.provide_data = [(self.provide_data[0][0], (self.batch_size,) + tuple(data_shape))]
            self.data_shape = tuple(data_shape)
        if label_shape is not None:
            self.check_label_shape(label_shape)
            self.provide_label = [(self.provide_label[0][0], (self.batch_size,) + tuple(label_shape))]
            self.label_shape = tuple(label_shape)

    def check_label_shape(self, label_shape):
        """Raises ValueError unless ``label_shape`` is a valid new (objects, width)."""
        if len(label_shape) != 2:
            raise ValueError("label_shape should have length 2")
        if label_shape[0] < self.label_shape[0]:
            raise ValueError("Attempts to reduce label count from %d to %d, not allowed."
                             % (self.label_shape[0], label_shape[0]))
        if label_shape[1] != self.provide_label[0][1][2]:
            raise ValueError("label_shape object width inconsistent: %d vs %d."
                             % (self.provide_label[0][1][2], label_shape[1]))

    def sync_label_shape(self, it, verbose=False):
        """Grows this iterator's and ``it``'s label shapes to the larger object count
        (train and validation iterators then batch alike); returns ``it``."""
        if not isinstance(it, ImageDetIter):
            raise TypeError("Synchronize with invalid iterator.")
        if self.label_shape[1] != it.label_shape[1]:
            raise ValueError("object width mismatch.")
        count = max(self.label_shape[0], it.label_shape[0])
        for one in (self, it):
            if one.label_shape[0] < count:
                one.reshape(None, (count, one.label_shape[1]))
                if verbose:
                    logging.info("Resized label_shape to (%d, %d).", count, one.label_shape[1])
        return it

    def _new_label(self):
        return nd.full(self.provide_label[0][1], -1)

    def _batchify(self, data, label, i=0):
        try:
            while i < self.batch_size:
                raw, s = self.next_sample()
                img = self.imdecode(s)
                try:
                    self.check_valid_image([img])
                    img, objects = self.augmentation_transform(img, self._parse_label(raw))
                    self._check_valid_label(objects)
                except RuntimeError as err:
                    logging.debug("Invalid image, skipping: %s", err)
                    continue
                data[i] = self.postprocess_data(img)
                rows = np.full(label.shape[1:], -1, dtype=np.float32)
                rows[:len(objects)] = objects
                label[i] = rows
                i += 1
        except StopIteration:
            if not i:
                raise
        return i

    def augmentation_transform(self, data, label):
        for aug in self.auglist:
            data, label = aug(data, label)
        return data, label

    def draw_next(self, color=None, thickness=2, mean=None, std=None, clip=True, waitKey=None,
                  window_name="draw_next", id2labels=None):
        """Not available: MXNet draws the boxes and windows with OpenCV, which mxgo does without."""
        raise NotImplementedError("ImageDetIter.draw_next needs OpenCV (cv2) drawing, which mxgo does not provide")
