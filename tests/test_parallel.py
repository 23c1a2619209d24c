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


def _signals_of_a_worker(job: int) -> tuple[bool, bool, bool]:
    """(SIGINT ignored, SIGINT held, SIGTERM held) in the worker running the job."""
    import signal

    held = signal.pthread_sigmask(signal.SIG_BLOCK, set())
    return (signal.getsignal(signal.SIGINT) == signal.SIG_IGN, signal.SIGINT in held, signal.SIGTERM in held)


@pytest.mark.skipif(not hasattr(__import__("signal"), "pthread_sigmask"), reason="POSIX signal masks")
@pytest.mark.parametrize("weight", [None, lambda job: job])
def test_workers_are_forked_with_signals_held_and_run_with_ctrl_c_ignored(weight):
    """Helper 107: Ctrl-C while the pool forked its workers was raised inside an after-fork hook, which swallowed
    it: the command ran on to exit 0 (2 of 35 SIGINTs sent 0.70-0.99 s into a 600-entry snapshot; 0 of 35 once
    the forks happen with the signals held). The workers, forked with them held, ignore SIGINT (the parent ends
    them) and hold nothing once started; the parent's mask is as it was."""
    import signal

    before = signal.pthread_sigmask(signal.SIG_BLOCK, set())
    out = parallel.pool_map(_signals_of_a_worker, list(range(8)), workers=2, weight=weight)
    assert set(out) == {(True, False, False)}
    assert signal.pthread_sigmask(signal.SIG_BLOCK, set()) == before


FORK_INTERRUPT_PROBE = r"""
import os, signal, sys
from tritonscope import parallel

armed = [True]


def interrupt_once_in_parent():
    if armed:
        armed.clear()
        os.kill(os.getpid(), signal.SIGINT)


def job(j):
    return j


os.register_at_fork(after_in_parent=interrupt_once_in_parent)
try:
    parallel.pool_map(job, list(range(8)), workers=2)
except KeyboardInterrupt:
    print("heard")
else:
    print("lost")
sys.stdout.flush()
os._exit(0)
"""


@pytest.mark.skipif(not hasattr(os, "register_at_fork"), reason="fork hooks")
def test_ctrl_c_while_the_workers_fork_is_not_lost():
    """The same, made certain: a SIGINT delivered while the pool forks (from an after-fork hook, where Python
    swallows what a hook raises) was lost and the jobs ran to the end; it is heard once the jobs are queued.
    (In a process of its own: a test runner's worker may run tests off the main thread, whose mask it is.)"""
    import multiprocessing
    import subprocess
    import sys

    if multiprocessing.get_start_method(allow_none=True) not in (None, "fork"):
        pytest.skip("workers are not forked here")
    r = subprocess.run([sys.executable, "-c", FORK_INTERRUPT_PROBE], capture_output=True, text=True, timeout=120)
    assert r.stdout.strip() == "heard", (r.stdout, r.stderr)
