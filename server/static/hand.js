// mj serve, the hand page: entering a hand (palette, hand tiles, called units). Counting copies is arithmetic on
// what the server parsed; whether a hand is legal is the server's answer (/api/hand).
"use strict";

const COPIES = 3;  // physical copies of every kind, そら included (D3 in docs/formulation.md)
const Hand = {
  tiles: [],      // concealed tile ids in the order shown
  called: [],     // called units: lists of member ids
  pending: null,  // a called unit being entered (ids), or null
  seen: [],       // ids parsed from the Seen tiles field: copies gone for the palette too
  palette: [],    // every idol record, in palette order
  onChange: () => {},

  text() {
    const groups = this.called.map((members) => `[${members.map(tileName).join(" ")}]`);
    return groups.concat(this.tiles.map(tileName)).join(" ");
  },
  set(tiles, called, focusAt = null) {
    this.tiles = tiles;
    this.called = called;
    $("hand-text").value = this.text();
    this.draw(focusAt);
    this.onChange();
  },
  sorted(ids) {
    const rank = new Map(this.palette.map((idol, n) => [idol.id, n]));
    return [...ids].sort((a, b) => rank.get(a) - rank.get(b));
  },
  shown() { return $("order").value === "palette" ? this.sorted(this.tiles) : this.tiles; },
  held(id) {
    const all = this.tiles.concat(...this.called, this.pending || [], this.seen);
    return all.filter((x) => x === id).length;
  },

  draw(focusAt = null) {
    const box = $("hand");
    const focused = document.activeElement;  // a redraw keeps the focus where it was in the hand
    if (focusAt === null && box.contains(focused)) focusAt = focused.dataset.at ? Number(focused.dataset.at) : 0;
    box.replaceChildren();
    this.called.forEach((members, n) => {
      const remove = () => this.set(this.tiles, this.called.filter((_, i) => i !== n), 0);
      box.append(el("span", { class: "group", title: t("calledUnitTitle") },
        el("span", { class: "group-label", text: t("calledWord") }),
        ...members.map((id) => tile(id, "button", { type: "button", "aria-label": t("removeCalled", tileName(id)),
                                                    onclick: remove }))));
    });
    const shown = this.shown();
    shown.forEach((id, n) => {
      box.append(tile(id, "button", { type: "button", "aria-label": t("removeTile", tileName(id)), "data-at": n,
        onclick: () => {
          const at = this.tiles.indexOf(id);  // one copy of this kind, wherever it sits in tap order
          this.set(this.tiles.filter((_, i) => i !== at), this.called, n);
        } }));
    });
    if (this.pending) {
      box.append(el("span", { class: "group pending" }, el("span", { class: "group-label", text: t("callingWord") }),
        ...this.pending.map((id, n) => tile(id, "button", { type: "button", "aria-label": t("takeOut", tileName(id)),
          onclick: () => { this.pending.splice(n, 1); this.draw(); this.copies(); } }))));
    }
    if (focusAt !== null) {  // focus stays in the hand after a removal: the tile now in that place, or the box
      const buttons = box.querySelectorAll("button[data-at]");
      (buttons[Math.min(focusAt, buttons.length - 1)] || box).focus();
    }
    this.copies();
  },

  // Copies left of each kind (3 − in hand, called, being called, seen): shown on the palette, 0 disables it.
  copies() {
    const buttons = [...$("palette").querySelectorAll("button.tile")];
    const focused = buttons.indexOf(document.activeElement);  // (before a last copy disables it and drops focus)
    for (const button of buttons) {
      const left = Math.max(0, COPIES - this.held(button.dataset.id));
      button.querySelector(".left").textContent = left;
      button.disabled = left === 0;
      button.setAttribute("aria-label", t("addTile", button.dataset.kind));
      button.title = t("tilesLeft", idolsByName.get(button.dataset.id)?.full_name || "", left);
    }
    // the palette's one tab stop stays on a tile that can be used; focus moves on from a tile just used up (QA)
    const stop = Math.max(0, buttons.findIndex((b) => b.tabIndex === 0));
    const moved = enabledFrom(buttons, focused >= 0 ? focused : stop, 0);
    if (moved >= 0 && (buttons[stop].disabled || focused >= 0)) {
      buttons[stop].tabIndex = -1;
      buttons[moved].tabIndex = 0;
      if (focused >= 0 && buttons[focused].disabled) buttons[moved].focus();
    }
  },
  add(id) {
    if (this.held(id) >= COPIES) return;
    if (this.pending) { this.pending.push(id); this.draw(); return; }
    this.set(this.tiles.concat([id]), this.called);
  },
  toggleCall() {
    const button = $("call-toggle");
    if (this.pending === null) {
      this.pending = [];
      button.textContent = t("callDone");
      $("call-hint").textContent = t("callHint");
    } else {
      const group = this.pending;
      this.pending = null;
      button.textContent = t("callEnter");
      $("call-hint").textContent = "";
      if (group.length) this.set(this.tiles, this.called.concat([group]));
      else this.draw();
    }
    button.setAttribute("aria-pressed", String(this.pending !== null));
  },

  drawPalette(list) {
    this.palette = list;
    const groups = new Map();
    for (const idol of list) {
      const key = ["Extra", "Sora"].includes(idol.attribute) ? "詩花 · そら" : idol.attribute;
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(idol);
    }
    const button = (idol) => {
      const node = tile(idol.id, "button", { type: "button", "data-kind": idol.name, tabindex: -1,
                                             onclick: () => this.add(idol.id) });
      node.append(el("span", { class: "left", "aria-hidden": "true" }));
      return node;
    };
    $("palette").replaceChildren(...[...groups].map(([key, members]) => el("div", { class: "palette-group" },
      el("h3", { text: key, lang: key.includes("そら") ? "ja" : "en" }),
      el("div", { class: "palette-tiles" }, ...members.map(button)))));
    const buttons = [...$("palette").querySelectorAll("button")];
    buttons[0].tabIndex = 0;
    // one tab stop for the whole palette; the arrow keys move between its tiles (a roving tabindex), past used-up
    // ones (QA: a used-up tile stopped them), Home and End to the first and last
    $("palette").addEventListener("keydown", (event) => {
      const at = buttons.indexOf(document.activeElement);
      const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
      const to = at < 0 ? -1 : step ? enabledFrom(buttons, at + step, step)
        : event.key === "Home" ? enabledFrom(buttons, 0, 1)
        : event.key === "End" ? enabledFrom(buttons, buttons.length - 1, -1) : -1;
      if (to < 0) return;
      event.preventDefault();
      buttons[at].tabIndex = -1;
      buttons[to].tabIndex = 0;
      buttons[to].focus();
    });
    this.copies();
  },
};

// The index of the first enabled button from `at` on in the direction `step` (0: forward), wrapping; -1 if none.
function enabledFrom(buttons, at, step) {
  const n = buttons.length, dir = step < 0 ? -1 : 1;
  for (let i = 0; i < n; i++) {
    const k = (((at + dir * i) % n) + n) % n;
    if (!buttons[k].disabled) return k;
  }
  return -1;
}
