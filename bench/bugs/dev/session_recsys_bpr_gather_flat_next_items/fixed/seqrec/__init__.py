"""Session-based next-item recommendation."""
