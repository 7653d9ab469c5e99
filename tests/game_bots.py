"""Misbehaving external engines for tests/test_game_bots.py: `python3 game_bots.py MODE`.

MODE: garbage (answers non-JSON), sleep (never answers in time), crash (exits at the third request),
illegal (answers an action that is not offered), late (answers twice as slowly as the timeout, then normally).
"""
import json
import sys
import time

mode = sys.argv[1]
requests = 0
for line in sys.stdin:
    event = json.loads(line)
    if event["type"] != "request":
        continue
    requests += 1
    actions = event["possible_actions"]
    if mode == "garbage":
        print("this is not json {", flush=True)
    elif mode == "sleep":
        time.sleep(float(sys.argv[2]))
        print(json.dumps(actions[0], ensure_ascii=False), flush=True)
    elif mode == "crash":
        if requests == 3:
            sys.exit(3)
        print(json.dumps(actions[-1], ensure_ascii=False), flush=True)
    elif mode == "illegal":
        print(json.dumps({"type": "dahai", "actor": event["actor"], "pai": "not a tile"}), flush=True)
