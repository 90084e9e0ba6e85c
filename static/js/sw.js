// The service worker: served by views/offline.py at the app's root (so it controls every
// page), with self.ANOTADOR (this release, the offline page, the static folder...) set on its
// first line. Pages are network-first with the last copy as the fallback; static files are
// cache-first (a new release of them is a new worker, which drops the old copies); the engine's
// files (Pyodide, its worker, the rules) are cached in the background when a page asks
// (static/js/offline.js), in a cache of their own: kept across releases of the other files.
// Pages are per account: each response says whose it is (CONFIG.header); a page of another
// account, or a sign-out, drops every cached page.
"use strict";

var CONFIG = self.ANOTADOR;
var STATIC = "anotador-static-" + CONFIG.release;
var ENGINE = "anotador-engine-" + CONFIG.engine;
var PAGES = "anotador-pages-";
// The matches whose planilla and hand form stay on the phone, the most recently opened first.
var RECENT_MATCHES = 12;
var OPENED_AT = "X-Anotador-Opened";

function scope(path) {
  return new URL(path, self.registration.scope).pathname;
}

// What a page of the app is, from its path: the home page, a planilla, a new-hand form.
function pageKind(url) {
  var root = scope(CONFIG.root);
  if (url.pathname === root) return { kind: "home" };
  if (url.pathname === scope(CONFIG.offline)) return { kind: "offline" };
  var rest = url.pathname.slice(root.length);
  var found = /^partidas\/(\d+)(\/manos\/nueva)?$/.exec(rest);
  if (!url.pathname.startsWith(root) || !found) return null;
  return { kind: found[2] ? "form" : "planilla", match: found[1] };
}

function pagesCaches() {
  return caches.keys().then(function (names) {
    return names.filter(function (name) { return name.startsWith(PAGES); });
  });
}

// The cache of the account ``tag``; every other account's cached pages are dropped first.
// A new one gets its own copy of the offline page (it shows whose phone it is).
function pagesOf(tag, kind) {
  var mine = PAGES + tag;
  return pagesCaches().then(function (names) {
    var fresh = names.indexOf(mine) < 0;
    return Promise.all(names.filter(function (name) { return name !== mine; }).map(function (name) {
      return caches.delete(name);
    })).then(function () {
      if (fresh && !(kind && kind.kind === "offline")) keepPage(scope(CONFIG.offline));
      return caches.open(mine);
    });
  });
}

function currentPages() {
  return pagesCaches().then(function (names) { return names.length ? caches.open(names[0]) : null; });
}

function dropPages() {
  return pagesCaches().then(function (names) {
    return Promise.all(names.map(function (name) { return caches.delete(name); }));
  });
}

// A copy worth keeping: without the one-time messages ("Hand 3 saved.") the page showed.
function keep(cache, request, response) {
  return response.text().then(function (html) {
    var headers = new Headers(response.headers);
    headers.set(OPENED_AT, String(Date.now()));
    var body = html.replace(/<ul class="flashes">[\s\S]*?<\/ul>/, "");
    return cache.put(request, new Response(body, { status: response.status, headers: headers }));
  }).then(function () { return forgetOldMatches(cache); });
}

function forgetOldMatches(cache) {
  return cache.keys().then(function (requests) {
    return Promise.all(requests.map(function (request) {
      return cache.match(request).then(function (response) {
        var kind = pageKind(new URL(request.url));
        return { request: request, match: kind && kind.match, at: Number(response.headers.get(OPENED_AT)) };
      });
    }));
  }).then(function (entries) {
    var latest = {};
    entries.forEach(function (entry) {
      if (entry.match) latest[entry.match] = Math.max(latest[entry.match] || 0, entry.at);
    });
    var old = Object.keys(latest).sort(function (a, b) { return latest[b] - latest[a]; }).slice(RECENT_MATCHES);
    return Promise.all(entries.filter(function (entry) { return old.indexOf(entry.match) >= 0; })
      .map(function (entry) { return cache.delete(entry.request); }));
  });
}

function store(request, response) {
  var tag = response.headers.get(CONFIG.header);
  var kind = pageKind(new URL(request.url));
  if (!tag || !response.ok || response.redirected) return Promise.resolve();
  return pagesOf(tag, kind).then(function (cache) {
    return kind ? keep(cache, request, response) : null;
  });
}

function offlinePage() {
  return currentPages().then(function (cache) {
    return cache && cache.match(scope(CONFIG.offline));
  }).then(function (found) {
    return found || new Response("", { status: 503, statusText: "Offline" });
  });
}

function kept(request) {
  return currentPages().then(function (cache) {
    return cache && cache.match(request, { ignoreSearch: true });
  });
}

function page(event) {
  var request = event.request;
  return fetch(request).then(function (response) {
    // The server is there but cannot read its database (503): the page this phone kept is of
    // more use at the table than the error, which shows when there is none.
    if (response.status === 503) {
      return kept(request).then(function (found) { return found || response; });
    }
    event.waitUntil(store(request, response.clone()));
    return response;
  }, function () {
    return kept(request).then(function (found) { return found || offlinePage(); });
  });
}

function isEngineFile(url) {
  return url.pathname.startsWith(scope(CONFIG.static) + "vendor/");
}

function staticFile(request) {
  return caches.match(request, { cacheName: ENGINE }).then(function (found) {
    return found || caches.match(request, { cacheName: STATIC });
  }).then(function (found) {
    if (found) return found;
    return fetch(request).then(function (response) {
      if (response.ok && !isEngineFile(new URL(request.url))) {
        var copy = response.clone();
        caches.open(STATIC).then(function (cache) { cache.put(request, copy); });
      }
      return response;
    });
  });
}

// The manifest is in the page's language: the last one fetched, without a connection.
function manifest(request) {
  return fetch(request).then(function (response) {
    var copy = response.clone();
    if (response.ok) caches.open(STATIC).then(function (cache) { cache.put(request, copy); });
    return response;
  }, function () {
    return caches.match(request, { cacheName: STATIC }).then(function (found) {
      return found || new Response("", { status: 503, statusText: "Offline" });
    });
  });
}

// Fetched only when missing: a page sends the list on every load.
function fill(name, urls) {
  return caches.open(name).then(function (cache) {
    return Promise.all(urls.map(function (url) {
      return cache.match(url).then(function (found) {
        if (found) return null;
        return fetch(url, { credentials: "same-origin" }).then(function (response) {
          return response.ok ? cache.put(url, response) : null;
        }).catch(function () { return null; });
      });
    })).then(function () { return cache; });
  });
}

// The engine's files of this version only (an older Pyodide's are dropped).
function fillEngine(urls) {
  var wanted = urls.map(function (url) { return new URL(url, self.registration.scope).href; });
  return fill(ENGINE, wanted).then(function (cache) {
    return cache.keys().then(function (requests) {
      return Promise.all(requests.filter(function (request) { return wanted.indexOf(request.url) < 0; })
        .map(function (request) { return cache.delete(request); }));
    });
  });
}

// A page loaded before this worker controlled it: kept like the later ones.
function keepPage(url) {
  var request = new Request(url, { credentials: "same-origin" });
  return fetch(request).then(function (response) { return store(request, response); }).catch(function () {});
}

self.addEventListener("install", function (event) {
  event.waitUntil(
    keepPage(scope(CONFIG.offline))
      .then(function () { return fill(STATIC, [CONFIG.manifest]); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return (name.startsWith("anotador-static-") || name.startsWith("anotador-engine-")) &&
        name !== STATIC && name !== ENGINE;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method !== "GET") {
    if (request.mode !== "navigate") return;
    var signingOut = url.pathname === scope(CONFIG.signOut);
    event.respondWith((signingOut ? dropPages() : Promise.resolve()).then(function () {
      return fetch(request).catch(offlinePage);
    }));
    return;
  }
  if (request.mode === "navigate") {
    event.respondWith(page(event));
  } else if (url.pathname === scope(CONFIG.manifest)) {
    event.respondWith(manifest(request));
  } else if (url.pathname.startsWith(scope(CONFIG.static))) {
    event.respondWith(staticFile(request));
  } else {
    // The engine's worker and rules live outside the static folder.
    event.respondWith(caches.match(request, { cacheName: ENGINE }).then(function (found) {
      return found || fetch(request);
    }));
  }
});

self.addEventListener("message", function (event) {
  var message = event.data || {};
  var urls = (message.urls || []).filter(function (url) {
    return new URL(url, self.registration.scope).origin === self.location.origin;
  });
  if (message.type === "assets") event.waitUntil(fill(STATIC, urls));
  else if (message.type === "engine") event.waitUntil(fillEngine(urls));
  // A page, or a match's pages when it changed (offline.js): kept as the server has them now.
  else if (message.type === "page") event.waitUntil(Promise.all(urls.map(keepPage)));
});
