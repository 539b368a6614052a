// The pages' one script. A link to a finding (`index.html#f-...`) opens
// it where it is folded, and every finding opens to print. The errata table, sortable by any column and
// filtered by section, class, severity and status. Without this script the
// findings open by a click and the table is whole and in its committed order.
(function () {
  function open() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    for (var e = target; e; e = e.parentElement) {
      if (e.tagName === "DETAILS") e.open = true;
    }
    if (target) target.scrollIntoView();
  }
  window.addEventListener("hashchange", open);
  open();
  // A folded finding prints with its body: CSS alone cannot open one.
  window.addEventListener("beforeprint", function () {
    Array.prototype.forEach.call(document.querySelectorAll("details"), function (d) { d.open = true; });
  });
})();
(function () {
  var table = document.querySelector("table.sortable");
  if (!table) return;
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  var shown = document.getElementById("shown");
  var selects = document.querySelectorAll("select[data-filter]");
  function filter() {
    var n = 0;
    rows.forEach(function (row) {
      var keep = Array.prototype.every.call(selects, function (s) {
        var want = s.value;
        var have = row.getAttribute("data-" + s.getAttribute("data-filter")) || "";
        return want === "" || have.split(", ").indexOf(want) >= 0;
      });
      row.hidden = !keep;
      if (keep) n += 1;
    });
    shown.textContent = n + " of " + rows.length + " shown";
  }
  Array.prototype.forEach.call(selects, function (s) { s.addEventListener("change", filter); });
  var heads = table.tHead.rows[0].cells;
  Array.prototype.forEach.call(heads, function (th, i) {
    th.querySelector("button").addEventListener("click", function () {
      var up = th.getAttribute("aria-sort") !== "ascending";
      Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", up ? "ascending" : "descending");
      var key = function (row) {
        var cell = row.cells[i];
        return cell.getAttribute("data-value") || cell.textContent;
      };
      rows.sort(function (a, b) {
        var x = key(a), y = key(b);
        var nx = Number(x), ny = Number(y);
        var c = !isNaN(nx) && !isNaN(ny) ? nx - ny : x.localeCompare(y);
        return up ? c : -c;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
})();
