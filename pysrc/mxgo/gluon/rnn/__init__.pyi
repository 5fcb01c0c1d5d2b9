from .rnn_cell import (BidirectionalCell as BidirectionalCell, DropoutCell as DropoutCell, GRUCell as GRUCell,
                       HybridRecurrentCell as HybridRecurrentCell, HybridSequentialRNNCell as HybridSequentialRNNCell,
                       LSTMCell as LSTMCell, ModifierCell as ModifierCell, RecurrentCell as RecurrentCell,
                       ResidualCell as ResidualCell, RNNCell as RNNCell, SequentialRNNCell as SequentialRNNCell,
                       ZoneoutCell as ZoneoutCell)
from .rnn_layer import GRU as GRU, LSTM as LSTM, RNN as RNN

__all__ = ["RecurrentCell", "HybridRecurrentCell", "RNNCell", "LSTMCell", "GRUCell", "SequentialRNNCell",
           "HybridSequentialRNNCell", "DropoutCell", "ModifierCell", "ZoneoutCell", "ResidualCell",
           "BidirectionalCell", "RNN", "LSTM", "GRU"]
