// mj serve, the hand page: the position in the URL and the history, requests, the one-line summary.
// It only draws what the JSON API answers; every rule lives in the server.
"use strict";

let handSize = 13;
let lastSize = 0;
let solving = null;   // the AbortController of the answers being fetched
let typingTimer = null;
let ruleList = [];
let fieldOk = true;   // the seen / waiting room / discard fields parse
let lastAnalysis = null;
let lastScore = null;  // { hand, how, total }: the score box's answer, for the one-line summary
let winChosen = false;  // the player picked how the hand wins (else: tsumo at 13 tiles, no win at 12)
const FIELDS = [["seen", "seen"], ["room", "waiting-room"], ["discard", "discard"]];
const PLAN_STATES = 20000, PLAN_GAMES = 2000, PLAN_SECONDS = 3;

// A plan once answered is kept for the position (QA: Back to a position planned it again, 3 s more); the newest
// PLANS_KEPT, the oldest dropped first.
const plans = new Map();
const PLANS_KEPT = 30;
async function api(route, params, signal) {
  const query = new URLSearchParams(Object.entries(params).filter(([, v]) => v !== "" && v != null));
  const url = `/api/${route}?${query}`;
  if (route !== "plan") return requestJson(url, { signal });
  if (plans.has(url)) return plans.get(url);
  const answer = await requestJson(url, { signal });
  plans.set(url, answer);
  if (plans.size > PLANS_KEPT) plans.delete(plans.keys().next().value);
  return answer;
}
function fieldError(id, message) {
  showError($(`${id}-error`), message);
  if (message) $(id).setAttribute("aria-invalid", "true"); else $(id).removeAttribute("aria-invalid");
}
function win() { return document.querySelector("input[name=win]:checked").value; }
function situation() {
  return { rules: $("rules").value, favourite: $("favourite").value, seen: $("seen").value.trim(),
           waiting_room: $("waiting-room").value.trim(), discard: $("discard").value.trim() };
}
function summary(parts) { $("summary-text").textContent = parts.filter(Boolean).join(" · "); }

// --- the URL keeps the whole position; every step (a discard or a draw opened, an example) is a history entry ---
const URL_KEYS = ["hand", "rules", "favourite", "seen", "room", "discard", "win", "ron", "turns", "objective",
                  "order", "after", "lang"];
function urlQuery() {
  const q = new URLSearchParams();
  const put = (key, value, fallback = "") => { if (value && value !== fallback) q.set(key, value); };
  put("hand", $("hand-text").value.trim());
  put("rules", $("rules").value, ruleList[0]?.name);
  put("favourite", $("favourite").value);
  for (const [key, id] of FIELDS) put(key, $(id).value.trim());
  if (winChosen) put("win", win());
  // (before the hand's tiles fill the select, the link's own ron tile: QA, a shared link lost it)
  if (win() === "ron") put("ron", $("ron-tile").value || $("ron-tile").dataset.wanted);
  put("turns", $("turns").value, "3");
  put("objective", $("objective").value, "win");
  put("order", $("order").value, "tap");
  put("after", $("position-title").dataset.after || "");
  put("lang", new URLSearchParams(location.search).get("lang") ? language : "");
  return `${location.pathname}${q.toString() ? `?${q}` : ""}`;
}
function saveUrl(push = false) {
  const next = urlQuery();
  if (next === location.pathname + location.search) return;
  if (push) history.pushState(null, "", next); else history.replaceState(null, "", next);
}
function idOf(value) {  // an idol by id or short name, as a hand-written link may give either
  const idol = idolsByName.get(value);
  return idol ? idol.id : null;
}
// Read the URL into the inputs; what it cannot use is said in one notice, never dropped without a word.
function loadUrl() {
  const q = new URLSearchParams(location.search);
  const problems = [...q.keys()].filter((k) => !URL_KEYS.includes(k)).map((k) => t("unknownParam", k));
  const get = (key) => q.get(key) ?? "";
  $("hand-text").value = get("hand");
  const rules = get("rules");
  if (rules && !ruleList.some((r) => r.name === rules)) problems.push(t("unknownValue", "rules", rules));
  $("rules").value = rules && ruleList.some((r) => r.name === rules) ? rules : ruleList[0].name;
  const favourite = get("favourite");
  if (favourite && !idOf(favourite)) problems.push(t("unknownValue", "favourite", favourite));
  $("favourite").value = idOf(favourite) || "";
  for (const [key, id] of FIELDS) $(id).value = get(key);
  const how = get("win");
  if (how && !["tsumo", "ron", "none"].includes(how)) problems.push(t("unknownValue", "win", how));
  winChosen = ["tsumo", "ron", "none"].includes(how);
  document.querySelector(`input[name=win][value="${winChosen ? how : "tsumo"}"]`).checked = true;
  const ron = get("ron");
  if (ron && !idOf(ron)) problems.push(t("unknownValue", "ron", ron));
  $("ron-tile").dataset.wanted = idOf(ron) || "";
  const turns = get("turns");
  const turnsOk = /^\d+$/.test(turns) && +turns >= 1 && +turns <= 30;  // (as the field: 0 and 99 too, QA)
  if (turns && !turnsOk) problems.push(t("unknownValue", "turns", turns));
  $("turns").value = turnsOk ? turns : "3";
  $("objective").value = get("objective") === "score" ? "score" : "win";
  $("order").value = get("order") === "palette" ? "palette" : "tap";
  $("position-title").dataset.after = get("after");
  showError($("link-notice"), problems.length ? t("linkProblem", problems.join("; ")) : "");
}
let titleFocus = false;  // the title is to take focus when the answers show (a first example)
function go(change, push = true) {  // a new position: the inputs change, one history entry is added
  change();
  saveUrl(push);
  update(false);
  // (QA: the button pressed is redrawn away and focus fell to the page's start, 22 Tabs from the table; an empty
  // title took no focus and said nothing, after Try an example or Back)
  titled($("position-title").dataset.after);
  $("position-title").setAttribute("tabindex", "-1");
  $("position-title").focus({ preventScroll: true });
  titleFocus = $("analysis").hidden;  // (hidden, it takes no focus: given when the answers come)
}
const navigate = {
  discard: (id) => go(() => {
    $("seen").value = [$("seen").value.trim(), tileName(id)].filter(Boolean).join(" ");  // it lies in the room now
    $("position-title").dataset.after = tileName(id);
    const at = Hand.tiles.indexOf(id);
    Hand.tiles = Hand.tiles.filter((_, i) => i !== at);
    $("hand-text").value = Hand.text();
  }),
  draw: (id) => go(() => {
    $("position-title").dataset.after = "";
    Hand.tiles = Hand.tiles.concat([id]);
    $("hand-text").value = Hand.text();
  }),
};

// --- answers -------------------------------------------------------------------------------------------------
function markStale(message) {
  for (const id of ["analysis", "score-box"]) $(id).classList.toggle("stale", Boolean(message));
  if (message) summary([message]);
}
function clearAnswers(message, line) {
  $("analysis").hidden = true;
  $("score-box").hidden = true;
  $("status").textContent = message;
  summary([line ?? message]);
}
const parsedFields = new Map();  // "rules\ntext" -> {tiles} or {error}: a tap on the palette re-asks nothing
async function parseField(text, rules) {
  const key = `${rules}\n${text}`;
  if (!parsedFields.has(key)) {
    try {
      parsedFields.set(key, { tiles: (await api("tiles", { tiles: text, rules })).tiles });
    } catch (error) {
      if (!error.status) throw error;  // no answer (offline): asked again next time
      parsedFields.set(key, { error: error.message });
    }
  }
  return parsedFields.get(key);
}
async function checkFields(rules) {  // each field parsed alone, so an error is shown under its own box
  const results = await Promise.all(FIELDS.map(async ([, id]) => {
    const text = $(id).value.trim();
    const parsed = text ? await parseField(text, rules).catch((error) => ({ error: error.message })) : { tiles: [] };
    fieldError(id, parsed.error || "");
    return [id, parsed.error ? null : parsed.tiles];
  }));
  return Object.fromEntries(results);
}

async function update(save = true) {
  if (save) saveUrl();
  if (solving) solving.abort();
  const text = $("hand-text").value;
  const rules = $("rules").value;
  $("rules-about").textContent = t("ruleAbout", rules, ruleList.find((r) => r.name === rules)?.description || "");
  const fields = await checkFields(rules);
  Hand.seen = fields.seen || [];
  fieldOk = Object.values(fields).every((v) => v !== null);
  if (!text.trim()) {
    Hand.tiles = []; Hand.called = [];
    Hand.draw();
    showError($("hand-error"), "");
    $("hand").removeAttribute("aria-invalid");
    $("hand-count").textContent = t("count", 0, handSize);
    clearAnswers(t("begin"));
    return;
  }
  let parsed;
  try {
    parsed = await api("hand", { hand: text, rules });
  } catch (error) {
    if ($("hand-text").value !== text) return;
    showError($("hand-error"), error.message);
    $("hand-text").setAttribute("aria-invalid", "true");
    $("hand-count").textContent = t("count", "?", handSize);  // (QA: the previous hand's count had stayed)
    markStale(t("summaryFix", t("handLabel")));
    return;
  }
  if ($("hand-text").value !== text) return;  // typed on meanwhile: a newer update runs
  const tooMany = parsed.size > parsed.hand_size;  // (said here, and nothing asked of the server: QA)
  showError($("hand-error"), tooMany ? t("tooMany", parsed.size, parsed.hand_size) : "");
  if (tooMany) $("hand-text").setAttribute("aria-invalid", "true");
  else $("hand-text").removeAttribute("aria-invalid");
  // keep the order the tiles were entered in (the server's list is by kind)
  Hand.tiles = parsed.order;
  Hand.called = parsed.called.map((u) => u.members);
  handSize = parsed.hand_size;
  Hand.draw();
  fillRonTiles(parsed.order);
  $("hand-count").textContent = t("count", parsed.size, handSize);
  if (parsed.size !== lastSize && !winChosen) {  // 13 tiles: tsumo; 12: no win (a win needs 13)
    document.querySelector(`input[name=win][value="${parsed.size === handSize ? "tsumo" : "none"}"]`).checked = true;
  }
  lastSize = parsed.size;
  // on a phone the palette folds once the answers can come (12 or 13 tiles), so the table is next to the hand
  if (matchMedia("(max-width: 700px)").matches) $("palette-box").open = parsed.size < handSize - 1;
  if (!fieldOk) {
    const bad = FIELDS.filter(([, id]) => fields[id] === null).map(([, id]) => $(id).closest("label").firstElementChild.textContent);
    markStale(t("summaryFix", bad.join(", ")));
    return;
  }
  if (parsed.size < handSize - 1) {
    clearAnswers(t("more", handSize - 1 - parsed.size), t("summaryAdd", handSize - 1 - parsed.size));
    return;
  }
  if (tooMany) {
    markStale(t("summaryFix", t("handLabel")));
    return;
  }
  solve(text, parsed.size === handSize);
}

async function solve(text, full) {
  const controller = new AbortController();
  solving = controller;
  const started = performance.now();
  const tick = setInterval(() => {
    $("progress").hidden = false;
    const word = $("analysis").dataset.hand === text ? t("planning") : t("solving");
    $("progress-text").textContent = `${word} ${((performance.now() - started) / 1000).toFixed(1)} s`;
  }, 150);
  $("progress-text").textContent = t("solving");
  $("status").textContent = "";
  const params = { hand: text, ...situation() };
  try {
    const [analysis] = await Promise.all([api("analyze", params, controller.signal), scoreHand(controller.signal, full)]);
    lastAnalysis = analysis;
    drawAnalysis(analysis, { after: full ? "" : $("position-title").dataset.after, go: navigate });
    if (titleFocus && document.activeElement === document.body) $("position-title").focus({ preventScroll: true });
    titleFocus = false;
    $("analysis").dataset.hand = text;  // which hand the answers on screen are for
    markStale("");
    summaryOf(analysis, null);
    await plan(controller, text);
  } catch (error) {
    if (error.name === "AbortError") {
      if (solving === controller) {
        $("status").textContent = t("cancelled");
        // (QA: a cancelled plan had wiped the finished analysis' one-line answer and left its cells at "…")
        if ($("analysis").dataset.hand === text && lastAnalysis) {
          planNote(t("cancelled"));
          summaryOf(lastAnalysis, null);
        } else summary([t("cancelled")]);
      }
    } else {
      showError($("hand-error"), error.message);
      markStale(t("summaryFix", t("handLabel")));
    }
  } finally {
    clearInterval(tick);
    if (solving === controller) { solving = null; $("progress").hidden = true; }
  }
}

async function plan(controller, text) {
  const turns = $("turns").value.trim();
  if (!/^\d+$/.test(turns) || +turns < 1 || +turns > 30) {  // (its cells emptied, not left at "…", QA)
    fieldError("turns", t("turnsNeeded"));
    planNote(t("turnsNeeded"));
    return;
  }
  fieldError("turns", "");
  if (lastAnalysis.h === null || lastAnalysis.hand_complete) return;
  const { discard, ...rest } = situation();  // a call tile is no part of a plan
  // the optimum up to PLAN_STATES states or PLAN_SECONDS, then bounds per discard, past that a labelled estimate
  let p;
  try {
    p = await api("plan", { hand: text, turns, objective: $("objective").value, max_states: PLAN_STATES,
                            seconds: PLAN_SECONDS, estimate: PLAN_GAMES, ...rest }, controller.signal);
  } catch (error) {
    // the hand was analysed, so a 400 here is a limit of the planner (not a hand error): said in grey, cells emptied
    if (error.status !== 400) throw error;
    if ($("analysis").dataset.hand === text) planNote(error.message.replace(/^error: /, ""));  // (a note, not an error)
    return;
  }
  if ($("analysis").dataset.hand !== text) return;
  fillPlan(p);
  summaryOf(lastAnalysis, p);
}

// "h 1 · 打紗代子 / 奈緒 · 11 live · P(win) 61 %": the answer in one line, kept in view on a phone.
const WAITS_SHOWN = 6;
function summaryOf(a, p) {
  if (a.h === null) return summary([t("unreachable")]);
  if (a.hand_complete) {  // the score of the way of winning chosen (QA: ron chosen, the line said tsumo's)
    const scored = lastScore && lastScore.hand === $("analysis").dataset.hand;
    return summary([scored ? t("summaryComplete", lastScore.total ?? "?", lastScore.how)
      : t("summaryComplete", a.score?.total ?? "?")]);
  }
  const parts = [t("summaryH", a.h)];
  if (a.sora && a.sora.use_now) parts.push(t("summarySora", tileName(a.sora.options[0].take)));  // before any discard
  const rows = a.discards;
  if (rows[0].tile === null) {
    const waits = a.waits.filter((w) => w.live > 0).map((w) => tileName(w.tile));
    // (the line stays one line on a phone: QA saw 22 waits make it 82 px tall; the table lists them all)
    const shown = waits.length > WAITS_SHOWN ? [...waits.slice(0, WAITS_SHOWN - 1), `+${waits.length - WAITS_SHOWN + 1}`]
      : waits;
    parts.push(waits.length ? t("summaryWaits", shown.join(" / ")) : null, t("summaryLive", rows[0].live));
  } else {
    parts.push(`${t("discardWord")}${bestRows(rows).map((r) => tileName(r.tile)).join(" / ")}`, t("summaryLive", rows[0].live));
  }
  if (p && p.recommended && p.recommended.win_probability !== null) {
    const r = p.recommended;
    const shown = r.upper !== null && r.upper !== r.win_probability && !r.win_probability_interval
      ? `${pct(r.win_probability)}–${pct(r.upper)}` : `${r.win_probability_interval ? "≈ " : ""}${pct(r.win_probability)}`;
    parts.push(t("summaryWin", shown) + (r.tile && !bestRows(rows).some((x) => x.tile === r.tile) ? ` (打${tileName(r.tile)})` : ""));
  }
  summary(parts);
}

async function scoreHand(signal, full) {
  const how = win();
  $("score-box").hidden = false;
  for (const radio of document.querySelectorAll("input[name=win]")) radio.disabled = !full && radio.value !== "none";
  $("ron-tile").disabled = !full;
  showError($("score-note"), full ? "" : t("twelveNote"));
  const noWinScored = ruleList.find((r) => r.name === $("rules").value)?.no_win !== "none";
  if (how === "none" && !noWinScored) {  // a rule choice, not an error: said in grey, not red
    $("score").replaceChildren();
    showError($("score-error"), "");
    showError($("score-note"), t("noNoWin", $("rules").value));
    return;
  }
  const params = { hand: $("hand-text").value, rules: $("rules").value, favourite: $("favourite").value, win: how,
                   ron: how === "ron" ? $("ron-tile").value : "" };
  try {
    const scored = await api("score", params, signal);
    drawScore(scored, $("favourite").value);
    showError($("score-error"), "");
    lastScore = { hand: params.hand, how, total: scored.total };
  } catch (error) {
    if (error.name === "AbortError" || error.status !== 400) throw error;
    $("score").replaceChildren();
    showError($("score-error"), error.message);
  }
}
function fillRonTiles(ids) {
  const select = $("ron-tile");
  const wanted = select.dataset.wanted;
  select.dataset.wanted = "";  // (a link's, read once: from now on the choice is the select's)
  const chosen = select.value || wanted;
  const kinds = [...new Set(ids)];
  select.replaceChildren(...kinds.map((id) => el("option", { value: id, text: tileName(id), lang: "ja" })));
  if (kinds.includes(chosen)) select.value = chosen;
  else if (wanted && win() === "ron" && kinds.length) {  // (QA: a link's ron tile the hand does not hold was
    // replaced by its first tile without a word)
    showError($("link-notice"), t("linkProblem", t("ronNotHeld", tileName(wanted), tileName(select.value))));
    saveUrl();  // (the address says what is shown)
  }
}

// --- start -----------------------------------------------------------------------------------------------------
async function start() {
  const params = new URLSearchParams(location.search);
  chooseLanguage(params.get("lang"));
  const idolList = await loadIdols();
  ruleList = await api("rules", {});
  Hand.drawPalette(idolList);
  Hand.onChange = () => { $("position-title").dataset.after = ""; update(); };
  $("rules").replaceChildren(...ruleList.map((r) => el("option", { value: r.name, text: r.name })));
  $("favourite").append(...idolList.filter((i) => i.attribute !== "Sora")
    .map((i) => el("option", { value: i.id, text: i.name, lang: "ja" })));
  loadUrl();
  const later = (event) => {
    if (event.isComposing) return;  // an IME is still composing a name
    clearTimeout(typingTimer);
    typingTimer = setTimeout(update, 500);
  };
  $("hand-text").addEventListener("input", later);
  for (const [, id] of FIELDS) $(id).addEventListener("change", () => update());  // Enter or leaving the box
  for (const id of ["rules", "favourite", "ron-tile", "objective"]) $(id).addEventListener("change", () => update());
  $("turns").addEventListener("change", () => update());
  $("order").addEventListener("change", () => { Hand.draw(); saveUrl(); });
  for (const radio of document.querySelectorAll("input[name=win]")) {
    radio.addEventListener("change", () => { winChosen = true; update(); });
  }
  $("clear").addEventListener("click", () => {  // a new position: its seen tiles, room and discard go too (QA: a
    Hand.pending = null;                          // seen tile the page had added stayed for the next hand)
    $("position-title").dataset.after = "";
    for (const [, id] of FIELDS) $(id).value = "";
    Hand.set([], []);
  });
  $("call-toggle").addEventListener("click", () => Hand.toggleCall());
  $("cancel").addEventListener("click", () => solving && solving.abort());
  $("plan").addEventListener("click", () => update());
  $("lang-toggle").addEventListener("click", () => {
    setLanguage(language === "ja" ? "en" : "ja");
    Hand.draw();  // (the tiles' names for screen readers: QA, they stayed English)
    saveUrl();
    if (lastAnalysis) update(false);
  });
  window.addEventListener("popstate", () => { loadUrl(); update(false); });
  welcome();
  update();
}

function welcome() {
  let seen = false;
  try { seen = localStorage.getItem("mj-welcomed") === "1"; } catch { /* private mode */ }
  $("welcome").hidden = seen || Boolean($("hand-text").value);
  const close = () => { $("welcome").hidden = true; try { localStorage.setItem("mj-welcomed", "1"); } catch { /* */ } };
  $("welcome-close").addEventListener("click", close);
  $("example").addEventListener("click", () => {
    close();  // seed 000's first position (docs/rules.md): h 1, eleven optimal exchanges
    go(() => { $("hand-text").value = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"; });
  });
}
start().catch((error) => showError($("hand-error"), `error: the page could not start (${error.message})`));
