"""An example engine for `mj play --player "cmd:python3 docs/example_bot.py"`: JSON lines in, one line out
per request. It wins whenever it may, calls when it can, else plays a random legal action."""
import json
import random
import sys

rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
seat = None
for line in sys.stdin:
    event = json.loads(line)
    if event["type"] == "start_kyoku":  # my tiles are the only ones not shown as "?"
        seat = next(i for i, tiles in enumerate(event["tehais"]) if "?" not in tiles)
    elif event["type"] == "request":
        actions = event["possible_actions"]
        wins = [a for a in actions if a["type"] == "hora"]
        calls = [a for a in actions if a["type"] == "chi"]
        print(json.dumps((wins or calls or [rng.choice(actions)])[0], ensure_ascii=False), flush=True)
