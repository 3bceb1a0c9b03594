// dicehall's service worker (docs/web.md, "Installable app"). The build (web/pwa/plugin.mjs) puts the list of files
// to keep and a version made from their names in place of the two names below; a new build is a new worker.
const PRECACHE = self.__DICEHALL_PRECACHE__;
const VERSION = self.__DICEHALL_VERSION__;
const CACHE = `dicehall-${VERSION}`;
const MY_GAMES = "dicehall-my-games"; // the last "Your games" answer, for the offline page (kept across versions)
const OFFLINE = "/offline.html";

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n !== CACHE && n !== MY_GAMES).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // Pages come from the network (the server names the current scripts); without it, the offline page.
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE, { cacheName: CACHE })));
  } else if (url.pathname.startsWith("/assets/")) {
    // Named by their content: what is kept never changes; what was not kept at install is kept on first use.
    event.respondWith(
      caches.match(request, { cacheName: CACHE }).then(
        (kept) =>
          kept ??
          fetch(request).then((response) => {
            if (response.ok) {
              const copy = response.clone();
              caches.open(CACHE).then((cache) => cache.put(request, copy));
            }
            return response;
          }),
      ),
    );
  } else if (url.pathname === "/api/me/games") {
    // Always asked of the server; a copy of the first page is what the offline page lists.
    event.respondWith(
      fetch(request).then((response) => {
        if (response.ok && !url.searchParams.has("before")) {
          const copy = response.clone();
          caches.open(MY_GAMES).then((cache) => cache.put("/api/me/games", copy));
        }
        return response;
      }),
    );
  } else if (PRECACHE.includes(url.pathname)) {
    event.respondWith(caches.match(url.pathname, { cacheName: CACHE }).then((kept) => kept ?? fetch(request)));
  }
});

// Web Push (docs/web.md, "Notifications"): the server sends {title, body, url, tag} encrypted for this browser.
self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : "" };
  }
  const title = typeof data.title === "string" && data.title ? data.title : "dicehall";
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof data.body === "string" ? data.body : "",
      tag: typeof data.tag === "string" ? data.tag : undefined,
      icon: "/icon-192.png",
      badge: "/icon-192.png",
      data: { url: typeof data.url === "string" && data.url.startsWith("/") ? data.url : "/" },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url ?? "/", self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((w) => w.url === target);
      if (open) return open.focus();
      return self.clients.openWindow(target);
    }),
  );
});
