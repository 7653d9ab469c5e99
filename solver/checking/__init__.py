"""Checking other engines' claims, one at a time (check) and in batches (batch)."""
