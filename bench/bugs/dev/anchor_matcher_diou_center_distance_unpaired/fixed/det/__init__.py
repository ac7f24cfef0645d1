"""Single-stage detector: anchors, matching, losses."""
