// cardlab workbench: polls a running job, shows its progress, brings its answer in; the
// editor's line numbers. Everything works without it (a job page refreshes itself then).
"use strict";
(function () {
  function poll(box) {
    var id = box.getAttribute("data-job");
    var bar = document.getElementById("job-progress");
    var note = document.getElementById("job-note");
    var state = box.querySelector(".state");
    function tick() {
      fetch("/jobs/" + encodeURIComponent(id), {headers: {"Accept": "application/json"}, credentials: "same-origin"})
        .then(function (r) { return r.json(); })
        .then(function (s) {
          if (s.state === "done" || s.state === "failed" || s.state === "cancelled" || s.error) {
            return fetch("/jobs/" + encodeURIComponent(id) + "/answer", {credentials: "same-origin"})
              .then(function (r) { return r.text(); })
              .then(function (html) {
                var holder = document.createElement("div");
                holder.innerHTML = html;
                var fresh = holder.querySelector(".job");
                if (fresh) {
                  box.replaceWith(fresh);
                  fresh.dispatchEvent(new CustomEvent("cardlab:answer", {bubbles: true}));  // e.g. sortable tables
                }
              });
          }
          if (bar && s.progress !== null) { bar.value = s.progress; bar.textContent = Math.round(100 * s.progress) + "%"; }
          if (note) { note.textContent = s.note ? s.note + " (" + s.elapsed + " s)" : s.elapsed + " s"; }
          if (state) { state.textContent = s.state; }
          setTimeout(tick, 250);
        })
        .catch(function () { setTimeout(tick, 1000); });
    }
    var cancel = box.querySelector("form.cancel");
    if (cancel) {
      cancel.addEventListener("submit", function (e) {
        e.preventDefault();
        fetch(cancel.action, {method: "POST", headers: {"Accept": "application/json"}, credentials: "same-origin"});
      });
    }
    setTimeout(tick, 200);
  }
  function editor(area) {
    var lines = document.getElementById(area.getAttribute("data-lines"));
    var bad = parseInt(area.getAttribute("data-bad-line") || "0", 10);
    function draw() {
      var n = area.value.split("\n").length, out = [];
      for (var i = 1; i <= n; i++) { out.push(i === bad ? '<span class="bad">' + i + "</span>" : String(i)); }
      lines.innerHTML = out.join("\n");
      lines.scrollTop = area.scrollTop;
    }
    area.addEventListener("input", function () { bad = 0; draw(); });
    area.addEventListener("scroll", function () { lines.scrollTop = area.scrollTop; });
    draw();
  }
  document.addEventListener("DOMContentLoaded", function () {
    var box = document.querySelector(".job[data-state='queued'], .job[data-state='running']");
    if (box) { poll(box); }
    var areas = document.querySelectorAll("textarea[data-lines]");
    for (var i = 0; i < areas.length; i++) { editor(areas[i]); }
  });
})();
