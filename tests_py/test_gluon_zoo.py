"""gluon.utils.download / check_sha1 against a local HTTP server, and the model zoo's
pretrained Parameters (model_store) from a local root or that server (MXNET_GLUON_REPO).
The architectures themselves are checked against MXNet in test_mxnet_zoo.py."""
import hashlib
import http.server
import io
import os
import threading
import zipfile

import numpy as np
import pytest

import mxgo as mx

store = mx.gluon.model_zoo.model_store


class _Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.server.requests.append(self.path)
        body = self.server.files.get(self.path)
        self.send_response(200 if body is not None else 404)
        self.send_header("Content-Length", str(len(body or b"")))
        self.end_headers()
        self.wfile.write(body or b"")

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def server():
    """A server on 127.0.0.1 of the bytes in server.files by path, recording server.requests."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.files, httpd.requests = {}, []
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    httpd.url = "http://127.0.0.1:%d" % httpd.server_address[1]
    yield httpd
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def served(server):
    server.files.clear()
    server.requests.clear()
    server.files["/data/file.bin"] = b"payload" * 100
    return server


def sha1(data):
    return hashlib.sha1(data).hexdigest()


def test_download_to_a_file_a_directory_and_the_current_directory(served, tmp_path, monkeypatch):
    url, body = served.url + "/data/file.bin", served.files["/data/file.bin"]
    assert mx.gluon.utils.download(url, path=str(tmp_path / "a.bin"), sha1_hash=sha1(body)) == str(tmp_path / "a.bin")
    assert (tmp_path / "a.bin").read_bytes() == body
    assert mx.gluon.utils.download(url, path=str(tmp_path)) == os.path.join(str(tmp_path), "file.bin")
    with pytest.warns(UserWarning, match="Unverified HTTPS request"):
        mx.gluon.utils.download(url, path=str(tmp_path / "b.bin"), verify_ssl=False)
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    assert mx.gluon.utils.download(url) == "file.bin"
    assert (tmp_path / "sub" / "file.bin").read_bytes() == body
    assert sorted(os.listdir(tmp_path)) == ["a.bin", "b.bin", "file.bin", "sub"]  # no temporary files left
    assert mx.gluon.utils.check_sha1(str(tmp_path / "a.bin"), sha1(body))
    assert not mx.gluon.utils.check_sha1(str(tmp_path / "a.bin"), sha1(b"other"))


def test_hash_mismatch_raises_after_retries_and_leaves_no_file(served, tmp_path):
    with pytest.raises(UserWarning, match="content hash does not match"):
        mx.gluon.utils.download(served.url + "/data/file.bin", path=str(tmp_path / "f"), sha1_hash=sha1(b"x"),
                                retries=2)
    assert len(served.requests) == 2
    assert os.listdir(tmp_path) == []


def test_http_error_raises_after_retries(served, tmp_path):
    with pytest.raises(RuntimeError, match="Failed downloading url .*missing"):
        mx.gluon.utils.download(served.url + "/missing", path=str(tmp_path / "f"), retries=3)
    assert served.requests == ["/missing"] * 3
    assert os.listdir(tmp_path) == []
    with pytest.raises(AssertionError, match="retries"):
        mx.gluon.utils.download(served.url + "/missing", path=str(tmp_path / "f"), retries=-1)


def test_overwrite(served, tmp_path):
    url, body, target = served.url + "/data/file.bin", served.files["/data/file.bin"], tmp_path / "f"
    target.write_bytes(b"old")
    mx.gluon.utils.download(url, path=str(target))  # there already: kept
    assert target.read_bytes() == b"old" and not served.requests
    mx.gluon.utils.download(url, path=str(target), sha1_hash=sha1(b"old"))  # there with that hash: kept
    assert target.read_bytes() == b"old" and not served.requests
    mx.gluon.utils.download(url, path=str(target), sha1_hash=sha1(body))  # another hash: fetched again
    assert target.read_bytes() == body and len(served.requests) == 1
    target.write_bytes(b"old")
    mx.gluon.utils.download(url, path=str(target), overwrite=True)
    assert target.read_bytes() == body and len(served.requests) == 2


def _saved(net, path):
    net.initialize()
    net(mx.nd.ones((1, 3, 32, 32)))
    net.save_parameters(str(path))
    return path.read_bytes(), {k: p.data().asnumpy() for k, p in net._collect_params_with_prefix().items()}


def _loaded(net):
    return {k: p.data().asnumpy() for k, p in net._collect_params_with_prefix().items()}


def test_pretrained_from_a_local_root(tmp_path, monkeypatch):
    vision = mx.gluon.model_zoo.vision
    body, values = _saved(vision.mobilenet0_25(classes=10), tmp_path / "made.params")
    monkeypatch.setitem(store._model_sha1, "mobilenet0.25", sha1(body))
    (tmp_path / ("mobilenet0.25-%s.params" % sha1(body)[:8])).write_bytes(body)
    net = vision.get_model("mobilenet0.25", classes=10, pretrained=True, root=str(tmp_path))
    loaded = _loaded(net)
    assert sorted(loaded) == sorted(values)
    for k in values:
        np.testing.assert_array_equal(loaded[k], values[k])


def test_pretrained_downloaded_from_the_repo(served, tmp_path, monkeypatch):
    body, values = _saved(mx.gluon.model_zoo.vision.mobilenet_v2_0_25(classes=10), tmp_path / "made.params")
    name = "mobilenetv2_0.25-%s" % sha1(body)[:8]
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr(name + ".params", body)
    served.files["/repo/gluon/models/%s.zip" % name] = archive.getvalue()
    monkeypatch.setitem(store._model_sha1, "mobilenetv2_0.25", sha1(body))
    monkeypatch.setenv("MXNET_GLUON_REPO", served.url + "/repo")  # no trailing slash: one is added
    root = tmp_path / "models"
    assert store.get_model_file("mobilenetv2_0.25", root=str(root)) == str(root / (name + ".params"))
    assert os.listdir(root) == [name + ".params"]  # the zip and the extraction directory are gone
    net = mx.gluon.model_zoo.vision.mobilenet_v2_0_25(classes=10, pretrained=True, root=str(root))
    assert len(served.requests) == 1  # the second time from the root
    np.testing.assert_array_equal(_loaded(net)["output.0.weight"], values["output.0.weight"])
    (root / (name + ".params")).write_bytes(b"damaged")  # a wrong hash: fetched again
    store.get_model_file("mobilenetv2_0.25", root=str(root))
    assert (root / (name + ".params")).read_bytes() == body and len(served.requests) == 2
    (root / "other.txt").write_text("kept")
    store.purge(str(root))
    assert os.listdir(root) == ["other.txt"]


def test_errors():
    with pytest.raises(ValueError, match="Model nonsense is not supported"):
        mx.gluon.model_zoo.vision.get_model("nonsense")
    with pytest.raises(ValueError, match="Pretrained model for nonsense is not available"):
        store.get_model_file("nonsense")
    with pytest.raises(AssertionError, match="Invalid number of layers"):
        mx.gluon.model_zoo.vision.get_resnet(1, 19)
    with pytest.raises(AssertionError, match="Unsupported SqueezeNet version"):
        mx.gluon.model_zoo.vision.SqueezeNet("2.0")
    assert type(mx.gluon.model_zoo.vision.get_model("ResNet18_V1")).__name__ == "ResNetV1"
