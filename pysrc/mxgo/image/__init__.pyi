from .augment import Augmenter as Augmenter
from .augment import BrightnessJitterAug as BrightnessJitterAug
from .augment import CastAug as CastAug
from .augment import CenterCropAug as CenterCropAug
from .augment import ColorJitterAug as ColorJitterAug
from .augment import ColorNormalizeAug as ColorNormalizeAug
from .augment import ContrastJitterAug as ContrastJitterAug
from .augment import CreateAugmenter as CreateAugmenter
from .augment import ForceResizeAug as ForceResizeAug
from .augment import HorizontalFlipAug as HorizontalFlipAug
from .augment import HueJitterAug as HueJitterAug
from .augment import LightingAug as LightingAug
from .augment import RandomCropAug as RandomCropAug
from .augment import RandomGrayAug as RandomGrayAug
from .augment import RandomOrderAug as RandomOrderAug
from .augment import RandomSizedCropAug as RandomSizedCropAug
from .augment import ResizeAug as ResizeAug
from .augment import SaturationJitterAug as SaturationJitterAug
from .augment import SequentialAug as SequentialAug
from .detection import CreateDetAugmenter as CreateDetAugmenter
from .detection import CreateMultiRandCropAugmenter as CreateMultiRandCropAugmenter
from .detection import DetAugmenter as DetAugmenter
from .detection import DetBorrowAug as DetBorrowAug
from .detection import DetHorizontalFlipAug as DetHorizontalFlipAug
from .detection import DetRandomCropAug as DetRandomCropAug
from .detection import DetRandomPadAug as DetRandomPadAug
from .detection import DetRandomSelectAug as DetRandomSelectAug
from .detection import ImageDetIter as ImageDetIter
from .image import center_crop as center_crop
from .image import color_normalize as color_normalize
from .image import fixed_crop as fixed_crop
from .image import imdecode as imdecode
from .image import imread as imread
from .image import imresize as imresize
from .image import imrotate as imrotate
from .image import random_crop as random_crop
from .image import random_rotate as random_rotate
from .image import random_size_crop as random_size_crop
from .image import resize_short as resize_short
from .image import scale_down as scale_down
from .imageiter import ImageIter as ImageIter

__all__ = ["imdecode", "imread", "imresize", "scale_down", "resize_short", "fixed_crop", "random_crop", "center_crop",
           "color_normalize", "random_size_crop", "imrotate", "random_rotate", "Augmenter", "SequentialAug",
           "ResizeAug", "ForceResizeAug", "RandomCropAug", "RandomSizedCropAug", "CenterCropAug", "RandomOrderAug",
           "BrightnessJitterAug", "ContrastJitterAug", "SaturationJitterAug", "HueJitterAug", "ColorJitterAug",
           "LightingAug", "ColorNormalizeAug", "RandomGrayAug", "HorizontalFlipAug", "CastAug", "CreateAugmenter",
           "ImageIter", "DetAugmenter", "DetBorrowAug", "DetRandomSelectAug", "DetHorizontalFlipAug",
           "DetRandomCropAug", "DetRandomPadAug", "CreateMultiRandCropAugmenter", "CreateDetAugmenter", "ImageDetIter"]
