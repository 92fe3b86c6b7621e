// The reading view: apparatus popovers, filters kept in the URL, Zheng Xuan's commentary on demand.
(function () {
  "use strict";
  const popover = document.getElementById("popover");
  const popoverBody = document.getElementById("popover-body");
  const popoverTitle = document.getElementById("popover-title");
  const popoverLink = document.getElementById("popover-link");
  const show = document.getElementById("show");
  const wit = document.getElementById("wit");
  const commentary = document.getElementById("commentary");
  const proposed = document.getElementById("proposed");
  const shown = document.getElementById("shown");
  const markers = Array.from(document.querySelectorAll("button.app"));
  // The page's words (messages.toml, in the page's language): "{n} entries" and the like.
  const messages = JSON.parse(document.getElementById("messages").textContent).script;
  const say = (key, values) => messages[key].replace(/\{(\w+)\}/g, (_, name) => values[name]);
  let opener = null;
  let refocused = null; // a marker given focus back on closing, not to be reopened by it

  // Which entries each choice of `show` keeps, from the tags an entry carries; the choices beyond
  // these are the traditions a commentator's notes report (jinwen, guwen), each its own tag.
  const filters = {
    all: () => true,
    major: (tags) => !tags.includes("minor"),
    substantive: (tags) => tags.includes("substantive"),
    jinguwen: (tags) => traditions.some((tradition) => tags.includes(tradition)),
    textual: (tags) => tags.includes("textual"),
  };
  const traditions = [...show.options].map((option) => option.value).filter((value) => !(value in filters));
  for (const tradition of traditions) filters[tradition] = (tags) => tags.includes(tradition);

  popover.tabIndex = -1;

  function place(marker) {
    const box = marker.getBoundingClientRect();
    const room = document.documentElement.clientWidth - popover.offsetWidth - 8;
    popover.style.left = window.scrollX + Math.max(8, Math.min(box.left, room)) + "px";
    popover.style.top = window.scrollY + box.bottom + 6 + "px";
  }

  function open(marker, moveFocus) {
    if (opener && opener !== marker) close(false);
    const entry = document.getElementById(marker.dataset.app);
    popoverBody.replaceChildren(entry.querySelector(".entry-body").cloneNode(true));
    popoverTitle.textContent = say("entry", { n: entry.querySelector(".entry-no").textContent });
    popoverLink.href = "#" + entry.id;
    popover.hidden = false;
    marker.setAttribute("aria-expanded", "true");
    opener = marker;
    place(marker);
    if (moveFocus) popover.focus();
  }

  function close(returnFocus) {
    if (!opener) return;
    const marker = opener;
    opener = null;
    popover.hidden = true;
    marker.setAttribute("aria-expanded", "false");
    if (returnFocus) {
      refocused = marker;
      marker.focus();
      refocused = null;
    }
  }

  for (const marker of markers) {
    marker.addEventListener("click", () => open(marker, true));
  }
  // Focusing a marker shows its entry; focus elsewhere (outside the popover) hides it.
  document.addEventListener("focusin", (event) => {
    if (event.target === refocused) return;
    if (event.target.matches("button.app")) open(event.target, false);
    else if (!popover.contains(event.target)) close(false);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && opener) close(true);
  });
  document.addEventListener("click", (event) => {
    if (opener && !popover.contains(event.target) && !event.target.matches("button.app")) close(false);
  });
  popover.querySelector(".popover-close").addEventListener("click", () => close(true));
  popoverLink.addEventListener("click", () => close(false));
  window.addEventListener("resize", () => opener && place(opener));

  function apply() {
    const keep = filters[show.value] || filters.all;
    const witness = wit.value;
    for (const element of document.querySelectorAll("[data-tags]")) {
      const tags = element.dataset.tags.split(" ");
      const on = keep(tags) && (!witness || tags.includes("w-" + witness));
      if (element.tagName === "BUTTON") {
        element.disabled = !on;
      } else {
        element.hidden = !on;
      }
    }
    for (const list of document.querySelectorAll("ol.apparatus")) {
      list.hidden = !list.querySelector("li:not([hidden])");
    }
    document.body.classList.toggle("with-commentary", commentary.checked);
    document.body.classList.toggle("show-proposed", proposed.checked);
    // entries, not markers (an entry whose lemma holds a note has a marker on each side of it);
    // those of the 注 count while it shows
    const counted = markers.filter((marker) => commentary.checked || !marker.closest(".zhu"));
    const all = new Set(counted.map((marker) => marker.dataset.app)).size;
    const on = new Set(counted.filter((marker) => !marker.disabled).map((marker) => marker.dataset.app)).size;
    shown.textContent = on === all ? say("entries", { n: all }) : say("entries_of", { n: on, all });
    if (opener && opener.disabled) close(false);
  }

  // The choice lives in the query string, so that a link or a reload keeps it.
  function save() {
    const params = new URLSearchParams();
    if (show.value !== "all") params.set("show", show.value);
    if (wit.value) params.set("wit", wit.value);
    if (commentary.checked) params.set("commentary", "on");
    if (!proposed.checked) params.set("proposed", "off");
    const query = params.toString();
    history.replaceState(null, "", location.pathname + (query ? "?" + query : "") + location.hash);
  }

  function restore() {
    const params = new URLSearchParams(location.search);
    if (params.get("show") in filters) show.value = params.get("show");
    if (Array.from(wit.options).some((o) => o.value === params.get("wit"))) wit.value = params.get("wit");
    commentary.checked = params.get("commentary") === "on";
    proposed.checked = params.get("proposed") !== "off";
  }

  for (const control of [show, wit, commentary, proposed]) {
    control.addEventListener("change", () => {
      apply();
      save();
    });
  }
  // The sentence whose number the reader followed (#c3.2): its citation and URN, and a button
  // that copies its text (as shown: the 注 while it shows) with them, and with its entries on request.
  const citeBar = document.getElementById("cite-bar");
  const left = ".leaf, .visually-hidden, .step-name, .layer-mark, .apparatus, .commentary-apparatus, h2";

  function followed() {
    const id = decodeURIComponent(location.hash.slice(1));
    const anchor = id && document.getElementById(id);
    return anchor && anchor.matches("a.cite") ? anchor : null;
  }

  // The sentence's text up to the next sentence's number (a note of the 注 in brackets), and the
  // entries marked in it.
  function sentence(anchor) {
    const walker = document.createTreeWalker(anchor.closest("section"), NodeFilter.SHOW_TEXT);
    walker.currentNode = anchor;
    let text = "";
    let inNote = false;
    const apps = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      const number = parent.closest("a.cite");
      if (number && number !== anchor) break;
      const note = parent.closest(".zhu");
      if (number || parent.closest(left) || (note && !commentary.checked)) continue;
      if (Boolean(note) !== inNote) text += (inNote = Boolean(note)) ? say("note_open", {}) : say("note_close", {});
      const marker = parent.closest("button.app");
      if (marker && !apps.includes(marker.dataset.app)) apps.push(marker.dataset.app);
      text += node.textContent;
    }
    return { text: text.trim() + (inNote ? say("note_close", {}) : ""), apps };
  }

  function cite() {
    const anchor = followed();
    citeBar.hidden = !anchor;
    if (!anchor) return;
    const n = anchor.textContent;
    document.getElementById("cite-label").textContent = say("cited", { title: citeBar.dataset.title, n });
    document.getElementById("cite-urn").textContent = citeBar.dataset.prefix + n;
    document.getElementById("cite-done").textContent = "";
  }

  document.getElementById("cite-copy")?.addEventListener("click", async () => {
    const anchor = followed();
    const { text, apps } = sentence(anchor);
    const n = anchor.textContent;
    const lines = [say("citation", { text, cited: say("cited", { title: citeBar.dataset.title, n }), urn: citeBar.dataset.prefix + n })];
    if (document.getElementById("cite-entries").checked) {
      for (const id of apps) {
        const entry = document.getElementById(id);
        const label = say("entry", { n: entry.querySelector(".entry-no").textContent });
        lines.push(say("cited_entry", { entry: label, body: entry.querySelector(".entry-body").textContent }));
      }
    }
    const copied = lines.join("\n");
    citeBar.dataset.copied = copied;
    try {
      await navigator.clipboard.writeText(copied);
    } catch {
      const field = Object.assign(document.createElement("textarea"), { value: copied });
      citeBar.append(field);
      field.select();
      document.execCommand("copy");
      field.remove();
    }
    document.getElementById("cite-done").textContent = say("copied", {});
  });

  restore();
  apply();
  if (citeBar) {
    window.addEventListener("hashchange", cite);
    cite();
  }
  // A link into a note that was hidden until now: go there again once it shows.
  const target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
  if (target) target.scrollIntoView();
})();
