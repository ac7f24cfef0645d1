"""Explicit-feedback recommenders."""
