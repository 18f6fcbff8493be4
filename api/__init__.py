"""strata.api"""
