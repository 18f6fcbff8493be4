"""strata.ingest"""
