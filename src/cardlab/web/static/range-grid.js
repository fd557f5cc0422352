/* The 13 x 13 range grid of the cardlab workbench (no library, no network asset).

   Markup: <div class="range-grid" data-endpoint="/poker/range" data-target="ID" data-game="ID"
   data-picker="ID"></div> where ID names the range's <textarea> (or a <select> whose value is the
   id of the textarea to edit, with data-picker), and the game's <select>.

   Both ways:
   - grid -> text: a click, a drag over cells, or Space/Enter on the focused cell toggles hand
     classes; the text box gets the compact form `cardlab poker range` reads (QQ+, A5s-A2s, KQo).
   - text -> grid: typing in the text box asks the endpoint (the library's range parser) which
     combos the range holds, and the grid shows them (a part-filled cell for some combos of a class).
   Keyboard: the grid is one Tab stop; the arrow keys move, Home/End go to the row's ends,
   Space/Enter toggle the cell.
*/
(function () {
  "use strict";

  var RANKS = "AKQJT98765432";

  function label(row, col) {
    var hi = RANKS[Math.min(row, col)], lo = RANKS[Math.max(row, col)];
    if (row === col) return hi + lo;
    return hi + lo + (row < col ? "s" : "o");
  }

  function describe(lab) {
    if (lab.length === 2) return "pair of " + lab[0] + "s";
    return lab.slice(0, 2) + (lab[2] === "s" ? " suited" : " offsuit");
  }

  /* --- grid -> text: the compact form of a set of classes ------------------------------- */

  // rank index, 2 = 0 .. A = 12
  function rankOf(ch) { return 12 - RANKS.indexOf(ch); }
  function rankChar(r) { return RANKS[12 - r]; }

  function runs(values) {  // sorted descending ints -> runs of consecutive values [top, bottom]
    var out = [], i = 0;
    values.sort(function (a, b) { return b - a; });
    while (i < values.length) {
      var top = values[i], bottom = top;
      while (i + 1 < values.length && values[i + 1] === bottom - 1) { i += 1; bottom = values[i]; }
      out.push([top, bottom]);
      i += 1;
    }
    return out;
  }

  // labels: class labels (AA, AKs, AKo) -> tokens such as QQ+, 77-55, AQs+, A5s-A2s, KQ
  function compact(labels) {
    var pairs = [], suited = {}, offsuit = {}, tokens = [];
    labels.forEach(function (lab) {
      var h = rankOf(lab[0]), l = rankOf(lab[1]);
      if (lab.length === 2) pairs.push(h);
      else (lab[2] === "s" ? suited : offsuit)[h] = ((lab[2] === "s" ? suited : offsuit)[h] || []).concat([l]);
    });
    runs(pairs).forEach(function (run) {
      var top = rankChar(run[0]), bottom = rankChar(run[1]);
      if (run[0] === run[1]) tokens.push(top + top);
      else if (run[0] === 12) tokens.push(bottom + bottom + "+");
      else tokens.push(top + top + "-" + bottom + bottom);
    });
    for (var h = 12; h >= 1; h -= 1) {
      var s = suited[h] || [], o = offsuit[h] || [];
      var both = s.filter(function (l) { return o.indexOf(l) >= 0; });
      var groups = [[both, ""], [s.filter(function (l) { return both.indexOf(l) < 0; }), "s"],
                    [o.filter(function (l) { return both.indexOf(l) < 0; }), "o"]];
      groups.forEach(function (group) {
        var H = rankChar(h), suffix = group[1];
        runs(group[0]).forEach(function (run) {
          var top = rankChar(run[0]), bottom = rankChar(run[1]);
          if (run[0] === run[1]) tokens.push(H + top + suffix);
          else if (run[0] === h - 1) tokens.push(H + bottom + suffix + "+");
          else tokens.push(H + top + suffix + "-" + H + bottom + suffix);
        });
      });
    }
    return tokens;
  }

  function weightText(w) { return String(Math.round(w * 1e6) / 1e6); }

  // cells -> the range text: whole classes compacted (grouped by weight), single combos as such
  function rangeText(cells) {
    var byWeight = {}, singles = [], order = [];
    cells.forEach(function (cell) {
      if (!cell.n) return;
      if (cell.combos) {
        cell.combos.forEach(function (c) {
          singles.push(c[1] === 1 ? c[0] : c[0] + ":" + weightText(c[1]));
        });
        return;
      }
      var key = weightText(cell.weight || 1);
      if (!byWeight[key]) { byWeight[key] = []; order.push(key); }
      byWeight[key].push(cell.label);
    });
    var parts = [];
    order.sort(function (a, b) { return Number(b) - Number(a); });
    order.forEach(function (key) {
      var tokens = compact(byWeight[key]).join(", ");
      parts.push(key === "1" ? tokens : key + "(" + tokens + ")");
    });
    return parts.concat(singles).join(", ");
  }

  /* --- the component ---------------------------------------------------------------------- */

  function RangeGrid(root) {
    this.root = root;
    this.endpoint = root.getAttribute("data-endpoint");
    this.picker = root.getAttribute("data-picker") ? document.getElementById(root.getAttribute("data-picker")) : null;
    this.gameSelect = root.getAttribute("data-game") ? document.getElementById(root.getAttribute("data-game")) : null;
    this.cells = [];
    for (var i = 0; i < 169; i += 1) {
      this.cells.push({label: label(Math.floor(i / 13), i % 13), n: 0, of: 0, weight: 1, combos: null});
    }
    this.focus = 0;
    this.dragging = null;
    this.request = 0;
    this.build();
    this.attach();
    this.fromText();
  }

  RangeGrid.prototype.target = function () {
    var id = this.picker ? this.picker.value : this.root.getAttribute("data-target");
    return document.getElementById(id);
  };

  RangeGrid.prototype.game = function () {
    return this.gameSelect ? this.gameSelect.value : "holdem";
  };

  RangeGrid.prototype.build = function () {
    var self = this, table = document.createElement("table");
    table.className = "range-grid-table";
    table.setAttribute("role", "grid");
    table.setAttribute("aria-label", "Hand classes: pairs on the diagonal, suited above it, offsuit below. " +
                       "Arrow keys move, Space or Enter adds or removes a class.");
    var body = document.createElement("tbody");
    this.tds = [];
    for (var r = 0; r < 13; r += 1) {
      var tr = document.createElement("tr");
      tr.setAttribute("role", "row");
      for (var c = 0; c < 13; c += 1) {
        var td = document.createElement("td"), index = r * 13 + c;
        td.setAttribute("role", "gridcell");
        td.setAttribute("data-index", String(index));
        td.setAttribute("data-label", this.cells[index].label);
        td.tabIndex = index === 0 ? 0 : -1;
        td.textContent = this.cells[index].label;
        td.className = r === c ? "pair" : (r < c ? "suited" : "offsuit");
        tr.appendChild(td);
        this.tds.push(td);
      }
      body.appendChild(tr);
    }
    table.appendChild(body);
    this.status = document.createElement("p");
    this.status.className = "range-grid-status";
    this.status.setAttribute("aria-live", "polite");
    this.root.appendChild(table);
    this.root.appendChild(this.status);
    this.table = table;
    table.addEventListener("keydown", function (e) { self.key(e); });
    table.addEventListener("pointerdown", function (e) { self.down(e); });
    table.addEventListener("pointermove", function (e) { self.move(e); });
    document.addEventListener("pointerup", function () { self.up(); });
    document.addEventListener("pointercancel", function () { self.up(); });
  };

  RangeGrid.prototype.attach = function () {
    var self = this, timer = null;
    function later() {
      clearTimeout(timer);
      timer = setTimeout(function () { self.fromText(); }, 200);
    }
    document.addEventListener("input", function (e) {
      if (e.target === self.target()) later();
    });
    if (this.picker) this.picker.addEventListener("change", function () { self.fromText(); });
    if (this.gameSelect) this.gameSelect.addEventListener("change", function () { self.fromText(); });
  };

  RangeGrid.prototype.full = function (cell) {
    return cell.of > 0 && cell.n === cell.of && !cell.combos;
  };

  RangeGrid.prototype.paint = function () {
    var total = 0;
    for (var i = 0; i < 169; i += 1) {
      var cell = this.cells[i], td = this.tds[i], share = cell.of ? cell.n / cell.of : 0;
      total += cell.n;
      td.classList.toggle("on", this.full(cell));
      td.classList.toggle("part", cell.n > 0 && !this.full(cell));
      td.classList.toggle("off-deck", cell.of === 0);
      td.classList.toggle("weighted", this.full(cell) && cell.weight < 1);
      td.style.setProperty("--share", String(Math.round(share * 100)) + "%");
      td.setAttribute("aria-selected", cell.n > 0 ? "true" : "false");
      td.setAttribute("aria-disabled", cell.of === 0 ? "true" : "false");
      var words = cell.label + ", " + describe(cell.label) + ": ";
      if (cell.of === 0) words += "not in this deck";
      else if (!cell.n) words += "not in the range";
      else words += cell.n + " of " + cell.of + " combos in the range" +
                    (cell.weight !== 1 && !cell.combos ? ", weight " + weightText(cell.weight) : "");
      td.setAttribute("aria-label", words);
      td.title = words;
    }
    this.total = total;
  };

  RangeGrid.prototype.say = function (text, bad) {
    this.status.textContent = text;
    this.status.classList.toggle("error", !!bad);
  };

  RangeGrid.prototype.fromText = function () {
    var self = this, box = this.target();
    if (!box || !this.endpoint) return;
    var ask = ++this.request;
    var url = this.endpoint + "?range=" + encodeURIComponent(box.value) + "&game=" + encodeURIComponent(this.game());
    fetch(url, {headers: {"Accept": "application/json"}}).then(function (r) { return r.json(); }).then(function (data) {
      if (ask !== self.request) return;  // a newer text is on its way
      if (data.error) {
        self.say(data.error, true);
        self.root.setAttribute("data-state", "error");
        return;
      }
      data.cells.forEach(function (cell, i) {
        self.cells[i] = {label: cell.label, n: cell.n, of: cell.of, weight: cell.weight || 1, combos: cell.combos};
      });
      self.paint();
      self.say(box.value.trim() ? data.combos + " combos" : "Empty: click the classes to add them.");
      self.root.setAttribute("data-state", "ready");
    }).catch(function () {
      if (ask === self.request) self.say("The grid could not read the range (is the workbench still running?)", true);
    });
  };

  RangeGrid.prototype.toText = function () {
    var box = this.target();
    if (!box) return;
    box.value = rangeText(this.cells);
    this.request += 1;  // an answer still on its way is for the old text
    this.say(this.total + " combos");
    this.root.setAttribute("data-state", "ready");
    box.dispatchEvent(new Event("change", {bubbles: true}));
  };

  RangeGrid.prototype.set = function (index, on) {
    var cell = this.cells[index];
    if (cell.of === 0) return false;
    if (on === this.full(cell) && (on || cell.n === 0)) return false;
    cell.n = on ? cell.of : 0;
    cell.weight = 1;
    cell.combos = null;
    return true;
  };

  RangeGrid.prototype.toggle = function (index) {
    if (this.set(index, !this.full(this.cells[index]))) {
      this.paint();
      this.toText();
    }
  };

  RangeGrid.prototype.indexAt = function (e) {
    var el = document.elementFromPoint(e.clientX, e.clientY);
    if (!el || !this.table.contains(el)) return null;
    var td = el.closest("td[data-index]");
    return td ? Number(td.getAttribute("data-index")) : null;
  };

  RangeGrid.prototype.down = function (e) {
    var index = this.indexAt(e);
    if (index === null || e.button > 0) return;
    e.preventDefault();
    this.moveFocus(index);
    this.dragging = {on: !this.full(this.cells[index]), seen: {}};
    this.dragging.seen[index] = true;
    if (this.set(index, this.dragging.on)) { this.paint(); this.toText(); }
  };

  RangeGrid.prototype.move = function (e) {
    if (!this.dragging) return;
    var index = this.indexAt(e);
    if (index === null || this.dragging.seen[index]) return;
    this.dragging.seen[index] = true;
    if (this.set(index, this.dragging.on)) { this.paint(); this.toText(); }
  };

  RangeGrid.prototype.up = function () { this.dragging = null; };

  RangeGrid.prototype.moveFocus = function (index) {
    this.tds[this.focus].tabIndex = -1;
    this.focus = index;
    this.tds[index].tabIndex = 0;
    this.tds[index].focus();
  };

  RangeGrid.prototype.key = function (e) {
    var r = Math.floor(this.focus / 13), c = this.focus % 13;
    switch (e.key) {
      case "ArrowUp": r = Math.max(0, r - 1); break;
      case "ArrowDown": r = Math.min(12, r + 1); break;
      case "ArrowLeft": c = Math.max(0, c - 1); break;
      case "ArrowRight": c = Math.min(12, c + 1); break;
      case "Home": c = 0; break;
      case "End": c = 12; break;
      case " ": case "Spacebar": case "Enter":
        e.preventDefault();
        this.toggle(this.focus);
        return;
      default: return;
    }
    e.preventDefault();
    this.moveFocus(r * 13 + c);
  };

  window.CardlabRangeGrid = {compact: compact, rangeText: rangeText, RangeGrid: RangeGrid, grids: []};

  function start() {
    var roots = document.querySelectorAll(".range-grid");
    for (var i = 0; i < roots.length; i += 1) window.CardlabRangeGrid.grids.push(new RangeGrid(roots[i]));
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
}());
