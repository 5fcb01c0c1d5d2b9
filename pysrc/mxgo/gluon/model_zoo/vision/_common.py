"""What the vision models share: MXNet's contrib HybridConcurrent and Identity (the
blocks DenseNet, SqueezeNet and Inception are made of, under MXNet's class names so that
reprs agree) and the loading of pretrained Parameters."""
from ....context import cpu
from ... import nn
from ...block import HybridBlock
from ..model_store import get_model_file

#: the context pretrained Parameters are loaded onto unless ctx says otherwise
CPU = cpu()


class HybridConcurrent(nn.HybridSequential):
    """Runs each child on the same input; concatenates their outputs along axis."""

    def __init__(self, axis=-1, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self.axis = axis

    def hybrid_forward(self, F, x):
        return F.concat(*[block(x) for block in self._children.values()], dim=self.axis)


class Identity(HybridBlock):
    """Its input, unchanged."""

    def hybrid_forward(self, F, x):
        return x


def load_pretrained(net, name, pretrained, ctx, root):
    """net, with the pretrained Parameters of the model name loaded onto ctx if pretrained."""
    if pretrained:
        net.load_parameters(get_model_file(name, root=root), ctx=ctx)
    return net


def constructor(name, doc, get, *args, **fixed):
    """A model's public constructor, MXNet's ``resnet18_v1(**kwargs)``: get(*args, **kwargs)
    with the keyword arguments fixed set."""
    def make(**kwargs):
        return get(*args, **{**kwargs, **fixed})
    make.__name__ = make.__qualname__ = name
    make.__doc__ = doc
    return make
