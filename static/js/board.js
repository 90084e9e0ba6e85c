// The tournament board (templates/tournaments/board.html) on a projector: its sheets (the
// standings, and while a round is drawn or played who sits where) are cut into pages of as many
// rows as the screen holds, and the board shows one page at a time, turning every few seconds.
// live.js swaps the board in when a table finishes; the board goes on from the page it was
// showing. Without this script every row shows, one sheet under the other.
(function () {
  "use strict";
  var TURN = 8000;
  var page = 0;

  function rowsOf(sheet) {
    return Array.prototype.slice.call(sheet.querySelectorAll("tbody tr"));
  }

  // Each page: a sheet and the rows of it that fit under the sheet's header on the screen,
  // each sheet measured as the only one shown (the page counter's line kept free).
  function cut() {
    var pages = [];
    var sheets = Array.prototype.slice.call(document.querySelectorAll(".t-board-sheet"));
    var counter = document.querySelector(".t-board-page");
    if (counter) counter.textContent = "1 / 1";
    sheets.forEach(function (sheet) {
      sheets.forEach(function (other) {
        other.hidden = other !== sheet;
      });
      var rows = rowsOf(sheet);
      rows.forEach(function (row) {
        row.hidden = false;
      });
      var body = sheet.querySelector("tbody");
      var end = counter ? counter.getBoundingClientRect().bottom : 0;
      var reserved = Math.max(0, end - (body ? body.getBoundingClientRect().bottom : 0)) + 8;
      var room = window.innerHeight - reserved - (body ? body.getBoundingClientRect().top : 0);
      var current = [];
      var used = 0;
      rows.forEach(function (row) {
        var height = row.getBoundingClientRect().height;
        if (current.length && used + height > room) {
          pages.push({ sheet: sheet, rows: current });
          current = [];
          used = 0;
        }
        current.push(row);
        used += height;
      });
      pages.push({ sheet: sheet, rows: current });
    });
    return pages;
  }

  function show() {
    var pages = cut();
    page = page % pages.length;
    var shown = pages[page];
    pages.forEach(function (each) {
      each.rows.forEach(function (row) {
        row.hidden = each !== shown;
      });
    });
    document.querySelectorAll(".t-board-sheet").forEach(function (sheet) {
      sheet.hidden = sheet !== shown.sheet;
    });
    var counter = document.querySelector(".t-board-page");
    if (counter) counter.textContent = pages.length > 1 ? page + 1 + " / " + pages.length : "";
  }

  setInterval(function () {
    page += 1;
    show();
  }, TURN);
  document.addEventListener("anotador:planilla-updated", show);
  window.addEventListener("resize", show);
  show();
})();
