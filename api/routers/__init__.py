"""HTTP routers: health, query (search, listings, schema), entities (traversal, merge), writes."""
