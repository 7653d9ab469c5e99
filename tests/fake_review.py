"""A stand-in for game/review.py's `review_game` with the agreed shape (server tests only): it marks each of
the seat's discards as matching itself, with no probabilities. It grades nothing; the server's tests use it
to check the route's plumbing (body in, the worker's answer out), never a review's numbers."""

from __future__ import annotations


class FakeReview:
    def __init__(self, seat: int, decisions: list[dict]):
        self.seat, self.decisions = seat, decisions

    def to_dict(self) -> dict:
        n = len(self.decisions)
        return {"seat": self.seat, "model": "a fake: every decision is its own best (tests only)",
                "decisions": self.decisions,
                "summary": {"decisions": n, "matches": n, "match_rate": 1.0 if n else None, "total_loss": 0.0, "proved_loss": 0.0,
                            "worst": list(range(min(5, n)))}}


def review_game(ev, events, seat, *, seconds=30.0, progress=None):
    decisions = []
    for index, event in enumerate(events):
        if event.get("type") == "dahai" and event.get("actor") == seat:
            graded = {"action": event, "win_probability": None, "expected_score": None, "h": None, "live": None}
            decisions.append({"index": index, "type": "dahai", "chosen": graded, "best": graded, "loss": 0.0,
                              "method": "h", "match": True, "note": "fake"})
    return FakeReview(seat, decisions)
