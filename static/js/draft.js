// Drafts: what is typed on the hand form is kept on this device as it is typed (per match
// and per hand: a new hand N, or the edit of hand N), and offered back after a reload, the
// back button, a closed tab, a crashed browser or an expired session. A draft is never
// applied by itself: a banner offers it ("Recover" / "Discard").
//
// How a saved hand clears its draft: pressing Save marks the draft as sent with the form's
// one-time request key. If the page that comes back is the same form with the same key,
// the save was refused (the form shows what stops it) and the draft stays current. A later
// fresh form of the same hand (a new key) either shows what the draft holds already (the
// edit was saved: nothing to offer, it is dropped) or not (the save never arrived: it is
// offered). A new hand's draft is kept under its number, so once hand N exists elsewhere
// the next form (hand N+1) never offers it, and any hand form of the match drops the
// drafts of the new hands it shows exist. window.anotadorDrafts.clear(form) drops a form's draft (the offline
// outbox calls it once it has queued the hand).
(function () {
  "use strict";
  var PREFIX = "anotador:draft:";
  var SKIPPED = { csrf_token: true, request_key: true, version: true, action: true };

  function storage() {
    try {
      return window.localStorage;
    } catch (error) {
      return null; // storage refused (private mode, a policy): no drafts, the form still works
    }
  }

  function keyOf(form) {
    return PREFIX + form.dataset.draftKey;
  }

  function read(key) {
    var store = storage();
    try {
      return store ? JSON.parse(store.getItem(key) || "null") : null;
    } catch (error) {
      return null;
    }
  }

  function write(key, draft) {
    var store = storage();
    try {
      if (store) store.setItem(key, JSON.stringify(draft));
    } catch (error) {
      // full or refused: the typing goes on without a draft
    }
  }

  function remove(key) {
    var store = storage();
    if (store) store.removeItem(key);
  }

  function fieldValue(form, name) {
    var input = form.elements[name];
    return input ? input.value : "";
  }

  // What the person typed: every named value but the form's own bookkeeping.
  function values(form) {
    var pairs = [];
    new FormData(form).forEach(function (value, name) {
      if (!SKIPPED[name] && typeof value === "string" && value !== "") pairs.push([name, value]);
    });
    return pairs;
  }

  function same(a, b) {
    return JSON.stringify(a) === JSON.stringify(b);
  }

  function apply(form, pairs) {
    var wanted = {};
    pairs.forEach(function (pair) { (wanted[pair[0]] = wanted[pair[0]] || []).push(pair[1]); });
    // The closer first: hand.js shows the fields that depend on it.
    var order = Array.prototype.slice.call(form.elements).sort(function (a, b) {
      return (b.name === "closer") - (a.name === "closer");
    });
    order.forEach(function (input) {
      if (!input.name || SKIPPED[input.name] || input.type === "submit" || input.type === "button") return;
      var given = wanted[input.name] || [];
      if (input.type === "radio" || input.type === "checkbox") {
        var on = given.indexOf(input.value) >= 0;
        if (input.checked !== on) {
          input.checked = on;
          input.dispatchEvent(new Event("change", { bubbles: true }));
        }
      } else if (input.value !== (given[0] || "")) {
        input.value = given[0] || "";
        input.dispatchEvent(new Event("input", { bubbles: true }));
        var closed = input.closest("details");
        if (input.value && closed) closed.open = true;
      }
    });
  }

  function ago(time) {
    var minutes = Math.round((Date.now() - time) / 60000);
    var lang = document.documentElement.lang || "es";
    try {
      var format = new Intl.RelativeTimeFormat(lang, { numeric: "auto", style: "short" });
      if (Math.abs(minutes) < 60) return format.format(-minutes, "minute");
      if (Math.abs(minutes) < 60 * 48) return format.format(-Math.round(minutes / 60), "hour");
      return format.format(-Math.round(minutes / 1440), "day");
    } catch (error) {
      return new Date(time).toLocaleString(lang);
    }
  }

  function offer(form, key, draft) {
    var data = form.dataset;
    var banner = document.createElement("div");
    banner.className = "draft-offer";
    banner.setAttribute("role", "status");
    var text = document.createElement("p");
    text.textContent = data.draftOffer.replace("{ago}", ago(draft.saved));
    banner.appendChild(text);

    function choice(label, secondary, action) {
      var b = document.createElement("button");
      b.type = "button";
      b.textContent = label;
      if (secondary) b.className = "secondary";
      b.addEventListener("click", function () {
        action();
        banner.remove();
      });
      banner.appendChild(b);
      return b;
    }

    var restore = choice(data.draftRestore, false, function () {
      apply(form, draft.values);
      keep(form, key);
    });
    choice(data.draftDiscard, true, function () { remove(key); });
    form.parentNode.insertBefore(banner, form);
    return restore;
  }

  function keep(form, key) {
    var draft = values(form);
    if (!draft.length) {
      remove(key);
      return;
    }
    write(key, { saved: Date.now(), values: draft, sentKey: null });
  }

  // The form of new hand N, or the edit of hand N, says hands before N (and N, when it is
  // edited) exist: the drafts of those new hands are done with.
  function dropEarlier(form) {
    var parts = form.dataset.draftKey.split(":");
    var store = storage();
    if (!store) return;
    var existing = parseInt(parts[2], 10) - (parts[1] === "new" ? 1 : 0);
    var stale = [];
    for (var i = 0; i < store.length; i++) {
      var other = (store.key(i) || "").slice(PREFIX.length).split(":");
      if (store.key(i).indexOf(PREFIX) === 0 && other[0] === parts[0] && other[1] === "new" &&
          parseInt(other[2], 10) <= existing) stale.push(store.key(i));
    }
    stale.forEach(function (key) { store.removeItem(key); });
  }

  function start(form) {
    var key = keyOf(form);
    var draft = read(key);
    var requestKey = fieldValue(form, "request_key");
    dropEarlier(form);
    if (draft && draft.sentKey && draft.sentKey === requestKey) {
      // The form came back from its own save, refused: it shows what was typed.
      draft.sentKey = null;
      write(key, draft);
    } else if (draft && same(draft.values, values(form))) {
      remove(key); // saved (or nothing new): nothing to offer
    } else if (draft && draft.values && draft.values.length) {
      offer(form, key, draft);
    }

    var timer = null;
    function soon() {
      clearTimeout(timer);
      timer = setTimeout(function () { keep(form, key); }, 150);
    }
    form.addEventListener("input", function (event) { if (event.isTrusted) soon(); });
    form.addEventListener("change", function (event) { if (event.isTrusted) soon(); });
    form.addEventListener("click", function (event) {
      // Steppers, presets and the sign button change values by script: keep those too.
      if (event.target.closest && event.target.closest("button[type=button]")) soon();
    });
    form.addEventListener("submit", function (event) {
      var submitter = event.submitter;
      if (submitter && submitter.value && submitter.value !== "save") return;
      clearTimeout(timer);
      var current = values(form);
      if (current.length) write(key, { saved: Date.now(), values: current, sentKey: requestKey });
    });
  }

  window.anotadorDrafts = {
    clear: function (form) {
      if (form && form.dataset && form.dataset.draftKey) remove(keyOf(form));
    },
  };

  var form = document.getElementById("hand-form");
  if (form && form.dataset.draftKey) start(form);
})();
