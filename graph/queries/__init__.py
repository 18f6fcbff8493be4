"""Every Cypher string Strata runs lives in this package, one module per concern."""
