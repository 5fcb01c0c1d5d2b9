"""mx.kv's 'dist_sync' store, the Trainer on it, SplitSampler and the launcher, with worker
processes on 127.0.0.1 (kv_workers.py), each job under a time limit.

The 2- and 4-worker jobs check every dtype's sums exactly, rank 0's value after init and
broadcast, that the engine reduced the arrays' own memory, and trains a Dense net on two
shards: the parameters must be the same on both ranks and equal (rtol 1e-5: the sum is
taken in another order) to one process trained on the union of the batches with the same
step(batch_size), also when the last step starts from a checkpoint that rank 0 saved.
Failures: a worker that exits, one that raises (under the launcher, with a small script
without mxgo), one that never starts: the others end with an MXNetError (or the
launcher's message) naming the rank, within the stated bound.
"""
import os
import subprocess
import time

import numpy as np
import pytest

import kv_workers
import mxgo as mx
from mxgo.distributed import launch
from isolation import PYTHON

HERE = os.path.dirname(os.path.abspath(__file__))
WORKER = os.path.join(HERE, "kv_workers.py")
BOUND = 60  # seconds any job may take, start-up included (the failures' own timeout is 5 s)


def _env(**extra):
    env = {k: v for k, v in os.environ.items() if k not in ("RANK", "WORLD_SIZE", "MASTER_PORT", "DMLC_ROLE")}
    env.update({"MXGO_KVSTORE_TIMEOUT": "5", **extra})
    return env


@pytest.mark.parametrize("world", [2, 4])
def test_workers_sum_broadcast_and_train_like_one_process(tmp_path, world):
    cmd = [*PYTHON, "-m", "mxgo.distributed.launch", "-n", str(world), WORKER, "all", str(tmp_path)]
    proc = subprocess.run(cmd, env=_env(), capture_output=True, text=True, timeout=BOUND * world // 2, cwd=HERE)
    assert proc.returncode == 0, proc.stderr[-4000:]
    ranks = [dict(np.load(tmp_path / ("all-%d.npz" % r))) for r in range(world)]
    assert [int(r["rank"]) for r in ranks] == list(range(world))
    assert all(int(r["num_workers"]) == world for r in ranks)
    for r in ranks:
        for dtype in kv_workers.DTYPES:
            np.testing.assert_array_equal(r["init_" + dtype], [5, 5, 5])          # rank 0's
            # every rank pushes (rank + 1) and (2 rank + 1)
            np.testing.assert_array_equal(r["pushpull_" + dtype], np.full((2, 3), sum(3 * k + 2 for k in range(world))))
            np.testing.assert_array_equal(r["push_" + dtype], [world] * 3)
        np.testing.assert_array_equal(r["broadcast"], [7, 7])
        np.testing.assert_allclose(r["updated"], 1 - 0.5 * sum(k + 1 for k in range(world)))
    shards = [kv_workers.shard_batches(rank, world) for rank in range(world)]
    union = [tuple(mx.nd.concat(*[b[i] for b in step], dim=0) for i in range(2)) for step in zip(*shards)]
    expected = kv_workers.train(*kv_workers.net_and_trainer(None), union)
    for uok in ("None", "False"):
        assert bool(ranks[0][uok + "_on_kvstore"]) == (uok == "None")  # MXNet's default for dist stores
        for i, value in enumerate(expected):
            key = "%s_%d" % (uok, i)
            for r in ranks[1:]:
                np.testing.assert_array_equal(ranks[0][key], r[key])
            np.testing.assert_allclose(ranks[0][key], value, rtol=1e-5, atol=1e-6)
            for r in ranks:  # resumed from rank 0's checkpoint: the same step
                np.testing.assert_array_equal(r["%s_resumed_%d" % (uok, i)], r[key])


def test_a_worker_that_dies_makes_the_other_raise(tmp_path):
    port = str(launch.free_port())
    procs = [subprocess.Popen([*PYTHON, WORKER, "die", str(tmp_path)], cwd=HERE, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              env=launch.worker_env(rank, rank, 2, "127.0.0.1", port, base=_env(MXGO_KVSTORE_TIMEOUT="2")))
             for rank in range(2)]
    outs = [p.communicate(timeout=BOUND) for p in procs]
    assert procs[1].returncode == 3
    assert procs[0].returncode == 7, outs[0]
    first, then = outs[0][0].splitlines()
    assert first.startswith("MXNetError: kvstore: broadcast failed on worker rank 0 of 2 (")
    assert then == "then MXNetError: kvstore: barrier on worker rank 0 of 2: the job failed earlier (%s)" % first[12:]


FAILING = """import os, sys, time
if os.environ["RANK"] == "1":
    raise RuntimeError("worker 1 fails on purpose")
time.sleep(BOUND)
"""


def test_launcher_stops_the_job_when_a_worker_raises(tmp_path):
    script = tmp_path / "failing.py"
    script.write_text(FAILING.replace("BOUND", str(BOUND)))
    start = time.monotonic()
    proc = subprocess.run([*PYTHON, "-m", "mxgo.distributed.launch", "-n", "3", "--grace", "1", str(script)],
                          env=_env(), capture_output=True, text=True, timeout=BOUND)
    assert time.monotonic() - start < BOUND / 2  # the sleeping workers were stopped
    assert proc.returncode == 1
    assert "worker 1 fails on purpose" in proc.stderr
    assert "mxgo.distributed.launch: worker rank 1 exited with code 1; stopping the others" in proc.stderr


def test_a_worker_that_never_starts_is_an_error_within_the_timeout(monkeypatch):
    for name, value in launch.worker_env(0, 0, 2, "127.0.0.1", launch.free_port(), base={}).items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("MXGO_KVSTORE_TIMEOUT", "1")
    start = time.monotonic()
    with pytest.raises(mx.MXNetError, match="worker rank 0 of 2 could not join the others at 127.0.0.1:.* within 1s"):
        mx.kv.create("dist_sync")
    assert time.monotonic() - start < 10


@pytest.mark.parametrize("env, message", [
    ({}, "start the workers with `python -m mxgo.distributed.launch"),
    ({"DMLC_ROLE": "server"}, "DMLC_ROLE=server: mxgo has no parameter servers"),
    ({"RANK": "2", "WORLD_SIZE": "2", "MASTER_PORT": "1"}, "rank 2 is not in [0, 2)"),
    ({"RANK": "x", "WORLD_SIZE": "2", "MASTER_PORT": "1"}, "RANK must be a whole number"),
    ({"MXGO_KVSTORE_TIMEOUT": "0"}, "MXGO_KVSTORE_TIMEOUT must be a number of seconds > 0"),
])
def test_dist_store_without_its_workers_is_refused(monkeypatch, env, message):
    for name in ("RANK", "WORLD_SIZE", "MASTER_PORT", "DMLC_NUM_WORKER", "DMLC_WORKER_ID", "DMLC_PS_ROOT_PORT",
                 "DMLC_ROLE", "MXGO_KVSTORE_TIMEOUT"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(mx.MXNetError, match=message.replace("[", r"\[").replace("(", r"\(").replace(")", r"\)")):
        mx.kv.create("dist_sync")


@pytest.mark.parametrize("name, error", [("dist_async", mx.MXNetError), ("horovod", mx.MXNetError),
                                         ("nccl", mx.MXNetError), ("dist_typo", ValueError)])
def test_other_store_types_are_refused(name, error):
    with pytest.raises(error):
        mx.kv.create(name)


def test_local_store_object_in_the_trainer_updates_as_without_it():
    batches = kv_workers.shard_batches(0, 1)
    kv = mx.kv.create("local")
    expected = kv_workers.train(*kv_workers.net_and_trainer("device"), batches)
    net, trainer = kv_workers.net_and_trainer(kv)
    got = kv_workers.train(net, trainer, batches)
    assert trainer._update_on_kvstore and kv.type == "local" and kv.rank == 0 and kv.num_workers == 1
    for ours, value in zip(got, expected, strict=True):
        np.testing.assert_allclose(ours, value, rtol=1e-6)
    with pytest.raises(AssertionError, match="update_on_kvstore"):
        trainer.update(2)
    with pytest.raises(TypeError, match="kvstore must be KVStore, str or None"):
        kv_workers.net_and_trainer(3)



def test_trainer_all_reduces_the_last_parameters_first():
    """Backward writes the last layers' gradients first: the Trainer hands them to the store
    first, so their all-reduce overlaps the earlier layers' backward (bench_dist.py measures it)."""
    kv = mx.kv.create("local")
    net, trainer = kv_workers.net_and_trainer(kv)
    keys = []
    pushpull = kv.pushpull
    kv.pushpull = lambda key, *args, **kwargs: (keys.append(key), pushpull(key, *args, **kwargs))[1]
    kv_workers.train(net, trainer, kv_workers.shard_batches(0, 1)[:1])
    assert len(keys) == len(trainer._params) > 1 and keys == sorted(keys, reverse=True)

def test_split_sampler_shards_and_refuses_bad_parts():
    parts = [list(mx.gluon.data.SplitSampler(10, 3, i, shuffle=False)) for i in range(3)]
    assert parts == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    assert sorted(mx.gluon.data.SplitSampler(10, 3, 1)) == [3, 4, 5] and len(mx.gluon.data.SplitSampler(10, 3)) == 3
    for bad in [(0, 0), (2, 2), (2, -1)]:
        with pytest.raises(ValueError):
            mx.gluon.data.SplitSampler(10, *bad)


def test_launcher_refuses_bad_arguments():
    with pytest.raises(SystemExit):
        launch.parse(["-n", "0", "x.py"])
    with pytest.raises(SystemExit):
        launch.parse(["-n", "2", "--nnodes", "2", "x.py"])  # several machines need --master-port
    ns = launch.parse(["-n", "2", "x.py", "--flag", "1"])
    assert ns.script == "x.py" and ns.args == ["--flag", "1"]
    env = launch.worker_env(3, 1, 4, "10.0.0.1", 29500, base={})
    assert env["RANK"] == env["DMLC_WORKER_ID"] == "3" and env["WORLD_SIZE"] == env["DMLC_NUM_WORKER"] == "4"
    assert env["MASTER_ADDR"] == env["DMLC_PS_ROOT_URI"] == "10.0.0.1" and env["DMLC_ROLE"] == "worker"
