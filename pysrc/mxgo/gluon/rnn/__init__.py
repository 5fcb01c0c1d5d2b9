"""Gluon's recurrent layers and cells (gluon.rnn), as MXNet 1.x has them.

Import order (tools/check_pyimports.py checks it):

    rnn_cell ← rnn_layer
"""
from .rnn_cell import (BidirectionalCell, DropoutCell, GRUCell, HybridRecurrentCell, HybridSequentialRNNCell,
                       LSTMCell, ModifierCell, RecurrentCell, ResidualCell, RNNCell, SequentialRNNCell, ZoneoutCell)
from .rnn_layer import GRU, LSTM, RNN

__all__ = ["RecurrentCell", "HybridRecurrentCell", "RNNCell", "LSTMCell", "GRUCell", "SequentialRNNCell",
           "HybridSequentialRNNCell", "DropoutCell", "ModifierCell", "ZoneoutCell", "ResidualCell",
           "BidirectionalCell", "RNN", "LSTM", "GRU"]
