// mjaudit report: step through each round's board. Everything is in the page;
// without this script every round still shows its last step and its moves.
(function () {
  "use strict";
  document.documentElement.className += " js";
  var TOKEN = /([0-9][mpsz])([trcb^]*)/g;
  var rounds = [];
  var current = 0;

  function mpsz(tiles) {
    var out = "", run = "", suit = "";
    tiles.forEach(function (t) {
      if (t[1] !== suit && run) { out += run + suit; run = ""; }
      suit = t[1]; run += t[0];
    });
    return run ? out + run + suit : out;
  }
  function group(tokens) {
    var svg = "", names = [], m;
    TOKEN.lastIndex = 0;
    while ((m = TOKEN.exec(tokens)) !== null) {
      var flags = m[2], cls = "tile";
      if (flags.indexOf("t") >= 0) cls += " tsumogiri";
      if (flags.indexOf("r") >= 0 || flags.indexOf("^") >= 0) cls += " side";
      if (flags.indexOf("c") >= 0) cls += " called";
      var face = flags.indexOf("b") >= 0 ? "tback" : "t" + m[1];
      if (flags.indexOf("b") < 0) names.push(m[1]);
      svg += '<svg class="' + cls + '" viewBox="0 0 30 40" aria-hidden="true"><use href="#' +
        face + '"/></svg>';
    }
    if (!svg) return "";
    var text = mpsz(names);
    return '<span class="tiles" role="img" aria-label="' + text + '" title="' + text + '">' +
      svg + '<span class="mpsz">' + text + "</span></span>";
  }
  function put(root, sel, html) { var el = root.querySelector(sel); if (el) el.innerHTML = html; }
  function text(root, sel, value) { var el = root.querySelector(sel); if (el) el.textContent = value; }

  function render(r, k) {
    var rd = rounds[r], f = rd.frames[k], board = rd.board;
    text(board, ".caption", f.c);
    text(board, ".stepno", "step " + k + " / " + (rd.frames.length - 1));
    put(board, ".dora", group(f.d));
    text(board, ".left", String(f.l));
    text(board, ".sticks", String(f.k));
    var range = board.querySelector("input[type=range]");
    if (range) range.value = String(k);
    board.querySelectorAll(".seat").forEach(function (seat) {
      var s = Number(seat.getAttribute("data-seat"));
      seat.classList.toggle("active", f.a === s);
      seat.classList.toggle("riichi", f.r[s] === 1);
      text(seat, ".score", String(f.s[s]));
      put(seat, ".h", group(f.h[s]));
      put(seat, ".drawn", group(f.n[s]));
      put(seat, ".melds", f.m[s].map(group).join(""));
      put(seat, ".pond", group(f.p[s]));
      put(seat, ".waits", f.w[s] ? "waits " + group(f.w[s]) : "");
      var fu = seat.querySelector(".furiten");
      if (fu) fu.textContent = f.f[s] ? "furiten: " + f.f[s] : "";
    });
    rd.step = k;
  }
  function go(r, k, scroll) {
    if (!rounds.length) return;
    r = Math.max(0, Math.min(rounds.length - 1, r));
    var rd = rounds[r];
    k = Math.max(0, Math.min(rd.frames.length - 1, k));
    current = r;
    render(r, k);
    if (window.history && history.replaceState) history.replaceState(null, "", "#r" + r + "s" + k);
    if (scroll) rd.board.scrollIntoView({ block: "nearest" });
  }
  function fromHash() {
    var m = /^#r(\d+)(?:s(\d+))?$/.exec(location.hash);
    if (!m) return false;
    var r = Number(m[1]);
    if (r >= rounds.length) return false;
    var k = m[2] === undefined ? 0 : Number(m[2]);
    current = r;
    render(r, Math.min(k, rounds[r].frames.length - 1));
    if (m[2] !== undefined) rounds[r].board.scrollIntoView({ block: "center" });
    return true;
  }

  document.querySelectorAll("section.round").forEach(function (sec, r) {
    var data = sec.querySelector("script.frames"), board = sec.querySelector(".board");
    if (!data || !board) return;
    var parsed = JSON.parse(data.textContent), prev = {}, frames = [];
    parsed.frames.forEach(function (f) {
      var full = Object.assign({}, prev, f);
      frames.push(full); prev = full;
    });
    var rd = { board: board, frames: frames, step: 0, no: r };
    rounds.push(rd);
    var idx = rounds.length - 1;
    render(idx, 0);
    board.querySelectorAll("button[data-go]").forEach(function (b) {
      b.addEventListener("click", function () {
        var what = b.getAttribute("data-go"), st = rounds[idx].step;
        var to = what === "start" ? 0 : what === "end" ? frames.length - 1 :
          st + (what === "next" ? 1 : -1);
        go(idx, to, false);
      });
    });
    var range = board.querySelector("input[type=range]");
    if (range) {
      range.max = String(frames.length - 1);
      range.addEventListener("input", function () { go(idx, Number(range.value), false); });
    }
    board.addEventListener("click", function () { current = idx; });
  });

  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || !rounds.length) return;
    var t = e.target && e.target.tagName;
    if (t === "INPUT" || t === "TEXTAREA" || t === "SELECT") return;
    var rd = rounds[current];
    switch (e.key) {
      case "ArrowRight": go(current, rd.step + 1, true); break;
      case "ArrowLeft": go(current, rd.step - 1, true); break;
      case "ArrowDown": go(current + 1, 0, true); break;
      case "ArrowUp": go(current - 1, 0, true); break;
      case "Home": go(current, 0, true); break;
      case "End": go(current, rd.frames.length - 1, true); break;
      default: return;
    }
    e.preventDefault();
  });
  window.addEventListener("hashchange", fromHash);
  fromHash();
})();
