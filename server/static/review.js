// /review: a game log stepped through (the positions come from the server's replay) and one seat's decisions
// graded by game/review.py (the server's review). This page draws their answers; no rule lives here.
"use strict";

const query = new URLSearchParams(location.search);
let logText = "";
let replayed = null;   // {names, seats, steps: [{at, event, view}]} (the shape of mj replay --json)
let at = 0;
let reviewing = null;  // the AbortController of the review being fetched
let decisionsByIndex = new Map();


async function load(text) {
  showError($("log-error"), "");
  try {
    replayed = await requestJson("/api/replay", { method: "POST", body: text,
                                                  headers: { "Content-Type": "application/x-ndjson" } });
  } catch (error) {
    showError($("log-error"), error.message);
    return;
  }
  logText = text;
  decisionsByIndex = new Map();
  $("review-result").replaceChildren();
  $("step").max = replayed.steps.length - 1;
  $("seat").replaceChildren(...replayed.names.map((_, seat) => el("option", { value: seat, text: `${seat}: ${playerName(replayed.names, seat)}` })));
  if (query.has("seat") && Number(query.get("seat")) < replayed.seats) $("seat").value = query.get("seat");
  $("replay").hidden = false;
  $("grading").hidden = false;
  show(Math.min(query.has("at") ? Number(query.get("at")) || 0 : 1, replayed.steps.length - 1));  // the deal
  const kept = keptReview();
  if (kept && Number(kept.seat) < replayed.seats) {
    $("seat").value = kept.seat;
    $("seconds").value = kept.seconds;
    drawReview(kept.answer);
  }
}

// The last grading of a log is kept in this tab (sessionStorage), with its seat and seconds, so a reload shows it
// again rather than grading for another 20 s (QA)
function reviewKey() {
  let hash = 2166136261;  // FNV-1a over the log's text
  for (let i = 0; i < logText.length; i++) hash = Math.imul(hash ^ logText.charCodeAt(i), 16777619) >>> 0;
  return `mj-review:${hash.toString(16)}:${logText.length}`;
}
function keptReview() {
  try { return JSON.parse(sessionStorage.getItem(reviewKey())); } catch { return null; }
}
function keepReview(answer) {
  const kept = { seat: $("seat").value, seconds: $("seconds").value, answer };
  try { sessionStorage.setItem(reviewKey(), JSON.stringify(kept)); } catch { /* full, or private mode */ }
}

function show(index) {
  at = Math.max(0, Math.min(index, replayed.steps.length - 1));
  const { event, view } = replayed.steps[at];
  const names = replayed.names;
  $("step").value = at;
  const count = t("stepCount", at, replayed.steps.length - 1), said = narrate(event, names);
  $("step-count").textContent = count;
  $("step-event").textContent = said;
  $("step").setAttribute("aria-valuetext", `${count} ${said}`);
  const next = replayed.steps[at + 1];
  const graded = next && decisionsByIndex.get(at + 1);
  // (a graded decision names its # as the table does: the position shown is the one before it, QA)
  // (a graded decision says the player's own choice: the next event may be another seat's, after a pass, QA)
  const nextLine = next ? el("p", { class: "hint", text: graded
    ? `${t("nextAt", at + 1)}${t("chosenWord")}${describe(graded.chosen.action)} · ${t("bestWord")}${describe(graded.best.action)}${
      graded.match ? t("sameWord") : `, ${t("lossWord", lossText(graded))}`}`  // (a match is by value: "as good")
    : `${t("nextWord")}${narrate(next.event, names)}` }) : null;
  if (!view) {
    $("step-wall").textContent = t("beforeDeal");
    $("position").replaceChildren(nextLine || "");
  } else {
    $("step-wall").textContent = t("wallLeft", view.wall_left);
    $("position").replaceChildren(nextLine || "", ...names.map((name, seat) => el("div",
      { class: `seat${event.actor === seat ? " to-move" : ""}`, "data-seat": seat },
      el("h3", {}, `${seat}: ${playerName(names, seat)} `, el("span", { class: "hint" }, t("favouriteWord"),
        el("span", { lang: "ja", text: tileName(view.favourites[seat]) }))),
      el("div", { class: "row" }, chips(view.hands[seat])), ...seatTiles(view, seat))));
  }
  for (const row of document.querySelectorAll("#review-result tr.decision")) {
    row.classList.toggle("current", Number(row.dataset.index) === at + 1);
  }
  query.set("at", at);
  history.replaceState(null, "", `${location.pathname}?${query}`);
}

function describe(action) {
  if (!action) return "—";
  switch (action.type) {
    case "dahai": return t("actDiscard", tileName(action.pai));
    case "sora": return t("actSora", tileName(action.pai));
    case "chi": return t("actCall", tileName(action.pai), action.unit);
    case "hora": return t("actWin", tileName(action.pai));
    case "none": return t("actPass");
    case "tsumo": return t("actDraw");
    default: return action.type;
  }
}
// A graded value as the hand page shows the plan's (common.js planValue), and where only 1 is proved, the
// relaxation's sampled value after the bracket, "(≈ u)".
function valueText(x, interval, upper, upperEstimate, format, ends = format) {
  const shown = planValue(x, interval, upper, format, ends);
  return upperEstimate != null && upper != null && upper !== x ? `${shown} (≈ ${format(upperEstimate)})` : shown;
}
// The loss as graded, and beside it the loss against the optimum where that is proved and not the same (QA: "10.9 %"
// stood alone where only 0-100 % was proved); "≠" where neither is known.
function lossText(d) {
  const b = d.loss_bounds;
  if (d.loss == null) return b ? `${percent(b[0])}–${percent(b[1])}` : "≠";
  return b && (b[0] !== d.loss || b[1] !== d.loss) ? `${percent(d.loss)} (${provedText(b)})` : percent(d.loss);
}
// A match: "=", with the loss against the optimum where a range is proved (the terminal's "0.0% (proved 0.0%–29.1%)")
function matchText(d) {
  return d.loss_bounds && d.loss_bounds[1] > 0 ? `= (${provedText(d.loss_bounds)})` : "=";
}
function provedText(bounds) { return t("provedWord", percent(bounds[0]), percent(bounds[1])); }
function percent(p) { return p == null ? "—" : fixedPercent(100 * p); }
function number(x) { return x == null ? "—" : Number.isInteger(x) ? String(x) : x.toFixed(1); }

async function review() {
  if (reviewing) reviewing.abort();
  const controller = new AbortController();
  reviewing = controller;
  showError($("review-error"), "");
  $("review-cancel").hidden = false;
  const started = performance.now();
  // (the clock beside the live status, not in it: a screen reader would say every second, QA)
  const tick = setInterval(() => {
    $("review-clock").textContent = t("secondsSoFar", ((performance.now() - started) / 1000).toFixed(0));
  }, 500);
  $("review-status").textContent = t("reviewing");
  const params = new URLSearchParams({ seat: $("seat").value, seconds: $("seconds").value || "1" });
  try {
    const answer = await requestJson(`/api/review?${params}`, { method: "POST", body: logText,
      signal: controller.signal, headers: { "Content-Type": "application/x-ndjson" } });
    drawReview(answer);
    keepReview(answer);
    $("review-status").textContent = $("review-summary").textContent;  // (said when it arrives, QA)
  } catch (error) {
    $("review-status").textContent = error.name === "AbortError" ? t("cancelled") : "";
    if (error.name !== "AbortError") showError($("review-error"), error.message);
  } finally {
    clearInterval(tick);
    $("review-clock").textContent = "";
    if (reviewing === controller) { reviewing = null; $("review-cancel").hidden = true; }
  }
}

let lastAnswer = null;  // redrawn in the other language

function drawReview(answer) {
  lastAnswer = answer;
  const s = answer.summary;
  decisionsByIndex = new Map(answer.decisions.map((d) => [d.index, d]));
  const worst = new Set(s.worst);
  const heads = t("heads");
  // (data-label: the column's name, said before the cell where a phone shows each row as a card, game.css)
  const side = (graded, column) => el("td", { "data-label": heads[column], role: "cell" }, describe(graded.action),
    el("span", { class: "interval", text: [
      graded.win_probability != null && `${t("winWord")} ${valueText(graded.win_probability, graded.win_interval,
        graded.win_upper, graded.win_upper_estimate, percent)}`,
      graded.expected_score != null && `${t("scoreWord")} ${valueText(graded.expected_score, graded.score_interval,
        graded.score_upper, graded.score_upper_estimate, number, (x) => String(Math.round(x)))}`,
      graded.h != null && `h ${graded.h}`, graded.live != null && t("liveWord", graded.live)].filter(Boolean).join(" · ") }));
  const rows = answer.decisions.map((d, n) => el("tr", {
    class: `decision${worst.has(n) ? " worst" : ""}`, "data-index": d.index, tabindex: "0", role: "row",
    "aria-description": t("rowShows"),  // (QA: nothing said the row is an action)
    onclick: () => show(d.index - 1), onkeydown: (e) => { if (e.key === "Enter") show(d.index - 1); } },
    el("td", { class: "num", text: d.index, role: "cell" }), el("td", { class: "kind", text: t("decisionType", d.type), role: "cell" }), side(d.chosen, 2), side(d.best, 3),
    el("td", { class: "num", role: "cell", text: (d.match ? matchText(d) : lossText(d)) + (d.h_lost ? ` (h +${d.h_lost})` : "") }),
    // (the note, a paragraph, folded: at phone width it had made a row 2,000 px tall, QA)
    el("td", { class: "why", role: "cell" }, [d.missed_win && t("missedWin"), t("methodWord", d.method), d.clocked && t("clockedWord")]
      .filter(Boolean).join(": "), d.note ? el("details", {}, el("summary", { text: t("howMore") }), d.note) : "")));
  $("review-result").replaceChildren(
    el("p", { id: "review-summary" }, t("reviewSummary", s.decisions, s.matches,
      s.match_rate == null ? "—" : (100 * s.match_rate).toFixed(0), percent(s.total_loss), percent(s.proved_loss ?? 0))
      + (s.graded_by_win_probability != null ? t("byWin", s.graded_by_win_probability) : "")
      + (s.missed_wins ? t("missedWins", s.missed_wins) : "") + (s.clocked ? t("clockedNote", s.clocked) : "")
      + (s.skipped ? t("skippedNote", s.skipped) : "")),  // (QA: the CLI said them, the page did not)
    el("p", { class: "hint", text: language === "ja" && answer.model.startsWith("solo model:") ? t("soloModel") : answer.model }),
    // (roles said outright: a phone's card layout changes the cells' display, which can drop a table's semantics)
    el("table", { id: "decisions", role: "table" }, el("thead", { role: "rowgroup" }, el("tr", { role: "row" }, ...heads
      .map((h) => el("th", { text: h, role: "columnheader" })))), el("tbody", { role: "rowgroup" }, ...rows)));
  show(at);
}

function wire() {
  $("log-file").addEventListener("change", async () => {
    const file = $("log-file").files[0];
    if (file) load(await file.text());
  });
  const drop = $("drop");
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", async (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    const file = e.dataTransfer.files[0];
    if (file) load(await file.text());
  });
  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(at - 1));
  $("next").addEventListener("click", () => show(at + 1));
  $("last").addEventListener("click", () => show(replayed.steps.length - 1));
  $("step").addEventListener("input", () => show(Number($("step").value)));
  document.addEventListener("keydown", (e) => {  // (the arrows step the game, from the stepper's buttons too, but not
    // from another control or a row: QA)
    if (!replayed || e.target.closest("input, select, textarea, a, summary, tr.decision")
        || (e.target.closest("button") && !e.target.closest(".stepper"))) return;
    if (e.key === "ArrowRight") show(at + 1);
    if (e.key === "ArrowLeft") show(at - 1);
  });
  $("review").addEventListener("click", review);
  $("review-cancel").addEventListener("click", () => reviewing && reviewing.abort());
}

wire();
wireLanguage(() => { if (lastAnswer) drawReview(lastAnswer); else if (replayed) show(at); });
loadIdols().then(async () => {
  if (!query.get("game")) return;
  try {  // opened from /play: the game's log, still on this server
    const response = await fetch(`/api/game/${encodeURIComponent(query.get("game"))}/log`);
    if (!response.ok) throw new Error((await response.json()).error);
    load(await response.text());
  } catch (error) {
    showError($("log-error"), error.message);
  }
}).catch((error) => showError($("log-error"), error.message));
