// The director's buttons that cannot simply be taken back (templates/tournaments/show.html,
// _round_page.html): a form with data-confirm asks with the browser's own dialog and, when the
// director agrees, is sent with "confirmed" (anotador/tournaments/web/asking.py). Without this
// script the server answers a confirmation page instead. Listens on the document, so forms a
// live view swaps in are asked too.
(function () {
  "use strict";
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-confirm")) return;
    if (!window.confirm(form.getAttribute("data-confirm"))) {
      event.preventDefault();
      return;
    }
    var field = form.querySelector("input[name=confirmed]");
    if (!field) {
      field = document.createElement("input");
      field.type = "hidden";
      field.name = "confirmed";
      form.appendChild(field);
    }
    field.value = "1";
  });
})();
