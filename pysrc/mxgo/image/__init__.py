"""mx.image: decoding, resizing and cropping images, the Augmenters, CreateAugmenter,
ImageIter and the detection augmenters and ImageDetIter,
as MXNet 1.9.1's mxnet.image.

Import order (tools/check_pyimports.py checks it):

    image ← augment ← imageiter ← detection

The package imports mx.nd, mx.base and mx.recordio (whose pack_img shares the codec).
"""
from .augment import (Augmenter, BrightnessJitterAug, CastAug, CenterCropAug, ColorJitterAug, ColorNormalizeAug,
                      ContrastJitterAug, CreateAugmenter, ForceResizeAug, HorizontalFlipAug, HueJitterAug, LightingAug,
                      RandomCropAug, RandomGrayAug, RandomOrderAug, RandomSizedCropAug, ResizeAug, SaturationJitterAug,
                      SequentialAug)
from .detection import (CreateDetAugmenter, CreateMultiRandCropAugmenter, DetAugmenter, DetBorrowAug,
                        DetHorizontalFlipAug, DetRandomCropAug, DetRandomPadAug, DetRandomSelectAug, ImageDetIter)
from .image import (center_crop, color_normalize, fixed_crop, imdecode, imread, imresize, imrotate, random_crop,
                    random_rotate, random_size_crop, resize_short, scale_down)
from .imageiter import ImageIter

__all__ = ["imdecode", "imread", "imresize", "scale_down", "resize_short", "fixed_crop", "random_crop", "center_crop",
           "color_normalize", "random_size_crop", "imrotate", "random_rotate", "Augmenter", "SequentialAug",
           "ResizeAug", "ForceResizeAug", "RandomCropAug", "RandomSizedCropAug", "CenterCropAug", "RandomOrderAug",
           "BrightnessJitterAug", "ContrastJitterAug", "SaturationJitterAug", "HueJitterAug", "ColorJitterAug",
           "LightingAug", "ColorNormalizeAug", "RandomGrayAug", "HorizontalFlipAug", "CastAug", "CreateAugmenter",
           "ImageIter", "DetAugmenter", "DetBorrowAug", "DetRandomSelectAug", "DetHorizontalFlipAug",
           "DetRandomCropAug", "DetRandomPadAug", "CreateMultiRandCropAugmenter", "CreateDetAugmenter", "ImageDetIter"]
