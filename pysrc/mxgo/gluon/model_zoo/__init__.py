"""mx.gluon.model_zoo: MXNet 1.9.1's predefined models (vision) and their pretrained
Parameters (model_store).

    net = mx.gluon.model_zoo.vision.get_model("resnet18_v1", classes=10)

Import order (tools/check_pyimports.py checks it):

    model_store ← vision
"""
from . import model_store, vision

__all__ = ["model_store", "vision"]
