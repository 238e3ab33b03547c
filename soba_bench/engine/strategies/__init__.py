"""Capsule strategies, one per module, and the registry of chain slots."""
