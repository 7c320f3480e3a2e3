"""The pipeline's matrix products through numpy's BLAS rather than blis.

thinc's CPU backend multiplies a layer's matrices with blis unless told otherwise
(`NumpyOps(use_blis=False)`, a thinc option). numpy's BLAS (OpenBLAS in the Linux wheels)
does the same products in 65–75% of the time on one thread here: the whole parse takes
about a tenth less.
The parses were compared on all 7,079 question and answer texts of the reference sets:
the same tags, dependencies, sentences and entities, on one BLAS thread or two.

The backend is the one current when a model is built, so only the pipeline loaded inside
`numpy_products()` computes this way; a caller who chose another backend (a GPU's, or
thinc's ops for Apple chips) keeps it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def numpy_products() -> Iterator[None]:
    """Models built inside the block multiply with numpy when thinc's CPU backend is current."""
    from thinc.api import NumpyOps, get_current_ops, use_ops

    current = get_current_ops()
    if type(current) is not NumpyOps or not getattr(current, "use_blis", False):
        yield
        return
    with use_ops("numpy", use_blis=False):
        yield
