// Player-name inputs marked data-player-suggest get a native list of registered names that
// match what is typed (accents and case aside). Without JavaScript they stay plain inputs.
(function () {
  "use strict";
  var URL = "/jugadores/sugerencias";
  var count = 0;

  function enhance(input) {
    if (input.list) return;
    var list = document.createElement("datalist");
    list.id = "player-suggestions-" + ++count;
    input.after(list);
    input.setAttribute("list", list.id);
    var timer = null;
    var asked = "";
    input.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        var text = input.value.trim();
        if (!text || text === asked) return;
        asked = text;
        fetch((input.dataset.playerSuggest || URL) + "?q=" + encodeURIComponent(text), {
          headers: { Accept: "application/json" },
        })
          .then(function (response) { return response.ok ? response.json() : []; })
          .then(function (names) {
            list.replaceChildren.apply(list, names.map(function (name) {
              var option = document.createElement("option");
              option.value = name;
              return option;
            }));
          })
          .catch(function () { /* no signal at the table: typing still works */ });
      }, 150);
    });
  }

  function enhanceAll(root) {
    root.querySelectorAll("input[data-player-suggest]").forEach(enhance);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { enhanceAll(document); });
  } else {
    enhanceAll(document);
  }
  window.anotadorPlayerSuggest = enhanceAll;
})();
