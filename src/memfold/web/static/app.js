// memfold's web view: keyboard shortcuts only; every page works without this file.
// "/" focuses the search box (or opens the search page); Escape leaves a text field.
document.addEventListener("keydown", (event) => {
  const field = event.target.closest && event.target.closest("input, textarea, select");
  if (event.key === "Escape" && field) {
    field.blur();
    return;
  }
  if (event.key !== "/" || field || event.ctrlKey || event.metaKey || event.altKey) {
    return;
  }
  const box = document.getElementById("q");
  event.preventDefault();
  if (box) {
    box.focus();
    box.select();
  } else {
    const nav = document.querySelector("nav a.brand");
    if (nav) window.location.assign(nav.getAttribute("href"));
  }
});
