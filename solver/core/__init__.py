"""The exact core: tiles and notation, rule sets, the CP-SAT models and the one place that solves them."""
