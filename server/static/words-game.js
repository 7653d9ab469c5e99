// mj serve: the words of /play and /review (and the narration of a game's events) in English and Japanese.
// Loaded after i18n.js, whose t() and language toggle they use.
"use strict";

// English narration: the human's seat is "you" (t("youName")), which takes "you draw", "your room"
function verb(who, word) { return who === "you" ? word : `${word}s`; }
function whose(who) { return who === "you" ? "your" : `${who}'s`; }

Object.assign(WORDS.en, {
  myHand: "Your hand", movesSoFar: "Moves so far",
  skipTable: "Skip to the table", skipGame: "Skip to the game", playTitle: "mj · play", reviewTitle: "mj · review",
  setupTitle: "A game against COMs",
  setupHint: "You are seat 0 and draw first. The COMs are the game engine's (docs/game.md): greedy (least h, then most "
    + "live tiles), seed000 (seed 000's steps as written), random, planner (mj plan's choice, slower), planner-clock (mj plan's default answer on a clock, slowest).",
  seedLabel: "Seed", rulesLabel: "Rule set", seedRandom: "random", start: "Start", noCom: "(none)", tableTitle: "The table",
  yourHand: "Your hand", moves: "Moves", gameOverTitle: "Game over", downloadLog: "Download the log",
  reviewGame: "Review this game", newGame: "New game", thinking: "the COMs are thinking…",
  gameGone: "This game is no longer on the server (it restarted, or the game ended long ago). Start a new one:",
  gameReplaced: "This game made room for a newer one started from this device (4 games in progress at most, the one "
    + "left alone longest goes). Start a new one:",
  moveRefused: "That move is not possible any more: the game has moved on (in another tab?). Here it is now.",
  offline: "The server cannot be reached: trying again…",
  wallLine: (w, d) => `${w} tiles left in the wall · you have ${d} draw(s) left`, you: "You",
  seatLine: (s, n) => `seat ${s} · ${n} tiles · favourite `, favouriteOf: (x) => `favourite ${x}`,
  justDrawn: "just drawn", discardThis: (x) => `discard ${x}`,
  tsumoWin: (x) => `Tsumo: win with ${x}`, ronWin: (x) => `Ron: win on ${x}`,
  callInto: (x, u, w) => `Call ${x} into ${u} (with ${w})`, soraTake: (x, whose) => `そら: take ${x} from ${whose} room`,
  yourRoom: "your", theirRoom: (n) => `${n}'s`, pass: "Pass",
  promptDiscard: "Your turn: tap a tile to discard it", promptSora: "Before your draw: use そら, or draw (Pass)",
  promptClaim: (n, x) => `${n} discarded ${x}: call, win or pass`, aCom: "a COM", stopped: "The game stopped.",
  top: " (top)", didNotWin: "did not win", wonBy: (w) => `won by ${w}`,
  logTitle: "A game log", pickLog: "Pick a log written by mj play --log or downloaded from /play, or drop it here",
  stepTitle: "Step through the game", gradingTitle: "Decisions of one seat", seatWord: "Seat",
  secondsLabel: "Seconds a decision", reviewButton: "Review these decisions",
  stepCount: (n, of) => `event ${n} of ${of}:`, nextWord: "next: ", nextAt: (n) => `next (#${n}): `, bestWord: "best: ", sameWord: " (as good)",
  firstEvent: "First event", prevEvent: "Previous event", nextEvent: "Next event", lastEvent: "Last event",
  eventWord: "Event", lossWord: (x) => `loss ${x}`, provedWord: (lo, hi) => `proved ${lo}–${hi}`, chosenWord: "chosen: ", beforeDeal: "before the deal", wallLeft: (w) => `${w} tiles left in the wall`,
  favouriteWord: "favourite ", missedWin: "a win was missed",
  actDiscard: (x) => `discard ${x}`, actSora: (x) => `そら: take ${x}`, actCall: (x, u) => `call ${x} into ${u}`,
  actWin: (x) => `win on ${x}`, actPass: "pass", actDraw: "draw",
  reviewSummary: (n, m, rate, lost, proved) => `${n} decisions, ${m} as the best (${rate} %), P(win) lost in all, by the values graded: ${lost} (proved against the optimum: ${proved})`,
  byWin: (n) => ` (over the ${n} decisions graded by P(win))`, missedWins: (n) => `, ${n} win(s) missed`,
  clockedWord: "cut by the clock (another run may grade it otherwise)", howMore: "how it was valued",
  clockedNote: (n) => `, ${n} graded within a clock that cut a step (another run, or more seconds, may grade them otherwise)`,
  skippedNote: (n) => `; ${n} decision(s) not the player's (a claim another seat's claim overrode, or the fallback COM's after a fault)`,
  heads: ["event", "type", "chosen", "best", "loss", "how"], liveWord: (n) => `${n} live`,
  evStart: (names) => `${names.join(" vs ")}: the game begins`, evDeal: (w) => `the deal: ${w} ${verb(w, "draw")} first`,
  evDraw: (w) => `${w} ${verb(w, "draw")}`, evDrew: (w, x) => `${w} ${verb(w, "draw")} ${x}`,
  evDiscard: (w, x) => `${w} ${verb(w, "discard")} ${x}`,
  evSora: (w, x, t) => `${w} ${verb(w, "send")} そら and ${verb(w, "take")} ${x} from ${whose(t)} room`,
  evCall: (w, x, u, c) => `${w} ${verb(w, "call")} ${x} into ${u} (with ${c})`,
  evTsumo: (w, x, s) => `${w} ${verb(w, "win")} by tsumo on ${x}: ${s}`,
  evRon: (w, t, x, s) => `${w} ${verb(w, "win")} by ron on ${whose(t)} ${x}: ${s}`, evDrawn: "exhaustive draw: the wall is empty",
  evEnd: (list) => `scores: ${list}`, evError: (w, r) => `${w}: ${r} (the fallback COM decided)`,
  evDropped: (w, r) => `${w}: ${r} (its answer stood)`,
  evCrashed: (w, r) => `${w}: ${r} (the fallback COM plays the seat to the end)`, seatN: (n) => `seat ${n}`,
  roomWord: "room", emptyWord: "empty", noScore: "no score under this rule set for a hand that did not win",
  youName: "you", reviewing: "reviewing…", secondsSoFar: (s) => `${s} s`,
  rowShows: "Enter: the position before this decision", winWord: "P(win)", scoreWord: "E",
  decisionType: (k) => k, methodWord: (m) => m,
});

Object.assign(WORDS.ja, {
  myHand: "あなたの手牌", movesSoFar: "これまでの手",
  skipTable: "卓へ移動", skipGame: "対局へ移動", playTitle: "mj · 対局", reviewTitle: "mj · 検討",
  setupTitle: "COM との対局",
  setupHint: "あなたは席 0 で最初にツモります。COM はゲームエンジンのもの(docs/game.md): greedy(h 最小、次に受け入れ最大)、"
    + "seed000(seed 000 の手順どおり)、random、planner(mj plan の選択、遅め)、planner-clock(時間制限つきの mj plan の既定の答え、最も遅い)。",
  seedLabel: "シード", rulesLabel: "ルール", seedRandom: "ランダム", start: "開始", noCom: "(なし)", tableTitle: "卓",
  yourHand: "あなたの手牌", moves: "経過", gameOverTitle: "終局", downloadLog: "牌譜をダウンロード",
  reviewGame: "この対局を検討", newGame: "新しい対局", thinking: "COM が考え中…",
  gameGone: "この対局はもうサーバーにありません(再起動したか、だいぶ前に終わった対局です)。新しく始めてください:",
  gameReplaced: "この端末から新しい対局が始まったため、この対局は終了しました(同時に4局まで、最も長く放置された対局から)。"
    + "新しく始めてください:",
  moveRefused: "その手はもう打てません: 対局が進んでいます(別のタブで?)。今の局面を表示します。",
  offline: "サーバーにつながりません: 再接続しています…",
  wallLine: (w, d) => `山の残り ${w} 枚 · あなたの残りツモ ${d} 回`, you: "あなた",
  seatLine: (s, n) => `席 ${s} · ${n} 枚 · 担当 `, favouriteOf: (x) => `担当 ${x}`,
  justDrawn: "ツモ牌", discardThis: (x) => `${x} を打つ`,
  tsumoWin: (x) => `ツモ: ${x} で和了`, ronWin: (x) => `ロン: ${x} で和了`,
  callInto: (x, u, w) => `鳴き: ${x} を ${u} に(${w} と)`, soraTake: (x, whose) => `そら: ${whose}控え室から ${x} を取る`,
  yourRoom: "自分の", theirRoom: (n) => `${n} の`, pass: "パス",
  promptDiscard: "あなたの番: 打つ牌をタップ", promptSora: "ツモの前に: そらを使うか、ツモ(パス)",
  promptClaim: (n, x) => `${n} が ${x} を打牌: 鳴き・ロン・パス`, aCom: "COM", stopped: "対局が止まりました。",
  top: "(トップ)", didNotWin: "和了なし", wonBy: (w) => `${w === "tsumo" ? "ツモ" : "ロン"}で和了`,
  logTitle: "牌譜", pickLog: "mj play --log で書いた牌譜か /play でダウンロードした牌譜を選ぶか、ここにドロップ",
  stepTitle: "対局を一手ずつ", gradingTitle: "一席の判断", seatWord: "席", secondsLabel: "一判断あたりの秒数",
  reviewButton: "判断を検討", stepCount: (n, of) => `${of} 手中 ${n} 手目:`, nextWord: "次: ", nextAt: (n) => `次 (#${n}): `, bestWord: "最善: ",
  soloModel: "一人モデル: 和了率はこの席が残りのツモで引く牌だけで数える。山はこの席から見えていない牌すべて、どれも同じ確からしさ。"
    + "相手は考えない(この席の捨て牌へのロン、他家の鳴きや和了はない)",
  firstEvent: "最初の手", prevEvent: "前の手", nextEvent: "次の手", lastEvent: "最後の手", eventWord: "手",
  sameWord: "(同等)", lossWord: (x) => `損失 ${x}`, provedWord: (lo, hi) => `証明 ${lo}–${hi}`, chosenWord: "選択: ",
  beforeDeal: "配牌前", wallLeft: (w) => `山の残り ${w} 枚`,
  favouriteWord: "担当 ", missedWin: "和了を逃した",
  actDiscard: (x) => `打${x}`, actSora: (x) => `そら: ${x} を取る`, actCall: (x, u) => `${x} を ${u} に鳴く`,
  actWin: (x) => `${x} で和了`, actPass: "パス", actDraw: "ツモ",
  reviewSummary: (n, m, rate, lost, proved) => `判断 ${n} 回、最善と一致 ${m} 回(${rate} %)、失った和了率の合計(評価値による) ${lost}(最善に対して証明済み: ${proved})`,
  byWin: (n) => `(和了率で採点した ${n} 回について)`, missedWins: (n) => `、和了見逃し ${n} 回`,
  clockedWord: "時間切れで打ち切り(別の実行では採点が変わりうる)", howMore: "評価の方法",
  clockedNote: (n) => `、時間切れで打ち切った採点 ${n} 回(別の実行や長い時間では変わりうる)`,
  skippedNote: (n) => `、本人の判断でないもの ${n} 回(他家の鳴きが優先、または不具合後に代わりの COM が判断)`,
  heads: ["手", "種類", "選択", "最善", "損失", "方法"], liveWord: (n) => `受入 ${n} 枚`,
  evStart: (names) => `${names.join(" 対 ")}: 対局開始`, evDeal: (w) => `配牌: ${w} が最初にツモ`,
  evDraw: (w) => `${w}: ツモ`, evDrew: (w, x) => `${w}: ${x} をツモ`, evDiscard: (w, x) => `${w}: 打${x}`,
  evSora: (w, x, t) => `${w} そらで ${t} の控え室から ${x} を取る`,
  evCall: (w, x, u, c) => `${w} ${x} を ${u} に鳴く(${c} と)`, evTsumo: (w, x, s) => `${w} が ${x} でツモ和了: ${s}`,
  evRon: (w, t, x, s) => `${w} が ${t} の ${x} でロン和了: ${s}`, evDrawn: "流局: 山が尽きた",
  evEnd: (list) => `点数: ${list}`, evError: (w, r) => `${w}: ${r}(代わりの COM が判断)`,
  evDropped: (w, r) => `${w}: ${r}(その応答はそのまま有効)`,
  evCrashed: (w, r) => `${w}: ${r}(以後は代わりの COM が最後まで打つ)`, seatN: (n) => `席 ${n}`,
  roomWord: "控え室", emptyWord: "空", noScore: "このルールでは和了しなかった手に点数なし",
  youName: "あなた", reviewing: "検討中…", secondsSoFar: (s) => `${s} 秒`,
  rowShows: "Enter: この判断の前の局面", winWord: "和了率", scoreWord: "期待点",
  decisionType: (k) => ({ discard: "打牌", claim: "鳴き・ロン", sora: "そら" })[k] ?? k,
  methodWord: (m) => ({ optimal: "最適", bounds: "上下限", estimate: "推定", h: "h" })[m] ?? m,
});

// The header's language button on /play and /review: static words change at once, later ones in the new language.
function wireLanguage(redraw = () => {}) {
  chooseLanguage(new URLSearchParams(location.search).get("lang"));
  const toggle = document.getElementById("lang-toggle");
  if (toggle) toggle.addEventListener("click", () => { setLanguage(language === "ja" ? "en" : "ja"); redraw(); });
}
