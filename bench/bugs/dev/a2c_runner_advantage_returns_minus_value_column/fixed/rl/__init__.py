"""Advantage actor-critic pieces."""
