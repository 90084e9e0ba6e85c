// Progressive: every page works without this file.
"use strict";
document.documentElement.classList.add("js");

// Keep the screen awake on the match page while it is visible (where the browser allows it).
(function keepAwake() {
  if (!document.querySelector("[data-wake-lock]") || !("wakeLock" in navigator)) return;
  const request = () => navigator.wakeLock.request("screen").catch(() => {});
  request();
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") request();
  });
})();

// New match: a change of variant or players sets that choice's defaults in place.
(function newMatch() {
  const form = document.querySelector("form[data-new-match]");
  const source = document.getElementById("match-defaults");
  if (!form || !source) return;
  const info = JSON.parse(source.textContent);
  const all = (selector) => Array.from(form.querySelectorAll(selector));
  const checked = (name) => (form.querySelector(`[name="${name}"]:checked`) || {}).value;
  const defaultNames = new Set(Object.values(info.layouts).flatMap((layout) => layout.names));

  function set(name, value) {
    for (const input of all(`[name="${name}"]`)) {
      if (input.type === "radio") input.checked = input.value === String(value);
      else if (input.type === "checkbox") input.checked = Boolean(value);
      else input.value = value === null || value === undefined ? "" : String(value);
    }
  }

  function dealerChoices(shape) {
    const select = form.querySelector('[name="first_dealer"]');
    if (!select) return;
    const keep = select.value;
    const template = select.dataset.playerLabel || "%d";
    while (select.options.length > 1) select.remove(1);
    for (let seat = 0; seat < shape.sides * shape.players; seat += 1) {
      const side = seat % shape.sides;
      const index = Math.floor(seat / shape.sides);
      const sideName = form.querySelector(`[name="side_${side}"]`).value.trim() || String(side + 1);
      let text = sideName;
      if (shape.players > 1) {
        const player = form.querySelector(`[name="player_${side}_${index}"]`).value.trim();
        text += ": " + (player || template.replace("%d", index + 1));
      }
      select.add(new Option(text, String(seat), false, String(seat) === keep));
    }
  }

  function currentShape() {
    return info.layouts[checked("layout")] || info.layouts["4p"];
  }

  function apply() {
    const name = checked("variant");
    const variant = info.variants[name];
    if (!variant) return;
    for (const radio of all('[name="layout"]')) radio.disabled = !(radio.value in variant.layouts);
    let layout = checked("layout");
    if (!(layout in variant.layouts)) {
      layout = Object.keys(variant.layouts)[0];
      set("layout", layout);
    }
    const defaults = variant.layouts[layout];
    for (const key of ["target", "decks", "canastas_to_close", "tie", ...variant.options]) {
      set(variant.options.includes(key) ? `${name}__${key}` : key, defaults[key]);
    }
    for (const box of all("[data-needs]")) box.hidden = !(box.dataset.needs in defaults);
    for (const group of all("[data-options-for]")) {
      group.hidden = group.disabled = group.dataset.optionsFor !== name;
    }
    const shape = info.layouts[layout];
    for (const fieldset of all("[data-side]")) {
      const side = Number(fieldset.dataset.side);
      fieldset.hidden = side >= shape.sides;
      const legend = fieldset.querySelector("legend");
      legend.textContent = shape.players === 1 ? fieldset.dataset.labelPlayer : fieldset.dataset.labelSide;
      const input = form.querySelector(`[name="side_${side}"]`);
      const typed = input.value.trim();
      if (side < shape.sides && (!typed || defaultNames.has(typed))) input.value = shape.names[side];
      for (const slot of fieldset.querySelectorAll("[data-player]")) {
        slot.hidden = shape.players === 1 || Number(slot.dataset.player) >= shape.players;
      }
    }
    for (const slot of all("[data-start]")) slot.hidden = Number(slot.dataset.start) >= shape.sides;
    dealerChoices(shape);
  }

  form.addEventListener("change", (event) => {
    if (event.target.name === "variant" || event.target.name === "layout") apply();
  });
  form.addEventListener("input", (event) => {
    if (/^(side|player)_/.test(event.target.name)) dealerChoices(currentShape());
  });
})();

// A new tournament: only the chosen variant's own rules are shown (and sent).
(function tournamentHouseRules() {
  const form = document.querySelector("form[data-house-rules]");
  const variant = form && form.querySelector('[name="variant"]');
  if (!variant) return;
  function show() {
    for (const group of form.querySelectorAll("[data-options-for]")) {
      group.hidden = group.disabled = group.dataset.optionsFor !== variant.value;
    }
  }
  variant.addEventListener("change", show);
  show();
})();

// Copy and share a link or a result ([data-share] boxes): the clipboard, and the phone's own
// share sheet where the browser has one. Without this the link or text is there to select.
(function shareButtons() {
  function copy(value) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(value);
    // Plain HTTP on the LAN has no clipboard API: the older command still copies.
    return new Promise((resolve, reject) => {
      const area = document.createElement("textarea");
      area.value = value;
      area.readOnly = true;
      area.className = "visually-hidden";
      document.body.appendChild(area);
      area.select();
      const done = document.execCommand("copy");
      area.remove();
      if (done) resolve();
      else reject(new Error("copy"));
    });
  }

  for (const box of document.querySelectorAll("[data-share]")) {
    const link = box.querySelector("[data-share-url]");
    const source = link || box.querySelector("[data-share-text]");
    const actions = box.querySelector(".share-actions");
    if (!source || !actions) continue;
    const value = () => (link ? link.value : source.textContent.trim());
    const status = actions.querySelector("[role=status]");
    const copyButton = actions.querySelector("[data-copy]");
    const shareButton = actions.querySelector("[data-share-sheet]");
    actions.hidden = false;
    copyButton.addEventListener("click", () => {
      copy(value()).then(
        () => { status.textContent = copyButton.dataset.done; },
        () => {
          if (link) link.select();
          status.textContent = copyButton.dataset.failed;
        }
      );
    });
    const shared = () => (link ? { title: box.dataset.shareTitle, url: value() } : { title: box.dataset.shareTitle, text: value() });
    if (navigator.share && (!navigator.canShare || navigator.canShare(shared()))) {
      shareButton.hidden = false;
      // A share the person cancels is no error.
      shareButton.addEventListener("click", () => navigator.share(shared()).catch(() => {}));
    }
  }
})();
