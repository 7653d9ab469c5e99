// mj serve: the page's words in English and Japanese. Static text carries data-i18n="key" (data-placeholder for
// a placeholder, data-i18n-label for an aria-label); answers are drawn with t(key, ...). The language: ?lang=, then the last choice, then the browser's.
"use strict";

// The server's reasons a hand did not win (solver/core/score.py), in the Japanese page's words (QA: said in English)
const NOT_WIN_JA = {
  "the tiles do not split exactly into units": "牌がユニットにちょうど分かれない",
  "a ron on 詩花 is not a win (the house rule: docs/rules.md D2)": "詩花でのロンは和了にならない(ハウスルール D2)",
  "そら is in no unit under this rule set": "このルールではそらはどのユニットにも入らない",
};

// The built-in rule sets' descriptions (the catalogue's, in English) on the Japanese page; a house's own stays as
// written (QA)
const RULE_ABOUT_JA = {
  "2019-12": "シード000のハウスルール(2019-12-12 の対局どおり、既定)",
  "2019-10": "シード001の旧採点: 人数別 1000/2000/4000/6000/8000、鳴きは半分、担当は2倍",
  "hitori-jong-2.1": "Hitori-Jong-2nd 2.1.0(2019-11-24)との互換: そのエンジンの答えを確かめるため",
};

function notWinJa(reason) {
  const held = /^no unit holds (.+) with the other tiles of the hand$/.exec(reason);  // (names: score.py's own)
  return held ? `${held[1].split(", ").join("・")} を他の牌と合わせて含むユニットがない` : NOT_WIN_JA[reason] ?? reason;
}

// The server's commonest errors (a hand typed: solver/core tiles.py, hand.py, notation.py; a full table) in the Japanese
// page's words; any other stays as the server wrote it (QA: said in English)
const ERRORS_JA = [
  [/^error: unknown tile '(.*)'(?:; did you mean (.+)\?| \((no letters or kana in it|an empty name)\))?$/,
    (m) => `エラー: 不明な牌「${m[1]}」${m[2] ? `。もしかして: ${m[2].split(", ").join("、")}` : m[3] ? "(名前になる文字がない)" : ""}`],
  [/^error: (\d+) copies of (.+): there are only (\d+)$/, (m) => `エラー: ${m[2]} が ${m[1]} 枚: 各牌は ${m[3]} 枚まで`],
  [/^error: (\d+) (.+) in hand and (\d+) seen: there are only (\d+)$/,
    (m) => `エラー: ${m[2]} が手牌に ${m[1]} 枚、見えている牌に ${m[3]} 枚: 各牌は ${m[4]} 枚まで`],
  [/^error: called group \[(.+?)\] is not a unit under rule set (.+)$/,
    (m) => `エラー: 鳴いた組 [${m[1]}] はルール ${m[2]} のユニットではない`],
  [/^error: called group \[(.+?)\](?: \(.*\))? has (\d+) members?; only units of 3 or more can be called$/,
    (m) => `エラー: 鳴いた組 [${m[1]}] は ${m[2]} 人: 鳴けるのは 3 人以上のユニットだけ`],
  [/^error: unbalanced or nested brackets in '(.*)'$/, (m) => `エラー: 括弧の対応が取れていない(または入れ子):「${m[1]}」`],
  [/^error: (\d+) games are in progress here: finish one, or wait until one is left alone (\d+) s \(a closed page\)$/,
    (m) => `エラー: このサーバーで ${m[1]} 局が進行中です: どれかが終わるか、${m[2]} 秒放置される(ページが閉じられる)まで待ってください`],
  [/^error: a (?:winning )?hand holds (\d+)(?: or (\d+))? tiles, this one (\d+)$/,
    (m) => `エラー: 手牌は ${m[2] ? `${m[1]} 枚か ${m[2]}` : m[1]} 枚、この手は ${m[3]} 枚`],
];
function errorJa(message) {
  for (const [pattern, say] of ERRORS_JA) {
    const m = pattern.exec(message);
    if (m) return say(m);
  }
  return message;
}

const WORDS = {
  en: {
    skipAnswers: "Skip to the answers", skipSituation: "Skip to the situation",
    unreachableServer: "error: the server cannot be reached (offline?): answers need mj serve running",
    serverError: (m) => m,
    tagline: "exact answers for Milli-Jong (ミリジャン) hands: h, discards, waits, calls, scores",
    navHand: "Hand", navPlay: "Play", navReview: "Review", handTitle: "Hand", answersTitle: "Answers",
    welcome1: "Enter your 13 tiles (or 12 between turns) by tapping the palette or typing names. The table then shows, "
      + "for every discard, the exchange distance h, the live tiles that lower it and the chance to win.",
    tryExample: "Try an example", gotIt: "Got it", handLabel: "Hand",
    pagesNav: "Pages", handGroup: "The hand: tap a tile to remove it",
    paletteGroup: "Tiles: tap to add (arrow keys move between them)", winHow: "How the hand wins",
    winningTile: "winning tile", addTile: (k) => `add ${k}`, removeTile: (k) => `remove ${k}`,
    removeCalled: (k) => `remove the called unit with ${k}`, calledWord: "called", callingWord: "calling",
    takeOut: (k) => `take ${k} out of the call`,
    calledUnitTitle: "called unit: tap to remove it", tilesLeft: (name, n) => `${name}: ${n} left`,
    handHint: "tap tiles below, or type names (called units in brackets)", clear: "Clear", order: "order",
    orderTap: "as entered", orderPalette: "palette", paletteTitle: "Tiles (copies left on each)",
    callEnter: "Enter a called unit", callDone: "Done: add the called unit", callHint: "tap its members, then Done",
    situation: "Situation", rules: "Rule set", favourite: "Favourite (担当)", none: "none", seen: "Seen tiles",
    seenHint: "discards, others' calls; Enter to apply", room: "Waiting room (for そら)", roomHint: "empty: not asked",
    discardLabel: "Another player's discard", discardHint: "calls and ron on it; Enter to apply",
    cancel: "Cancel", drawsLeft: "draws left", sortBy: "best by", replan: "Plan again", score: "Score",
    tsumo: "tsumo", ronOn: "ron on", noWin: "no win",
    begin: "Tap tiles or type a hand to begin.", more: (n) => `Add ${n} more tile(s) for the answers.`,
    count: (n, of) => `${n} of ${of} tiles`, tooMany: (n, of) => `${n} tiles: a hand holds ${of - 1} or ${of}`,
    solving: "solving…", planning: "planning…", cancelled: "Cancelled.",
    hLine: (h, done, counts) => `h = ${h}${done ? " (complete)" : ""} · ${counts}`,
    unreachable: "no complete hand can be reached", counts: (c, o, t) => `${c} complete, ${o} one short, ${t} two short units`,
    discardTitle: "Per discard: h after it, live draws that lower it, the chance to win",
    drawTitle: "Next draw: the tiles that lower h", after: (x) => `after 打${x}`, afterTitle: (x) => `The position after 打${x}`,
    positionTitle: "The position as entered",
    colDiscard: "discard", colH: "h", colLive: "live", colAccept: "draws that lower h", colWin: "P(win)", colScore: "E[score]",
    kinds: (k, n) => `${k} kinds · ${n} live`, worse: (n) => `${n} more discard(s) with a worse h`,
    tied: "tied best", best: "best", planBest: "the planner's best",
    open: (x) => `open the position after 打${x}`, draw: (x) => `open the position after drawing ${x}`,
    waitsAfter: (x) => `waits after 打${x}`, waitsTitle: "Waits (score by tsumo / by ron)",
    colWait: "wait", dead: "0 (dead)", noWinCell: "no win",
    planLine: (n, how) => `P(win) over ${n} draw(s): ${how}`,
    exact: "exact optimum", bounds: "the optimum lies between the two numbers", boundsSep: "the best discard is proved",
    boundsOverlap: "the brackets overlap",
    upperEstimate: "(≈ x) after an upper bound: where only 100 % is proved, the perfect-information relaxation's "
      + "value sampled over 1000 walls (P(win), and E[score] beside it). The optimum is at most that value, but the "
      + "value itself is estimated: a likely ceiling, not a proof.",
    estimate: (g) => `estimate, not exact: ${g} sampled walls per discard (95 % intervals)`,
    classLabel: (c) => `exact within the class ${c}`,
    scoreBound: "E[score] ≥ (or lower – upper): the exact value of a real way of playing (the class nearest), and "
      + "where shown a proved upper bound; the optimum for E[score] did not finish within the time budget and may be "
      + "higher, up to that bound.",
    discardWord: "打 ", summaryH: (h) => `h ${h}`, summaryLive: (n) => `${n} live`, summaryWin: (p) => `P(win) ${p}`,
    summaryWaits: (w) => `waits ${w}`, summaryComplete: (s, how = "tsumo") => `complete · ${{ tsumo: "tsumo", ron: "ron", none: "no win" }[how]} ${s}`,
    summaryFix: (f) => `fix ${f}`, summarySora: (x) => `そら → ${x}`, summaryAdd: (n) => `add ${n} more tile(s)`,
    turnsNeeded: "enter the draws left (1–30) to plan",
    callsOn: (x) => `Calls on ${x}`, ronBanner: (x, s) => `Ron on ${x}: ${s} points`,
    ronNoWin: (x) => `${x} completes the hand, but a ron on it is not a win`,
    noUnit: "No unit of 3 or more members can take it.", colUnit: "unit", colThen: "then discard",
    colHAfter: "h after", colVerdict: "verdict", lowers: "lowers h", mistake: "mistake: does not lower h",
    callableTitle: "Any discard: ron on it, or a call into a unit", colTile: "tile", colRon: "ron",
    noCallable: "No discard wins or lowers h by a call.",
    callsNoGain: (n) => `${n} more tile(s) can be called, but no call lowers h`,
    soraNow: (x, a, b) => `Use そら now: take ${x} (h ${a} → ${b}).`, soraKeep: (h) => `Keep そら: no tile in the waiting room lowers h (now ${h}).`,
    exchangesTitle: (n, cut) => `Optimal exchanges (${n}${cut ? "+, list cut short" : ""})`, drawWord: "draw",
    reaches: "reaches", presentTitle: "Units present", complete: "complete", oneShort: "one member short",
    twoShort: "two members short", colMembers: "members", colNeeds: "needs",
    ruleAbout: (name, text) => text,
    winBy: (w) => `Win by ${w}`, notWinTitle: "The hand did not win: its best units", notWin: (r) => `Not a win: ${r}`,
    twelveNote: "A win needs 13 tiles: the waits above give each winning tile's score.",
    noNoWin: (r) => `Rule set ${r} gives no score to a hand that did not win.`,
    colPoints: "points", colWhy: "why", bonus: "favourite bonus", leftover: "in no unit", leftoverWhy: "left over: scores nothing",
    total: "total", linkProblem: (p) => `This link was not fully understood: ${p}.`,
    unknownParam: (k) => `unknown parameter ${k}`, unknownValue: (k, v) => `${k}=${v} is not known`,
    ronNotHeld: (x, y) => `ron=${x} is not a tile of the hand (scored on ${y} instead)`,
    flagCalled: "called", flagRon: "ron tile", flagSora: (x) => `そら as ${x}`, bonusWhy: (x) => `${x} is in a unit`,
    calledTitle: (u) => `called: ${u}`,
  },
  ja: {
    pagesNav: "ページ", handGroup: "手牌: 牌をタップで外す", paletteGroup: "牌: タップで追加(矢印キーで移動)",
    winHow: "和了の形", winningTile: "和了牌", addTile: (k) => `${k} を追加`, removeTile: (k) => `${k} を外す`,
    removeCalled: (k) => `${k} を含む鳴いたユニットを外す`, calledWord: "鳴き", callingWord: "鳴き入力中",
    takeOut: (k) => `${k} を鳴きから外す`,
    calledUnitTitle: "鳴いたユニット: タップで外す", tilesLeft: (name, n) => `${name}: 残り ${n}`,
    skipAnswers: "答えへ移動", skipSituation: "状況へ移動",
    unreachableServer: "エラー: サーバーにつながりません(オフライン?): 答えには mj serve が動いている必要があります",
    serverError: errorJa,
    tagline: "ミリジャンの手牌に厳密な答え: h・打牌・待ち・鳴き・点数",
    navHand: "手牌", navPlay: "対局", navReview: "検討", handTitle: "手牌", answersTitle: "答え",
    welcome1: "下の牌をタップするか名前を入力して、13枚(手番の間は12枚)を入れてください。"
      + "打牌ごとに h(和了形まで替える牌の枚数。h = 1 が聴牌で、麻雀の向聴数より 1 多い)、h を下げる受け入れ(残り枚数)、和了率が表に出ます。",
    tryExample: "例を見る", gotIt: "閉じる", handLabel: "手牌", handHint: "下の牌をタップ、または名前を入力(鳴いたユニットは [ ] で)",
    clear: "クリア", order: "並び", orderTap: "入力順", orderPalette: "牌の順", paletteTitle: "牌(残り枚数つき)",
    callEnter: "鳴いたユニットを入れる", callDone: "完了: ユニットを追加", callHint: "メンバーをタップして完了",
    situation: "状況", rules: "ルール", favourite: "担当", none: "なし", seen: "見えている牌",
    seenHint: "捨て牌・他家の鳴き。Enter で反映", room: "控え室(そら用)", roomHint: "空: 聞かない",
    discardLabel: "他家の捨て牌", discardHint: "鳴きとロン。Enter で反映",
    cancel: "中止", drawsLeft: "残りツモ", sortBy: "最善の基準", replan: "再計算", score: "点数",
    tsumo: "ツモ", ronOn: "ロン", noWin: "和了なし",
    begin: "牌をタップするか手牌を入力してください。", more: (n) => `あと ${n} 枚で答えが出ます。`,
    count: (n, of) => `${n} / ${of} 枚`, tooMany: (n, of) => `${n} 枚: 手牌は ${of - 1} 枚か ${of} 枚`,
    solving: "計算中…", planning: "計算中…", cancelled: "中止しました。",
    hLine: (h, done, counts) => `h = ${h}${done ? "(和了形)" : ""} · ${counts}`,
    unreachable: "和了形に届きません", counts: (c, o, t) => `完成 ${c}・1人不足 ${o}・2人不足 ${t} ユニット`,
    discardTitle: "打牌ごと: 打牌後の h、受け入れ(残り枚数)、和了率",
    drawTitle: "次のツモ: h を下げる牌", after: (x) => `打${x} の後`, afterTitle: (x) => `打${x} の後の形`, positionTitle: "入力した形",
    colDiscard: "打牌", colH: "h", colLive: "受入枚数", colAccept: "受入牌", colWin: "和了率", colScore: "期待点",
    kinds: (k, n) => `${k} 種 ${n} 枚`, worse: (n) => `h が大きくなる打牌 ${n} 件`,
    tied: "同率最善", best: "最善", planBest: "和了率で最善",
    open: (x) => `打${x} の後を開く`, draw: (x) => `${x} をツモった後を開く`,
    waitsAfter: (x) => `打${x} の後の待ち`, waitsTitle: "待ち(ツモ / ロンの点数)",
    colWait: "待ち", dead: "0(枯れ)", noWinCell: "和了なし",
    planLine: (n, how) => `残り ${n} ツモの和了率: ${how}`,
    exact: "厳密な最適値", bounds: "最適値は二つの数の間", boundsSep: "最善の打牌は証明済み",
    boundsOverlap: "区間が重なる",
    upperEstimate: "上限の後の (≈ x): 証明できる上限が 100 % だけのとき、完全情報緩和の値を 1000 山で標本推定したもの"
      + "(P(win) と、その横の E[score])。最適値はその値以下だが、値そのものは推定: おそらくの上限であり、証明ではない。",
    estimate: (g) => `推定値(厳密でない): 打牌ごとに ${g} 山(95 % 区間)`,
    classLabel: (c) => `クラス ${c} の中で厳密`,
    scoreBound: "期待点「≥ 値」(または「下限 – 上限」): 下限は実際の打ち方(最寄りの完成形を目指すクラス nearest)の厳密な値、上限は示される場合に証明された値。期待点の最適値は時間内に終わらず、これより高いことがあります(上限まで)。",
    discardWord: "打", summaryH: (h) => `h ${h}`, summaryLive: (n) => `受入 ${n} 枚`, summaryWin: (p) => `和了率 ${p}`,
    summaryWaits: (w) => `待ち ${w}`, summaryComplete: (s, how = "tsumo") => `和了形 · ${{ tsumo: "ツモ", ron: "ロン", none: "和了なし" }[how]} ${s}`,
    summaryFix: (f) => `${f}を直してください`, summarySora: (x) => `そらで ${x}`, summaryAdd: (n) => `あと ${n} 枚`,
    turnsNeeded: "残りツモ(1–30)を入れてください",
    callsOn: (x) => `${x} への鳴き`, ronBanner: (x, s) => `${x} でロン: ${s} 点`,
    ronNoWin: (x) => `${x} で和了形になりますが、ロン和了はできません`,
    noUnit: "3人以上のユニットで鳴けません。", colUnit: "ユニット", colThen: "その後の打牌",
    colHAfter: "鳴き後の h", colVerdict: "判定", lowers: "h が下がる", mistake: "悪手: h が下がらない",
    callableTitle: "どの捨て牌で: ロン、またはユニットへの鳴き", colTile: "牌", colRon: "ロン",
    noCallable: "ロンも h が下がる鳴きもありません。",
    callsNoGain: (n) => `鳴けるが h が下がらない牌 ${n} 種`,
    soraNow: (x, a, b) => `今そらを使う: ${x} を取る(h ${a} → ${b})。`, soraKeep: (h) => `そらは温存: 控え室に h を下げる牌なし(今 h ${h})。`,
    exchangesTitle: (n, cut) => `最適な入れ替え(${n}${cut ? "+、一部のみ" : ""})`, drawWord: "ツモ",
    reaches: "到達", presentTitle: "手牌にあるユニット", complete: "完成", oneShort: "1人不足", twoShort: "2人不足",
    colMembers: "メンバー", colNeeds: "不足",
    ruleAbout: (name, text) => RULE_ABOUT_JA[name] ?? text,
    winBy: (w) => `${({ tsumo: "ツモ", ron: "ロン" })[w] ?? w}で和了`, notWinTitle: "和了していない手: 最高のユニット", notWin: (r) => `和了ではない: ${notWinJa(r)}`,
    twelveNote: "和了には13枚が要ります。点数は上の待ちの表に。", noNoWin: (r) => `ルール ${r} では和了しなかった手に点数はありません。`,
    colPoints: "点", colWhy: "内訳", bonus: "担当ボーナス", leftover: "ユニット外", leftoverWhy: "余り: 0 点",
    total: "合計", linkProblem: (p) => `このリンクの一部が読めませんでした: ${p}。`,
    unknownParam: (k) => `不明なパラメータ ${k}`, unknownValue: (k, v) => `${k}=${v} は不明`,
    ronNotHeld: (x, y) => `ron=${x} は手牌にない(${y} で計算)`,
    whySteps: (w) => `${w.size}人${w.minus.map((m) => ` − 1(${{ no_win: "和了なし", called: "鳴き", ron: "ロン牌を含む" }[m]})`).join("")}`
      + `${w.minus.length ? ` = ${w.n}` : ""}: max(${w.min_points}, ${w.member_points} × (${w.n} − 1)) = ${w.base}`
      + `${w.half !== null ? `; 鳴き: 半分 = ${w.half}` : ""}${w.double !== null ? `; 担当を含む: × 2 = ${w.double}` : ""}`,
    flagCalled: "鳴き", flagRon: "ロン牌", flagSora: (x) => `そらを ${x} として`, bonusWhy: (x) => `${x} がユニットにいる`,
    calledTitle: (u) => `鳴き: ${u}`,
  },
};

let language = "en";

function t(key, ...args) {
  const word = WORDS[language][key] ?? WORDS.en[key];
  return typeof word === "function" ? word(...args) : word ?? key;
}

function chooseLanguage(asked) {
  const saved = (() => { try { return localStorage.getItem("mj-lang"); } catch { return null; } })();
  const wanted = asked || saved || (navigator.language || "en").slice(0, 2);
  setLanguage(wanted in WORDS ? wanted : "en", false);
}

function setLanguage(code, remember = true) {
  language = code;
  document.documentElement.lang = code;
  if (remember) { try { localStorage.setItem("mj-lang", code); } catch { /* private mode: not kept */ } }
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of document.querySelectorAll("[data-placeholder]")) node.placeholder = t(node.dataset.placeholder);
  for (const node of document.querySelectorAll("[data-i18n-label]")) node.setAttribute("aria-label", t(node.dataset.i18nLabel));
  const toggle = document.getElementById("lang-toggle");
  if (toggle) {  // the button names the other language in that language
    toggle.textContent = code === "ja" ? "English" : "日本語";
    toggle.lang = code === "ja" ? "en" : "ja";
  }
}
