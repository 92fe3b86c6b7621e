// The synopsis on a narrow screen: the base beside the one witness the reader picks.
"use strict";
(() => {
  const pick = document.getElementById("pair");
  if (!pick) return;
  const show = (siglum) => {
    const first = document.querySelector("table.synopsis thead th[data-witness]").dataset.witness;
    for (const cell of document.querySelectorAll("table.synopsis [data-witness]")) {
      cell.classList.toggle("paired", cell.dataset.witness === first || cell.dataset.witness === siglum);
    }
  };
  pick.addEventListener("change", () => show(pick.value));
})();
