"""The `gq` command: render, compare and plan on GPU concurrent queues (see README.md)."""

__version__ = "0.1.0"
