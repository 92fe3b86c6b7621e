"""Processes that die with the build: a child the kernel kills when its parent dies, even by
SIGKILL (Linux's parent-death signal), so that no worker or typesetter outlives a killed build."""

import ctypes
import os
import signal

LIBC = ctypes.CDLL(None, use_errno=True)
PR_SET_PDEATHSIG = 1


def die_with(parent: int) -> None:
    """Run in the child: be killed when `parent` dies, and exit now if it already has."""
    LIBC.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before the prctl
        os._exit(1)
