"""README.md's "Departures from MXNet 1.x" and the departures the differential modules'
docstrings list (mxnet_diff.departures(), which the coverage report marks) are one list:
a departure in a docstring that the README lacks fails, and so does the reverse. Needs
neither MXNet nor mxgo: it reads text only."""
import os
import re

import pytest

import mxnet_diff

README = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "README.md")
HEADING = "## Departures from MXNet 1.x"


def readme_departures(text):
    """(names, text) of each "- `name` `name`: text" item of the README's section."""
    start = text.index(HEADING + "\n")
    end = text.find("\n## ", start + len(HEADING))
    out = []
    for line in text[start:end if end >= 0 else len(text)].splitlines():
        if not line.startswith("- "):
            continue
        m = re.match(r"- ((?:`[^`]+` ?)+): (.+)$", line)
        assert m, "README departure not in the form '- `name` `name`: text': %r" % line
        out.append((tuple(re.findall(r"`([^`]+)`", m.group(1))), " ".join(m.group(2).split())))
    return out


def docstring_departures():
    return [(d.names, d.text) for d in mxnet_diff.departures()]


def test_every_docstring_departure_is_in_the_readme():
    with open(README) as f:
        readme = readme_departures(f.read())
    missing = [d for d in docstring_departures() if d not in readme]
    assert not missing, "departures in tests_py/mxnet_diff_*.py docstrings that README.md does not list: %r" % missing


def test_every_readme_departure_is_in_a_docstring():
    with open(README) as f:
        readme = readme_departures(f.read())
    extra = [d for d in readme if d not in docstring_departures()]
    assert not extra, "README.md lists departures no tests_py/mxnet_diff_*.py docstring has: %r" % extra


def test_there_are_departures_and_each_names_something():
    deps = mxnet_diff.departures()
    assert len(deps) >= 10
    for d in deps:
        assert d.names and all(re.fullmatch(r"(nd|NDArray)\.[\w.*\[\]]+", n) for n in d.names), d
        assert d.text.endswith("."), d


@pytest.mark.parametrize("doc, why", [
    ("Departures from MXNet 1.9.1:\n- nd.x without text\n", "names: text"),
    ("Departures from MXNet 1.9.1:\n- nd.x: text\nnot indented\n", "unexpected line"),
])
def test_malformed_departures_are_refused(doc, why):
    with pytest.raises(ValueError, match=why):
        mxnet_diff.parse_departures(doc, "m")


def test_the_parser_reads_items_and_their_continuations():
    doc = "Intro.\n\nDepartures from MXNet 1.9.1 (x):\n- nd.a NDArray.b: one\n  two.\n- nd.c*: three.\n\nAfter.\n"
    got = mxnet_diff.parse_departures(doc, "m")
    assert [(d.names, d.text) for d in got] == [(("nd.a", "NDArray.b"), "one two."), (("nd.c*",), "three.")]
    assert got[1].covers("nd.cc") and not got[1].covers("nd.a")
