"""Keyword spotting on raw waveforms."""
