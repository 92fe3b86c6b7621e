// Filters of a table: each select of the form names a data attribute of the rows (data-rows),
// and a row shows where it has every chosen value. The choice lives in the URL's query.
(function () {
  "use strict";
  const form = document.getElementById("filters");
  const rows = Array.from(document.querySelectorAll(form.dataset.rows));
  const selects = Array.from(form.querySelectorAll("select"));
  const shown = document.getElementById("shown");
  const messages = JSON.parse(document.getElementById("messages").textContent).script;
  const say = (key, values) => messages[key].replace(/\{(\w+)\}/g, (_, name) => values[name]);

  function apply() {
    let count = 0;
    for (const row of rows) {
      row.hidden = !selects.every((select) => !select.value || row.dataset[select.name] === select.value);
      if (!row.hidden) count++;
    }
    shown.textContent = say("readings_shown", { n: count, all: rows.length });
    const query = new URLSearchParams(selects.filter((s) => s.value).map((s) => [s.name, s.value]));
    history.replaceState(null, "", location.pathname + (query.size ? "?" + query : "") + location.hash);
  }

  const wanted = new URLSearchParams(location.search);
  for (const select of selects) {
    if (wanted.has(select.name)) select.value = wanted.get(select.name);
    select.addEventListener("change", apply);
  }
  apply();
})();
