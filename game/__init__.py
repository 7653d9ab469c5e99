"""Whole games of Milli-Jong: the state and its legal actions, the event log and its replay, and the players
(built-in COMs, external engines, a human) behind one interface. Rules and players only; rendering is the
console's (docs/game.md).

    state.py        the frozen game state, the deal and the pure transitions (one per log event)
    legal.py        the legal actions at each decision point
    observation.py  what one seat sees (observations, events with hidden tiles)
    engine.py       the game loop: asks the players, logs events, scores every seat
    log.py          JSON lines in and out, replay without the RNG
    serialize.py    states as JSON: a seat's view (/play), a replayed position (mj replay --json, /api/replay)
    tournament.py, tournament_run.py, stats.py   duplicate tournaments: schedule, run, intervals
    players/    the player interface and its implementations
"""
