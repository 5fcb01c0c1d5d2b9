from collections.abc import Mapping, Sequence

from ._graph import Node

def infer_shapes(heads: list[tuple[Node, int]], given: Mapping[str, Sequence[int]]
                 ) -> tuple[dict[str, tuple[int, ...] | None], list[tuple[int, ...]]]: ...
