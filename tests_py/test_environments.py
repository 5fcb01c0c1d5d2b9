"""The rule of environments.py itself: its tables name files that exist, test_mxnet_*.py
run in the MXNet environment only, the main environment keeps every test, and the sample
is stable, blind to memory addresses and about 1 in k."""
import os

import pytest

import environments as E

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = sorted(f for f in os.listdir(HERE) if f.startswith("test_") and f.endswith(".py"))


@pytest.mark.parametrize("table", ["WHOLE", "NEEDS"])
def test_the_tables_name_existing_files(table):
    assert sorted(set(getattr(E, table)) - set(FILES)) == []


def test_mxnet_files_run_in_the_mxnet_environment_only():
    for f in FILES:
        where = [name for name, env in E.ENVIRONMENTS.items() if E.collected(env, env.k, f)]
        if f.startswith("test_mxnet_"):
            assert where == ["mxnet"], f
        else:
            assert "mxnet" not in E.NEEDS.get(f, ()), f


def test_the_main_environment_keeps_everything():
    main = E.ENVIRONMENTS["main"]
    assert main.k == 1 and "main" not in E.DESELECT
    for f in FILES:
        if not f.startswith("test_mxnet_"):
            assert E.collected(main, main.k, f) and E.keep("main", main.k, f, f + "::test_x[a]", "test_x"), f


def test_the_sample_is_stable_and_about_one_in_k():
    ids = ["tests_py/test_ops_x.py::test_op[%d-float32]" % i for i in range(20000)]
    kept = [i for i in ids if E.keep("legacy", E.K, "test_ops_x.py", i, "test_op")]
    assert abs(len(kept) / len(ids) - 1 / E.K) < 0.2 / E.K
    # the same wherever the folder sits, and whatever address an object's id shows
    assert kept == [i for i in ids if E.in_sample("test_ops_x.py", i.split("/", 1)[1], E.K)]
    a, b = "test_y.py::test_f[<object at 0x7f12ab>]", "test_y.py::test_f[<object at 0x55cd00ef>]"
    assert E.sample_key("test_y.py", a) == E.sample_key("test_y.py", b)


def test_whole_files_are_never_sampled_where_they_differ():
    legacy = E.ENVIRONMENTS["legacy"]
    assert all(E.keep("legacy", legacy.k, "test_capsules.py", "test_capsules.py::test_%d" % i, "test_%d" % i)
               for i in range(100))
    # ... and an environment without a k collects nothing else
    asan = E.ENVIRONMENTS["asan"]
    assert E.collected(asan, asan.k, "test_capsules.py") and not E.collected(asan, asan.k, "test_ops_reduce.py")
