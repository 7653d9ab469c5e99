// mj serve, the hand page: drawing the answers (mj analyze / mj plan / mj score --json). Nothing is computed
// here beyond picking the rows to mark: every number comes from the server.
"use strict";

const pct = (x) => fixedPercent(100 * x);
const MANY_KINDS = 6;  // more accepted kinds than this fold into a details element (a phone row stays short)

// A table in a box that scrolls sideways if it must: the page itself never does on a phone.
function table(headers, rows, attrs = {}) {
  const head = el("tr", {}, ...headers.map(([text, cls]) => el("th", { class: cls || null, scope: "col", text })));
  return el("div", { class: "table-wrap" }, el("table", attrs, el("thead", {}, head), el("tbody", {}, ...rows)));
}
function cell(content, cls = null) {
  const td = el("td", { class: cls });
  td.append(content instanceof Node ? content : String(content ?? ""));
  return td;
}
function heading(text, attrs = {}) { return el("h3", { ...attrs, text }); }
function unitName(u) { return el("span", { lang: "ja", text: u.name }); }
function hText(h) { return h === null || h === undefined ? "—" : String(h); }

// The rows that share the best (h, live): every one of them is marked, none is picked over the others.
function bestRows(rows) {
  const top = rows[0];
  return rows.filter((r) => r.h === top.h && r.live === top.live);
}

function acceptCell(accept, onDraw) {
  const live = accept.reduce((n, a) => n + a.live, 0);
  const items = accept.map((a) => {
    const node = onDraw ? tile(a.tile, "button", { type: "button", "aria-label": t("draw", tileName(a.tile)),
                                                   onclick: () => onDraw(a.tile) })
      : tile(a.tile);
    node.classList.add("chip");
    node.append(`×${a.live}`);
    return node;
  });
  const list = el("span", { class: "chips" }, ...items);
  if (!accept.length) return el("span", { class: "hint", text: "—" });
  if (accept.length <= MANY_KINDS || onDraw) return el("span", {}, el("span", { class: "hint", text: t("kinds", accept.length, live) }), " ", list);
  return el("details", { class: "accept" }, el("summary", { text: t("kinds", accept.length, live) }), list);
}

function waitsLine(waits) {
  return el("span", { class: "chips" }, ...waits.map((w) => {
    const node = tile(w.tile);
    node.classList.add("chip");
    node.append(`×${w.live}`);
    return node;
  }));
}

// The per-discard table: the main view. A discard opens the 12-tile position after it; on a 12-tile hand a
// drawn tile opens the 13-tile position. P(win) and E[score] cells are filled when the plan arrives.
function drawDiscards(a, go) {
  const twelve = a.discards.length === 1 && a.discards[0].tile === null;
  const headers = [[t("colDiscard")], [t("colH"), "num"], [t("colLive"), "num"], [t("colAccept")],
                   [t("colWin"), "num"], [t("colScore"), "num"]];
  if (twelve) {
    const r = a.discards[0];
    const row = el("tr", { "data-tile": "" }, cell(t("drawWord")), cell(hText(r.h), "num"), cell(r.live, "num"),
      cell(acceptCell(r.accept, (id) => go.draw(id))), cell("…", "num win"), cell("…", "num score"));
    return [heading(t("drawTitle")), table(headers, [row], { id: "discard-table" })];
  }
  const best = new Set(bestRows(a.discards).map((r) => r.tile));
  const row = (r) => {
    const mark = best.has(r.tile) ? el("span", { class: "badge", text: best.size > 1 ? t("tied") : t("best") }) : null;
    const open = tile(r.tile, "button", { type: "button", "aria-label": t("open", tileName(r.tile)),
                                          onclick: () => go.discard(r.tile) });
    const first = el("span", { class: "discard-cell" }, open, mark);
    // at h 1 after the discard the draws that lower h are its waits: said once, "after 打X"
    const content = r.waits.length
      ? el("span", { class: "waits-after" }, `${t("waitsAfter", tileName(r.tile))}: `, waitsLine(r.waits))
      : acceptCell(r.accept);
    return el("tr", { "data-tile": r.tile, class: best.has(r.tile) ? "best" : null, "data-tied": best.size > 1 && best.has(r.tile) ? "" : null },
      cell(first), cell(hText(r.h), "num"), cell(r.live, "num"), cell(content), cell("…", "num win"), cell("…", "num score"));
  };
  const topH = a.discards[0].h;
  const near = a.discards.filter((r) => r.h === topH), worse = a.discards.filter((r) => r.h !== topH);
  const out = [heading(t("discardTitle")), table(headers, near.map(row), { id: "discard-table" })];
  if (worse.length) {
    out.push(el("details", { class: "worse" }, el("summary", { text: t("worse", worse.length) }),
      table(headers, worse.map(row), { class: "worse-table" })));
  }
  return out;
}

// The planner's answer in the discard table's last two columns, with its method in one line below.
function fillPlan(p) {
  // E[score] by a named class (the optimum did not finish for it) is a real policy's value: a lower bound,
  // shown "lower – upper" where a proved upper bound comes with it
  const scoreBound = p.method !== "estimate" && p.policy_class.expected_score !== "all play";
  const scoreValue = (d) => {
    const upper = d.expected_score_upper;
    const shown = planValue(d.expected_score, d.expected_score_interval, upper, Math.round);
    // a proved upper bound beside it: "lower – upper", like P(win); without one, "≥ lower"
    const bracketed = upper !== null && upper !== undefined && upper !== d.expected_score;
    return scoreBound && d.expected_score != null && !bracketed ? `≥ ${shown}` : shown;
  };
  const byTile = new Map(p.discards.map((d) => [d.tile ?? "", d]));
  const best = p.recommended ? p.recommended.tile ?? "" : null;
  for (const tr of document.querySelectorAll("#discards tr[data-tile]")) {
    const d = byTile.get(tr.dataset.tile);
    if (!d) continue;
    const win = planValue(d.win_probability, d.win_probability_interval, d.upper, pct);
    // where only 1 is proved, the relaxation's sampled value after it: an estimate of a bound, marked ≈
    tr.querySelector("td.win").textContent = d.upper_estimate != null ? `${win} (≈ ${pct(d.upper_estimate)})` : win;
    const score = scoreValue(d);
    tr.querySelector("td.score").textContent = d.expected_score_upper_estimate != null
      ? `${score} (≈ ${Math.round(d.expected_score_upper_estimate)})` : score;
    tr.classList.toggle("plan-best", tr.dataset.tile === best && tr.dataset.tile !== "");
  }
  const how = p.method === "optimal" ? t("exact") : p.method === "bounds"
    ? `${t("bounds")} (${p.separated ? t("boundsSep") : t("boundsOverlap")})`
    : p.method === "estimate" ? t("estimate", p.games) : t("classLabel", p.policy_class.win_probability.split(":")[0]);
  const r = p.recommended;
  const line = r && r.tile ? `${t("planBest")}: 打${tileName(r.tile)}` : "";
  $("plan-result").replaceChildren(el("p", { class: p.method === "optimal" ? "hint" : "estimate",
    text: `${t("planLine", p.turns, how)}${line ? ` · ${line}` : ""}` }),
    scoreBound ? el("p", { class: "hint score-bound", text: t("scoreBound") }) : "",
    p.discards.some((d) => d.upper_estimate != null) ? el("p", { class: "hint upper-estimate", text: t("upperEstimate") }) : "");
}

// No plan for this position (the planner refused it, e.g. a case it does not model yet): the P(win) and E[score]
// cells emptied and its message in grey; the analysis stands.
function planNote(message) {
  for (const td of document.querySelectorAll("#discards td.win, #discards td.score")) td.textContent = "";
  $("plan-result").replaceChildren(el("p", { class: "hint plan-note", role: "note", text: message }));
}

function drawWaits(a, after) {
  if (!a.waits.length || a.discards[0].tile !== null) return [];
  const rows = a.waits.map((w) => el("tr", {}, cell(tile(w.tile)), cell(w.live === 0 ? t("dead") : w.live, "num"),
    cell(w.tsumo ?? t("noWinCell"), "num"), cell(w.ron ?? t("noWinCell"), "num")));
  return [heading(after ? t("waitsAfter", after) : t("waitsTitle")),
          table([[t("colWait")], [t("colLive"), "num"], [t("tsumo"), "num"], [t("colRon"), "num"]], rows)];
}

function ronBanner(x, ron) {
  return el("p", { class: ron.ron === null ? "ron-banner no-win" : "ron-banner", role: "note",
                   text: ron.ron === null ? t("ronNoWin", x) : t("ronBanner", x, ron.ron) });
}

// Calls on the discard typed: one row per unit (its best h after and every discard reaching it).
function drawCalls(a) {
  if (!a.call_tile) return [];
  const units = new Map();
  for (const c of a.calls) {
    const seen = units.get(c.id);
    if (!seen || (c.h ?? 99) < (seen.h ?? 99)) units.set(c.id, { ...c, discards: [c.discard] });
    else if (c.h === seen.h) seen.discards.push(c.discard);
  }
  const rows = [...units.values()].map((u) => el("tr", { class: u.lowers ? "good" : null },
    cell(el("span", {}, unitName(u), el("br"), chips(u.members))), cell(chips(u.discards)), cell(hText(u.h), "num"),
    cell(u.lowers ? t("lowers") : t("mistake"))));
  return [heading(t("callsOn", tileName(a.call_tile))), rows.length
    ? table([[t("colUnit")], [t("colThen")], [t("colHAfter"), "num"], [t("colVerdict")]], rows)
    : el("p", { class: "hint", text: t("noUnit") })];
}

// Between turns, with no discard typed: every tile that could be called or won on (Hitori-Jong 2nd's list).
function drawCallable(a) {
  if (a.call_tile || !a.callable || a.discards[0].tile !== null) return [];
  const row = (r) => {
    const ron = r.ron ? (r.ron.ron === null ? t("noWinCell") : String(r.ron.ron)) : "";
    const units = el("div", {}, ...r.units.map((u) => el("div", { class: "unit-call" }, unitName(u), " → ",
      `${t("colH")} ${hText(u.h)} · `, ...(u.lowers ? [chips(u.discards), ` · ${t("lowers")}`] : [t("mistake")]))));
    return el("tr", { class: r.ron && r.ron.ron !== null ? "ron" : null, "data-tile": r.tile },
      cell(tile(r.tile)), cell(r.live, "num"), cell(ron, "num"), cell(units));
  };
  const headers = [[t("colTile")], [t("colLive"), "num"], [t("colRon"), "num"], [t("colUnit")]];
  // a ron or a call that lowers h is worth a look; calls that do not lower h are folded
  const worth = a.callable.filter((r) => r.ron || r.units.some((u) => u.lowers));
  const rest = a.callable.filter((r) => !worth.includes(r));
  const out = [heading(t("callableTitle"))];
  out.push(worth.length ? table(headers, worth.map(row), { id: "callable-table" }) : el("p", { class: "hint", text: t("noCallable") }));
  if (rest.length) out.push(el("details", { class: "worse" }, el("summary", { text: t("callsNoGain", rest.length) }),
    table(headers, rest.map(row), { class: "callable-rest" })));
  return out;
}

function drawAnalysis(a, ctx) {
  $("analysis").hidden = false;
  titled(ctx.after);
  const counts = t("counts", a.complete.length, a.one_short.length, a.two_short.length);
  $("h-line").textContent = a.h === null ? t("unreachable") : t("hLine", a.h, a.hand_complete, counts);
  $("discards").replaceChildren(...drawDiscards(a, ctx.go));
  $("plan-result").replaceChildren();
  $("ron-banner").replaceChildren(...(a.ron ? [ronBanner(tileName(a.call_tile), a.ron)] : []));
  $("waits").replaceChildren(...drawWaits(a, ctx.after));
  $("calls").replaceChildren(...drawCalls(a));
  $("callable").replaceChildren(...drawCallable(a));
  const s = a.sora;
  $("sora").replaceChildren(...(s ? [heading("そら", { lang: "ja" }), el("p", { text: s.use_now
    ? t("soraNow", tileName(s.options[0].take), s.h_now, s.options[0].h) : t("soraKeep", hText(s.h_now)) })] : []));
  const exchanges = a.exchanges.map((e) => el("div", { class: "exchange" },
    e.out.length ? chips(e.out) : el("span", { class: "hint", text: t("drawWord") }),
    el("span", { class: "arrow", text: "⇒" }), chips(e.in),
    el("span", { class: "reaches" }, `${t("reaches")} `, ...e.target.map((u, n) => [n ? " / " : "", unitName(u)]).flat(),
      e.sora_for.length ? ` (そら: ${e.sora_for.map(tileName).join(" ")})` : "")));
  $("exchanges").replaceChildren(...(a.exchanges.length ? [el("details", { class: "exchanges" },
    el("summary", { text: t("exchangesTitle", a.exchanges.length, !a.exchanges_complete) }),
    el("div", { id: "exchange-list" }, ...exchanges))] : []));
  const present = [["complete", a.complete], ["oneShort", a.one_short], ["twoShort", a.two_short]]
    .map(([label, units]) => el("details", { class: "present" }, el("summary", { text: `${units.length} ${t(label)}` }),
      table([[t("colUnit")], [t("colMembers")], [t("colNeeds")]], units.map((u) => el("tr", {}, cell(unitName(u)),
        cell(chips(u.members)), cell(u.missing.length ? chips(u.missing) : "—"))))));
  $("present").replaceChildren(heading(t("presentTitle")), ...present);
  $("notes").replaceChildren(...a.notes.map((note) => el("li", { text: note })));
}

function drawScore(s, favourite) {
  if (s.total === null) {
    $("score").replaceChildren(el("p", { id: "score-total", text: t("notWin", s.reason) }));
    return;
  }
  $("score").replaceChildren(el("p", { class: "hint", text: s.won ? t("winBy", s.win) : t("notWinTitle") }),
    el("div", { class: "table-wrap" }, scoreTable(s, { totalId: "score-total", favourite })));
}

// The position's title: "after 打X" where a discard led here, else a title for screen readers alone (a focus target
// that says something)
function titled(after) {
  const title = $("position-title");
  title.textContent = after ? t("afterTitle", after) : t("positionTitle");
  title.classList.toggle("visually-hidden", !after);
}
