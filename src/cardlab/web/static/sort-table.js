// cardlab workbench: sortable tables (progressive enhancement). A table marked data-sortable gets a
// button in each column heading; pressing it sorts the rows by that column (numbers as numbers:
// 40.70%, 1,234, +0.25, 3/8, or the exact fraction in a cell's title; text as text), again to reverse. The heading carries aria-sort and the
// change is announced. Each <tbody> is sorted on its own (a group's heading row stays first) and a
// row marked data-fixed stays last. Without the script the table is the same, unsorted.
"use strict";
(function () {
  // a figure: a number, then at most a unit (%, BB, IMPs) or the rest of an interval ("17.5% – 20.1%")
  var NUMBER = /^([-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?)\s*(?:%|[a-z ]*)(?:\s*(?:\u2013|to)\s.*)?$/i;
  function value(cell) {
    if (!cell) { return {n: NaN, t: ""}; }
    var text = (cell.getAttribute("data-sort") || cell.textContent).trim();
    var plain = text.replace(/,/g, "").replace(/\u2212/g, "-");
    // the exact fraction in the tooltip orders figures the text rounds alike (0.000000)
    var fraction = /^(-?\d+)\/(\d+)$/.exec((cell.getAttribute("title") || "").replace(/,/g, "")) ||
                   /^(-?\d+)\/(\d+)$/.exec(plain);
    if (fraction) { return {n: Number(fraction[1]) / Number(fraction[2]), t: text}; }
    var found = NUMBER.exec(plain);
    return {n: found ? Number(found[1].replace("+", "")) : NaN, t: text};
  }
  function compare(a, b) {
    var an = isNaN(a.n), bn = isNaN(b.n);
    if (!an && !bn) { return a.n - b.n; }
    if (an !== bn) { return an ? 1 : -1; }  // numbers before text (a dash, "varies")
    return a.t.localeCompare(b.t);
  }
  function sortBy(table, column, heads, status) {
    var head = heads[column];
    var ascending = head.getAttribute("aria-sort") !== "ascending";
    for (var h = 0; h < heads.length; h++) { heads[h].removeAttribute("aria-sort"); }
    head.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    var bodies = table.tBodies;
    for (var b = 0; b < bodies.length; b++) {
      var rows = Array.prototype.slice.call(bodies[b].rows);
      var keep = rows.filter(function (r) { return r.querySelector("[scope=rowgroup]"); });
      var last = rows.filter(function (r) { return r.hasAttribute("data-fixed"); });
      var moving = rows.filter(function (r) { return keep.indexOf(r) < 0 && last.indexOf(r) < 0; });
      var keyed = moving.map(function (r, i) { return {row: r, v: value(r.cells[column]), i: i}; });
      keyed.sort(function (x, y) { return (ascending ? 1 : -1) * compare(x.v, y.v) || x.i - y.i; });
      keep.concat(keyed.map(function (k) { return k.row; }), last).forEach(function (r) { bodies[b].appendChild(r); });
    }
    status.textContent = "sorted by " + head.textContent.trim() + ", " + (ascending ? "ascending" : "descending");
  }
  function enhance(table) {
    if (table.getAttribute("data-sortable") === "ready" || !table.tHead) { return; }
    table.setAttribute("data-sortable", "ready");
    var heads = table.tHead.rows[table.tHead.rows.length - 1].cells;
    var status = document.createElement("p");
    status.className = "visually-hidden";
    status.setAttribute("role", "status");
    table.parentNode.insertBefore(status, table.nextSibling);
    Array.prototype.forEach.call(heads, function (head, column) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "sort";
      while (head.firstChild) { button.appendChild(head.firstChild); }
      var mark = document.createElement("span");
      mark.className = "sort-mark";
      mark.setAttribute("aria-hidden", "true");
      button.appendChild(mark);
      head.appendChild(button);
      button.addEventListener("click", function () { sortBy(table, column, heads, status); });
    });
  }
  function enhanceAll(root) {
    var tables = (root || document).querySelectorAll("table[data-sortable]");
    for (var i = 0; i < tables.length; i++) { enhance(tables[i]); }
  }
  document.addEventListener("DOMContentLoaded", function () { enhanceAll(document); });
  document.addEventListener("cardlab:answer", function (e) { enhanceAll(e.target); });
})();
