"""The package version, in a module of its own so that the engine can read it at import."""

__version__ = "0.2.0"
