from .._typing import SupportsDLPack
from .ndarray import NDArray

def CTCLoss(data: SupportsDLPack, label: SupportsDLPack, data_lengths: SupportsDLPack | None = None,
            label_lengths: SupportsDLPack | None = None, use_data_lengths: bool = False, use_label_lengths: bool = False,
            blank_label: str = "first", out: SupportsDLPack | None = None, name: str | None = None) -> NDArray: ...
def ctc_loss(data: SupportsDLPack, label: SupportsDLPack, data_lengths: SupportsDLPack | None = None,
             label_lengths: SupportsDLPack | None = None, use_data_lengths: bool = False, use_label_lengths: bool = False,
             blank_label: str = "first", out: SupportsDLPack | None = None, name: str | None = None) -> NDArray: ...

FUNCTIONS: dict[str, object]
