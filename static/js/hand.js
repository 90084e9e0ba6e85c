// The hand form, enhanced: steppers, live card calculator, penalty presets, a live preview
// computed by the server, and one save per tap. Without JavaScript every part still works
// through plain submit buttons.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  // Confirmation dialogs for delete and undo (without JS the server asks on its own page).
  document.querySelectorAll("form[data-confirm]").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (!window.confirm(form.dataset.confirm)) {
        event.preventDefault();
        return;
      }
      var confirmed = document.createElement("input");
      confirmed.type = "hidden";
      confirmed.name = "confirm";
      confirmed.value = "1";
      form.appendChild(confirmed);
    });
  });

  var form = document.getElementById("hand-form");
  if (!form) return;
  var data = form.dataset;

  function number(input) {
    var value = parseInt((input.value || "").replace("−", "-"), 10);
    return isNaN(value) ? 0 : value;
  }

  function button(text, label, onClick) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "step";
    b.textContent = text;
    b.setAttribute("aria-label", label);
    b.addEventListener("click", onClick);
    return b;
  }

  function changed(input) {
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }

  // − / + steppers on every count (canastas, red threes, cards of a kind).
  form.querySelectorAll('.count input, .card input').forEach(function (input) {
    var label = form.querySelector('label[for="' + input.id + '"]');
    var name = label ? label.textContent : "";
    var wrap = document.createElement("div");
    wrap.className = "stepper";
    input.parentNode.insertBefore(wrap, input);
    // The usual counts (a hand's canastas and threes) sit three to a row: "+" only, a
    // wrong count is typed again.
    if (!input.closest(".counts")) {
      wrap.appendChild(button("−", data.minus + ": " + name, function () {
        input.value = Math.max(0, number(input) - 1) || "";
        changed(input);
      }));
    }
    wrap.appendChild(input);
    wrap.appendChild(button("+", data.plus + ": " + name, function () {
      input.value = number(input) + 1;
      changed(input);
    }));
  });

  // A sign button for adjustments, so the numeric keypad (which has no minus) is enough.
  form.querySelectorAll(".signed_points input").forEach(function (input) {
    input.setAttribute("inputmode", "numeric");
    var wrap = document.createElement("div");
    wrap.className = "stepper";
    input.parentNode.insertBefore(wrap, input);
    wrap.appendChild(button("±", data.sign, function () {
      input.value = -number(input) || "";
      changed(input);
    }));
    wrap.appendChild(input);
  });

  // The card calculator: counts times the variant's values, summed into the points field.
  form.querySelectorAll(".calc-group").forEach(function (group) {
    var target = document.getElementById(group.dataset.target);
    var output = group.querySelector("output");
    group.addEventListener("input", function (event) {
      if (!event.target.dataset.value) return;
      var sum = 0;
      group.querySelectorAll("input[data-value]").forEach(function (input) {
        sum += number(input) * parseInt(input.dataset.value, 10);
      });
      output.textContent = sum;
      target.value = sum || "";
      changed(target);
    });
  });

  // Canastone's penalty presets add to the adjustment and its note.
  form.querySelectorAll(".preset").forEach(function (preset) {
    preset.addEventListener("click", function (event) {
      event.preventDefault();
      var side = preset.dataset.side;
      var adjustment = document.getElementById("s" + side + "_adjustment");
      var note = document.getElementById("s" + side + "_adjustment_note");
      adjustment.value = number(adjustment) + parseInt(preset.dataset.points, 10);
      note.value = note.value.trim() ? note.value.trim() + "; " + preset.dataset.note : preset.dataset.note;
      changed(adjustment);
    });
  });

  // The closer first: once chosen, its side moves to the top of the sides, with "en mano"
  // (concealed: it only means something for a side that went out) at its head, and the
  // closer's hand points hidden where the closer holds no cards (each side one player). What
  // is hidden is disabled too, so it is not sent.
  var concealed = ["f-concealed", "f-concealed_kind"]
    .map(function (id) { return document.getElementById(id); })
    .filter(Boolean);
  var concealedHome = concealed.length ? concealed[0].parentNode : null;
  var concealedNext = concealed.length ? concealed[concealed.length - 1].nextSibling : null;
  var sections = Array.prototype.slice.call(form.querySelectorAll("section.side"));
  var sidesStart = sections.length ? sections[0].previousSibling : null;

  function toggle(field, shown) {
    field.hidden = !shown;
    field.querySelectorAll("input").forEach(function (input) { input.disabled = !shown; });
  }

  function closerSide() {
    var chosen = form.querySelector('input[name="closer"]:checked');
    var section = chosen && document.getElementById("side-section-" + chosen.value);
    return section || null;
  }

  function followCloser() {
    var closer = closerSide();
    var order = closer ? [closer].concat(sections.filter(function (s) { return s !== closer; })) : sections;
    var before = sidesStart ? sidesStart.nextSibling : form.firstChild;
    order.forEach(function (section) {
      if (section !== before) section.parentNode.insertBefore(section, before);
      before = section.nextSibling;
    });
    concealed.forEach(function (field) {
      toggle(field, Boolean(closer));
      if (closer) closer.insertBefore(field, closer.querySelector(".counts"));
      else concealedHome.insertBefore(field, concealedNext);
    });
    if (data.closerEmpty) {
      sections.forEach(function (section) {
        var field = document.getElementById("f-s" + section.dataset.side + "_" + data.closerEmpty);
        if (field) toggle(field, section !== closer);
      });
    }
    hintKeys();
  }

  // The inputs typed in, in the order they are shown: what is hidden, disabled or inside a
  // closed section (the calculator, the adjustment, "more kinds") is skipped. Chromium gives
  // an input in a closed <details> an offsetParent, so that is checked on its own.
  function entries() {
    return Array.prototype.filter.call(
      form.querySelectorAll("input[data-kind], input[type=text]:not([data-kind])"),
      function (input) {
        return !input.disabled && input.offsetParent !== null && !input.closest("details:not([open]), [hidden]");
      }
    );
  }

  // The field after ``input`` or, after the last one, the Save button (a second Enter saves).
  function focusAfter(input) {
    var all = entries();
    var index = all.indexOf(input);
    if (index < 0) return false;
    var next = all[index + 1] || form.querySelector(".actions button.save");
    if (!next) return false;
    next.focus();
    if (next.tagName === "BUTTON") next.scrollIntoView({ block: "nearest" });
    return true;
  }

  // The keypad's Enter key says "next", and "done" on the last field.
  function hintKeys() {
    var all = entries();
    all.forEach(function (input, index) {
      input.setAttribute("enterkeyhint", index === all.length - 1 ? "done" : "next");
    });
  }

  form.addEventListener("change", function (event) {
    if (event.target.name !== "closer") return;
    followCloser();
    // Straight to the closer's first count: the keypad opens on it.
    var closer = closerSide();
    var first = closer && entries().filter(function (input) { return closer.contains(input); })[0];
    if (first) first.focus();
  });
  followCloser();
  // Opening or closing a section changes what comes next.
  form.addEventListener("toggle", hintKeys, true);

  // A count is one digit in practice (canastas of a kind, threes): typing it into an empty
  // count moves on to the next field. A second digit can still be typed after going back.
  form.addEventListener("input", function (event) {
    var input = event.target;
    if (event.inputType !== "insertText" || input.dataset.kind !== "count") return;
    if (input.closest(".calc-group")) return;
    if (/^[0-9]$/.test(input.value)) focusAfter(input);
  });

  // Enter (the keypad's "next") goes to the next field; on the last one it saves.
  form.addEventListener("keydown", function (event) {
    var input = event.target;
    if (event.key !== "Enter" || input.tagName !== "INPUT" || input.type === "radio" || input.type === "checkbox") return;
    if (focusAfter(input)) event.preventDefault();
  });

  // After a failed save the focus goes to the summary of what stops it (it links to each
  // field), not to the top of the page with the problems below the fold.
  var summary = document.getElementById("problemas");
  if (summary) summary.focus();

  // The live preview: the server scores the hand with the engine, debounced.
  var table = document.getElementById("preview-table");
  var empty = document.getElementById("preview-empty");
  var list = document.getElementById("preview-problems");
  var line = document.getElementById("preview-line");
  var timer = null;
  var sequence = 0;
  // The pause lets the typing settle before asking the server. The first change is previewed
  // at once (one request per form), and without a connection each change is: the phone's own
  // engine answers, with no server to spare.
  var PAUSE_MS = 350;
  var previewed = false;
  var byEngine = false;

  var blocked = document.getElementById("preview-blocked");
  var blockedList = blocked.querySelector("ul");

  // The preview's problems replace those the page was rendered with (the same checks, so
  // a message is never shown twice).
  function clearMessages() {
    form.querySelectorAll(".field .msg").forEach(function (node) { node.remove(); });
    form.querySelectorAll(".field.invalid").forEach(function (node) {
      node.classList.remove("invalid");
      node.querySelectorAll("[aria-invalid]").forEach(function (input) { input.removeAttribute("aria-invalid"); });
    });
    list.textContent = "";
    blockedList.textContent = "";
  }

  // Form-level messages the summary at the top already says are not repeated.
  var summaryText = summary ? summary.textContent : "";

  function show(problem) {
    var field = problem.field && document.getElementById("f-" + problem.field);
    if (!field && summaryText.indexOf(problem.message) >= 0) return;
    var p = document.createElement(field ? "p" : "li");
    p.className = "msg live " + problem.severity;
    p.textContent = problem.message;
    if (field) {
      field.appendChild(p);
      if (problem.severity === "error") {
        field.classList.add("invalid");
        var input = document.getElementById(problem.target) || field.querySelector("input");
        if (input && field.tagName !== "FIELDSET") input.setAttribute("aria-invalid", "true");
      }
    } else {
      list.appendChild(p);
    }
  }

  // What stops the preview, as links to each field (the message is beside the field).
  function showBlocked(problems) {
    var seen = {};
    problems.forEach(function (problem) {
      if (problem.severity !== "error" || !problem.target || seen[problem.target]) return;
      seen[problem.target] = true;
      var item = document.createElement("li");
      var link = document.createElement("a");
      link.href = "#" + problem.target;
      link.textContent = problem.label;
      item.appendChild(link);
      blockedList.appendChild(item);
    });
    blocked.hidden = !blockedList.children.length;
    return Array.prototype.map.call(blockedList.children, function (item) { return item.textContent; });
  }

  function render(result) {
    clearMessages();
    var body = table.tBodies[0];
    body.textContent = "";
    result.sides.forEach(function (side) {
      var row = body.insertRow();
      var head = document.createElement("th");
      head.scope = "row";
      head.textContent = side.name + (side.winner ? " 🏆" : "");
      row.appendChild(head);
      [side.score_text, side.total_text, side.minimum_text]
        .forEach(function (text, index) {
          var cell = row.insertCell();
          cell.className = index === 1 ? "num big" : "num";
          cell.textContent = text;
        });
    });
    result.problems.forEach(show);
    var stops = showBlocked(result.ok ? [] : result.problems);
    // One line a side in the save bar: the name (shortened there) and its figures.
    line.textContent = result.ok ? "" : (stops.length ? blocked.querySelector("p").textContent + " " + stops.join(", ") : "");
    if (result.ok) result.sides.forEach(function (side) {
      var row = line.appendChild(document.createElement("span"));
      row.appendChild(document.createElement("span")).textContent = side.name;
      row.appendChild(document.createTextNode(" "));
      row.appendChild(document.createElement("span")).textContent = side.score_text + " → " + side.total_text;
    });
    table.hidden = !result.ok;
    empty.hidden = result.ok || stops.length > 0;
  }

  // What the form holds now, to tell whether the last preview shown is of it.
  function typed() {
    var body = new FormData(form);
    body.delete("action");
    return body;
  }

  // The last preview shown and the form it scored: a hand saved without a connection keeps
  // its figures (offline.js), for a phone whose engine cannot start.
  var lastPreview = null;

  function showPreview(result, asked) {
    render(result);
    lastPreview = result.ok ? { result: result, typed: asked } : null;
  }

  function figures() {
    var current = new URLSearchParams(typed()).toString();
    return lastPreview && lastPreview.typed === current ? lastPreview.result : null;
  }

  function preview() {
    previewed = true;
    var body = typed();
    var asked = new URLSearchParams(body).toString();
    var mine = ++sequence;
    fetch(data.previewUrl, { method: "POST", body: body, credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (result) {
        if (!result) return;
        byEngine = false;
        if (mine === sequence) showPreview(result, asked);
      })
      .catch(function () {
        if (mine !== sequence) return;
        // No connection: the phone's engine scores it (offline.js), when this form has one.
        var offline = window.anotadorOffline ? window.anotadorOffline.preview() : Promise.reject();
        offline.then(function (result) {
          byEngine = true;
          if (mine === sequence) showPreview(result, asked);
        }).catch(function () {
          if (mine === sequence) { list.textContent = ""; show({ field: "", severity: "warning", message: data.offline }); }
        });
      });
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(preview, !previewed || byEngine || !navigator.onLine ? 0 : PAUSE_MS);
  }

  form.addEventListener("input", schedule);
  form.addEventListener("change", schedule);
  // A corrected hand, or a form shown again, is previewed right away.
  if (form.querySelector('input[name="closer"]:checked')) preview();

  // One save per tap: later taps (and Enter) are ignored while the first one is on its way.
  var sent = false;
  form.addEventListener("submit", function (event) {
    var submitter = event.submitter;
    if (submitter && submitter.value && submitter.value !== "save") return;
    if (sent) {
      event.preventDefault();
      return;
    }
    sent = true;
    form.dataset.savedOnce = "1";
    form.querySelectorAll('button[value="save"]').forEach(function (b) {
      b.setAttribute("aria-disabled", "true");
      if (b.classList.contains("save")) {
        b.dataset.label = b.textContent;
        b.textContent = data.saving;
      }
      setTimeout(function () { b.disabled = true; }, 0);
    });
  });
  // Coming back through the browser's history (back after saving) must show the form as
  // it is now, not the hand just saved: a form restored from the back-forward cache is
  // fetched again (a GET: the next hand's empty form, with a new request key and version).
  // The form's autocomplete="off" keeps the browser from refilling a fetched one.
  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) return;
    if (form.dataset.savedOnce === "1") {
      window.location.replace(window.location.href);
      return;
    }
    readyAgain();
  });

  function readyAgain() {
    sent = false;
    delete form.dataset.savedOnce;
    form.querySelectorAll('button[value="save"]').forEach(function (b) {
      b.disabled = false;
      b.removeAttribute("aria-disabled");
      if (b.dataset.label) b.textContent = b.dataset.label;
    });
  }
  // The form shown again in the same page (a refused save, the next hand typed without a
  // connection): Save takes a tap again, here and in offline.js.
  form.addEventListener("anotador:hand-ready", readyAgain);

  // A save refused by the server, sent by offline.js without leaving the page: its answer (the
  // form the server drew again) is shown in place. What was typed stays as typed; the server's
  // messages, the summary of what stops the save, the totals the hand starts from and the
  // hidden fields (a fresh version, key or token) come from its page. False when the answer
  // is no hand form.
  function showAnswer(doc) {
    var fresh = doc.getElementById("hand-form");
    var page = form.closest(".hand-page");
    if (!fresh || !page) return false;
    ["csrf_token", "request_key", "version"].forEach(function (name) {
      var mine = form.querySelector('input[name="' + name + '"]');
      var theirs = fresh.querySelector('input[name="' + name + '"]');
      if (mine && theirs) mine.value = theirs.value;
    });
    page.querySelectorAll(":scope > #problemas, :scope > .notice").forEach(function (node) { node.remove(); });
    doc.querySelectorAll(".hand-page > #problemas, .hand-page > .notice").forEach(function (node) {
      page.insertBefore(document.adoptNode(node), form);
    });
    [".hand-page h1", "table.standing"].forEach(function (selector) {
      var old = document.querySelector(selector);
      var theirs = doc.querySelector(selector);
      if (old && theirs) old.replaceWith(document.adoptNode(theirs));
    });
    clearMessages();
    fresh.querySelectorAll(".field[id]").forEach(function (theirs) {
      var mine = document.getElementById(theirs.id);
      if (!mine) return;
      theirs.querySelectorAll(".msg").forEach(function (message) { mine.appendChild(document.adoptNode(message)); });
      theirs.querySelectorAll("[aria-invalid]").forEach(function (input) {
        var typed = document.getElementById(input.id);
        if (typed) typed.setAttribute("aria-invalid", "true");
      });
      if (!theirs.classList.contains("invalid")) return;
      mine.classList.add("invalid");
      var closed = mine.closest("details");
      if (closed) closed.open = true;
    });
    summary = document.getElementById("problemas");
    summaryText = summary ? summary.textContent : "";
    form.dispatchEvent(new Event("anotador:hand-ready"));
    if (summary) summary.focus();
    preview();  // as for a form shown again by the server
    return true;
  }

  // An empty form for the next hand, in the same page (offline.js, without a connection).
  function clearHand() {
    form.querySelectorAll("input").forEach(function (input) {
      if (input.type === "radio" || input.type === "checkbox") input.checked = false;
      else if (input.type !== "hidden") input.value = "";
    });
    form.querySelectorAll("output").forEach(function (output) { output.textContent = "0"; });
    followCloser();
    clearMessages();
    table.hidden = true;
    empty.hidden = false;
    blocked.hidden = true;
    line.textContent = "";
    var old = document.getElementById("problemas");
    if (old) old.remove();
    summary = null;
    summaryText = "";
  }

  window.anotadorHand = { showAnswer: showAnswer, clear: clearHand, figures: figures };
})();
