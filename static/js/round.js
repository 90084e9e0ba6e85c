// The director's live round (templates/tournaments/round.html): polls the round's tables
// (tournaments.round_tables) every few seconds while the page is visible, with the ETag of
// what it shows (a 304 while nothing changed). When a table saved a hand, ended, was
// confirmed or called the director, each table's state (its .t-live block) is swapped in
// place; the forms the director may be filling (a result written by hand) are left alone.
// Without this script the page shows the round as it was loaded.
(function () {
  "use strict";
  var root = document.getElementById("t-round");
  if (!root || !root.dataset.url || !window.fetch || !window.DOMParser) return;
  var INTERVAL = 3000;
  var MAX_DELAY = 30000;
  var etag = root.dataset.etag;
  var delay = INTERVAL;
  var timer = null;
  var busy = false;

  function schedule(wait) {
    clearTimeout(timer);
    if (!document.hidden) timer = setTimeout(poll, wait);
  }

  function swap(html) {
    var fresh = new DOMParser().parseFromString(html, "text/html");
    fresh.querySelectorAll(".t-live[id]").forEach(function (block) {
      var shown = document.getElementById(block.id);
      if (!shown) return;
      var card = shown.closest(".t-table");
      var freshCard = block.closest(".t-table");
      if (card && freshCard) card.className = freshCard.className;
      shown.replaceWith(document.adoptNode(block));
    });
    document.dispatchEvent(new CustomEvent("anotador:round-updated"));
  }

  function poll() {
    if (busy || document.hidden) return;
    busy = true;
    fetch(root.dataset.url, {
      credentials: "same-origin",
      cache: "no-store",
      headers: { "If-None-Match": '"' + etag + '"', Accept: "text/html" },
    })
      .then(function (response) {
        if (response.status === 304) return null;
        if (!response.ok || response.redirected) throw new Error("HTTP " + response.status);
        var tag = (response.headers.get("ETag") || "").replace(/^W\//, "").replace(/"/g, "");
        return response.text().then(function (html) {
          swap(html);
          if (tag) etag = tag;
        });
      })
      .then(
        function () {
          delay = INTERVAL;
        },
        function () {
          delay = Math.min(delay * 2, MAX_DELAY); // offline, signed out, or restarting
        }
      )
      .then(function () {
        busy = false;
        schedule(delay);
      });
  }

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) poll();
  });
  schedule(INTERVAL);
})();
