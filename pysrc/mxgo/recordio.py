"""mx.recordio: MXNet's RecordIO files (dmlc-core's format), sequential and indexed, and
the image-record header that im2rec writes, byte for byte as MXNet 1.9.1 writes them.

A record is a header of two little-endian uint32 (the magic 0xced7230a, then the
continuation flag in the top 3 bits and the length in the low 29) and the payload, padded
with zeros to 4 bytes. A payload holding the magic at a 4-aligned offset is split there
into parts (flags 1 = first, 2 = middle, 3 = last; 0 = whole record), the magic itself
dropped, so that a reader can resynchronise on any magic it finds.

    with_header = mx.recordio.pack(mx.recordio.IRHeader(0, [1.0, 2.0], 7, 0), b"payload")
    rec = mx.recordio.MXIndexedRecordIO("d.idx", "d.rec", "w"); rec.write_idx(7, with_header)
"""
import numbers
import struct
from collections import namedtuple
from multiprocessing import current_process

import numpy as np

from .base import MXNetError, call, core
from .ndarray import NDArray

__all__ = ["MXRecordIO", "MXIndexedRecordIO", "IRHeader", "pack", "unpack", "pack_img", "unpack_img"]

_MAGIC = struct.pack("<I", 0xced7230a)
_LEN_BITS = 29
_LEN_MASK = (1 << _LEN_BITS) - 1


def _pad(n):
    return -n & 3


def _encode(buf):
    """buf as one record's bytes: split at every 4-aligned magic, each part headed."""
    cuts, at = [], buf.find(_MAGIC)
    while at != -1:
        if at % 4 == 0:
            cuts.append(at)
        at = buf.find(_MAGIC, at + 1)
    starts, ends = [0] + [c + 4 for c in cuts], cuts + [len(buf)]
    last = len(starts) - 1
    out = []
    for i, (s, e) in enumerate(zip(starts, ends)):
        flag = 0 if last == 0 else 1 if i == 0 else 3 if i == last else 2
        out += [_MAGIC, struct.pack("<I", flag << _LEN_BITS | (e - s)), buf[s:e]]
    out.append(b"\0" * _pad(len(buf)))
    return b"".join(out)


class MXRecordIO:
    """Sequential reader (flag 'r') or writer (flag 'w', truncating) of a RecordIO file.
    A reader moved into another process (pickled, or forked) reopens there; a writer
    may write only in the process that opened it."""

    def __init__(self, uri, flag):
        self.uri = str(uri)
        self.flag = flag
        self.handle = None
        self.pid = None
        self.is_open = False
        self.open()

    def open(self):
        """Opens the file: from its start for 'r', emptied for 'w'."""
        if self.flag not in ("r", "w"):
            raise ValueError("Invalid flag %s" % self.flag)
        try:
            self.handle = open(self.uri, self.flag + "b")  # noqa: SIM115 (closed by close())
        except OSError as e:
            raise MXNetError("Check failed: cannot open RecordIO file %r for %s: %s"
                             % (self.uri, "reading" if self.flag == "r" else "writing", e)) from None
        self.writable = self.flag == "w"
        self.pid = current_process().pid
        self.is_open = True

    def __del__(self):
        if getattr(self, "is_open", False):
            self.close()

    def __getstate__(self):
        # As MXNet: pickling closes the file (a writer's bytes are flushed), the copy
        # reopens it if it was open.
        is_open = self.is_open
        self.close()
        state = dict(self.__dict__)
        state["is_open"] = is_open
        del state["handle"]
        return state

    def __setstate__(self, state):
        self.__dict__ = dict(state)
        self.handle, self.is_open = None, False
        if state["is_open"]:
            self.open()

    def _check_pid(self, allow_reset=False):
        if self.pid != current_process().pid:
            if not allow_reset:
                raise RuntimeError("Forbidden operation in multiple processes")
            self.reset()

    def close(self):
        """Closes the file (a no-op when closed)."""
        if not self.is_open:
            return
        self.handle.close()
        self.handle, self.is_open, self.pid = None, False, None

    def reset(self):
        """Reopens the file: a reader goes back to the first record, a writer's file is emptied."""
        self.close()
        self.open()

    def write(self, buf):
        """Appends bytes ``buf`` as one record."""
        if not self.writable:
            raise AssertionError("write needs a RecordIO file opened with flag 'w'")
        self._check_pid(allow_reset=False)
        if isinstance(buf, str) or not isinstance(buf, (bytes, bytearray, memoryview)):
            raise TypeError("a record is bytes, not %s" % type(buf).__name__)
        buf = bytes(buf)
        if len(buf) > _LEN_MASK:
            raise MXNetError("Check failed: RecordIO only accepts records of less than 2^29 bytes, got %d" % len(buf))
        self.handle.write(_encode(buf))

    def read(self):
        """The next record's bytes, or None at the end of the file."""
        if self.writable:
            raise AssertionError("read needs a RecordIO file opened with flag 'r'")
        self._check_pid(allow_reset=False)
        parts = []
        while True:
            head = self.handle.read(8)
            if not head and not parts:
                return None
            if len(head) != 8:
                raise MXNetError("Invalid RecordIO File %r: truncated record header" % self.uri)
            magic, lrec = head[:4], struct.unpack("<I", head[4:])[0]
            if magic != _MAGIC:
                raise MXNetError("Invalid RecordIO File %r: bad magic number %s" % (self.uri, magic.hex()))
            length, flag = lrec & _LEN_MASK, lrec >> _LEN_BITS
            data = self.handle.read(length + _pad(length))
            if len(data) != length + _pad(length):
                raise MXNetError("Invalid RecordIO File %r: truncated record (%d of %d bytes)"
                                 % (self.uri, len(data), length + _pad(length)))
            parts.append(data[:length])
            if flag in (0, 3):
                return _MAGIC.join(parts)


class MXIndexedRecordIO(MXRecordIO):
    """A RecordIO file with an index file of ``key\\tbyte offset`` lines, for random access
    by key (keys converted by ``key_type``)."""

    def __init__(self, idx_path, uri, flag, key_type=int):
        self.idx_path = idx_path
        self.idx = {}
        self.keys = []
        self.key_type = key_type
        self.fidx = None
        super().__init__(uri, flag)

    def open(self):
        super().open()
        self.idx, self.keys = {}, []
        try:
            self.fidx = open(self.idx_path, self.flag)  # noqa: SIM115 (closed by close())
            if not self.writable:
                for line in self.fidx:
                    key, pos = line.strip().split("\t")
                    key = self.key_type(key)
                    self.idx[key] = int(pos)
                    self.keys.append(key)
        except BaseException:
            self.close()
            raise

    def close(self):
        if not self.is_open:
            return
        super().close()
        if self.fidx is not None:
            self.fidx.close()

    def __getstate__(self):
        state = super().__getstate__()
        state["fidx"] = None
        return state

    def seek(self, idx):
        """Moves the reader to the record of key ``idx``."""
        if self.writable:
            raise AssertionError("seek needs a RecordIO file opened with flag 'r'")
        self._check_pid(allow_reset=True)
        self.handle.seek(self.idx[idx])

    def tell(self):
        """The writer's byte offset: where the next record goes."""
        if not self.writable:
            raise AssertionError("tell needs a RecordIO file opened with flag 'w'")
        return self.handle.tell()

    def read_idx(self, idx):
        """The record of key ``idx``."""
        self.seek(idx)
        return self.read()

    def write_idx(self, idx, buf):
        """Appends ``buf`` as the record of key ``idx`` and indexes it."""
        key = self.key_type(idx)
        pos = self.tell()
        self.write(buf)
        self.fidx.write("%s\t%d\n" % (key, pos))
        self.idx[key] = pos
        self.keys.append(key)


IRHeader = namedtuple("HEADER", ["flag", "label", "id", "id2"])
IRHeader.__doc__ = """An image record's header: ``flag`` (the label's length when the label is
a vector, else free), ``label`` (a float or a vector of floats), ``id`` and ``id2`` (the
record's id, ``id2`` its high bits)."""

_IR_FORMAT = "IfQQ"
_IR_SIZE = struct.calcsize(_IR_FORMAT)


def pack(header, s):
    """Header ``header`` (an IRHeader or a 4-tuple) and bytes ``s`` as one record: a vector
    label is stored after the header as float32, its length in ``flag``."""
    header = IRHeader(*header)
    if isinstance(header.label, numbers.Number):
        header = header._replace(flag=0)
    else:
        label = np.asarray(header.label, dtype=np.float32)
        header = header._replace(flag=label.size, label=0)
        s = label.tobytes() + s
    return struct.pack(_IR_FORMAT, *header) + s


def unpack(s):
    """(IRHeader, payload bytes) of a record that ``pack`` made."""
    if len(s) < _IR_SIZE:
        raise ValueError("a packed record starts with a %d-byte header, got %d bytes" % (_IR_SIZE, len(s)))
    header = IRHeader(*struct.unpack(_IR_FORMAT, s[:_IR_SIZE]))
    s = s[_IR_SIZE:]
    if header.flag > 0:
        header = header._replace(label=np.frombuffer(s, np.float32, header.flag))
        s = s[header.flag * 4:]
    return header, s


def _decode_img(buf, flag, to_rgb):
    """The JPEG or PNG image in bytes-like or uint8 numpy ``buf`` decoded by Go
    (pkg/imgcodec) into an (H, W, C) uint8 NDArray: mx.image.imdecode's decoder."""
    if isinstance(buf, np.ndarray):
        view = np.ascontiguousarray(buf).reshape(-1).view(np.uint8)
    else:
        view = np.frombuffer(buf, dtype=np.uint8)
    return NDArray(call(core.DecodeImage, view.ctypes.data if view.size else 0, view.size, int(flag), bool(to_rgb)))


def _encode_img(img, fmt, quality, rgb):
    """The bytes of (H, W[, C]) uint8 numpy ``img`` encoded by Go as ``fmt``."""
    a = np.ascontiguousarray(img)
    if a.ndim == 2:
        a = a[:, :, None]
    if a.dtype != np.uint8 or a.ndim != 3:
        raise MXNetError("pack_img expects an (height, width, channels) uint8 image, got %s of shape %s"
                         % (a.dtype, a.shape))
    fmt = fmt.lower()
    h = call(core.EncodeImage, a.ctypes.data, a.shape[0], a.shape[1], a.shape[2], rgb, fmt,
             int(quality) if fmt in (".jpg", ".jpeg") else 95)
    return NDArray(h).asnumpy().tobytes()


def unpack_img(s, iscolor=-1):
    """(header, image) of a record that pack_img wrote: the image a numpy (H, W, C) uint8
    array in OpenCV's B, G, R order (iscolor: 1 colour, 0 gray, -1 as stored)."""
    header, s = unpack(s)
    return header, _decode_img(s, iscolor, False).asnumpy()


def pack_img(header, img, quality=95, img_fmt=".jpg"):
    """A record of header and numpy image ``img`` ((H, W, C) uint8 in B, G, R order, as
    OpenCV's) encoded as img_fmt, '.jpg' (at ``quality``) or '.png'; Go's encoders, whose
    bytes differ from OpenCV's (PNG's compression level, ``quality`` there, is Go's own)."""
    return pack(header, _encode_img(img, img_fmt, quality, False))
