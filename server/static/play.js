// /play: you against COMs of the game engine. The server runs the game and offers the legal actions; this
// page shows the events at a readable pace and sends back the one you pick. No rule lives here.
"use strict";

const COMS = ["greedy", "seed000", "random", "planner", "planner-clock"];
const query = new URLSearchParams(location.search);
const PACE = Math.max(0, Math.min(5000, Number(query.get("pace") ?? 700) || 0));  // ms between COM moves
let game = null;        // {id, seed, coms}
let names = [];         // players by seat
let favourites = [];
let queue = [];         // steps fetched but not shown yet
let shown = 0;          // steps fetched so far (the next `since`)
let latest = null;      // the last snapshot: legal actions, over, results
let view = null;        // the human's view after the last shown step
let playing = false;    // the pacing loop runs
let polling = false;
let replaying = 0;      // steps to show again without the pace (a game resumed after a reload)
let heartbeat = null;   // the timer touching the game while its player thinks
const HEARTBEAT_MS = 10000;  // the server may drop a game untouched for 30 s when it needs the room
const RETRY_MS = 2000;  // an unreachable server is asked again this often

// This tab's game for these settings (sessionStorage: per tab), so a reload or Back/Forward resumes it
// (keyed by what deals it: the COMs, the seed, the rule set)
function gameKey(seed, coms = query.get("coms") || "greedy,seed000,random", rules = query.get("rules")) {
  const key = new URLSearchParams({ coms, seed });
  if (rules) key.set("rules", rules);
  return `mj-play:${key}`;
}
function remember(key, id) {
  try { if (id) sessionStorage.setItem(key, id); else sessionStorage.removeItem(key); } catch { /* private mode */ }
}
function remembered(key) {
  try { return sessionStorage.getItem(key); } catch { return null; }
}

function setupForm() {
  const chosen = (query.get("coms") || "greedy,seed000,random").split(",");
  ["com1", "com2", "com3"].forEach((id, i) => {
    const select = $(id);
    if (i > 0) select.append(el("option", { value: "", text: t("noCom") }));
    for (const com of COMS) select.append(el("option", { value: com, text: com }));
    select.value = chosen[i] ?? (i > 0 ? "" : "greedy");
  });
  // every rule set a game can deal (hands of 13; a house's too, from `mj serve --catalogue`: QA, only ?rules= reached it)
  const rules = $("rules-choice");
  rules.append(el("option", { value: "", text: "2019-12" }));
  requestJson("/api/rules").then((list) => {
    for (const spec of list) {
      if (spec.hand_size === 13 && spec.name !== "2019-12") rules.append(el("option", { value: spec.name, text: spec.name }));
    }
    rules.value = query.get("rules") || "";
  }).catch(() => { /* the default only */ });
  $("seed").value = query.get("seed") ?? "";
  $("seed").addEventListener("input", () => showError($("game-error"), ""));  // (QA: a refused seed's error stayed)
  $("setup-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const coms = ["com1", "com2", "com3"].map((id) => $(id).value).filter(Boolean);
    const next = new URLSearchParams({ coms: coms.join(",") });
    if ($("seed").value !== "") next.set("seed", $("seed").value);
    if (rules.value) next.set("rules", rules.value);
    if (query.has("pace")) next.set("pace", query.get("pace"));
    if (next.has("seed")) remember(gameKey(next.get("seed"), next.get("coms"), next.get("rules")), null);  // a new game
    location.search = next.toString();  // the game lives in the URL: a reload resumes it in this tab
  });
  $("setup").hidden = false;
}

// A reload or Back/Forward in this tab: its game, if the server still has it, shown again from its first step
// (no new game, so no game is left waiting on the server; a finished one with its scores, QA: a reload at the end
// had dealt the same seed again and lost them).
async function resume() {
  const id = query.get("seed") ? remembered(gameKey(query.get("seed"))) : null;
  if (!id) return false;
  let snapshot;
  try {
    snapshot = await requestJson(`/api/game/${encodeURIComponent(id)}?since=0`);
  } catch {
    return false;  // gone (finished games are dropped after a while) or unreachable: a new game
  }
  game = { id: snapshot.id, seed: snapshot.seed, coms: snapshot.coms };
  replaying = snapshot.total;
  $("table").hidden = false;
  poll(snapshot);
  return true;
}

async function start() {
  if (await resume()) return;
  const params = new URLSearchParams({ coms: query.get("coms") || "greedy,seed000,random" });
  if (query.get("seed")) params.set("seed", query.get("seed"));
  if (query.get("rules")) params.set("rules", query.get("rules"));
  try {
    game = await requestJson(`/api/game?${params}`, { method: "POST" });
  } catch (error) {
    showError($("game-error"), error.message);
    setupForm();
    return;
  }
  if (!query.get("seed")) {  // a random deal: its seed goes into the URL so the link replays it
    query.set("seed", game.seed);
    history.replaceState(null, "", `${location.pathname}?${query}`);
  }
  remember(gameKey(query.get("seed")), game.id);
  $("table").hidden = false;
  poll();
}


async function poll(first = null) {
  if (polling) return;
  polling = true;
  try {
    while (true) {
      let snapshot = first;
      first = null;
      if (!snapshot) {
        try {
          snapshot = await requestJson(`/api/game/${game.id}?since=${shown}`);
          reached();
        } catch (error) {
          if (trouble(error)) return;
          await new Promise((resolve) => setTimeout(resolve, RETRY_MS));  // unreachable: tried again (QA)
          continue;
        }
      }
      queue.push(...snapshot.steps);
      shown = snapshot.total;
      latest = snapshot;
      play();
      if (snapshot.legal && !snapshot.over) beat();  // the player thinks: the page stops polling, but touches the game
      if (snapshot.over || snapshot.legal) return;
      $("prompt").textContent = queue.length ? "" : t("thinking");
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  } finally {
    polling = false;
  }
}

// While the human decides, a light GET every HEARTBEAT_MS tells the server this page is still open (its answer
// is not used, but an error is shown: the game may be gone).
function beat() {
  clearInterval(heartbeat);
  heartbeat = setInterval(async () => {
    try {
      const now = await requestJson(`/api/game/${game.id}?since=${shown}`);
      reached();
      if (now.total > shown) { stopBeat(); poll(); }  // played on elsewhere (another tab): shown here too (QA)
    } catch (error) {
      trouble(error);
    }
  }, HEARTBEAT_MS);
}

// What a failed request means here: the game gone (the server restarted, or it ended long ago) ends this table
// with a way to start again; an unreachable server is said while the page tries again (QA: a restart left live
// buttons that led nowhere). True where the table is done.
function trouble(error) {
  if (error.status === 404) {
    stopBeat();
    remember(gameKey(query.get("seed")), null);
    $("actions").replaceChildren(el("a", { class: "button", href: "/play", text: t("newGame") }));
    for (const button of document.querySelectorAll("#my-hand button")) button.disabled = true;
    $("prompt").textContent = "";
    showError($("game-error"), t(error.code === "ERR_REPLACED" ? "gameReplaced" : "gameGone"));
    return true;
  }
  showError($("game-error"), error.status ? error.message : t("offline"));
  unreachable = !error.status;
  return false;
}
let unreachable = false;  // the error shown is the unreachable server's: the next answer clears it, and only that one
function reached() {
  if (unreachable) showError($("game-error"), "");
  unreachable = false;
}
function stopBeat() { clearInterval(heartbeat); heartbeat = null; }

// Shows the queued steps one by one: COM moves at the page's pace, your own at once.
async function play() {
  if (playing) return;
  playing = true;
  try {
    while (queue.length) {
      const step = queue.shift();
      const actor = step.event.actor;
      if (replaying > 0) replaying -= 1;  // shown before the reload: at once
      else if (PACE && actor !== undefined && actor !== 0 && step.event.type !== "tsumo") {
        await new Promise((resolve) => setTimeout(resolve, PACE));
      }
      showStep(step);
    }
  } finally {
    playing = false;
  }
  if (latest && latest.error) showError($("game-error"), latest.error);
  if (latest && latest.over) gameOver(latest);
  else if (latest && latest.legal) offer(latest.legal);
}

function showStep(step) {
  const event = step.event;
  if (event.type === "start_game") { names = event.names; favourites = event.favourites; }
  const line = el("li", { class: event.actor === 0 ? "mine" : null, text: narrate(event, names) });
  line.event = event;  // (said again in the other language after a switch, renarrate)
  $("moves").append(line);
  line.scrollIntoView({ block: "nearest" });
  if (step.view) { view = step.view; drawTable(); }
}

function drawTable(actions = []) {
  $("wall").textContent = t("wallLine", view.wall_left, view.turns_left);
  $("seats").replaceChildren(...names.map((name, seat) => el("div",
    { class: `seat${view.turn === seat && view.phase !== "end" ? " to-move" : ""}`, "data-seat": seat },
    el("h3", {}, `${seat === 0 ? t("you") : name} `,
      el("span", { class: "hint" }, t("seatLine", seat, view.sizes[seat]),
        el("span", { lang: "ja", text: tileName(favourites[seat] || "") }))),
    ...seatTiles(view, seat))));
  $("my-favourite").textContent = t("favouriteOf", tileName(view.favourite));
  const discards = new Map(actions.filter((a) => a.type === "dahai").map((a) => [a.pai, a]));
  const handTile = (name, extra = {}) => discards.has(name)
    ? tile(name, "button", { type: "button", "data-action": "dahai", "data-tile": name,
                             "aria-label": t("discardThis", tileName(name)), onclick: () => send(discards.get(name)), ...extra })
    : tile(name, "span", extra);
  const tiles = view.hand.map((name) => handTile(name));
  if (view.drawn) tiles.push(handTile(view.drawn, { class: `tile drawn attr-${(idolsByName.get(view.drawn) || {}).attribute}`,
                                                    title: t("justDrawn") }));
  const mine = (view.calls[0] || []).map((call) => el("span", { class: "group", title: t("calledTitle", call.unit) },
    el("span", { class: "group-label", text: call.unit }), chips(call.tiles)));
  $("my-hand").replaceChildren(...mine, ...tiles);
}

function label(action) {
  switch (action.type) {
    case "hora": return action.target === 0 ? t("tsumoWin", tileName(action.pai)) : t("ronWin", tileName(action.pai));
    case "chi": return t("callInto", tileName(action.pai), action.unit, action.consumed.map(tileName).join(" "));
    case "sora": return t("soraTake", tileName(action.pai), action.target === 0 ? t("yourRoom") : t("theirRoom", names[action.target]));
    case "none": return t("pass");
    default: return action.type;
  }
}

function offer(actions) {
  drawTable(actions);
  const others = actions.filter((a) => a.type !== "dahai");
  $("actions").replaceChildren(...others.map((action) => el("button", {
    type: "button", class: action.type === "hora" ? "win-button" : null, "data-action": action.type,
    "data-tile": action.pai ?? null, "data-target": action.target ?? null, text: label(action),
    onclick: () => send(action) })));
  const discarding = actions.some((a) => a.type === "dahai");
  const fetching = !discarding && actions.some((a) => a.type === "sora");
  const kind = discarding ? t("promptDiscard")
    : fetching ? t("promptSora")
    : t("promptClaim", names[view.last?.actor] ?? t("aCom"), tileName(view.last?.pai ?? ""));
  $("prompt").textContent = kind;
  if (refocus) {  // (QA: focus fell to the page's start after every action, 6 Tabs from the next one)
    refocus = false;
    // before a draw, Pass (draw) first: a reflexive Enter had taken a tile with そら (QA)
    ((fetching && document.querySelector('#actions button[data-action="none"]'))
      || document.querySelector("#actions button, #my-hand button[data-action]:not([disabled])"))?.focus();
  }
}

let refocus = false;  // the player acted from the keyboard's place among the actions: the next ones get focus

async function send(action) {
  stopBeat();
  refocus = Boolean(document.activeElement?.closest("#actions, #my-hand"));
  $("actions").replaceChildren();
  for (const button of document.querySelectorAll("#my-hand button")) button.disabled = true;
  $("prompt").textContent = "";
  latest = null;
  try {
    await requestJson(`/api/game/${game.id}/act`, { method: "POST", headers: { "Content-Type": "application/json" },
                                                     body: JSON.stringify(action) });
    showError($("game-error"), "");
  } catch (error) {
    if (error.status === 400) showError($("game-error"), t("moveRefused"));  // (QA: raw JSON of the move, two tabs)
    else if (trouble(error)) return;
  }
  poll();
}

function gameOver(snapshot) {
  stopBeat();
  $("prompt").textContent = "";
  $("actions").replaceChildren();
  const over = $("game-over");
  const results = snapshot.results || [];
  const best = Math.max(...results.map((r) => r.score ? r.score.total : -Infinity));
  $("outcome").textContent = snapshot.error ? t("stopped") :
    results.map((r) => `${r.seat === 0 ? t("you") : r.name}: ${r.score ? r.score.total : "—"}${r.score && r.score.total === best ? t("top") : ""}`).join(" · ");
  $("results").replaceChildren(...results.map((r) => el("div", { class: "result", "data-seat": r.seat },
    el("h3", {}, `${r.seat === 0 ? t("you") : r.name}: ${r.win === "none" ? t("didNotWin") : t("wonBy", r.win)}`),
    el("div", { class: "row" }, ...r.called.map((u) => el("span", { class: "group" },
      el("span", { class: "group-label", text: u.name }), chips(u.members))), chips(r.tiles)),
    scoreTable(r.score))));
  $("game-log").href = `/api/game/${game.id}/log`;
  $("game-log").setAttribute("download", `mj-game-seed${game.seed}.jsonl`);
  $("game-review").href = `/review?game=${encodeURIComponent(game.id)}&seat=0`;
  over.hidden = false;
  over.scrollIntoView({ block: "start" });
  $("over-title").focus();  // (QA: focus fell to the page's start, and nothing said the game was over)
}

// (the moves so far too: QA, they had stayed in the language they were played in)
function renarrate() { for (const line of $("moves").children) if (line.event) line.textContent = narrate(line.event, names); }
wireLanguage(() => { renarrate(); if (latest && latest.legal) offer(latest.legal); else if (view) drawTable(); });
loadIdols().then(() => (query.has("coms") || query.has("seed") ? start() : setupForm()))
  .catch((error) => showError($("game-error"), error.message));  // (QA: a refused server left an empty page)
