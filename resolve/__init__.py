"""strata.resolve"""
