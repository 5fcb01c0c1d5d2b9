"""A script as MXNet's users write them: ``python train.py STEPS``; prints what it ran on as JSON."""
import json
import sys

import mxnet as mx
from mxnet_thirdparty.model import train

if __name__ == "__main__":
    losses = train(int(sys.argv[1]))
    print(json.dumps({"argv": sys.argv, "mx": mx.__name__, "first": losses[0], "last": losses[-1]}))
