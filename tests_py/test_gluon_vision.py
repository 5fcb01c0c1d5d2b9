"""mx.recordio and gluon.data.vision without MXNet: bad files and bad inputs raise clear
errors and leave the file usable; a DataLoader's worker processes read a RecordFileDataset."""
import gzip
import os
import pickle
import struct

import numpy as np
import pytest

import mxgo as mx

RECORDS = [b"x" * n for n in range(7)] + [bytes.fromhex("0a23d7ce") * 2]


def write_indexed(tmp_path, records=RECORDS):
    rec = mx.recordio.MXIndexedRecordIO(str(tmp_path / "d.idx"), str(tmp_path / "d.rec"), "w")
    for i, r in enumerate(records):
        rec.write_idx(i, r)
    rec.close()
    return str(tmp_path / "d.rec")


@pytest.mark.parametrize("damage,match", [(lambda b: b[:-3], "truncated record"), (lambda b: b[:5], "truncated record header"),
                                          (lambda b: b"\1" + b[1:], "bad magic")])
def test_bad_record_files(tmp_path, damage, match):
    path = tmp_path / "d.rec"
    rec = mx.recordio.MXRecordIO(str(path), "w")
    rec.write(b"abcdef")
    rec.close()
    path.write_bytes(damage(path.read_bytes()))
    rec = mx.recordio.MXRecordIO(str(path), "r")
    with pytest.raises(mx.base.MXNetError, match=match):
        rec.read()
    rec.close()


def test_bad_calls_leave_the_file_usable(tmp_path):
    rec = mx.recordio.MXRecordIO(str(tmp_path / "d.rec"), "w")
    with pytest.raises(TypeError, match="bytes"):
        rec.write("text")
    with pytest.raises(AssertionError):
        rec.read()
    rec.write(bytearray(b"ok"))
    rec.close()
    rec.close()  # a no-op
    rec = mx.recordio.MXRecordIO(str(tmp_path / "d.rec"), "r")
    with pytest.raises(AssertionError):
        rec.write(b"no")
    assert rec.read() == b"ok" and rec.read() is None
    with pytest.raises(ValueError, match="24-byte header"):
        mx.recordio.unpack(b"short")


def test_missing_index_closes_the_record(tmp_path):
    write_indexed(tmp_path)
    with pytest.raises(FileNotFoundError):
        mx.recordio.MXIndexedRecordIO(str(tmp_path / "none.idx"), str(tmp_path / "d.rec"), "r")
    with pytest.raises(mx.base.MXNetError, match="none.rec"):
        mx.gluon.data.RecordFileDataset(str(tmp_path / "none.rec"))


def test_pickled_writer_is_flushed_and_forbidden_elsewhere(tmp_path):
    rec = mx.recordio.MXIndexedRecordIO(str(tmp_path / "d.idx"), str(tmp_path / "d.rec"), "w")
    rec.write_idx(0, b"abc")
    copy = pickle.loads(pickle.dumps(rec))  # as MXNet: closes the original, the copy reopens (emptied)
    assert not rec.is_open and copy.is_open and copy.tell() == 0
    copy.pid = -1  # as in a forked child
    with pytest.raises(RuntimeError, match="multiple processes"):
        copy.write(b"x")
    copy.close()


def record_length(record):
    return np.float32(len(record))


def test_dataloader_workers_read_records(tmp_path):
    dataset = mx.gluon.data.RecordFileDataset(write_indexed(tmp_path)).transform(record_length)
    loader = mx.gluon.data.DataLoader(dataset, batch_size=3, num_workers=2)
    got = np.concatenate([b.asnumpy() for b in loader])
    np.testing.assert_array_equal(got, [len(r) for r in RECORDS])


def test_datasets_missing_or_bad_files(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"t10k-images-idx3-ubyte.gz, t10k-labels-idx1-ubyte.gz in .*gluon/dataset/mnist"):
        mx.gluon.data.vision.MNIST(str(tmp_path), train=False)
    with pytest.raises(FileNotFoundError, match="data_batch_1.bin"):
        mx.gluon.data.vision.CIFAR10(str(tmp_path))
    for name, payload in (("train-images-idx3-ubyte.gz", struct.pack(">IIII", 2051, 2, 28, 28) + bytes(784)),
                          ("train-labels-idx1-ubyte.gz", struct.pack(">II", 2049, 2) + bytes(2))):
        with gzip.open(os.path.join(tmp_path, name), "wb") as f:
            f.write(payload)
    with pytest.raises(ValueError, match="784 bytes of pixels"):
        mx.gluon.data.vision.MNIST(str(tmp_path))
    (tmp_path / "train.bin").write_bytes(bytes(3075))
    with pytest.raises(ValueError, match="3074-byte records"):
        mx.gluon.data.vision.CIFAR100(str(tmp_path))


def test_transforms_refuse_bad_shapes():
    T = mx.gluon.data.vision.transforms
    with pytest.raises(mx.base.MXNetError, match="ToTensor"):
        T.ToTensor()(mx.nd.zeros((4, 4)))
    with pytest.raises(mx.base.MXNetError, match="1 or 3"):
        T.Normalize((0.1, 0.2))(mx.nd.zeros((3, 2, 2)))
    with pytest.raises(mx.base.MXNetError, match="RandomBrightness"):
        T.RandomBrightness(0.1)(mx.nd.zeros((1, 2, 2, 3)))
    for make in (T.Resize, T.CenterCrop, T.RandomResizedCrop):
        with pytest.raises(ValueError, match="interp"):
            make(4, interpolation=7)
    with pytest.raises(mx.base.MXNetError, match="positive"):
        T.Resize((0, 3))(mx.nd.zeros((2, 2, 3)))
    with pytest.raises(mx.base.MXNetError, match="CenterCrop"):
        T.CenterCrop(2)(mx.nd.zeros((1, 4, 4, 3)))
    for make in (T.RandomHue, T.RandomLighting):
        with pytest.raises(mx.base.MXNetError, match="RGB"):
            make(0.1)(mx.nd.zeros((2, 2, 1)))
    with pytest.raises(mx.base.MXNetError, match="cannot be traced"):
        T.ToTensor()(mx.sym.var("data"))
    x = mx.nd.ones((2, 2, 3))
    assert T.RandomApply(T.Cast("float16"), p=0)(x) is x
    assert T.RandomApply(T.Cast("float16"), p=1)(x).dtype == np.float16
