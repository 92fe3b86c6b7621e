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
  const pager = document.getElementById("pager");
  const searchable = /[\p{L}\p{N}▯]/u;
  const page = JSON.parse(document.getElementById("messages").textContent);
  const say = (key, values) => page.script[key].replace(/\{(\w+)\}/g, (_, name) => values[name]);
  const kinds = { text: say("kind_text", {}), reading: say("kind_reading", {}), note: say("kind_note", {}) };
  const root = results.dataset.root || "";
  const folder = results.dataset.folder || "";
  // Where a part's links lead: a chapter's pages, from this page, in this page's language.
  const base = (part) => (part.base ? root + part.base + folder : "");
  const pageSize = 50; // results (entries found) a page
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

  // The places found, a page of them at a time; the page lives in the query string beside the query.
  function run(text, wanted) {
    results.replaceChildren();
    pager.replaceChildren();
    const queries = new Map(parts.map((part) => [part, fold(text, part.folds).folded]));
    const query = queries.get(parts[0]);
    if (!query.length) {
      status.textContent = text ? say("nothing", { q: text }) : "";
      return;
    }
    const counts = { text: 0, reading: 0, note: 0 };
    const hits = [];
    for (const entry of entries) {
      const found = matches(entry.index, queries.get(entry.part));
      if (!found.length) continue;
      counts[entry.k] += found.length;
      hits.push([entry, found]);
    }
    const pages = Math.max(1, Math.ceil(hits.length / pageSize));
    const current = Math.min(Math.max(1, wanted || 1), pages);
    for (const [entry, found] of hits.slice((current - 1) * pageSize, current * pageSize)) {
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
    results.start = (current - 1) * pageSize + 1;
    const folded = query.join("");
    status.textContent =
      say("found", { text: counts.text, reading: counts.reading, note: counts.note, q: text }) +
      (folded !== text ? say("searched_as", { folded }) : "") +
      (pages > 1
        ? say("page_shown", { from: results.start, to: results.start + results.children.length - 1, all: hits.length })
        : say("end", {}));
    if (pages > 1) {
      const go = (number, label, rel) => {
        const link = document.createElement("a");
        link.href = "?" + new URLSearchParams({ q: text, page: number });
        link.textContent = label;
        if (rel) link.rel = rel;
        if (number === current) link.setAttribute("aria-current", "page");
        link.addEventListener("click", (event) => {
          event.preventDefault();
          show(text, number);
          status.scrollIntoView();
        });
        return link;
      };
      if (current > 1) pager.append(go(current - 1, say("previous", {}), "prev"), " ");
      for (let number = 1; number <= pages; number++) pager.append(go(number, String(number)), " ");
      if (current < pages) pager.append(go(current + 1, say("next", {}), "next"));
    }
  }

  function show(text, number) {
    run(text, number);
    const query = new URLSearchParams();
    if (text) query.set("q", text);
    if (text && number > 1) query.set("page", number);
    history.replaceState(null, "", location.pathname + (query.toString() ? "?" + query : ""));
  }

  input.addEventListener("input", () => show(input.value.trim(), 1));
  const asked = new URLSearchParams(location.search);
  input.value = asked.get("q") || "";
  run(input.value.trim(), parseInt(asked.get("page") || "1", 10));
})();
