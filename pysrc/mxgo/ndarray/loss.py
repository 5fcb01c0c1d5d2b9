"""``mx.nd.CTCLoss`` (and its alias ``ctc_loss``): MXNet's signature, whose length arrays
are optional positional arguments, over the registry operator ``_ctc_loss``
(pkg/ops/nn/ctc.go), which takes the arrays given."""
from ..base import MXNetValueError
from . import op as _ops


def CTCLoss(data, label, data_lengths=None, label_lengths=None, use_data_lengths=False, use_label_lengths=False,
            blank_label="first", out=None, name=None):
    """Connectionist temporal classification loss of activations data (T, N, alphabet) and
    padded labels (N, L): shape (N,). The softmax over the alphabet is taken here. With
    use_data_lengths / use_label_lengths, data_lengths / label_lengths (N,) give each
    sequence's frames / symbols; otherwise every frame counts and labels end at the
    padding value (0 with blank_label='first', -1 with 'last')."""
    arrays = [data, label]
    for use, arr, what in ((use_data_lengths, data_lengths, "data_lengths"),
                           (use_label_lengths, label_lengths, "label_lengths")):
        if use:
            if arr is None:
                raise MXNetValueError("CTCLoss: use_%s=True needs %s" % (what, what))
            arrays.append(arr)
    params = {"use_data_lengths": bool(use_data_lengths), "use_label_lengths": bool(use_label_lengths),
              "blank_label": blank_label}
    return _ops.invoke("_ctc_loss", arrays, params, out)


ctc_loss = CTCLoss

FUNCTIONS = {"CTCLoss": CTCLoss, "ctc_loss": ctc_loss}
