"""Misbehaving external engines for tests/test_game_bots.py: `python3 game_bots.py MODE`.

MODE: garbage (answers non-JSON), sleep (never answers in time), crash (exits at the third request),
illegal (answers an action that is not offered), record PATH (writes every line it receives to PATH and
answers the first action offered), random SEED (answers a random legal action), chatty (writes a line of its own
at start-up, then answers the first action), bom (answers after a byte order mark), exit (exits at once with
status 5).
"""
import json
import random
import sys
import time

mode = sys.argv[1]
if mode == "exit":
    sys.exit(5)
if mode == "chatty":
    print("ready", flush=True)
requests = 0
rng = random.Random(int(sys.argv[2]) if mode == "random" else 0)
log = open(sys.argv[2], "w", encoding="utf-8") if mode == "record" else None
for line in sys.stdin:
    if log:
        log.write(line)
        log.flush()
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
    elif mode in ("record", "chatty"):
        print(json.dumps(actions[0], ensure_ascii=False), flush=True)
    elif mode == "bom":
        print("\ufeff" + json.dumps(actions[0], ensure_ascii=False), flush=True)
    elif mode == "random":
        print(json.dumps(rng.choice(actions), ensure_ascii=False), flush=True)
