// Search over the edited text, the readings and the notes. Both the query and the texts are
// folded (variant forms, simplified and traditional, through the table built with the site)
// and stripped of punctuation, so that 宾 finds 賔 and 賓. The index comes in parts, one a
// chapter (the work's search loads them all), each with its own folds, links and label.
(function () {
  "use strict";
  const parts = window.EDITION_SEARCH;
  const input = document.getElementById("q");
  const status = document.getElementById("search-status");
  const results = document.getElementById("results");
  const searchable = /[\p{L}\p{N}▯]/u;
  const kinds = { text: "Text", reading: "Reading", note: "注 Note" };
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
      cite.href = entry.part.base + "index.html#" + sentence[2];
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
      status.textContent = text ? "Nothing to search for in “" + text + "”." : "";
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
      link.href = entry.part.base + entry.h;
      link.textContent = (entry.part.label ? entry.part.label + " " : "") + entry.s;
      const kind = document.createElement("span");
      kind.className = "result-kind";
      kind.textContent = kinds[entry.k];
      item.append(kind, " ", link);
      for (const [from, to] of found.slice(0, 3)) item.append(snippet(entry, from, to));
      if (found.length > 3) item.append(" (" + found.length + " places)");
      results.append(item);
    }
    const folded = query.join("");
    status.textContent =
      counts.text + " in the text, " + counts.reading + " in readings, " + counts.note + " in notes for “" + text + "”" +
      (folded !== text ? " (searched as " + folded + ")" : "") + (shownCount > maxResults ? "; the first " + maxResults + " places shown." : ".");
  }

  input.addEventListener("input", () => {
    run(input.value.trim());
    const query = input.value.trim();
    history.replaceState(null, "", location.pathname + (query ? "?q=" + encodeURIComponent(query) : ""));
  });
  input.value = new URLSearchParams(location.search).get("q") || "";
  run(input.value.trim());
})();
