"""Dense-adjacency GCN for node classification."""
