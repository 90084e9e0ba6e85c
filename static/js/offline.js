// Scoring without a connection: registers the service worker (static/js/sw.js), keeps the
// outbox of hands saved without a connection and sends it, in order, when the signal returns.
// The words come with the page (data-words on this script), so it speaks the page's language
// offline. Queued hands live in localStorage: they outlive a closed tab or a killed browser.
(function () {
  "use strict";
  var script = document.currentScript;
  var words = JSON.parse(script.dataset.words);
  var OUTBOX = "anotador.outbox";
  var DOCUMENTS = "anotador.documents";
  var CHECKED = "anotador.checked";
  var USED_KEYS = "anotador.used-keys";
  var KEPT_KEYS = 200;
  var RETRY_MS = 20000;
  // A copy of the match file the server has not confirmed for longer than this may be behind:
  // the hands scored on it are provisional (live.js confirms it about once a second).
  var FRESH_MS = 10000;

  function read(name, fallback) {
    try {
      return JSON.parse(window.localStorage.getItem(name)) || fallback;
    } catch (error) {
      return fallback;
    }
  }

  function write(name, value) {
    window.localStorage.setItem(name, JSON.stringify(value));
  }

  function entries() { return read(OUTBOX, []); }

  function ofMatch(match) {
    return entries().filter(function (entry) { return entry.match === match; });
  }

  function update(change) {
    var all = entries();
    change(all);
    write(OUTBOX, all);
  }

  function newKey() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }

  function used(key) { return read(USED_KEYS, []).indexOf(key) >= 0; }

  function markUsed(key) {
    write(USED_KEYS, read(USED_KEYS, []).concat([key]).slice(-KEPT_KEYS));
  }

  // A score as the page writes it: "3.460" (es, it), "3,460" (en), a real minus, "+" if asked.
  function points(value, signed) {
    var text = String(Math.abs(value)).replace(/\B(?=(\d{3})+(?!\d))/g, words.thousands);
    if (value < 0) return words.minus + text;
    return (signed && value > 0 ? "+" : "") + text;
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function alertBefore(target, message) {
    var old = document.getElementById("offline-alert");
    if (old) old.remove();
    var box = element("div", "alert");
    box.id = "offline-alert";
    box.setAttribute("role", "alert");
    box.appendChild(element("p", "", message));
    target.parentNode.insertBefore(box, target);
    box.scrollIntoView({ block: "center" });
  }

  // The service worker, and what it should keep: this page's own files (their URLs as the
  // page has them), this page when it was not yet controlled, and, never on a first visit,
  // the engine's files in the background.
  function worker() {
    if (!("serviceWorker" in navigator)) return;
    var controlled = Boolean(navigator.serviceWorker.controller);
    navigator.serviceWorker.register(script.dataset.worker).catch(function () {});
    navigator.serviceWorker.ready.then(function (registration) {
      var active = registration.active;
      var urls = Array.prototype.map.call(
        document.querySelectorAll("link[rel=stylesheet][href], link[rel=icon][href], link[rel=manifest][href], script[src]"),
        function (node) { return node.href || node.src; }
      );
      active.postMessage({ type: "assets", urls: urls });
      if (!controlled) active.postMessage({ type: "page", urls: [window.location.href] });
      var idle = window.requestIdleCallback || function (callback) { return setTimeout(callback, 2000); };
      if (controlled && window.anotadorEngine) {
        idle(function () { active.postMessage({ type: "engine", urls: window.anotadorEngine.assetUrls() }); });
      }
    }).catch(function () {});
  }

  // The hand form: a match-file hand object from the inputs, by the map the server gave
  // (views/offline.py offline_hand), the same reading as HandForm.to_hand.
  function integer(raw) {
    var text = raw.replace(/[\s\u00a0\u2009\u202f]+/g, "").replace("\u2212", "-");
    if (/^[+-]?[0-9]{1,3}(?:\.[0-9]{3})+$/.test(text)) text = text.replace(/\./g, "");
    if (!/^[+-]?[0-9]{1,12}$/.test(text)) throw new Error(words.notANumber);
    return parseInt(text, 10);
  }

  function value(field, raw) {
    if (field.type === "flag") return raw !== null;
    if (raw === null) return null;
    if (field.type === "count" || field.type === "points" || field.type === "signed_points") {
      return raw.trim() ? integer(raw) : null;
    }
    return field.type === "text" ? raw.trim() : raw;
  }

  function toHand(form, info) {
    var data = new FormData(form);
    var sides = info.document.sides.map(function () { return {}; });
    var hand = {};
    var special = false;
    var problem = null;
    Object.keys(info.fields).forEach(function (name) {
      var field = info.fields[name];
      if (field.type === "closer") return;
      var found;
      try {
        found = value(field, data.get(name));
      } catch (error) {
        problem = problem || { field: name, message: error.message };
        return;
      }
      if (found === null || found === "" || found === false) return;
      if (field.special) special = true;
      if (field.side === undefined) hand[field.path] = found;
      else sides[field.side][field.path] = found;
    });
    var closer = data.get("closer");
    if (problem) return { problem: problem };
    if (closer === null) return { problem: { field: "closer", message: words.chooseCloser } };
    var end = info.fields.closer.end;
    if (end && (closer === "special" || special)) {
      hand.end = end;
      hand.closer = null;
    } else {
      hand.end = closer === "none" ? "stock_out" : "closed";
      hand.closer = closer === "none" ? null : parseInt(closer, 10);
    }
    hand.sides = sides;
    return { hand: hand };
  }

  // The phone's copy of each match file it scores (DOCUMENTS: match -> {document, version}),
  // the one the hand form, the preview and the pending rows score from: the latest the phone
  // has seen, from a page or the server. CHECKED (match -> {version, at}, small: written on
  // every live poll) says when the server last said which version was the match's current
  // one (a page never does: it may be a copy kept offline).
  function keepDocument(match, document, version, fromServer) {
    var documents = read(DOCUMENTS, {});
    var known = documents[match];
    if (known && known.version > version) return;
    documents[match] = { document: document, version: version };
    write(DOCUMENTS, documents);
    if (fromServer) confirmed(match, version);
  }

  // The match file as the server has it now (with a CSRF token for the outbox), kept as the
  // phone's copy; undefined when it cannot be read (offline, no longer allowed).
  var refreshing = {};
  function refreshDocument(match, url) {
    if (refreshing[match]) return refreshing[match];
    refreshing[match] = fetch(url, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (!response.ok || response.redirected) return undefined;
        return response.json().then(function (state) {
          keepDocument(match, state.document, state.version, true);
          return state;
        });
      })
      .catch(function () { return undefined; })
      .then(function (state) {
        delete refreshing[match];
        return state;
      });
    return refreshing[match];
  }

  // The server says ``version`` is the match's: noted; false when the copy is not that one.
  function confirmed(match, version) {
    var checked = read(CHECKED, {});
    var known = checked[match];
    if (!known || known.version !== version) {
      var copy = read(DOCUMENTS, {})[match];
      if (!copy || copy.version !== version) return false;
    }
    checked[match] = { version: version, at: Date.now() };
    write(CHECKED, checked);
    return true;
  }

  // Since when the copy is known to be current (0: never), and whether the phone may be
  // behind the match without knowing it.
  function checkedAt(match) {
    var known = read(DOCUMENTS, {})[match];
    var checked = read(CHECKED, {})[match];
    return known && checked && checked.version === known.version ? checked.at : 0;
  }

  function provisional(match) {
    return Date.now() - checkedAt(match) > FRESH_MS;
  }

  // A page following a match live (live.js) of a phone that scores it: every version the
  // server reports refreshes the phone's copy, and the pages the service worker keeps of it
  // (the planilla and the new-hand form), so that what is scored offline starts from the
  // latest state the phone has seen; the page's own version counts too.
  function followLive() {
    var live = document.getElementById("live");
    if (!live || !live.dataset.outbox) return;
    var found = /\/partidas\/(\d+)/.exec(live.dataset.planilla || "");
    if (!found) return;
    var match = parseInt(found[1], 10);
    function follow(version, fromServer) {
      if (isNaN(version)) return;
      if (fromServer && confirmed(match, version)) return;
      var known = read(DOCUMENTS, {})[match];
      if (known && known.version >= version) return;
      refreshDocument(match, live.dataset.outbox).then(function (state) {
        if (state) keepPages([live.dataset.planilla, live.dataset.newHand]);
      });
    }
    follow(parseInt(live.dataset.version, 10), false);
    document.addEventListener("anotador:live", function (event) {
      follow(parseInt(event.detail.version, 10), true);
    });
  }

  function keepPages(urls) {
    if (!("serviceWorker" in navigator) || !navigator.serviceWorker.controller) return;
    navigator.serviceWorker.controller.postMessage({ type: "page", urls: urls.filter(Boolean) });
  }

  // The figures of the preview shown for the hand being queued, when they count the hands
  // the engine would (the server's know none of those waiting): its scores, totals and
  // opening minimums, shown on its pending row by a phone whose engine cannot start.
  function keptFigures(counted) {
    var shown = window.anotadorHand && window.anotadorHand.figures();
    if (!shown || (shown.queued || 0) !== counted) return null;
    return {
      sides: shown.sides.map(function (side) { return { score: side.score, total: side.total }; }),
      totals: shown.sides.map(function (side) { return side.total; }),
      opening_minimum: shown.sides.map(function (side) { return side.minimum; })
    };
  }

  function queue(form, info, hand) {
    var keyInput = form.querySelector('input[name="request_key"]');
    var documents = read(DOCUMENTS, {});
    var base = documents[info.match] ? documents[info.match].document : info.document;
    var counted = ofMatch(info.match).filter(function (entry) { return entry.state !== "refused"; });
    var figures = keptFigures(counted.length);
    update(function (all) {
      var waiting = all.filter(function (entry) { return entry.match === info.match; });
      all.push({
        match: info.match,
        send: info.send,
        planilla: info.planilla,
        account: info.account,
        key: keyInput.value,
        // After the last hand the phone knows (its copy) and its own waiting ones.
        number: base.hands.length + waiting.length + 1,
        hand: hand,
        figures: figures,
        state: "waiting"
      });
    });
    markUsed(keyInput.value);
    if (window.anotadorDrafts) window.anotadorDrafts.clear(form);
    showQueued(form, info);
  }

  // An engine problem in the page's language (the server's templates, sent with the form).
  function problemText(info, problem) {
    var template = info.messages[problem.code] || problem.message;
    return template.replace(/\{(\w+)\}/g, function (all, key) {
      var value = problem.params[key];
      if (value === undefined) return all;
      return typeof value === "string" ? info.expected[value] || value : String(value);
    });
  }

  // "hands[3].sides[1].table_points" of the typed hand 3 -> the input "s1_table_points".
  function inputOf(path, index) {
    var prefix = "hands[" + index + "]";
    if (path.indexOf(prefix) !== 0) return "";
    var rest = path.slice(prefix.length).replace(/^\./, "");
    var side = /^sides\[(\d+)\]\.(\w+)/.exec(rest);
    var name = side ? "s" + side[1] + "_" + side[2] : rest.split(".")[0];
    return document.getElementById("f-" + name) ? name : "";
  }

  // The preview without a connection: the typed hand after the stored ones and this phone's
  // queued ones, scored by the engine, in the shape of the server's preview (hand.js draws it).
  function previewOffline(form, info) {
    var converted = toHand(form, info);
    if (converted.problem) {
      var field = converted.problem.field;
      return Promise.resolve({ ok: false, sides: [], problems: [{
        field: field, target: field, label: labelOf(field), severity: "error", message: converted.problem.message
      }] });
    }
    var known = read(DOCUMENTS, {})[info.match];
    var base = known ? known.document : info.document;
    var queued = ofMatch(info.match).filter(function (entry) { return entry.state !== "refused"; });
    var hands = base.hands.concat(queued.map(function (entry) { return entry.hand; }), [converted.hand]);
    var index = hands.length - 1;
    return score(Object.assign({}, base, { hands: hands })).then(function (outcome) {
      var problems = outcome.problems.filter(function (problem) {
        return problem.path.indexOf("hands[") !== 0 || problem.path.indexOf("hands[" + index + "]") === 0;
      }).map(function (problem) {
        var name = inputOf(problem.path, index);
        return { field: name, target: name, label: labelOf(name), severity: problem.severity, message: problemText(info, problem) };
      });
      if (!outcome.result) return { ok: false, sides: [], problems: problems };
      var result = outcome.result;
      return { ok: true, problems: problems, queued: queued.length, sides: result.hands[index].sides.map(function (side, position) {
        return {
          name: base.sides[position].name,
          score: side.score,
          total: side.total,
          minimum: side.opening_minimum,
          score_text: points(side.score, true),
          total_text: points(side.total),
          minimum_text: side.opening_minimum === null ? "" : points(side.opening_minimum),
          winner: result.finished && result.winner === position
        };
      }) };
    });
  }

  // A field's label as the page says it: its <label>, or the legend of its group (who went
  // out), never the input's own (English) name.
  function labelOf(name) {
    var label = name && document.querySelector('label[for="' + name + '"], #f-' + name + " > legend");
    return label ? label.textContent.trim() : "";
  }

  // A copy of the form kept from before the hands now waiting: the number this one will be.
  // A copy of the form kept from before the hands now stored or waiting: the number this one
  // will be, after the last hand the phone knows.
  function numberHeading(info) {
    var waiting = ofMatch(info.match).length;
    var base = read(DOCUMENTS, {})[info.match].document;
    var heading = document.querySelector(".hand-page h1");
    var number = base.hands.length + waiting + 1;
    if (heading && number !== info.document.hands.length + 1) heading.textContent = words.hand + " " + number;
  }

  function handForm() {
    var form = document.getElementById("hand-form");
    if (!form) return;
    var block = document.getElementById("offline-hand");
    if (!block) {
      refuseOffline(form);
      return;
    }
    var info = JSON.parse(block.textContent);
    info.send = block.dataset.sendUrl;
    var keyInput = form.querySelector('input[name="request_key"]');
    var versionInput = form.querySelector('input[name="version"]');
    // A copy of this form kept by the service worker carries a key already used.
    if (used(keyInput.value)) keyInput.value = newKey();
    keepDocument(info.match, info.document, parseInt(versionInput.value, 10) || 0);
    numberHeading(info);
    window.anotadorOffline = { preview: function () { return previewOffline(form, info); } };
    // The engine starts with the hand form (engine.js `warm`: at once without a connection or
    // a service worker, else once the service worker keeps its files) and stays ready here.
    function warmEngine() {
      if (window.anotadorEngine) window.anotadorEngine.warm();
    }
    warmEngine();
    window.addEventListener("offline", warmEngine);
    backOffline(form, info);
    var busy = false;
    var bypass = false;
    form.addEventListener("anotador:hand-ready", function () { busy = false; });
    form.addEventListener("submit", function (event) {
      var submitter = event.submitter;
      if (bypass || (submitter && submitter.value && submitter.value !== "save")) return;
      var converted = toHand(form, info);
      event.preventDefault();
      // A hand after hands still waiting to be sent (or typed on the planilla drawn here)
      // waits too, so that the outbox sends them in the order they were played. A hand
      // refused or in conflict waits for a person, not this one.
      var behind = ofMatch(info.match).some(function (entry) { return entry.state === "waiting"; });
      if (!navigator.onLine || behind || form.dataset.formUrl) {
        if (converted.problem) {
          event.stopImmediatePropagation();
          alertBefore(form, converted.problem.message);
        } else if (!busy) {
          busy = true;
          // After the other listeners of this tap (draft.js marks the draft as sent): the
          // queued hand's draft is then dropped for good.
          setTimeout(function () { queue(form, info, converted.hand); }, 0);
        }
        return;
      }
      if (busy) return;
      busy = true;
      // Sent without leaving the page, so that a lost signal never ends on the browser's
      // error page: the hand goes to the outbox instead.
      saveHere(form, info).catch(function (reason) {
        if (reason !== NO_ANSWER) {
          // Anything unforeseen: the server's own page says what happened.
          bypass = true;
          HTMLFormElement.prototype.submit.call(form);
        } else if (converted.problem) {
          alertBefore(form, converted.problem.message);
          form.dispatchEvent(new Event("anotador:hand-ready"));
        } else {
          queue(form, info, converted.hand);
        }
      });
    });
  }

  // The save, by fetch: stored, the page follows to where the server says (the planilla);
  // refused (a field, a stale form, an expired session), the server's form is shown in place
  // with what was typed. Rejects with NO_ANSWER without a connection (or a server that cannot
  // answer: the hand may wait in the outbox), otherwise for an answer it cannot show.
  var NO_ANSWER = "no answer";
  // On the LAN a phone may keep its wifi while the server is out of reach, and a request may
  // then hang for minutes: after this long the hand waits in the outbox (its request key
  // stores it once, should the server have had it after all).
  var SAVE_WAIT_MS = 12000;

  function saveHere(form, info) {
    var keyInput = form.querySelector('input[name="request_key"]');
    var body = new FormData(form);
    body.set("action", "save");
    var stop = window.AbortController ? new AbortController() : null;
    var timer = stop && setTimeout(function () { stop.abort(); }, SAVE_WAIT_MS);
    return fetch(window.location.href, {
      method: "POST", body: body, credentials: "same-origin", redirect: "manual",
      headers: { Accept: "application/json" }, signal: stop ? stop.signal : undefined
    }).then(function (response) {
      clearTimeout(timer);
      if (response.status >= 500) return Promise.reject(NO_ANSWER);
      if (response.type === "opaqueredirect") return Promise.reject("redirected");
      if (response.ok && (response.headers.get("Content-Type") || "").indexOf("json") >= 0) {
        return response.json().then(function (answer) {
          // Stored: a kept copy of this form must not send it again. A refused key stays
          // free (the form shown again keeps it, and with it the draft marked as sent).
          markUsed(keyInput.value);
          if (window.anotadorDrafts) window.anotadorDrafts.clear(form);
          window.location.assign(answer.location);
        });
      }
      return response.text().then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        if (!window.anotadorHand || !window.anotadorHand.showAnswer(doc)) return Promise.reject("not a form");
        freshInfo(doc, info);
      });
    }, function () {
      clearTimeout(timer);
      return Promise.reject(NO_ANSWER);
    });
  }

  // The match file of a form the server drew again (another phone saved meanwhile).
  function freshInfo(doc, info) {
    var block = doc.getElementById("offline-hand");
    var version = doc.querySelector('#hand-form input[name="version"]');
    if (!block || !version) return;
    var fresh = JSON.parse(block.textContent);
    info.document = fresh.document;
    keepDocument(info, parseInt(version.value, 10) || 0);
  }

  // Whether a service worker serves this page's addresses (HTTPS): it keeps the planilla
  // for a phone without a connection. On plain HTTP (the LAN) browsers give none.
  function controlled() {
    return Boolean("serviceWorker" in navigator && navigator.serviceWorker.controller);
  }

  // A hand just queued: the planilla shows it pending. A service worker that keeps the
  // planilla opens it; otherwise opening it would end on the browser's error page, so it is
  // drawn in this page.
  function showQueued(form, info) {
    var kept = controlled() && window.caches ? caches.match(info.planilla, { ignoreSearch: true }) : Promise.resolve(null);
    kept.catch(function () { return null; }).then(function (page) {
      if (page) {
        window.location.assign(info.planilla);
        return;
      }
      planillaHere(form, info);
      if (navigator.onLine) flush();
    });
  }

  // "← Planilla" without a connection nor a service worker: the planilla drawn here too.
  function backOffline(form, info) {
    var back = document.querySelector(".hand-page .back a");
    if (!back) return;
    back.addEventListener("click", function (event) {
      if (navigator.onLine || controlled()) return;
      event.preventDefault();
      planillaHere(form, info);
    });
  }

  // The planilla in this page, from the match file it holds and the queued hands: each stored
  // hand's row and the totals by the engine, the pending rows as on the planilla's own page
  // (drawPlanilla), and a button for the next hand, typed in this same page. The address is
  // the planilla's meanwhile: once the outbox has sent the hands, it shows the real one.
  function planillaHere(form, info) {
    var said = form.dataset;
    var old = document.getElementById("planilla-here");
    if (old) old.remove();
    var known = read(DOCUMENTS, {})[info.match];
    var base = known ? known.document : info.document;
    var names = base.sides.map(function (side) { return side.name; });
    var here = element("div", "planilla-here");
    here.id = "planilla-here";
    here.appendChild(element("h1", "visually-hidden", said.sheet));
    var sheet = element("div", "planilla columns-" + names.length);
    sheet.appendChild(scoreboard(names, said.openingMinimum));
    var next = element("button", "button-big", said.recordHand);
    next.type = "button";
    next.addEventListener("click", function () { nextHandHere(form, info); });
    sheet.appendChild(element("p", "actions")).appendChild(next);
    var list = sheet.appendChild(element("div", "sheet"));
    var head = list.appendChild(element("div", "sheet-row sheet-head"));
    head.setAttribute("aria-hidden", "true");
    head.appendChild(element("span", "hand-number", "#"));
    names.forEach(function (name) { head.appendChild(element("span", "cell", name)); });
    var rows = base.hands.map(function (hand, index) { return list.appendChild(storedRow(index + 1, names)); });
    here.appendChild(sheet);
    var page = form.closest(".hand-page");
    page.hidden = true;
    page.parentNode.insertBefore(here, page.nextSibling);
    form.dataset.formUrl = form.dataset.formUrl || window.location.href;
    window.history.replaceState(window.history.state, "", info.planilla);
    window.scrollTo(0, 0);
    drawPlanilla();
    figuresHere(base, info, rows);
  }

  function scoreboard(names, minimumWord) {
    var board = element("div", "scoreboard");
    names.forEach(function (name) {
      var side = board.appendChild(element("section", "score-side"));
      side.setAttribute("aria-label", name);
      side.appendChild(element("h2", "side-name", name));
      side.appendChild(element("p", "total", "…"));
      side.appendChild(element("p", "to-target", ""));
      side.appendChild(element("p", "minimum", minimumWord + " ")).appendChild(element("strong", "", "…"));
    });
    return board;
  }

  function storedRow(number, names) {
    var row = element("div", "hand");
    row.id = "mano-" + number;
    var line = row.appendChild(element("div", "sheet-row"));
    var cell = line.appendChild(element("span", "hand-number"));
    cell.appendChild(element("span", "visually-hidden", words.hand));
    cell.appendChild(document.createTextNode(" " + number));
    names.forEach(function (name) {
      var side = line.appendChild(element("span", "cell"));
      side.appendChild(element("span", "visually-hidden", name + ":"));
      side.appendChild(element("span", "delta", "…"));
      side.appendChild(element("span", "running", "…"));
    });
    return row;
  }

  // The engine's figures for the stored rows, the scoreboard and the hand form's standing
  // (the totals the next hand typed here starts from).
  function figuresHere(base, info, rows) {
    var queued = ofMatch(info.match).filter(function (entry) { return entry.state !== "refused"; });
    var whole = Object.assign({}, base, { hands: base.hands.concat(queued.map(function (entry) { return entry.hand; })) });
    score(whole).then(function (outcome) {
      var result = outcome.result;
      if (!result) return;
      rows.forEach(function (row, index) {
        row.querySelectorAll(".cell").forEach(function (cell, side) {
          var figures = result.hands[index].sides[side];
          var delta = cell.querySelector(".delta");
          delta.textContent = points(figures.score, true);
          delta.classList.toggle("is-negative", figures.score < 0);
          cell.querySelector(".running").textContent = points(figures.total);
        });
      });
      showTotals(result, (whole.options || {}).target);
      document.querySelectorAll(".hand-page table.standing tbody tr").forEach(function (row, side) {
        var total = row.querySelector(".big");
        var minimum = row.querySelector(".opening");
        if (total) total.textContent = points(result.totals[side]);
        if (minimum && result.opening_minimum[side] !== null) minimum.textContent = points(result.opening_minimum[side]);
      });
    }).catch(function () {});
  }

  // "Record a hand" on the planilla drawn here: the form again, empty, with a new key.
  function nextHandHere(form, info) {
    var here = document.getElementById("planilla-here");
    if (here) here.remove();
    var alert = document.getElementById("offline-alert");
    if (alert) alert.remove();
    form.closest(".hand-page").hidden = false;
    window.history.replaceState(window.history.state, "", form.dataset.formUrl);
    if (window.anotadorHand) window.anotadorHand.clear();
    form.querySelector('input[name="request_key"]').value = newKey();
    numberHeading(info);
    form.dispatchEvent(new Event("anotador:hand-ready"));
    window.scrollTo(0, 0);
  }

  // Corrections, deletions and undo are not queued: without a connection they are refused,
  // and what was typed stays on the form.
  function refuseOffline(form) {
    form.addEventListener("submit", function (event) {
      if (navigator.onLine) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      alertBefore(form.closest("details") || form, words.editOffline);
    });
  }

  // The planilla: the queued hands of this match as pending rows, with the totals and opening
  // minimums the engine computes for the match file plus those hands; a conflict to settle.
  function planillaMatch() {
    var found = /\/partidas\/(\d+)$/.exec(window.location.pathname);
    return found && document.querySelector(".planilla") ? parseInt(found[1], 10) : null;
  }

  function pendingRow(entry, scored, names) {
    var row = element("details", "hand is-pending");
    var summary = element("summary", "sheet-row");
    var number = element("span", "hand-number");
    number.appendChild(element("span", "visually-hidden", words.hand));
    number.appendChild(document.createTextNode(" " + entry.number + " "));
    number.appendChild(element("span", "pending-badge", words.pending));
    if (provisional(entry.match)) {
      row.classList.add("is-provisional");
      number.appendChild(element("span", "pending-badge provisional-badge", words.provisionalBadge));
    }
    summary.appendChild(number);
    names.forEach(function (name, index) {
      var cell = element("span", "cell");
      cell.appendChild(element("span", "visually-hidden", name + ":"));
      var side = scored && scored.sides[index];
      cell.appendChild(element("span", "delta" + (side && side.score < 0 ? " is-negative" : ""), side ? points(side.score, true) : "…"));
      cell.appendChild(element("span", "running", side ? points(side.total) : "…"));
      summary.appendChild(cell);
    });
    row.appendChild(summary);
    var detail = element("div", "breakdown");
    detail.appendChild(element("p", "note", entry.state === "refused" ? words.refused + " " + entry.message : words.pendingNote));
    if (row.classList.contains("is-provisional")) detail.appendChild(element("p", "note provisional-note", words.provisional));
    if (entry.state === "refused") {
      var drop = element("button", "button-danger", words.dropRefused);
      drop.type = "button";
      drop.addEventListener("click", function () { forget(entry.key); });
      detail.appendChild(drop);
    }
    row.appendChild(detail);
    if (entry.state === "refused") row.open = true;
    return row;
  }

  function forget(key) {
    update(function (all) {
      var index = all.findIndex(function (entry) { return entry.key === key; });
      if (index >= 0) all.splice(index, 1);
    });
    window.location.reload();
  }

  function showTotals(result, target) {
    document.querySelectorAll(".planilla .score-side").forEach(function (side, index) {
      var total = result.totals[index];
      var toGo = side.querySelector(".to-target");
      if (toGo && target) toGo.textContent = total >= target ? words.reached : words.toGo.replace("{}", points(target - total));
      side.querySelector(".total").textContent = points(total);
      side.querySelector(".total").dataset.total = total;
      var minimum = result.opening_minimum[index];
      var strong = side.querySelector(".minimum strong");
      if (strong && minimum !== null) strong.textContent = points(minimum);
      side.querySelector(".minimum").dataset.minimum = minimum === null ? "" : minimum;
      // The planilla drawn here has a minimum for every variant: none, none shown.
      if (side.closest("#planilla-here")) side.querySelector(".minimum").hidden = minimum === null;
    });
  }

  function score(document) {
    var engine = window.anotadorEngine;
    if (!engine) return Promise.reject(new Error("no engine"));
    return engine.start().then(function () { return engine.score(document); });
  }

  function drawPlanilla() {
    var sheet = document.querySelector(".planilla");
    var match = planillaMatch();
    if (!sheet || match === null || sheet.dataset.outboxDrawn) return;
    sheet.dataset.outboxDrawn = "1";
    askAgain(match);
    var mine = ofMatch(match);
    if (!mine.length) return;
    var known = read(DOCUMENTS, {})[match];
    watchFreshness(sheet, match);
    var names = Array.prototype.map.call(sheet.querySelectorAll(".score-side .side-name"), function (n) { return n.textContent; });
    var list = sheet.querySelector(".sheet");
    var empty = list.querySelector(".empty");
    if (empty) empty.remove();
    var note = element("p", "pending-note", words.pendingNote + (provisional(match) ? " " + words.provisional : ""));
    note.setAttribute("role", "status");
    sheet.querySelector(".scoreboard").insertAdjacentElement("beforebegin", note);
    // A hand the server refused is shown, not counted. Until the engine answers (or when it
    // cannot start), a hand shows the figures of the preview it was saved with.
    var counted = mine.filter(function (entry) { return entry.state !== "refused"; });
    var rows = mine.map(function (entry) {
      var row = pendingRow(entry, counted.indexOf(entry) >= 0 ? entry.figures : null, names);
      list.appendChild(row);
      return row;
    });
    var last = counted[counted.length - 1];
    var target = known && (known.document.options || {}).target;
    if (last && last.figures) showTotals(last.figures, target);
    var conflicting = mine.find(function (entry) { return entry.state === "conflict"; });
    if (conflicting) sheet.insertAdjacentElement("afterbegin", conflictPanel(conflicting));
    if (!known) return;
    var hands = known.document.hands.concat(counted.map(function (entry) { return entry.hand; }));
    var whole = Object.assign({}, known.document, { hands: hands });
    score(whole).then(function (outcome) {
      if (!outcome.result) throw new Error("refused");
      var first = known.document.hands.length;
      rows.forEach(function (row, index) {
        var position = counted.indexOf(mine[index]);
        if (position < 0) return;
        row.replaceWith(pendingRow(mine[index], outcome.result.hands[first + position], names));
      });
      showTotals(outcome.result, target);
    }).catch(function () {
      if (counted.some(function (entry) { return !entry.figures; })) note.textContent = words.pendingNote + " " + words.noEngine;
    });
  }

  // Drawn again once the copy is no longer known to be current: its rows say so then.
  function watchFreshness(sheet, match) {
    if (provisional(match)) return;
    setTimeout(function () {
      if (!sheet.isConnected || !ofMatch(match).length) return;
      if (!provisional(match)) {
        watchFreshness(sheet, match);
        return;
      }
      delete sheet.dataset.outboxDrawn;
      sheet.querySelectorAll(".hand.is-pending, .pending-note, .conflict").forEach(function (node) { node.remove(); });
      drawPlanilla();
    }, FRESH_MS - (Date.now() - checkedAt(match)) + 100);
  }

  // A conflict answered by a server from before the panel could pick the hand to replace:
  // asked again, so that the panel shows what each choice touches.
  function askAgain(match) {
    var old = ofMatch(match).some(function (entry) {
      return entry.state === "conflict" && entry.conflict.theirs.some(function (hand) { return !hand.fingerprint; });
    });
    if (!old) return;
    update(function (all) {
      all.forEach(function (entry) {
        if (entry.match !== match || entry.state !== "conflict") return;
        entry.state = "waiting";
        delete entry.conflict;
      });
    });
  }

  // A column of hands as the server summarized them; ``replace`` adds, under each of theirs,
  // the choice of putting mine in its place.
  function summaryColumn(title, hands, replace) {
    var column = element("section", "conflict-hand");
    column.appendChild(element("h3", "", title));
    hands.forEach(function (hand) {
      var one = element("div", "conflict-one");
      one.appendChild(element("p", "ending", words.hand + " " + hand.number + ": " + hand.ending));
      hand.sides.forEach(function (side) {
        var list = element("dl");
        list.appendChild(element("dt", "breakdown-side", side.name));
        list.appendChild(element("dd", "", side.score));
        side.counts.concat(side.parts).forEach(function (pair) {
          list.appendChild(element("dt", "", pair[0]));
          list.appendChild(element("dd", "", String(pair[1])));
        });
        one.appendChild(list);
      });
      if (replace && hand.replace) {
        var button = element("button", "button-secondary", hand.replace);
        button.type = "button";
        button.addEventListener("click", function () { replace(hand); });
        one.appendChild(button);
      }
      column.appendChild(one);
    });
    return column;
  }

  // Every hand another phone saved that this phone did not know, and the queued one: mine
  // may go after the last stored hand, replace exactly one of the hands shown, or be dropped.
  function conflictPanel(entry) {
    var conflict = entry.conflict;
    var panel = element("section", "conflict");
    panel.setAttribute("role", "alert");
    panel.appendChild(element("h2", "", conflict.words.title));
    var both = element("div", "conflict-hands");
    both.appendChild(summaryColumn(conflict.words.theirs, conflict.theirs, function (hand) {
      choose(entry.key, { resolution: "replace", target: hand.number, shown: hand.fingerprint });
    }));
    both.appendChild(summaryColumn(conflict.words.mine, [conflict.mine]));
    panel.appendChild(both);
    var actions = element("div", "actions");
    [["append", conflict.words.append, "button-secondary"], ["drop", conflict.words.drop_mine, "button-danger"]]
      .forEach(function (choice) {
        var button = element("button", choice[2], choice[1]);
        button.type = "button";
        button.addEventListener("click", function () {
          if (choice[0] === "drop") forget(entry.key);
          else choose(entry.key, { resolution: "append" });
        });
        actions.appendChild(button);
      });
    panel.appendChild(actions);
    return panel;
  }

  // The person's choice, sent with what the panel showed: the server applies it only to the
  // hands shown, or answers a fresh conflict.
  function choose(key, choice) {
    update(function (all) {
      all.forEach(function (entry) {
        if (entry.key !== key) return;
        entry.resolution = choice.resolution;
        entry.target = choice.target;
        entry.shown = choice.shown;
        entry.version = entry.conflict.version;
        entry.state = "waiting";
        delete entry.conflict;
      });
    });
    // Sent, or (without a connection) waiting again as a pending row.
    flush().then(function () { window.location.reload(); });
  }

  // The sender: the first waiting hand of each match, one at a time, in order; a conflict or
  // a refusal stops that match's queue until a person chooses.
  function sendNext(match) {
    var entry = ofMatch(match)[0];
    if (!entry || entry.state !== "waiting") return Promise.resolve(false);
    return fetch(entry.send, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (!response.ok || response.redirected) return refuse(entry, words.refusedAccess);
        return response.json().then(function (state) {
          if (state.account !== entry.account) return false;
          keepDocument(match, state.document, state.version, true);
          return post(entry, state.csrf_token);
        });
      });
  }

  function post(entry, token) {
    var body = { request_key: entry.key, number: entry.number, hand: entry.hand };
    if (entry.resolution) {
      body.resolution = entry.resolution;
      body.version = entry.version;
      if (entry.shown) {
        body.target = entry.target;
        body.shown = entry.shown;
      }
    }
    return fetch(entry.send, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": token },
      body: JSON.stringify(body)
    }).then(function (response) {
      if (response.status >= 500) return false;
      return response.json().catch(function () { return {}; }).then(function (answer) {
        if (answer.status === "saved" || answer.status === "duplicate") return sent(entry, answer.number);
        if (answer.status === "conflict") {
          update(function (all) {
            all.forEach(function (other) {
              if (other.key !== entry.key) return;
              other.state = "conflict";
              other.conflict = answer;
              delete other.resolution;
              delete other.target;
              delete other.shown;
            });
          });
          return false;
        }
        return refuse(entry, answer.message || words.refusedAccess);
      });
    });
  }

  // Stored (appended, in place of a hand shown, or found already stored): the next ones are
  // numbered after it, and the phone's copy is the server's again.
  function sent(entry, number) {
    var shift = number - entry.number;
    update(function (all) {
      var index = all.findIndex(function (other) { return other.key === entry.key; });
      if (index >= 0) all.splice(index, 1);
      all.forEach(function (other) { if (other.match === entry.match) other.number += shift; });
    });
    return refreshDocument(entry.match, entry.send).then(function () { return true; });
  }

  function refuse(entry, message) {
    update(function (all) {
      all.forEach(function (other) {
        if (other.key !== entry.key) return;
        other.state = "refused";
        other.message = message;
      });
    });
    return false;
  }

  function sendMatch(match) {
    return sendNext(match).then(function (more) { return more ? sendMatch(match) : null; });
  }

  var flushing = null;
  function flush() {
    if (flushing) return flushing;
    var matches = entries().map(function (entry) { return entry.match; })
      .filter(function (match, index, all) { return all.indexOf(match) === index; });
    var here = planillaMatch();
    var before = JSON.stringify(ofMatch(here));
    var work = function () {
      return matches.reduce(function (chain, match) {
        return chain.then(function () { return sendMatch(match); });
      }, Promise.resolve());
    };
    var locked = navigator.locks ? navigator.locks.request("anotador-outbox", work) : work();
    flushing = locked.catch(function () {}).then(function () {
      flushing = null;
      // The planilla shows what the server stored, and what is left to choose.
      if (here !== null && JSON.stringify(ofMatch(here)) !== before) window.location.reload();
    });
    return flushing;
  }

  worker();
  followLive();
  handForm();
  document.querySelectorAll("#undo-form, form[data-confirm]").forEach(refuseOffline);
  drawPlanilla();
  document.addEventListener("anotador:planilla-updated", drawPlanilla);
  window.addEventListener("online", flush);
  setInterval(function () {
    if (navigator.onLine && entries().some(function (entry) { return entry.state === "waiting"; })) flush();
  }, RETRY_MS);
  if (navigator.onLine) flush();
})();
