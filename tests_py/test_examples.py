"""The examples that need PyTorch, run as a user would (collected where PyTorch is a peer)."""
import os
import subprocess

from isolation import PYTHON

HERE = os.path.dirname(os.path.abspath(__file__))


def test_params_to_torch_example(tmp_path):
    """examples/params_to_torch.py: a .params file's weights to PyTorch without copies."""
    script = os.path.join(HERE, "..", "examples", "params_to_torch.py")
    res = subprocess.run([*PYTHON, script, str(tmp_path / "mlp.params")], capture_output=True,
                         text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    assert "shares memory" in res.stdout and "dense1.bias[0] = 42.0" in res.stdout


def test_train_gluon_example(tmp_path):
    """examples/train_gluon.py: DataLoader workers, hybridize, Trainer, checkpoint resumed, export/imports."""
    script = os.path.join(HERE, "..", "examples", "train_gluon.py")
    res = subprocess.run([*PYTHON, script, str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "resumed from the checkpoint" in res.stdout and "imported: test accuracy" in res.stdout
    assert (tmp_path / "cnn-symbol.json").exists() and (tmp_path / "cnn.states").exists()


def test_train_dist_example(tmp_path):
    """examples/train_dist.py under the launcher: 2 workers, shards, the same parameters on each."""
    script = os.path.join(HERE, "..", "examples", "train_dist.py")
    res = subprocess.run([*PYTHON, "-m", "mxgo.distributed.launch", "-n", "2", script, str(tmp_path)],
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "epoch 2: mean loss" in res.stdout and "same parameters on all 2 workers" in res.stdout
    assert (tmp_path / "dist.params").exists()
