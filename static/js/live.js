// The live table: a page showing a match (its planilla, or the hand form) polls the match's
// version page about once a second while it is visible, with If-None-Match (a 304 most of the
// time). When another phone changed the match, the planilla is swapped in place, and the hand
// form says so at once and offers to carry what was typed over to the new state.
(function () {
  "use strict";
  var live = document.getElementById("live");
  var wordsBlock = document.getElementById("live-words");
  if (!live || !wordsBlock || !window.fetch || !window.DOMParser) return;
  var words = JSON.parse(wordsBlock.textContent);
  var INTERVAL = 1000;
  var MAX_DELAY = 30000;
  var data = live.dataset;
  var form = document.getElementById("hand-form");
  var number = data.number ? parseInt(data.number, 10) : null;
  var shown = { version: String(data.version), hands: parseInt(data.hands, 10) };
  var delay = INTERVAL;
  var timer = null;
  var busy = false;
  var stopped = false;

  function say(template, values) {
    return template.replace(/\{(\w+)\}/g, function (whole, name) {
      return name in values ? values[name] : whole;
    });
  }

  function parse(html) {
    return new DOMParser().parseFromString(html, "text/html");
  }

  function getPage(url) {
    return fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } }).then(
      function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.text().then(function (html) {
          return { doc: parse(html), redirected: response.redirected };
        });
      }
    );
  }

  // Polling

  function schedule(wait) {
    clearTimeout(timer);
    timer = null;
    if (stopped || document.hidden) return;
    timer = setTimeout(poll, wait);
  }

  function poll() {
    if (stopped || busy || document.hidden) return;
    busy = true;
    fetch(data.url, {
      credentials: "same-origin",
      cache: "no-store",
      headers: { "If-None-Match": '"v' + shown.version + '"', Accept: "application/json" },
    })
      .then(function (response) {
        if (response.status === 304) return { version: shown.version, confirmed: true };
        var json = (response.headers.get("Content-Type") || "").indexOf("json") !== -1;
        if (response.status === 404 || (response.ok && !json)) {
          // The link was revoked or the session ended (sign-in page): nothing to follow.
          stopped = true;
          return null;
        }
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.json();
      })
      .then(function (state) {
        delay = INTERVAL;
        if (state && state.rematch) return followRematch(state.rematch);
        // The server's version now: the phone's copy of the match file follows it (offline.js).
        if (state) document.dispatchEvent(new CustomEvent("anotador:live", { detail: { version: String(state.version) } }));
        if (state && !state.confirmed && String(state.version) !== shown.version) return changed(state);
      })
      .catch(function () {
        delay = Math.min(delay * 2, MAX_DELAY); // offline, or the server is restarting
      })
      .then(function () {
        busy = false;
        schedule(delay);
      });
  }

  document.addEventListener("visibilitychange", function () {
    if (document.hidden) schedule(0);
    else poll();
  });
  window.addEventListener("online", function () {
    delay = INTERVAL;
    poll();
  });
  window.addEventListener("offline", function () {
    clearTimeout(timer);
  });
  // Back from the bfcache: the page may be minutes old.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) poll();
  });

  // A rematch of this match was made: the table goes on there (its links follow it).
  function followRematch(url) {
    stopped = true;
    window.location.assign(url);
  }

  function changed(state) {
    return form ? handFormChanged(state) : planillaChanged(state);
  }

  function whatHappened(state, ending) {
    if (state.hands > shown.hands) {
      var template = ending ? words.recorded_ending : words.recorded;
      return say(template, { number: state.hands, ending: ending });
    }
    if (state.hands < shown.hands) return say(words.deleted, { number: shown.hands });
    return words.changed;
  }

  // The planilla

  // Where an element sits under <main>: the child indexes down to it.
  function pathOf(element, root) {
    var path = [];
    while (element && element !== root && element.parentElement) {
      path.unshift(Array.prototype.indexOf.call(element.parentElement.children, element));
      element = element.parentElement;
    }
    return element === root ? path : null;
  }

  function atPath(root, path) {
    var element = root;
    for (var i = 0; element && i < path.length; i++) element = element.children[path[i]];
    return element;
  }

  function planillaChanged(state) {
    return getPage(data.planilla).then(function (page) {
      var main = document.querySelector("main");
      var fresh = page.doc.querySelector("main");
      var freshLive = page.doc.getElementById("live");
      if (!main || !fresh || !freshLive) return;
      var scrollY = window.scrollY;
      var focused = document.activeElement;
      var focusPath = focused && focused.id ? null : pathOf(focused, main);
      var focusId = focused && focused.id;
      var open = Array.prototype.map.call(main.querySelectorAll("details[open]"), function (d) {
        return d.id ? "#" + d.id : pathOf(d, main);
      });
      // A one-time message ("Hand 4 saved.") belongs to the page the save led to: the
      // change of another phone replaces it, and the fresh page's own is not this page's.
      Array.prototype.forEach.call(fresh.querySelectorAll(".flashes"), function (old) {
        old.remove();
      });
      Array.prototype.slice.call(main.children).forEach(function (child) {
        child.remove();
      });
      Array.prototype.slice.call(fresh.children).forEach(function (child) {
        main.appendChild(document.adoptNode(child));
      });
      open.forEach(function (where) {
        var details = typeof where === "string" ? main.querySelector(where) : atPath(main, where);
        if (details && details.tagName === "DETAILS") details.open = true;
      });
      var again = focusId ? document.getElementById(focusId) : focusPath && atPath(main, focusPath);
      if (again && focused !== document.body && again.tagName === focused.tagName) {
        again.focus({ preventScroll: true });
      }
      window.scrollTo(0, scrollY);
      var message = whatHappened(state, "");
      shown = { version: String(freshLive.dataset.version), hands: parseInt(freshLive.dataset.hands, 10) };
      live.textContent = message + " " + standings(main);
      document.dispatchEvent(
        new CustomEvent("anotador:planilla-updated", { detail: { version: shown.version } })
      );
    });
  }

  // "Nosotros 1.800, Ellos 490": what a screen reader hears after the change.
  function standings(root) {
    return Array.prototype.map
      .call(root.querySelectorAll(".scoreboard .score-side"), function (side) {
        var name = side.querySelector(".side-name");
        var total = side.querySelector(".total");
        return (name ? name.textContent.trim() : "") + " " + (total ? total.textContent.trim() : "");
      })
      .join(", ");
  }

  // The hand form

  var notice = null;

  function showNotice(lines, action, label) {
    if (!notice) {
      notice = document.createElement("div");
      notice.className = "notice live-notice";
      notice.setAttribute("role", "alert");
      // In the save bar, which stays on screen: seen before Save is pressed.
      var actions = form.querySelector(".actions");
      if (actions) actions.insertBefore(notice, actions.firstChild);
      else form.appendChild(notice);
    }
    notice.textContent = "";
    lines.forEach(function (line) {
      var p = document.createElement("p");
      p.textContent = line;
      notice.appendChild(p);
    });
    if (action) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "secondary live-action";
      button.textContent = label;
      button.addEventListener("click", action);
      notice.appendChild(button);
    }
  }

  function toPlanilla() {
    window.location.assign(data.planilla);
  }

  function endingOf(handNumber) {
    return getPage(data.planilla)
      .then(function (page) {
        var ending = page.doc.querySelector("#mano-" + handNumber + " .ending");
        return ending ? ending.textContent.trim().replace(/\.$/, "") : "";
      })
      .catch(function () {
        return "";
      });
  }

  function handFormChanged(state) {
    if (number !== null) return correctionChanged(state);
    var recorded = state.hands > shown.hands ? endingOf(state.hands) : Promise.resolve("");
    return recorded.then(function (ending) {
      var line = whatHappened(state, ending);
      if (state.finished) showNotice([line, words.over], toPlanilla, words.planilla);
      else {
        showNotice([line, say(words.rebase_hint, { number: state.hands + 1 })], rebase, words.rebase);
      }
      // The notice stands until it is acted on; polling goes on from this version.
      shown.version = String(state.version);
    });
  }

  // Correcting a hand: the server refuses this form now. When the hand itself is as it was
  // opened, the correction can be carried over; else what is stored must be seen first.
  function correctionChanged(state) {
    shown.version = String(state.version);
    if (state.hands < number) {
      showNotice([words.this_deleted], toPlanilla, words.planilla);
      return null;
    }
    return getPage(window.location.pathname)
      .then(function (page) {
        if (page.redirected || storedHand(page.doc) !== storedHand(document)) throw page;
        var line = whatHappened(state, "");
        showNotice([line, say(words.other_hand, { number: number })], rebase, words.rebase);
      })
      .catch(function () {
        showNotice([words.this_changed], reloadHand, words.reload);
      });
  }

  // The hand as the page was rendered with it (the fields' initial values, not the typed).
  function storedHand(doc) {
    var values = [];
    var fields = doc.querySelectorAll("#hand-form input[name], #hand-form select, #hand-form textarea");
    Array.prototype.forEach.call(fields, function (field) {
      if (/^(csrf_token|request_key|version)$/.test(field.name)) return;
      var value = field.defaultValue;
      if (field.type === "radio" || field.type === "checkbox") {
        if (!field.defaultChecked) return;
      } else if (field.tagName === "SELECT") {
        value = Array.prototype.filter
          .call(field.options, function (option) {
            return option.defaultSelected;
          })
          .map(function (option) {
            return option.value;
          })
          .join(",");
      }
      values.push(field.name + "=" + value);
    });
    return values.sort().join("&");
  }

  function reloadHand() {
    window.location.assign(window.location.pathname);
  }

  // Keep every typed value; take the fresh form's version, title and standings.
  function rebase() {
    getPage(window.location.pathname)
      .then(function (page) {
        if (page.redirected) return toPlanilla(); // the match ended meanwhile
        var doc = page.doc;
        var freshVersion = doc.querySelector('#hand-form input[name="version"]');
        var freshLive = doc.getElementById("live");
        if (!freshVersion || !freshLive) throw new Error("no hand form");
        document.querySelectorAll('input[name="version"]').forEach(function (input) {
          input.value = freshVersion.value;
        });
        [".hand-page h1", "table.standing"].forEach(function (selector) {
          var old = document.querySelector(selector);
          var fresh = doc.querySelector(selector);
          if (old && fresh) old.replaceWith(document.adoptNode(fresh));
        });
        document.title = doc.title;
        shown = {
          version: String(freshLive.dataset.version),
          hands: parseInt(freshLive.dataset.hands, 10),
        };
        if (notice) notice.remove();
        notice = null;
        live.textContent =
          number === null
            ? say(words.rebased, { number: shown.hands + 1 })
            : say(words.rebased_correction, { number: number });
        document.dispatchEvent(
          new CustomEvent("anotador:hand-rebased", {
            detail: { version: shown.version, number: shown.hands + 1 },
          })
        );
        // The preview follows the new totals.
        form.dispatchEvent(new Event("change", { bubbles: true }));
        poll();
      })
      .catch(function () {
        delay = Math.min(delay * 2, MAX_DELAY);
      });
  }

  schedule(INTERVAL);
})();
