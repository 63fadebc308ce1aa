"""GPU cross-lane operations: the vector-scope instruction mechanism."""
