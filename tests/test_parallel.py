"""parallel.pool_map: results, unparsed lines and the first error in the order of the jobs, whatever order
the workers take them in (`weight` starts the heaviest first)."""

from __future__ import annotations

import os

import pytest

from tritonscope import parallel, stages
from tritonscope.errors import TritonscopeError


def _square_noting(job: int) -> tuple[int, int]:
    """job**2 and the worker's pid; notes one unparsed line per job, as a parser would."""
    stages.note_unparsed({("ttgir", f"job{job}"): [(job, "?")]})
    if job in (5, 9):
        raise TritonscopeError(f"job {job} failed", f"job{job}")
    return job * job, os.getpid()


def _started(job: int) -> float:
    import time

    return time.monotonic_ns()


@pytest.mark.parametrize("weight", [None, lambda job: job % 7])
def test_results_and_unparsed_lines_come_in_job_order(weight):
    jobs = [j for j in range(40) if j not in (5, 9)]
    seen = []
    with stages.collecting_unparsed() as sink:
        out = parallel.pool_map(_square_noting, jobs, progress=seen.append, workers=2, weight=weight)
    assert [r for r, _ in out] == [j * j for j in jobs]
    assert len({pid for _, pid in out} - {os.getpid()}) >= 1  # (it did run in workers)
    assert list(sink) == [("ttgir", f"job{j}") for j in jobs]
    assert sum(seen) == len(jobs)


@pytest.mark.parametrize("weight", [None, lambda job: -job])
def test_the_first_failed_job_in_job_order_is_the_error(weight):
    """Jobs 5 and 9 fail; with weights the pool starts 9 before 5, and the error is still job 5's."""
    with pytest.raises(TritonscopeError, match="job 5 failed"):
        parallel.pool_map(_square_noting, list(range(12)), workers=2, weight=weight)


def test_weight_starts_the_heaviest_jobs_first():
    jobs = list(range(24))
    starts = parallel.pool_map(_started, jobs, workers=2, weight=lambda job: job)
    by_start = sorted(jobs, key=lambda j: starts[j])
    # (a worker that starts late finds a few taken already: the order holds within a few places)
    assert set(by_start[:4]) <= set(range(18, 24)) and set(by_start[-4:]) <= set(range(6))
