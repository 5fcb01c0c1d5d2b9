"""The differential cases against the real MXNet 1.9.1: one MXNet 1.x snippet, run once
with ``mx = mxnet`` and once with ``mx = mxgo``, must agree.

Each ``tests_py/mxnet_diff_<area>.py`` module holds ``CASES``, a list of ``Case``;
``test_mxnet_differential.py`` (collected only in .venv-mxnet) runs every one, and
``tools/mxnet_coverage.py`` reads ``names`` to know which MXNet names a case checks.
"""
import dataclasses


@dataclasses.dataclass(frozen=True)
class Case:
    """code: MXNet 1.x code that uses ``mx`` and ``np`` (NumPy) and leaves its result in
    ``r``: an NDArray, a Python number or bool, or a tuple/list of them. names: the
    MXNet names it checks, as "nd.<fn>", "nd.random.<fn>", "nd.linalg.<fn>",
    "NDArray.<method or property>". Whether the code raises must agree too; a snippet
    that MXNet refuses checks that mxgo refuses it as well."""
    code: str
    names: tuple
    id: str = ""

    def label(self):
        return self.id or self.code.splitlines()[-1][:60]
