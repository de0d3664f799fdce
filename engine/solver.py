"""HiGHS (highspy), the solver behind the engine's and the readers' optimisations: a silent model,
and the assignment problem.

highspy is imported on the first model, to keep it out of every other command's start.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import highspy

#: Seconds an assignment may take (a few dozen rows take milliseconds).
ASSIGNMENT_SECONDS = 0.5


def new_highs(seconds: float) -> highspy.Highs:
    """A silent, single-threaded HiGHS model that stops after ``seconds`` (its one-time banner on
    standard output is kept off the terminal)."""
    import highspy

    sys.stdout.flush()
    saved = os.dup(1)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 1)
            model = highspy.Highs()
    finally:
        os.dup2(saved, 1)
        os.close(saved)
    model.silent()
    model.setOptionValue("time_limit", seconds)
    model.setOptionValue("threads", 1)
    return model


def assignment(weights: np.ndarray) -> np.ndarray:
    """A different column for every row with the greatest total weight.

    Args:
        weights: float [n, k], n <= k; -inf where a row may not take a column.

    Returns:
        int [n], each row's column.

    Raises:
        ValueError: more rows than columns, a row with no allowed column, or no assignment found.
    """
    n, k = weights.shape
    allowed = np.isfinite(weights)
    if n > k or not allowed.any(axis=1).all():
        raise ValueError(f"no assignment of {n} rows to {k} columns with weights allowing each row one")
    model = new_highs(ASSIGNMENT_SECONDS)
    rows, cols = np.nonzero(allowed)
    take = [model.addBinary() for _ in rows]
    for r in range(n):
        model.addConstr(model.qsum(take[i] for i in np.flatnonzero(rows == r).tolist()) == 1)
    for c in np.unique(cols).tolist():
        model.addConstr(model.qsum(take[i] for i in np.flatnonzero(cols == c).tolist()) <= 1)
    model.maximize(model.qsum(float(weights[r, c]) * x for r, c, x in zip(rows, cols, take, strict=True)))
    if model.getModelStatus() != type(model.getModelStatus()).kOptimal:
        raise ValueError(f"no assignment of {n} rows to {k} columns found ({model.getModelStatus()})")
    chosen = np.asarray(model.vals(take)) > 0.5
    out = np.empty(n, int)
    out[rows[chosen]] = cols[chosen]
    return out
