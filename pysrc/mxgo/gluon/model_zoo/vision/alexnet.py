"""AlexNet ("One weird trick for parallelizing convolutional neural networks"), with
MXNet's blocks, names and Parameters."""
from ... import nn
from ...block import HybridBlock
from ..model_store import ROOT
from ._common import CPU, load_pretrained

__all__ = ["AlexNet", "alexnet"]


class AlexNet(HybridBlock):
    """Five convolutions (three max poolings between), two Dense(4096) with dropout, the
    output; for 224x224 input."""

    def __init__(self, classes=1000, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.features = nn.HybridSequential(prefix="")
            with self.features.name_scope():
                self.features.add(nn.Conv2D(64, kernel_size=11, strides=4, padding=2, activation="relu"),
                                  nn.MaxPool2D(pool_size=3, strides=2),
                                  nn.Conv2D(192, kernel_size=5, padding=2, activation="relu"),
                                  nn.MaxPool2D(pool_size=3, strides=2),
                                  nn.Conv2D(384, kernel_size=3, padding=1, activation="relu"),
                                  nn.Conv2D(256, kernel_size=3, padding=1, activation="relu"),
                                  nn.Conv2D(256, kernel_size=3, padding=1, activation="relu"),
                                  nn.MaxPool2D(pool_size=3, strides=2),
                                  nn.Flatten())
                for _ in range(2):
                    self.features.add(nn.Dense(4096, activation="relu"), nn.Dropout(0.5))
            self.output = nn.Dense(classes)

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


def alexnet(pretrained=False, ctx=CPU, root=ROOT, **kwargs):
    """AlexNet; pretrained: with MXNet's ImageNet Parameters (from root, else downloaded) on ctx."""
    return load_pretrained(AlexNet(**kwargs), "alexnet", pretrained, ctx, root)
