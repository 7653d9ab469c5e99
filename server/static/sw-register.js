// Registers the service worker (/sw.js, scope /) that keeps the pages for offline use
// (docs/web.md, "Theme, icon, offline").
"use strict";
if ("serviceWorker" in navigator) {
  // A page opened under an older worker may have got this version's HTML with the older version's files (files
  // come from the cache first). When the newer worker takes over while the page is still opening, reload once;
  // later (a game under way) the page keeps what it has and the next visit is the new version.
  const olderWorker = Boolean(navigator.serviceWorker.controller);
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    const last = Number(sessionStorage.getItem("mj-reloaded-for-update") || 0);
    if (olderWorker && performance.now() < 20000 && Date.now() - last > 60000) {
      sessionStorage.setItem("mj-reloaded-for-update", String(Date.now()));
      location.reload();
    }
  });
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js", { scope: "/" })
      .catch((error) => console.warn("mj: the pages will not open offline:", error));
  });
}
