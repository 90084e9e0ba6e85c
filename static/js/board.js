// The tournament board (templates/tournaments/board.html) on a projector: when the standings
// are longer than a screen, it shows them a page of rows at a time and turns the page every
// few seconds. live.js swaps the page in when a table finishes; the board goes on from the
// page it was showing.
(function () {
  "use strict";
  var ROWS = 12;
  var TURN = 8000;
  var page = 0;

  function rows() {
    return Array.prototype.slice.call(document.querySelectorAll(".t-board tbody tr"));
  }

  function show() {
    var all = rows();
    var pages = Math.max(1, Math.ceil(all.length / ROWS));
    page = page % pages;
    all.forEach(function (row, index) {
      row.hidden = pages > 1 && Math.floor(index / ROWS) !== page;
    });
    var counter = document.querySelector(".t-board-page");
    if (counter) counter.textContent = pages > 1 ? page + 1 + " / " + pages : "";
  }

  setInterval(function () {
    page += 1;
    show();
  }, TURN);
  document.addEventListener("anotador:planilla-updated", show);
  show();
})();
