// Search over the edited text, the readings and the notes. Both the query and the texts are
// folded (variant forms, simplified and traditional, through the table built with the site)
// and stripped of punctuation, so that 宾 finds 賔 and 賓. The index comes in parts, one a
// chapter (the work's search loads them all), each with its own folds, links and label. Its words
// are the page's (messages.toml, in the page's language), and so are the links: a chapter's pages
// in the work's search are reached from the page's folder (data-root) in its language (data-folder).
(function () {
  "use strict";
  const parts = window.EDITION_SEARCH;
  const input = document.getElementById("q");
  const status = document.getElementById("search-status");
  const results = document.getElementById("results");
  const searchable = /[\p{L}\p{N}▯]/u;
  const page = JSON.parse(document.getElementById("messages").textContent);
  const say = (key, values) => page.script[key].replace(/\{(\w+)\}/g, (_, name) => values[name]);
  const kinds = { text: say("kind_text", {}), reading: say("kind_reading", {}), note: say("kind_note", {}) };
  const root = results.dataset.root || "";
  const folder = results.dataset.folder || "";
  // Where a part's links lead: a chapter's pages, from this page, in this page's language.
  const base = (part) => (part.base ? root + part.base + folder : "");
  const maxResults = 200;
  const context = 12;

  // The folded, searchable characters of a text and where each stands among its characters.
  function fold(text, folds) {
    const chars = Array.from(text);
    let folded = "";
    const at = [];
    chars.forEach((char, index) => {
      if (searchable.test(char)) {
        folded += folds[char] || char;
        at.push(index);
      }
    });
    return { chars, folded: Array.from(folded), at };
  }

  const entries = parts.flatMap((part) =>
    part.entries.map((entry) => Object.assign({ index: fold(entry.t, part.folds), part }, entry)),
  );

  function matches(index, query) {
    const found = [];
    outer: for (let i = 0; i + query.length <= index.folded.length; i++) {
      for (let j = 0; j < query.length; j++) if (index.folded[i + j] !== query[j]) continue outer;
      found.push([index.at[i], index.at[i + query.length - 1] + 1]);
    }
    return found;
  }

  // A place found, with the citation of its sentence (section.sentence) where the entry has them.
  function snippet(entry, from, to) {
    const chars = entry.index.chars;
    const p = document.createElement("p");
    p.lang = "lzh";
    p.className = "snippet";
    const sentence = (entry.c || []).filter(([start]) => start <= from).pop();
    if (sentence) {
      const cite = document.createElement("a");
      cite.className = "snippet-cite";
      cite.href = base(entry.part) + "index.html#" + sentence[2];
      cite.textContent = sentence[1];
      p.append(cite, " ");
    }
    const mark = document.createElement("mark");
    mark.textContent = chars.slice(from, to).join("");
    const before = chars.slice(Math.max(0, from - context), from).join("");
    const after = chars.slice(to, to + context).join("");
    p.append((from > context ? "…" : "") + before, mark, after + (to + context < chars.length ? "…" : ""));
    return p;
  }

  function run(text) {
    results.replaceChildren();
    const queries = new Map(parts.map((part) => [part, fold(text, part.folds).folded]));
    const query = queries.get(parts[0]);
    if (!query.length) {
      status.textContent = text ? say("nothing", { q: text }) : "";
      return;
    }
    const counts = { text: 0, reading: 0, note: 0 };
    let shownCount = 0;
    for (const entry of entries) {
      const found = matches(entry.index, queries.get(entry.part));
      if (!found.length) continue;
      counts[entry.k] += found.length;
      if (shownCount++ >= maxResults) continue;
      const item = document.createElement("li");
      item.className = "result result-" + entry.k;
      const link = document.createElement("a");
      link.href = base(entry.part) + entry.h;
      link.textContent =
        (entry.part.label ? entry.part.label + " " : "") + entry.s + (entry.y ? " " + (page.type[entry.y] || entry.y) : "");
      const kind = document.createElement("span");
      kind.className = "result-kind";
      kind.textContent = kinds[entry.k];
      item.append(kind, " ", link);
      const snippets = 3;
      for (const [from, to] of found.slice(0, snippets)) item.append(snippet(entry, from, to));
      if (found.length > snippets) item.append(say("places", { n: found.length, shown: snippets }));
      results.append(item);
    }
    const folded = query.join("");
    status.textContent =
      say("found", { text: counts.text, reading: counts.reading, note: counts.note, q: text }) +
      (folded !== text ? say("searched_as", { folded }) : "") +
      (shownCount > maxResults ? say("first_shown", { n: maxResults }) : say("end", {}));
  }

  input.addEventListener("input", () => {
    run(input.value.trim());
    const query = input.value.trim();
    history.replaceState(null, "", location.pathname + (query ? "?q=" + encodeURIComponent(query) : ""));
  });
  input.value = new URLSearchParams(location.search).get("q") || "";
  run(input.value.trim());
})();
