"""strata.graph"""
