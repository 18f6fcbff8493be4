"""strata.schema"""
