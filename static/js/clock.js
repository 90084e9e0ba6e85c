// The round clock (templates/tournaments/_clock.html) on the board, the director's round page
// and a table's phone: each .t-clock counts down to its end (data-ends, milliseconds since the
// epoch) and, once it has run out, says so (data-up). The time is the server's: the page's
// frame says what the server's clock read when it drew it (data-server-now), so a phone whose
// own clock is wrong still counts right. live.js and round.js swap fresh parts in (a clock
// started, moved or stopped): each fresh frame is measured again when first seen.
// Without this script the clock says when the round ends.
(function () {
  "use strict";
  var TICK = 250;

  // How far the server's clock is ahead of this device's, as the frame of ``clock`` says.
  function skewOf(clock) {
    var frame = clock.closest("[data-server-now]") || document.querySelector("[data-server-now]");
    if (!frame) return 0;
    if (frame.dataset.skew === undefined) {
      frame.dataset.skew = String(parseInt(frame.dataset.serverNow, 10) - Date.now());
    }
    return parseInt(frame.dataset.skew, 10) || 0;
  }

  function two(number) {
    return (number < 10 ? "0" : "") + number;
  }

  // "12:05", or "1:02:05" past an hour.
  function shown(milliseconds) {
    var seconds = Math.ceil(milliseconds / 1000);
    var hours = Math.floor(seconds / 3600);
    var minutes = Math.floor((seconds % 3600) / 60);
    var rest = two(seconds % 60);
    return hours ? hours + ":" + two(minutes) + ":" + rest : minutes + ":" + rest;
  }

  function tick() {
    document.querySelectorAll(".t-clock[data-ends]").forEach(function (clock) {
      var left = parseInt(clock.dataset.ends, 10) - (Date.now() + skewOf(clock));
      var counter = clock.querySelector(".t-clock-left");
      var text = clock.querySelector(".t-clock-text");
      if (left > 0) {
        if (counter) counter.textContent = clock.dataset.left.replace("{time}", shown(left));
        return;
      }
      if (clock.classList.contains("is-up")) return;
      clock.classList.add("is-up");
      if (counter) counter.textContent = "";
      if (text) text.textContent = clock.dataset.up;
    });
  }

  document.addEventListener("anotador:planilla-updated", tick);
  document.addEventListener("anotador:round-updated", tick);
  setInterval(tick, TICK);
  tick();
})();
