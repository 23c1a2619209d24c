"""Whole-cache work on every core: one process pool helper and the progress bar that goes with it.

Parsing is pure Python and CPU-bound, so threads would not help; worker processes do. Jobs are shipped
in chunks (a few per worker) so that the pickling of a KernelEntry and its result stays small next to
the parse itself. Results come back in the order of the jobs, whatever order the workers finish in.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

from tritonscope import relax_gc, stages

J = TypeVar("J")
R = TypeVar("R")

# Below this many jobs a pool costs more to start (~50 ms per worker) than it saves.
MIN_JOBS_FOR_POOL = 4

# Descriptors a forked worker must not keep open: `snapshot`'s lock on its output folder (a flock is the
# open file's: a worker holding it kept the folder locked after its parent was killed)
CLOSE_IN_WORKERS: set[int] = set()

# Set once a pool's workers were ended by Ctrl-C or a termination: the pool's thread may never end
POOL_ABANDONED = False


def usable_cores() -> int:
    """Cores this process may run on (its affinity mask), not the machine's total."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def pool_map(fn: Callable[[J], R], jobs: Iterable[J], progress: Callable[[int], None] | None = None,
             workers: int | None = None, weight: Callable[[J], int] | None = None) -> list[R]:
    """[fn(job) for job in jobs], in a process pool when there are several cores and enough jobs.

    `fn` must be a module-level function (it is pickled by name). An exception in a worker propagates
    unchanged (TritonscopeError pickles), so the CLI reports it as it would in-process: the first failed
    job in the order of `jobs`. Work whose output is large (`snapshot`'s files) is better done by `fn`
    itself, in the worker: the parent that collects the results is one core.

    With `weight` (a job's expected cost, such as its bytes), the heaviest jobs start first, one at a
    time: no worker is left with a large job when the others are done (in a real cache of autotuned
    variants, a few attention kernels outweigh hundreds of GEMMs). Results, unparsed lines and errors
    still come in the order of `jobs`."""
    jobs = list(jobs)
    workers = min(workers or usable_cores(), len(jobs))
    if workers <= 1 or len(jobs) < MIN_JOBS_FOR_POOL:
        out = []
        for job in jobs:
            out.append(fn(job))
            if progress:
                progress(1)
        return out
    from concurrent.futures import ProcessPoolExecutor, as_completed

    results: list[R] = []
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_start_worker,
                               initargs=(os.getpid(), tuple(CLOSE_IN_WORKERS)))
    try:
        # (the workers fork at the first submit: Ctrl-C there was raised inside an after-fork hook, which
        # swallowed it, and the command ran on to exit 0; held until the jobs are queued, it is heard after)
        with signals_held():
            if weight is None:
                chunk = max(1, len(jobs) // (workers * 4))
                done = pool.map(_noting_unparsed, [(fn, job) for job in jobs], chunksize=chunk)
            else:
                heaviest_first = sorted(range(len(jobs)), key=lambda i: -weight(jobs[i]))  # (stable: ties in order)
                futures = {i: pool.submit(_noting_unparsed, (fn, jobs[i])) for i in heaviest_first}
        if weight is not None:
            for future in as_completed(futures.values()):
                if progress and future.exception() is None:
                    progress(1)
            progress = None
            done = (futures[i].result() for i in range(len(jobs)))
        for result, unparsed in done:
            results.append(result)
            stages.note_unparsed(unparsed)  # the CLI's "unparsed lines" note sees workers' lines too
            if progress:
                progress(1)
    except Exception:  # an error in a job: the jobs not started are dropped, not run, and the running ones
        try:  # end before the caller cleans up
            pool.shutdown(wait=True, cancel_futures=True)
        except BaseException:  # (Ctrl-C while they end)
            _end_workers(pool)
            raise
        raise
    except BaseException:  # Ctrl-C, a termination: the workers are ended now
        _end_workers(pool)
        raise
    pool.shutdown()
    return results


def _end_workers(pool) -> None:
    """End a pool's workers now (SIGKILL), waiting a moment for each, and leave the pool (POOL_ABANDONED).
    A graceful shutdown was no answer to Ctrl-C: where it came while `submit` was starting the workers, they
    waited for work no one would send, and the command hung at exit joining them; and a worker ended while
    it wrote its result leaves the pool's thread reading the rest of it for ever. The console entry point
    exits without the interpreter's exit hooks after such a pool (`cli.run`)."""
    global POOL_ABANDONED
    POOL_ABANDONED = True
    workers = list((getattr(pool, "_processes", None) or {}).values())  # (3.14 has terminate_workers())
    for w in workers:
        try:
            w.kill()  # (SIGKILL: a worker forked a moment ago still has the parent's handlers, which print)
        except (OSError, AttributeError, ValueError):
            pass
    for w in workers:  # (their files written before the caller removes its temporary folder)
        try:
            w.join(timeout=5)
        except (OSError, AttributeError, ValueError, AssertionError):
            pass
    pool.shutdown(wait=False, cancel_futures=True)


def _start_worker(parent: int, close: tuple[int, ...] = ()) -> None:
    """A pool worker: the GC thresholds of the CLI (a worker started by spawn or forkserver does not inherit
    them), SIGTERM's default action (the parent's handler would make a terminated worker raise and go
    on with the next job), killed when the parent dies (a parent killed by SIGKILL left its workers
    waiting for work for ever), Ctrl-C ignored (the parent hears it and ends them; a worker's own
    KeyboardInterrupt printed its traceback), and none of the descriptors the parent keeps to itself."""

    relax_gc()
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # (Ctrl-C is the parent's to hear: it ends the workers)
    end_with_parent(parent, signal.SIGKILL)
    for fd in close:
        try:
            os.close(fd)
        except OSError:
            pass
    if hasattr(signal, "pthread_sigmask"):  # (forked with the parent's signals held: signals_held)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)


_HELD = frozenset(getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, n))


@contextlib.contextmanager
def signals_held():
    """Ctrl-C, SIGTERM and SIGHUP delivered only once the block is done (the main thread's signal mask; a
    process forked inside it starts with them held)."""
    import threading

    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def end_with_parent(parent: int, signum: int) -> None:
    """`signum` to this process when its parent (pid `parent`) dies (Linux's PR_SET_PDEATHSIG), and now where
    it died before the request took effect. Elsewhere nothing."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signum)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:
        os.kill(os.getpid(), signum)


def entry_bytes(job: tuple) -> int:
    """The weight of a job that starts with a KernelEntry: the bytes of its stage files (stat'ed once)."""
    return sum(job[0].sizes.values())


def _noting_unparsed(fn_job: tuple[Callable[[J], R], J]) -> tuple[R, dict]:
    fn, job = fn_job
    with stages.collecting_unparsed() as sink:
        result = fn(job)
    return result, sink


@contextlib.contextmanager
def progress_bar(total: int, label: str) -> Iterator[Callable[[int], None]]:
    """A rich progress bar on stderr when it is a terminal; a no-op otherwise (pipes, CI, --json > file)."""
    if not sys.stderr.isatty() or total <= 1:
        yield lambda n: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from tritonscope.status import stderr_console

    # (the description a path: no markup, no emoji codes)
    with Progress(TextColumn("{task.description}", markup=False), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=stderr_console(), transient=True) as bar:
        task = bar.add_task(label, total=total)
        yield lambda n: bar.advance(task, n)

