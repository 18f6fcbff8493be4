"""Test doubles and fixtures for exercising ingestion, shared by the test suite and the benches.

``openai_server``: a wire-format OpenAI-compatible stub server; ``harness``: real worker processes and synthetic
episodes; ``synthetic``: bulk-loaded synthetic graphs; ``leaders`` and ``pp_resolution``: readers and scorers for
the reference datasets (the data itself lives outside the package).
"""
