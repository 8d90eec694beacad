"""Helpers shared by test modules: the one place a test imports another test's code from.

- :mod:`tests.support.text`: :func:`replaced`, a ``str.replace`` that fails when nothing matched.
- :mod:`tests.support.views`: conversation views built from hand-made events.
- :mod:`tests.support.log`: hand-made :class:`Pending` events for log tests.
- :mod:`tests.support.runs`: whole offline runs (clinic, pizza, model-driven suites) and log reads.
- :mod:`tests.support.faults`: a small run whose Nth commit fails, and the CLI in-process.
- :mod:`tests.support.fault_server`: an OpenAI-compatible server on 127.0.0.1 with scripted faults.
- :mod:`tests.support.echo_agent`: an HTTP agent on 127.0.0.1 that says back the credentials it was sent.
- :mod:`tests.support.fuzz`: Hypothesis settings and strategies shared by the fuzz suites.

A test module (``test_*.py``) never imports from another test module: what two need lives here.
"""
