"""The graph under mx.sym: nodes, MXNet's attribute strings, and MXNet 1.x's JSON.

A node is a variable (op None) or an operator with string attributes, as MXNet keeps them
("(3, 3)", "True", "relu"); its inputs are (node, output index) entries. The JSON is
MXNet 1.9.1"s ``tojson()`` layout, so files go both ways.
"""
import ast
import json
import numbers

from ..base import FACTS, MXNetValueError

#: MXNet's version in the files it writes (1.9.1)
MXNET_VERSION = 10901
#: mshadow's type flag of each dtype name, which a variable's __dtype__ holds (Go's table, pkg/ndfile)
TYPE_FLAGS = FACTS["type_flags"]


class Node:
    """One variable or operator of a graph."""

    __slots__ = ("op", "name", "attrs", "inputs")

    def __init__(self, op, name, attrs=None, inputs=()):
        self.op, self.name, self.attrs, self.inputs = op, name, dict(attrs or {}), list(inputs)

    def num_outputs(self):
        """The node's outputs: MXNet's count (BatchNorm keeps its mean and variance as
        hidden outputs, split has num_outputs)."""
        if self.op is None:
            return 1
        if self.op in ("SliceChannel", "split"):
            return int(decode(self.attrs.get("num_outputs", "1")))
        if self.op in ("BatchNorm", "LayerNorm", "GroupNorm") and self.attrs.get("output_mean_var") in ("True", "1"):
            return 3
        return _HIDDEN_OUTPUTS.get(self.op, 1)


#: mx.nd's names that MXNet registers as aliases, and the operator each stands for there (the name
#: MXNet's files hold; tests_py/test_mxnet_gluon.py checks the table against MXNet's registry)
MXNET_NAMES = {
    "ElementWiseSum": "add_n", "Softmax": "SoftmaxOutput", "broadcast_axes": "broadcast_axis",
    "broadcast_minus": "broadcast_sub", "broadcast_plus": "broadcast_add", "cast": "Cast",
    "choose_element_0index": "pick", "concat": "Concat", "crop": "slice", "ctc_loss": "CTCLoss",
    "cumsum": "_np_cumsum", "flatten": "Flatten", "flip": "reverse", "identity": "_copy", "linalg_det": "_linalg_det",
    "linalg_extractdiag": "_linalg_extractdiag", "linalg_extracttrian": "_linalg_extracttrian",
    "linalg_gelqf": "_linalg_gelqf", "linalg_gemm": "_linalg_gemm", "linalg_gemm2": "_linalg_gemm2",
    "linalg_inverse": "_linalg_inverse", "linalg_makediag": "_linalg_makediag",
    "linalg_maketrian": "_linalg_maketrian", "linalg_potrf": "_linalg_potrf", "linalg_potri": "_linalg_potri",
    "linalg_slogdet": "_linalg_slogdet", "linalg_sumlogdiag": "_linalg_sumlogdiag", "linalg_syrk": "_linalg_syrk",
    "linalg_trmm": "_linalg_trmm", "linalg_trsm": "_linalg_trsm", "max_axis": "max", "min_axis": "min",
    "normal": "_random_normal", "pad": "Pad", "random_exponential": "_random_exponential",
    "random_gamma": "_random_gamma", "random_generalized_negative_binomial": "_random_generalized_negative_binomial",
    "random_negative_binomial": "_random_negative_binomial", "random_normal": "_random_normal",
    "random_pdf_dirichlet": "_random_pdf_dirichlet", "random_pdf_exponential": "_random_pdf_exponential",
    "random_pdf_gamma": "_random_pdf_gamma",
    "random_pdf_generalized_negative_binomial": "_random_pdf_generalized_negative_binomial",
    "random_pdf_negative_binomial": "_random_pdf_negative_binomial", "random_pdf_normal": "_random_pdf_normal",
    "random_pdf_poisson": "_random_pdf_poisson", "random_pdf_uniform": "_random_pdf_uniform",
    "random_poisson": "_random_poisson", "random_randint": "_random_randint", "random_uniform": "_random_uniform",
    "ravel_multi_index": "_ravel_multi_index", "reshape": "Reshape", "sample_exponential": "_sample_exponential",
    "sample_gamma": "_sample_gamma", "sample_generalized_negative_binomial": "_sample_generalized_negative_binomial",
    "sample_multinomial": "_sample_multinomial", "sample_negative_binomial": "_sample_negative_binomial",
    "sample_normal": "_sample_normal", "sample_poisson": "_sample_poisson", "sample_uniform": "_sample_uniform",
    "shuffle": "_shuffle", "split": "SliceChannel", "stop_gradient": "BlockGrad", "sum_axis": "sum",
    "swapaxes": "SwapAxis", "uniform": "_random_uniform", "unravel_index": "_unravel_index",
}
#: MXNet's operator names in files, and mx.nd's name for each (the first alias)
ND_NAMES = {theirs: ours for ours, theirs in reversed(MXNET_NAMES.items())}
#: outputs an operator has beyond those it shows (MXNet counts them in node_row_ptr)
_HIDDEN_OUTPUTS = {"BatchNorm": 3}
#: inputs that an operator writes (MXNet's auxiliary states), by position
AUX_INPUTS = {"BatchNorm": (3, 4), "BatchNorm_v1": (3, 4), "_contrib_SyncBatchNorm": (3, 4)}


def encode(value):
    """A Python attribute value as MXNet's string."""
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, (list, tuple)):
        return str(tuple(v if isinstance(v, (numbers.Number, type(None))) else encode(v) for v in value))
    if isinstance(value, str):
        return value
    if value is None:
        return "None"
    if hasattr(value, "dtype") and not isinstance(value, numbers.Number):  # a NumPy dtype or type
        return str(value)
    if isinstance(value, type):
        return value.__name__
    return str(value)


def decode(text):
    """MXNet's attribute string as a Python value: numbers, tuples, booleans and None by
    their literal, anything else (an activation's name, a layout, a dtype) as the str."""
    if text in ("True", "true"):
        return True
    if text in ("False", "false"):
        return False
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return text
    if isinstance(value, list):
        value = tuple(value)
    return value if isinstance(value, (numbers.Number, tuple, type(None))) else text


def topo_order(heads):
    """The nodes reachable from heads (entries), every node after its inputs, in the
    order of a depth-first walk (MXNet's order, so lists and files agree)."""
    order, seen = [], set()
    stack = [(node, False) for node, _ in reversed(heads)]
    while stack:
        node, done = stack.pop()
        if done:
            order.append(node)
            continue
        if id(node) in seen:
            continue
        seen.add(id(node))
        stack.append((node, True))
        stack.extend((inp, False) for inp, _ in reversed(node.inputs) if id(inp) not in seen)
    return order


def to_json(heads):
    """MXNet 1.x's JSON of the graph with these output entries."""
    nodes = topo_order(heads)
    index = {id(n): i for i, n in enumerate(nodes)}
    aux = {id(n.inputs[i][0]) for n in nodes for i in AUX_INPUTS.get(n.op, ()) if i < len(n.inputs)}
    out, row_ptr = [], [0]
    for n in nodes:
        entry = {"op": "null" if n.op is None else n.op, "name": n.name}
        if n.attrs:
            entry["attrs"] = dict(sorted(n.attrs.items()))
        entry["inputs"] = [[index[id(src)], i, 1 if id(src) in aux else 0] for src, i in n.inputs]
        out.append(entry)
        row_ptr.append(row_ptr[-1] + n.num_outputs())
    return json.dumps({
        "nodes": out,
        "arg_nodes": [i for i, n in enumerate(nodes) if n.op is None],
        "node_row_ptr": row_ptr,
        "heads": [[index[id(n)], i, 0] for n, i in heads],
        "attrs": {"mxnet_version": ["int", MXNET_VERSION]},
    }, indent=2)


def from_json(text):
    """The output entries of the graph in MXNet's JSON (1.x; 0.x's "param" and "attr" too)."""
    try:
        doc = json.loads(text)
        nodes = []
        for entry in doc["nodes"]:
            attrs = entry.get("attrs", entry.get("attr", entry.get("param", {}))) or {}
            op = None if entry["op"] == "null" else entry["op"]
            inputs = [(nodes[i[0]], i[1]) for i in entry.get("inputs", [])]
            nodes.append(Node(op, entry["name"], {k: str(v) for k, v in attrs.items()}, inputs))
        return [(nodes[h[0]], h[1]) for h in doc["heads"]]
    except (KeyError, IndexError, TypeError, ValueError) as err:
        raise MXNetValueError("not an MXNet symbol file: %s: %s" % (type(err).__name__, err)) from None
