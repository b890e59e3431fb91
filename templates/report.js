// mjaudit report: step through each round's board. Everything is in the page;
// without this script every round still shows its last step and its moves.
// A round carries its deal ("start") and one step per event, each a few
// operations (reports/views_board.py documents them); the board at step k is
// the deal with steps 1..k applied. Captions are read from the round's move list.
(function () {
  "use strict";
  document.documentElement.className += " js";
  var TOKEN = /([0-9][mpsz])([trcb^]*)/g;
  var SUITS = "mpsz";
  var rounds = [];
  var notes = []; // [round, step] of every finding, in page order
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
  function split(tokens) { return tokens.match(/[0-9][a-z^]*/g) || []; }
  function key(t) {
    var n = Number(t[0]);
    return (SUITS.indexOf(t[1]) * 9 + (n === 0 ? 5 : n) - 1) * 2 + (n === 0 ? 0 : 1);
  }
  function byKey(a, b) { return key(a) - key(b); }

  function fresh(start) {
    var n = start.h.length, st = {
      hands: start.h.map(split), drawn: [], melds: [], ponds: [], dora: start.d,
      left: start.l, scores: start.s.slice(), sticks: start.k, riichi: start.r.slice(),
      waits: start.w.slice(), furiten: start.f.slice(), active: -1
    };
    for (var s = 0; s < n; s++) { st.drawn.push(""); st.melds.push([]); st.ponds.push([]); }
    return st;
  }
  // One step: the same operations as BoardState.apply in reports/views_board.py.
  function apply(st, step) {
    st.active = step[0] === "-" ? -1 : Number(step[0]);
    step.slice(1).split(" ").forEach(function (op) {
      if (!op) return;
      var code = op[0], rest = op.slice(1);
      if (code === "D") { st.dora = rest; return; }
      if (code === "l") { st.left = Number(rest); return; }
      if (code === "k") { st.sticks = Number(rest); return; }
      var s = Number(rest[0]), arg = rest.slice(1);
      switch (code) {
        case "d": st.drawn[s] = arg; st.left -= 1; break;
        case "x":
          var hand = st.hands[s];
          if (st.drawn[s]) { hand.push(st.drawn[s]); st.drawn[s] = ""; }
          var at = hand.indexOf(arg.slice(0, 2));
          if (at >= 0) hand.splice(at, 1);
          hand.sort(byKey);
          st.ponds[s].push(arg);
          break;
        case "c": var p = st.ponds[s]; if (p.length) p[p.length - 1] += "c"; break;
        case "h": st.hands[s] = split(arg); st.drawn[s] = ""; break;
        case "M": st.melds[s] = arg ? arg.split(",") : []; break;
        case "s": st.scores[s] = Number(arg); break;
        case "R": st.riichi[s] = Number(arg); break;
        case "w": st.waits[s] = arg; break;
        case "f": st.furiten[s] = arg; break;
      }
    });
  }

  function put(root, sel, html) { var el = root.querySelector(sel); if (el) el.innerHTML = html; }
  function text(root, sel, value) { var el = root.querySelector(sel); if (el) el.textContent = value; }

  // The board of round r at step k: forward from the step shown, or again from the deal.
  function seek(rd, k) {
    if (!rd.state || k < rd.step) { rd.state = fresh(rd.data.start); rd.step = 0; }
    for (var i = rd.step + 1; i <= k; i++) apply(rd.state, rd.data.steps[i - 1]);
    rd.step = k;
    return rd.state;
  }
  function render(r, k) {
    var rd = rounds[r], board = rd.board, f = seek(rd, k), last = rd.data.steps.length;
    text(board, ".caption", rd.captions[k] || "");
    var w = rd.words || {};
    text(board, ".stepno", (w.step || "step") + " " + k + " / " + last);
    put(board, ".dora", group(f.dora));
    // The dora each indicator makes, as the round's data gives it (views_board.dora_of).
    var made = rd.data.o || {};
    put(board, ".dora-of", group(split(f.dora).map(function (t) { return made[t] || ""; }).join("")));
    text(board, ".left", String(f.left));
    text(board, ".sticks", String(f.sticks));
    var range = board.querySelector("input[type=range]");
    if (range) range.value = String(k);
    board.querySelectorAll(".seat").forEach(function (seat) {
      var s = Number(seat.getAttribute("data-seat"));
      seat.classList.toggle("active", f.active === s);
      seat.classList.toggle("riichi", f.riichi[s] === 1);
      if (rd.data.names) text(seat, ".name", rd.data.names[s]);
      text(seat, ".score", String(f.scores[s]));
      put(seat, ".h", group(f.hands[s].join("")));
      put(seat, ".drawn", group(f.drawn[s]));
      put(seat, ".melds", f.melds[s].map(group).join(""));
      put(seat, ".pond", group(f.ponds[s].join("")));
      put(seat, ".waits", f.waits[s] ? (w.waits || "waits") + " " + group(f.waits[s]) : "");
      text(seat, ".furiten", f.furiten[s] ? (w.furiten || "furiten") + ": " + f.furiten[s] : "");
    });
    var box = board.querySelector(".notes");
    if (box) {
      box.textContent = "";
      (rd.data.notes || []).forEach(function (n) {
        if (n[0] !== k) return;
        var line = document.createElement("div"), sev = document.createElement("span");
        sev.className = "sev " + n[1];
        sev.textContent = n[1] === "turn" ? "·" : n[1];
        line.appendChild(sev);
        line.appendChild(document.createTextNode(" " + n[2]));
        box.appendChild(line);
      });
    }
  }
  function go(r, k, scroll) {
    if (!rounds.length) return;
    r = Math.max(0, Math.min(rounds.length - 1, r));
    var rd = rounds[r];
    k = Math.max(0, Math.min(rd.data.steps.length, k));
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
    render(r, Math.min(k, rounds[r].data.steps.length));
    if (m[2] !== undefined) rounds[r].board.scrollIntoView({ block: "center" });
    return true;
  }
  // The board the reader is looking at: the one last stepped while at least half of
  // it (or half the window) is on screen, else the one with most of its height shown.
  function inView() {
    var h = window.innerHeight, best = current, most = 0;
    function seen(rd) {
      var box = rd.board.getBoundingClientRect();
      return [Math.min(box.bottom, h) - Math.max(box.top, 0), Math.min(box.height, h)];
    }
    var mine = seen(rounds[current]);
    if (mine[0] >= mine[1] / 2) return current;
    rounds.forEach(function (rd, r) {
      var v = seen(rd)[0];
      if (v > most) { most = v; best = r; }
    });
    return best;
  }
  function jump(dir) {
    var rd = rounds[current], here = [current, rd.step], pick = null;
    notes.forEach(function (n) {
      var after = n[0] > here[0] || (n[0] === here[0] && n[1] > here[1]);
      var before = n[0] < here[0] || (n[0] === here[0] && n[1] < here[1]);
      if (dir > 0 && after && !pick) pick = n;
      if (dir < 0 && before) pick = n;
    });
    if (pick) go(pick[0], pick[1], true);
  }

  document.querySelectorAll("section.round").forEach(function (sec) {
    var data = sec.querySelector("script.frames"), board = sec.querySelector(".board");
    if (!data || !board) return;
    var parsed = JSON.parse(data.textContent);
    var captions = [];
    sec.querySelectorAll("details.moves li").forEach(function (li) { captions.push(li.textContent); });
    // The board's words in the page's language (data-words, from the message catalogue).
    var words = JSON.parse(board.getAttribute("data-words") || "{}");
    var rd = { board: board, data: parsed, captions: captions, step: 0, state: null, words: words };
    rounds.push(rd);
    var idx = rounds.length - 1;
    // The keys n/p visit findings and efficiency notes, not every turn of the seat.
    (parsed.notes || []).forEach(function (n) { if (n[1] !== "turn") notes.push([idx, n[0]]); });
    render(idx, 0);
    board.querySelectorAll("button[data-go]").forEach(function (b) {
      b.addEventListener("click", function () {
        var what = b.getAttribute("data-go"), st = rounds[idx].step;
        var to = what === "start" ? 0 : what === "end" ? parsed.steps.length :
          st + (what === "next" ? 1 : -1);
        go(idx, to, false);
      });
    });
    var range = board.querySelector("input[type=range]");
    if (range) {
      range.max = String(parsed.steps.length);
      range.addEventListener("input", function () { go(idx, Number(range.value), false); });
    }
    board.addEventListener("click", function () { current = idx; });
  });
  notes.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });

  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || !rounds.length) return;
    var t = e.target && e.target.tagName;
    if (t === "INPUT" || t === "TEXTAREA" || t === "SELECT") return;
    current = inView();
    var rd = rounds[current];
    switch (e.key) {
      case "ArrowRight": go(current, rd.step + 1, true); break;
      case "ArrowLeft": go(current, rd.step - 1, true); break;
      case "ArrowDown": go(current + 1, 0, true); break;
      case "ArrowUp": go(current - 1, 0, true); break;
      case "Home": go(current, 0, true); break;
      case "End": go(current, rd.data.steps.length, true); break;
      case "n": jump(1); break;
      case "p": jump(-1); break;
      default: return;
    }
    e.preventDefault();
  });
  window.addEventListener("hashchange", fromHash);
  fromHash();
})();
