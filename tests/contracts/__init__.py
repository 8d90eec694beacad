"""Contract suites: one abstract base test class per port, one subclass per implementation.

A base class (``SinkContract``, ``EventLogContract``, ...) holds the tests and an abstract
factory; it is not collected itself (pytest collects only ``Test*`` classes). Each
``Test<Implementation>`` subclass supplies the implementation and inherits every test, so a
new implementation joins the contract by adding one subclass. The Executor contract lives
with the executors (tests/execute).
"""
