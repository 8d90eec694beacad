"""The whole suite's one setting: Ctrl-C is Python's own in this process and the ones it starts.

A shell that starts a job in the background without job control (``make test &``, a CI step run
with ``nohup … &``) starts it with SIGINT ignored, and a child inherits that across ``exec``:
Python then never installs its ``KeyboardInterrupt`` handler, so ``polygon.app.stopping`` finds
nothing of Python's to replace (it leaves a handler that is not Python's alone, by design) and
every Ctrl-C test saw a process no signal could stop (13 failures in such a run). Putting
Python's handler back here gives the children the default action again.
"""

from __future__ import annotations

import signal
import threading

if threading.current_thread() is threading.main_thread():
    signal.signal(signal.SIGINT, signal.default_int_handler)
