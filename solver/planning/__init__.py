"""The planner: exact win probability and expected score over the draws left (docs/formulation.md section 8)."""
