// mj serve: helpers shared by /play and /review. They draw what the server answers; no rule lives here.
"use strict";

const $ = (id) => document.getElementById(id);
const idolsByName = new Map();  // short name (as in game logs), id or another name -> idol record from /api/idols

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value == null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) if (child != null) node.append(child);
  return node;
}

// A message in its own element (an error under its field): shown with text, hidden without.
function showError(node, message) { node.textContent = message || ""; node.hidden = !message; }

async function loadIdols() {
  const list = await requestJson("/api/idols");  // (a refusal says the server's line: QA, "list is not iterable")
  for (const idol of list) { idolsByName.set(idol.name, idol); idolsByName.set(idol.id, idol); }
  for (const idol of list) {  // then every other name of theirs (a link's favourite=かな: QA), never over the above
    for (const name of [idol.kana, idol.full_name, idol.full_kana, ...(idol.romaji || []), ...(idol.other_names || [])]) {
      if (name && !idolsByName.has(name)) idolsByName.set(name, idol);
    }
  }
  return list;
}
// A planner's value as every page shows it: a sampled one "≈ x (lo–hi)" with its 95 % interval (`ends` writes the
// interval's ends), then " – upper" where a proved upper bound differs from it; "—" where there is none.
function planValue(x, interval, upper, format, ends = format) {
  if (x == null) return "—";
  const shown = interval ? `≈ ${format(x)} (${ends(interval[0])}–${ends(interval[1])})` : format(x);
  return upper != null && upper !== x ? `${shown}\u00a0– ${format(upper)}` : shown;  // (a break after the dash only)
}

// A percentage (v in %) with one decimal, below 0.05 % two significant digits in fixed point: a bracket 0.00097 % –
// 0.0032 % reads as two values, not 0.0 % – 0.0 % (the terminal's console/render.percent does the same).
// (a no-break space: at phone width a cell had broken "21.2 / % – / 25.2 / %", QA)
function fixedPercent(v) { return `${v > 0 && v < 0.05 ? v.toFixed(1 - Math.floor(Math.log10(v))) : v.toFixed(1)}\u00a0%`; }
function tileName(key) { return idolsByName.has(key) ? idolsByName.get(key).name : key; }

// A tile by its short name or id: coloured by its attribute, the idol's own colour as a stripe.
function tile(key, tag = "span", attrs = {}) {
  const idol = idolsByName.get(key) || { attribute: "", name: key };
  const node = el(tag, { class: `tile attr-${idol.attribute}`, title: idol.full_name || key,
                         lang: "ja", "data-id": idol.id, text: idol.name, ...attrs });
  if (idol.colour) node.style.borderBottomColor = idol.colour;
  return node;
}
function chips(keys, cls = "chip") {
  return el("span", { class: "chips" }, ...keys.map((key) => {
    const node = tile(key);
    node.classList.add(cls);
    return node;
  }));
}

async function requestJson(url, options = {}) {
  let response;
  try {
    response = await fetch(url, options);
  } catch (error) {  // no answer at all: say what it means rather than the browser's "Failed to fetch"
    if (error.name === "AbortError") throw error;
    throw new Error(t("unreachableServer"));
  }
  const body = await response.json().catch(() => ({ error: `error: the server answered HTTP ${response.status}` }));
  if (!response.ok) throw Object.assign(new Error(t("serverError", body.error || `error: HTTP ${response.status}`)),
                                        { status: response.status, code: body.code });
  return body;
}

// A player's name as shown: the human's seat (the server names it "you") in the page's language.
const HUMAN_NAME = "you";
function playerName(names, seat) {
  const name = names[seat];
  return name === HUMAN_NAME ? t("youName") : name ?? t("seatN", seat);
}

// One line of narration for a logged event (names: the players by seat), in the page's language (words-game.js).
function narrate(event, names) {
  const who = (seat) => playerName(names, seat);
  const x = tileName(event.pai);
  switch (event.type) {
    case "start_game": return t("evStart", names.map((_, seat) => who(seat)));
    case "start_kyoku": return t("evDeal", who(event.oya));
    case "tsumo": return event.pai === "?" ? t("evDraw", who(event.actor)) : t("evDrew", who(event.actor), x);
    case "dahai": return t("evDiscard", who(event.actor), x);
    case "sora": return t("evSora", who(event.actor), x, who(event.target));
    case "chi": return t("evCall", who(event.actor), x, event.unit, event.consumed.map(tileName).join(" "));
    case "hora": return event.actor === event.target ? t("evTsumo", who(event.actor), x, event.score ?? "?")
      : t("evRon", who(event.actor), who(event.target), x, event.score ?? "?");
    case "ryukyoku": return t("evDrawn");
    case "end_game": return t("evEnd", event.scores.map((s, i) => `${who(i)} ${s ?? "—"}`).join(", "));
    case "error": return t(event.dropped ? "evDropped" : event.crashed ? "evCrashed" : "evError", who(event.actor), event.reason);
    default: return event.type;
  }
}

// A seat's called units and waiting room (both pages).
function seatTiles(view, seat) {
  const calls = (view.calls[seat] || []).map((call) => el("span", { class: "group", title: t("calledTitle", call.unit) },
    el("span", { class: "group-label", text: call.unit }), chips(call.tiles)));
  return [
    calls.length ? el("div", { class: "calls" }, ...calls) : null,
    el("div", { class: "room" }, el("span", { class: "hint", text: `${t("roomWord")} ` }),
      view.rooms[seat].length ? chips(view.rooms[seat]) : el("span", { class: "hint", text: t("emptyWord") })),
  ];
}

// A unit's points worked out: the server's English line, or its steps in the page's language (QA: English on the
// Japanese page)
function whyText(u) {
  return WORDS[language].whySteps && u.why_steps ? t("whySteps", u.why_steps) : u.why;
}

// A score payload (mj score --json) as lines: unit, points, why (and its flags); the bonus, left-overs, the total.
// `totalId`: the id of the total's element (the hand page has one score; /play one per seat, so none).
function scoreTable(score, { totalId = null, favourite = null } = {}) {
  if (!score) return el("p", { class: "hint", text: t("noScore") });
  const rows = score.units.map((u) => {
    const flags = [u.called && t("flagCalled"), u.holds_ron && t("flagRon"),
                   u.sora_for.length && t("flagSora", u.sora_for.map(tileName).join(" "))].filter(Boolean);
    return el("tr", {}, el("td", {}, el("span", { lang: "ja", text: u.name }), el("br"), chips(u.members)),
      el("td", { class: "num", text: u.points }), el("td", { class: "why", text: [whyText(u), ...flags].join("; ") }));
  });
  if (score.bonus) rows.push(el("tr", {}, el("td", { text: t("bonus") }), el("td", { class: "num", text: score.bonus }),
    el("td", { class: "why", text: favourite ? t("bonusWhy", tileName(favourite)) : "" })));
  if (score.leftover.length) rows.push(el("tr", {}, el("td", {}, `${t("leftover")} `, chips(score.leftover)),
    el("td", { class: "num", text: 0 }), el("td", { class: "why", text: t("leftoverWhy") })));
  const sum = score.units.map((u) => u.points).concat(score.bonus ? [score.bonus] : []).join(" + ");
  rows.push(el("tr", { class: "total" }, el("td", { text: t("total") }),
    el("td", { class: "num score-total" }, el("span", { id: totalId, text: score.total })),
    el("td", { class: "why", text: `${sum || 0} = ${score.total}` })));
  return el("table", {}, el("thead", {}, el("tr", {}, el("th", { text: t("colUnit") }), el("th", { class: "num", text: t("colPoints") }),
    el("th", { text: t("colWhy") }))), el("tbody", {}, ...rows));
}
