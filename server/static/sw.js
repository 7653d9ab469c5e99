// mj's service worker: the pages open offline after a first visit (docs/web.md, "Theme, icon, offline").
// Served at /sw.js by server/shell.py, which puts a line before this one:
//   const BUILD = {"cache": "mj-shell-<n>-<hash of server/static/>", "shell": [every URL to keep]};
// Static files: cache first, then the network (a new version comes with a new cache name).
// The pages and the catalogue: the network first, the cache when it fails (they follow the server when it is up).
// Everything else (solving, games, logs) goes to the network only: offline, the page shows the fetch error.

const PAGES = new Set(["/", "/play", "/review"]);
const CATALOGUE = new Set(["/api/idols", "/api/rules"]);

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(BUILD.cache);
    await cache.addAll(BUILD.shell.map((url) => new Request(url, { cache: "reload" })));
    await self.skipWaiting();  // the new version takes over at once: its files are all in its cache
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("mj-") && name !== BUILD.cache) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (PAGES.has(url.pathname) || CATALOGUE.has(url.pathname)) {
    // kept under the path alone: /?hand=… and /play?seed=7 open offline too, and /api/idols? is /api/idols
    event.respondWith(networkFirst(request, url.pathname));
  } else if (url.pathname.startsWith("/static/") || url.pathname === "/favicon.ico") {
    event.respondWith(cacheFirst(request));
  }
});

async function networkFirst(request, key) {
  const cache = await caches.open(BUILD.cache);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(key, response.clone());
    return response;
  } catch (offline) {
    const kept = await cache.match(key);
    if (kept) return kept;
    throw offline;
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(BUILD.cache);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}
