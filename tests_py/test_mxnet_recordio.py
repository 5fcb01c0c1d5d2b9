"""mx.recordio against MXNet 1.9.1's (collected only in .venv-mxnet; see environments.py):
files written by one library read by the other, byte-identical; records holding the magic
number (split into parts); indexed files; packed image-record headers; bad files."""
import pickle

import mxnet
import numpy as np
import pytest

import mxgo as mx

MAGIC = bytes.fromhex("0a23d7ce")
RECORDS = [b"abc", b"", b"four", MAGIC, b"xx" + MAGIC + b"yy", b"abcd" + MAGIC + MAGIC + b"z" + MAGIC,
           bytes(range(256)) * 3]
LIBS = {"mxnet": mxnet, "mxgo": mx}


def write(lib, path, records, indexed):
    rec = (lib.recordio.MXIndexedRecordIO(str(path) + ".idx", str(path), "w") if indexed
           else lib.recordio.MXRecordIO(str(path), "w"))
    for i, r in enumerate(records):
        rec.write_idx(10 * i, r) if indexed else rec.write(r)
    rec.close()


def read_all(lib, path):
    rec = lib.recordio.MXRecordIO(str(path), "r")
    out = iter(rec.read, None)
    return list(out)


@pytest.mark.parametrize("writer,reader", [("mxnet", "mxgo"), ("mxgo", "mxnet")])
def test_files_both_ways(tmp_path, writer, reader):
    write(LIBS[writer], tmp_path / "a.rec", RECORDS, indexed=False)
    write(LIBS[reader], tmp_path / "b.rec", RECORDS, indexed=False)
    assert (tmp_path / "a.rec").read_bytes() == (tmp_path / "b.rec").read_bytes()
    assert read_all(LIBS[reader], tmp_path / "a.rec") == RECORDS
    rec = LIBS[reader].recordio.MXRecordIO(str(tmp_path / "a.rec"), "r")
    assert rec.read() == RECORDS[0]
    rec.reset()
    assert [rec.read(), rec.read()] == RECORDS[:2]


@pytest.mark.parametrize("writer,reader", [("mxnet", "mxgo"), ("mxgo", "mxnet")])
def test_indexed_both_ways(tmp_path, writer, reader):
    write(LIBS[writer], tmp_path / "a.rec", RECORDS, indexed=True)
    write(LIBS[reader], tmp_path / "b.rec", RECORDS, indexed=True)
    for ext in ("", ".idx"):
        assert (tmp_path / ("a.rec" + ext)).read_bytes() == (tmp_path / ("b.rec" + ext)).read_bytes()
    rec = LIBS[reader].recordio.MXIndexedRecordIO(str(tmp_path / "a.rec.idx"), str(tmp_path / "a.rec"), "r")
    assert rec.keys == [10 * i for i in range(len(RECORDS))]
    assert [rec.read_idx(k) for k in reversed(rec.keys)] == RECORDS[::-1]
    copy = pickle.loads(pickle.dumps(rec))
    assert copy.read_idx(30) == RECORDS[3] and copy.keys == rec.keys


def test_tell_and_string_keys(tmp_path):
    positions = []
    for lib, name in ((mxnet, "a"), (mx, "b")):
        rec = lib.recordio.MXIndexedRecordIO(str(tmp_path / (name + ".idx")), str(tmp_path / (name + ".rec")), "w",
                                             key_type=str)
        for r in RECORDS[:4]:
            rec.write_idx("k" + str(len(r)), r)
        positions.append((rec.tell(), list(rec.idx.items())))
        rec.close()
    assert positions[0] == positions[1]


@pytest.mark.parametrize("label", [3.5, [1.0, -2.5, 7.0], np.arange(4, dtype=np.float32)])
def test_pack_unpack(label):
    header = (0, label, 123456789012, 7)
    packed = mx.recordio.pack(mx.recordio.IRHeader(*header), b"payload")
    assert packed == mxnet.recordio.pack(mxnet.recordio.IRHeader(*header), b"payload")
    ours, theirs = mx.recordio.unpack(packed), mxnet.recordio.unpack(packed)
    assert ours[1] == theirs[1] == b"payload"
    assert tuple(ours[0])[::2] == tuple(theirs[0])[::2] and ours[0].id == theirs[0].id
    np.testing.assert_array_equal(ours[0].label, theirs[0].label)


@pytest.mark.parametrize("damage", ["truncated", "magic"])
def test_bad_files_raise_as_mxnet(tmp_path, damage):
    write(mxnet, tmp_path / "a.rec", RECORDS[-1:], indexed=False)
    data = (tmp_path / "a.rec").read_bytes()
    (tmp_path / "a.rec").write_bytes(data[:-5] if damage == "truncated" else b"\0" + data[1:])
    for lib in (mxnet, mx):
        rec = lib.recordio.MXRecordIO(str(tmp_path / "a.rec"), "r")
        with pytest.raises(lib.base.MXNetError):
            rec.read()


def test_missing_file_and_bad_flag(tmp_path):
    for lib in (mxnet, mx):
        with pytest.raises(lib.base.MXNetError):
            lib.recordio.MXRecordIO(str(tmp_path / "none.rec"), "r")
        with pytest.raises(ValueError, match="Invalid flag"):
            lib.recordio.MXRecordIO(str(tmp_path / "x.rec"), "a")


def test_record_file_dataset(tmp_path):
    write(mxnet, tmp_path / "d.rec", RECORDS, indexed=False)
    rec = mxnet.recordio.MXIndexedRecordIO(str(tmp_path / "d.idx"), str(tmp_path / "d.rec"), "w")
    for i, r in enumerate(RECORDS):
        rec.write_idx(i, r)
    rec.close()
    ours, theirs = mx.gluon.data.RecordFileDataset(str(tmp_path / "d.rec")), \
        mxnet.gluon.data.RecordFileDataset(str(tmp_path / "d.rec"))
    assert len(ours) == len(theirs) == len(RECORDS)
    assert [ours[i] for i in range(len(ours))] == [theirs[i] for i in range(len(theirs))] == RECORDS
