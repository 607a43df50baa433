"""Tile-based persistent wavefront ray tracer and its stream-compaction baseline.

Not built yet: the renderer issue brings it (scenes, shading, the queue-driven renderer).
"""
