"""Analysis of a position: the turn (exchanges, acceptance, waits, calls, そら)."""
