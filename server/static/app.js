// mj serve: the page. It only draws what the JSON API answers; every rule lives in the server.
"use strict";

const $ = (id) => document.getElementById(id);
const idols = new Map();          // id -> idol record from /api/idols (name, attribute, colour, ...)
let hand = { tiles: [], called: [] };  // as the server parsed it: tile ids, called units (members)
let pending = null;               // a called unit being entered: tile ids, or null
let handSize = 13;
let solving = null;               // the AbortController of the answers being fetched
let typingTimer = null;

// --- small DOM helpers -------------------------------------------------------------------------
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child != null) node.append(child);
  return node;
}
function name(id) { return idols.has(id) ? idols.get(id).name : id; }
function tile(id, tag = "span", attrs = {}) {
  const idol = idols.get(id) || { attribute: "", name: id };
  const node = el(tag, { class: `tile attr-${idol.attribute}`, title: `${idol.full_name || id} (${id})`,
                         "data-id": id, text: idol.name, ...attrs });
  if (idol.colour) node.style.borderBottomColor = idol.colour;
  return node;
}
function chips(ids, extra = () => "") {
  return el("span", { class: "chips" }, ...ids.map((id) => {
    const chip = tile(id);
    chip.classList.add("chip");
    chip.textContent += extra(id);
    return chip;
  }));
}
function table(headers, rows) {
  const head = el("tr", {}, ...headers.map(([text, cls]) => el("th", { class: cls || "", text })));
  return el("table", {}, el("thead", {}, head), el("tbody", {}, ...rows));
}
function cell(content, cls = "") {
  const td = el("td", { class: cls });
  td.append(content instanceof Node ? content : String(content ?? ""));
  return td;
}
function showError(node, message) { node.textContent = message || ""; node.hidden = !message; }

// --- the API -------------------------------------------------------------------------------------
async function api(route, params, signal) {
  const query = new URLSearchParams(Object.entries(params).filter(([, v]) => v !== "" && v != null));
  const response = await fetch(`/api/${route}?${query}`, { signal });
  const body = await response.json().catch(() => ({ error: `error: the server answered HTTP ${response.status}` }));
  if (!response.ok) throw Object.assign(new Error(body.error || `error: HTTP ${response.status}`), { status: response.status });
  return body;
}
function situation() {
  return { rules: $("rules").value, favourite: $("favourite").value, seen: $("seen").value.trim(),
           waiting_room: $("waiting-room").value.trim(), discard: $("discard").value.trim() };
}
function win() { return document.querySelector("input[name=win]:checked").value; }

// --- the hand: text <-> tiles ----------------------------------------------------------------------
function handText() {
  const groups = hand.called.map((members) => `[${members.map(name).join(" ")}]`);
  return groups.concat(hand.tiles.map(name)).join(" ");
}
function setHand(tiles, called) {
  hand = { tiles, called };
  $("hand-text").value = handText();
  update();
}
function drawHand() {
  const box = $("hand");
  box.replaceChildren();
  hand.called.forEach((members, n) => {
    const remove = () => setHand(hand.tiles, hand.called.filter((_, i) => i !== n));
    box.append(el("span", { class: "group", title: "called unit: tap to remove it" },
      el("span", { class: "group-label", text: "called" }),
      ...members.map((id) => tile(id, "button", { type: "button", onclick: remove }))));
  });
  hand.tiles.forEach((id, n) => {
    box.append(tile(id, "button", { type: "button", "aria-label": `remove ${name(id)}`,
      onclick: () => setHand(hand.tiles.filter((_, i) => i !== n), hand.called) }));
  });
  if (pending) {
    box.append(el("span", { class: "group pending" }, el("span", { class: "group-label", text: "calling" }),
      ...pending.map((id, n) => tile(id, "button", { type: "button",
        onclick: () => { pending.splice(n, 1); drawHand(); } }))));
  }
}
function addTile(id) {
  if (pending) { pending.push(id); drawHand(); return; }
  setHand(hand.tiles.concat([id]), hand.called);
}
function toggleCall() {
  const button = $("call-toggle");
  if (pending === null) {
    pending = [];
    button.textContent = "Done: add the called unit";
    $("call-hint").textContent = "tap its members, then Done";
  } else {
    const group = pending;
    pending = null;
    button.textContent = "Enter a called unit";
    $("call-hint").textContent = "";
    if (group.length) setHand(hand.tiles, hand.called.concat([group]));
    else drawHand();
  }
  button.setAttribute("aria-pressed", String(pending !== null));
}

// --- the URL keeps the position, so it can be shared -----------------------------------------------
const URL_FIELDS = { hand: "hand-text", rules: "rules", favourite: "favourite", seen: "seen",
                     room: "waiting-room", discard: "discard", ron: "ron-tile" };
function saveUrl() {
  const query = new URLSearchParams();
  for (const [key, id] of Object.entries(URL_FIELDS)) if ($(id).value) query.set(key, $(id).value);
  if (win() !== "tsumo") query.set("win", win());
  history.replaceState(null, "", `${location.pathname}?${query}`);
}
function loadUrl() {
  const query = new URLSearchParams(location.search);
  for (const [key, id] of Object.entries(URL_FIELDS)) {
    if (!query.has(key)) continue;
    if (id === "ron-tile") $(id).append(el("option", { value: query.get(key), text: query.get(key) }));
    $(id).value = query.get(key);
  }
  const how = document.querySelector(`input[name=win][value="${query.get("win")}"]`);
  if (how) how.checked = true;
}

// --- answers -----------------------------------------------------------------------------------------
async function update() {
  saveUrl();
  const text = $("hand-text").value;
  if (solving) solving.abort();
  if (!text.trim()) {
    hand = { tiles: [], called: [] };
    drawHand();
    showError($("hand-error"), "");
    clearAnswers("Tap tiles or type a hand to begin.");
    return;
  }
  let parsed;
  try {
    parsed = await api("hand", { hand: text, rules: $("rules").value });
  } catch (error) {
    showError($("hand-error"), error.message);
    clearAnswers("");
    return;
  }
  if ($("hand-text").value !== text) return;  // typed on meanwhile: a newer update runs
  showError($("hand-error"), "");
  hand = { tiles: parsed.tiles, called: parsed.called.map((u) => u.members) };
  handSize = parsed.hand_size;
  drawHand();
  fillRonTiles();
  $("hand-count").textContent = `${parsed.size} of ${handSize} tiles`;
  if (parsed.size < handSize - 1) clearAnswers(`Add ${handSize - 1 - parsed.size} more tile(s) for the analysis.`);
  else solve(text);
}
function clearAnswers(message) {
  for (const id of ["analysis", "score-box", "plan-box"]) $(id).hidden = true;
  $("status").textContent = message;
}

async function solve(text) {
  const controller = new AbortController();
  solving = controller;
  const started = performance.now();
  const progress = $("progress");
  const tick = setInterval(() => {
    progress.hidden = false;
    $("progress-text").textContent = `solving… ${((performance.now() - started) / 1000).toFixed(1)} s`;
  }, 150);
  const params = { hand: text, ...situation() };
  const jobs = [api("analyze", params, controller.signal).then((answer) => {
    drawAnalysis(answer);
    $("analysis").dataset.hand = text;  // which hand the answers on screen are for
  })];
  jobs.push(scoreHand(controller.signal));  // 12 tiles: a win needs 13, but "no win" has a score
  try {
    await Promise.all(jobs);
    $("status").textContent = "";
    $("plan-box").hidden = false;
  } catch (error) {
    if (error.name === "AbortError") {
      if (solving === controller) $("status").textContent = "Cancelled.";
    } else {
      showError($("hand-error"), error.message);
      clearAnswers("");
    }
  } finally {
    clearInterval(tick);
    if (solving === controller) { solving = null; progress.hidden = true; }
  }
}

async function scoreHand(signal) {
  const how = win();
  const params = { hand: $("hand-text").value, rules: $("rules").value, favourite: $("favourite").value, win: how,
                   ron: how === "ron" ? $("ron-tile").value : "" };
  $("score-box").hidden = false;
  try {
    drawScore(await api("score", params, signal));
    showError($("score-error"), "");
  } catch (error) {
    if (error.name === "AbortError" || error.status !== 400) throw error;
    $("score").replaceChildren();
    showError($("score-error"), error.message);
  }
}
function fillRonTiles() {
  const select = $("ron-tile");
  const chosen = select.value;
  const kinds = [...new Set(hand.tiles)];
  select.replaceChildren(...kinds.map((id) => el("option", { value: id, text: name(id) })));
  if (kinds.includes(chosen)) select.value = chosen;
}

function drawAnalysis(a) {
  $("analysis").hidden = false;
  const counts = `${a.complete.length} complete, ${a.one_short.length} one short, ${a.two_short.length} two short units`;
  $("h-line").textContent = a.h === null ? "no complete hand can be reached"
    : `h = ${a.h}${a.hand_complete ? " (complete)" : ""} · ${counts}`;

  const exchanges = a.exchanges.map((e) => el("div", { class: "exchange" },
    e.out.length ? chips(e.out) : el("span", { class: "hint", text: "draw" }),
    el("span", { class: "arrow", text: "⇒" }), chips(e.in),
    el("span", { class: "reaches", text: "reaches " + e.target.map((u) => u.name).join(" / ")
      + (e.sora_for.length ? ` (そら as ${e.sora_for.map(name).join(" ")})` : "") })));
  $("exchanges").replaceChildren(...(a.exchanges.length ? [
    el("h2", { text: `Optimal exchanges (${a.exchanges.length}${a.exchanges_complete ? "" : "+, list cut short"})` }),
    el("div", { id: "exchange-list" }, ...exchanges)] : []));

  const twelve = a.discards.length === 1 && a.discards[0].tile === null;
  const rows = a.discards.map((r, n) => el("tr", { class: n === 0 ? "best" : "" },
    cell(r.tile === null ? "—" : chips([r.tile])), cell(r.h ?? "—", "num"), cell(r.live, "num"),
    cell(chips(r.accept.map((x) => x.tile), (id) => `×${r.accept.find((x) => x.tile === id).live}`))));
  $("discards").replaceChildren(
    el("h2", { text: twelve ? "Next draw: the tiles that lower h" : "Per discard: h after it and the draws that lower it" }),
    table([["discard"], ["h", "num"], ["live", "num"], ["accepted draws × live copies"]], rows));

  const waits = a.waits.map((w) => el("tr", {}, cell(chips([w.tile])),
    cell(w.live === 0 ? "0 (dead)" : w.live, "num"), cell(w.tsumo, "num"), cell(w.ron ?? "no win", "num")));
  $("waits").replaceChildren(...(a.waits.length ? [el("h2", { text: "Waits (score by tsumo / by ron)" }),
    table([["wait"], ["live", "num"], ["tsumo", "num"], ["ron", "num"]], waits)] : []));

  const calls = [];
  if (a.call_tile) {
    calls.push(el("h2", { text: `Calls on ${name(a.call_tile)}` }));
    if (a.ron) calls.push(el("p", { text: a.ron.ron === null ? "It completes the hand, but a ron on it is not a win."
      : `Ron on it: ${a.ron.ron} points.` }));
    calls.push(a.calls.length ? table([["unit"], ["then discard"], ["h after", "num"], ["verdict"]],
      a.calls.map((c) => el("tr", {}, cell(c.name), cell(chips([c.discard])), cell(c.h ?? "—", "num"),
        cell(c.lowers ? "lowers h" : "mistake: does not lower h"))))
      : el("p", { class: "hint", text: "No unit of 3 or more members can take it." }));
  }
  $("calls").replaceChildren(...calls);

  const s = a.sora;
  $("sora").replaceChildren(...(s ? [el("h2", { text: "そら" }), el("p", { text: s.use_now
    ? `Use そら now: take ${name(s.options[0].take)} (h ${s.h_now} → ${s.options[0].h}).`
    : `Keep そら: no tile in the waiting room lowers h (now ${s.h_now}).` })] : []));

  const present = [["complete", a.complete], ["one member short", a.one_short], ["two members short", a.two_short]]
    .map(([label, units]) => el("details", { class: "present" }, el("summary", { text: `${units.length} ${label}` }),
      table([["unit"], ["members"], ["needs"]], units.map((u) => el("tr", {}, cell(u.name), cell(chips(u.members)),
        cell(u.missing.length ? chips(u.missing) : "—"))))));
  $("present").replaceChildren(el("h2", { text: "Units present" }), ...present);
  $("notes").replaceChildren(...a.notes.map((note) => el("li", { text: note })));
}

function drawScore(s) {
  const box = $("score");
  if (s.total === null) {
    box.replaceChildren(el("p", { id: "score-total", text: `Not a win: ${s.reason}` }));
    return;
  }
  const rows = s.units.map((u) => {
    const flags = [u.called && "called", u.holds_ron && "ron tile",
                   u.sora_for.length && `そら as ${u.sora_for.map(name).join(" ")}`].filter(Boolean);
    return el("tr", {}, cell(el("span", {}, u.name, el("br"), chips(u.members))),
      cell(u.points, "num"), cell(el("span", { class: "why", text: [u.why, ...flags].join("; ") })));
  });
  if (s.bonus) rows.push(el("tr", {}, cell("favourite bonus"), cell(s.bonus, "num"),
    cell(el("span", { class: "why", text: `${name($("favourite").value)} is in a unit` }))));
  if (s.leftover.length) rows.push(el("tr", {}, cell(el("span", {}, "in no unit ", chips(s.leftover))), cell(0, "num"),
    cell(el("span", { class: "why", text: "left over: scores nothing" }))));
  const sum = s.units.map((u) => u.points).concat(s.bonus ? [s.bonus] : []).join(" + ");
  rows.push(el("tr", { class: "total" }, cell("total"), cell(el("span", { id: "score-total", text: s.total }), "num"),
    cell(el("span", { class: "why", text: `${sum} = ${s.total}` }))));
  const title = s.won ? `Win by ${s.win}` : "The hand did not win: its best units";
  box.replaceChildren(el("p", { class: "hint", text: title }), table([["unit"], ["points", "num"], ["why"]], rows));
}

const PLAN_STATES = 20000, PLAN_GAMES = 2000, PLAN_SECONDS = 3;

async function plan() {
  const out = $("plan-result"), problem = $("plan-error");
  problem.hidden = true;
  out.replaceChildren(el("p", { class: "hint", text: "planning…" }));
  const { discard, ...rest } = situation();  // a call tile is no part of a plan
  try {
    // the optimum up to PLAN_STATES memoised states or PLAN_SECONDS, then bounds per discard (the class
    // nearest below, a proved upper bound above), past that a labelled estimate: not a long wait
    const p = await api("plan", { hand: $("hand-text").value, turns: $("turns").value,
                                  objective: $("objective").value, max_states: PLAN_STATES,
                                  seconds: PLAN_SECONDS, estimate: PLAN_GAMES, ...rest });
    const name = (id) => (id === null ? "(next draw)" : idols.get(id)?.name ?? id);
    const pct = (x) => (100 * x).toFixed(2) + " %";
    const shown = (value, interval, format) => (value === null ? "" : !interval ? String(format(value))
      : el("span", {}, `≈ ${format(value)}`,
           el("span", { class: "interval", text: `${format(interval[0])} – ${format(interval[1])}` })));
    const rows = p.discards.map((d) => el("tr", {}, cell(name(d.tile)),
      cell(d.upper !== null && d.upper !== d.win_probability && !d.win_probability_interval
        ? `${pct(d.win_probability)} – ${pct(d.upper)}` : shown(d.win_probability, d.win_probability_interval, pct), "num"),
      cell(shown(d.expected_score, d.expected_score_interval, Math.round), "num")));
    const best = p.recommended;
    const sora = best.sora ? (best.sora.use_now ? `; use そら now and take ${name(best.sora.take)}` : "; keep そら") : "";
    const classes = Object.entries(p.policy_class).map(([k, v]) => `${k}: ${v}`).join("; ");
    const estimate = p.method === "estimate"
      ? [el("p", { class: "estimate", text: `Estimate, not exact: past the exact frontier, ${p.games} sampled walls per discard (95 % intervals).` })]
      : [];
    if (p.method !== "optimal" && p.method !== "class" && best.upper !== null && best.win_probability !== null) {
      estimate.push(el("p", { class: "estimate", text: `P(win) over ${p.turns} draws: ${pct(best.win_probability)} – ` +
        `${pct(best.upper)} (the optimum lies between; ${p.separated ? "the best discard is proved" : "the brackets overlap"}).` }));
    }
    out.replaceChildren(
      el("p", { text: `With ${p.turns} draws left: discard ${name(best.tile)}${sora}.` }), ...estimate,
      table([["discard"], ["P(win)", "num"], ["E[score]", "num"]], rows),
      el("p", { class: "hint", text: `policy class — ${classes}` }));
  } catch (error) {
    out.replaceChildren();
    problem.textContent = error.message;
    problem.hidden = false;
  }
}

// --- start -------------------------------------------------------------------------------------------
function drawPalette(list) {
  const groups = new Map();
  for (const idol of list) {
    const key = ["Extra", "Sora"].includes(idol.attribute) ? "apart" : idol.attribute;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(idol);
  }
  const button = (idol) => tile(idol.id, "button", { type: "button", "aria-label": `add ${idol.name}`,
                                                     onclick: () => addTile(idol.id) });
  $("palette").replaceChildren(...[...groups].map(([key, members]) => key === "apart"
    ? el("div", { class: "palette-group" }, el("h3", { text: "詩花 and そら" }),
        el("div", { class: "apart" }, ...members.map(button)))
    : el("div", { class: "palette-group" }, el("h3", { text: key }),
        el("div", { class: "palette-tiles" }, ...members.map(button)))));
}

async function start() {
  const [idolList, ruleList] = await Promise.all([api("idols", {}), api("rules", {})]);
  for (const idol of idolList) idols.set(idol.id, idol);
  drawPalette(idolList);
  $("rules").replaceChildren(...ruleList.map((r) => el("option", { value: r.name, text: r.name, title: r.description })));
  $("favourite").append(...idolList.filter((i) => i.attribute !== "Sora")
    .map((i) => el("option", { value: i.id, text: i.name })));
  loadUrl();
  const later = () => { clearTimeout(typingTimer); typingTimer = setTimeout(update, 350); };
  $("hand-text").addEventListener("input", later);
  for (const id of ["seen", "waiting-room", "discard"]) $(id).addEventListener("input", later);
  for (const id of ["rules", "favourite", "ron-tile"]) $(id).addEventListener("change", update);
  for (const radio of document.querySelectorAll("input[name=win]")) radio.addEventListener("change", update);
  $("clear").addEventListener("click", () => { pending = null; setHand([], []); });
  $("call-toggle").addEventListener("click", toggleCall);
  $("cancel").addEventListener("click", () => solving && solving.abort());
  $("plan").addEventListener("click", plan);
  update();
}
start().catch((error) => showError($("hand-error"), `error: the page could not start (${error.message})`));
