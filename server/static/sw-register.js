// Registers the service worker (/sw.js, scope /) that keeps the pages for offline use (docs/web.md, "Offline").
"use strict";
if ("serviceWorker" in navigator) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js", { scope: "/" })
      .catch((error) => console.warn("mj: the pages will not open offline:", error));
  });
}
