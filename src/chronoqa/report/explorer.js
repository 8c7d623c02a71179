// chronoqa report: the question explorer. Reads the JSON blob in #cq-data (written by chronoqa.report),
// filters, sorts and pages the scored questions, and draws one question's timeline as inline SVG.
// No network, no libraries. Every data string is inserted escaped (esc) or as textContent. esc also shows
// bidirectional and zero-width characters as <U+XXXX> (cqShow, defined before this script by chronoqa.report from
// chronoqa.escape's set); attr escapes a value kept as a key (an option value, data-qid) without changing it.
(function () {
  "use strict";
  var blob = document.getElementById("cq-data");
  if (!blob) { return; }
  var D = JSON.parse(blob.textContent);
  var SYS = D.systems, QS = unpack(D), PAGE = 25;
  var SETS = ["S_star", "S_dist", "S_stale", "S_anchor"];
  var SET_LABEL = { S_star: "S*", S_dist: "S_dist", S_stale: "S_stale", S_anchor: "S_anchor" };
  var RET = [], ANS = [];
  SYS.forEach(function (s, i) { (s.kind === "ret" ? RET : ANS).push(i); });
  var byId = {};
  QS.forEach(function (q, i) { byId[q.id] = i; });
  var state = { page: 0, rows: [], open: null };

  // the blob is columns over one string table (chronoqa.report.explorer.pack_explorer): rebuild the records
  function unpack(d) {
    var S = d.strs, c = d.q, out = [];
    function s(i) { return i < 0 ? null : S[i]; }
    function tri(x) { return x < 0 ? null : !!x; }
    for (var i = 0; i < c.id.length; i++) {
      var facts = [], fl = c.facts[i];
      for (var j = 0; j < fl.length; j += 8) {
        facts.push([fl[j], s(fl[j + 1]) + " · " + s(fl[j + 2]) + " · " + s(fl[j + 3]), fl[j + 4], fl[j + 5], s(fl[j + 6]), s(fl[j + 7])]);
      }
      var tq = c.tq[i];
      out.push({
        id: c.id[i], text: c.text[i], split: s(c.split[i]), operator: s(c.operator[i]), hops: c.hops[i],
        relation: s(c.relation[i]), cardinality: s(c.cardinality[i]), allen: s(c.allen[i]) || "",
        assumes_complete: !!c.ac[i], template: s(c.template[i]), t_query: tq ? [tq[0], tq[1], s(tq[2])] : null,
        gold: c.gold[i].map(s), refs: c.refs[i].map(s), facts: facts,
        ret: c.ret[i].map(function (v) {
          if (!v.length) { return null; }
          var marks = [], code = v[0];
          for (var k = 2; k < v.length; k += 2) { marks.push([v[k], v[k + 1]]); }
          return [code % 2, tri(Math.floor(code / 2) % 3 - 1), tri(Math.floor(code / 6) - 1), v[1], marks];
        }),
        ans: c.ans[i].map(function (v) {
          if (!v.length) { return null; }
          var t = Math.floor(v[0] / 2) - 1;
          // [A, T, outcome, answer, outcome class, join hop, phrasings [[text, A, answer], ...]]
          var ph = [], fl = v.length > 5 ? v[5] : [];
          for (var k = 0; k < fl.length; k += 3) { ph.push([s(fl[k]), fl[k + 1], s(fl[k + 2])]); }
          return [v[0] % 2, t < 0 ? null : t, s(v[1]), s(v[2]), v.length > 3 ? s(v[3]) : null, v.length > 4 ? tri(v[4]) : null, ph];
        })
      });
    }
    return out;
  }
  function esc(s) {
    return attr(cqShow(s === null || s === undefined ? "" : s));
  }
  function attr(s) {
    return String(s === null || s === undefined ? "" : s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }
  function $(id) { return document.getElementById(id); }
  // value of system i's metric on question q: 1 right, 0 wrong, null not scored / undefined
  function verdict(q, i, metric) {
    var s = SYS[i];
    var v = s.kind === "ret" ? q.ret[RET.indexOf(i)] : q.ans[ANS.indexOf(i)];
    if (!v) { return null; }
    if (metric === "T") { return v[1]; }
    return v[0];
  }
  function nWrong(q) {
    var n = 0;
    SYS.forEach(function (s, i) { if (!s.control && verdict(q, i, s.metrics[0]) === 0) { n++; } });
    return n;
  }
  QS.forEach(function (q) { q._wrong = nWrong(q); q._hay = (q.id + " " + q.text + " " + q.gold.join(" ") + " " + q.relation).toLowerCase(); });

  function fill(id, values) {
    var el = $(id), seen = {}, opts = ['<option value="">all</option>'];
    values.forEach(function (v) {
      var k = String(v);
      if (!seen[k]) { seen[k] = 1; opts.push('<option value="' + attr(k) + '">' + esc(k) + "</option>"); }
    });
    el.innerHTML = opts.join("");
  }
  function uniq(key) {
    return QS.map(function (q) { return q[key]; }).sort(function (a, b) { return a < b ? -1 : a > b ? 1 : 0; });
  }
  fill("f-split", uniq("split"));
  fill("f-operator", uniq("operator"));
  fill("f-hops", uniq("hops"));
  fill("f-relation", uniq("relation"));
  fill("f-cardinality", uniq("cardinality"));
  fill("f-allen", uniq("allen").filter(function (a) { return a !== ""; }));
  fill("f-ac", [true, false]);
  var vopts = ['<option value="">any</option>'];
  SYS.forEach(function (s, i) {
    s.metrics.forEach(function (m) {
      ["wrong", "right"].forEach(function (w) {
        vopts.push('<option value="' + w + ":" + i + ":" + m + '">' + w + " for " + esc(s.name) + " (" + m + ")" +
          (s.control ? " [control]" : "") + "</option>");
      });
    });
  });
  $("f-verdict").innerHTML = vopts.join("");
  // outcome class (TDBench's) and the join intermediate hop, per answer system: "class:<system>:<value>"
  var copts = ['<option value="">any</option>'];
  ANS.forEach(function (si, k) {
    var seen = {};
    QS.forEach(function (q) { var v = q.ans[k]; if (v && v[4]) { seen[v[4]] = 1; } });
    Object.keys(seen).sort().forEach(function (c) {
      copts.push('<option value="c:' + si + ":" + attr(c) + '">' + esc(c) + " for " + esc(SYS[si].name) + "</option>");
    });
    if (QS.some(function (q) { var v = q.ans[k]; return v && v[6].length; })) {
      copts.push('<option value="f:' + si + ':flip">phrasings disagree for ' + esc(SYS[si].name) + "</option>");
      copts.push('<option value="f:' + si + ':all">every phrasing right for ' + esc(SYS[si].name) + "</option>");
    }
    if (QS.some(function (q) { var v = q.ans[k]; return v && v[5] !== null; })) {
      ["right", "wrong"].forEach(function (w) {
        copts.push('<option value="h:' + si + ":" + w + '">join hop ' + w + " for " + esc(SYS[si].name) + "</option>");
      });
    }
  });
  $("f-class").innerHTML = copts.join("");
  function classOk(q, sel) {
    if (sel.length < 3) { return true; }
    var v = q.ans[ANS.indexOf(+sel[1])], want = sel.slice(2).join(":");
    if (!v) { return false; }
    if (sel[0] === "f") {
      if (!v[6].length) { return false; }
      var rights = v[6].filter(function (p) { return p[1] === 1; }).length + v[0];
      return want === "all" ? rights === v[6].length + 1 : rights > 0 && rights < v[6].length + 1;
    }
    return sel[0] === "c" ? v[4] === want : v[5] !== null && v[5] === (want === "right");
  }

  function apply() {
    var text = $("cq-search").value.trim().toLowerCase();
    var f = {};
    ["split", "operator", "hops", "relation", "cardinality", "allen", "ac"].forEach(function (k) { f[k] = $("f-" + k).value; });
    var vf = $("f-verdict").value.split(":"), cf = $("f-class").value.split(":");
    var rows = [];
    for (var i = 0; i < QS.length; i++) {
      var q = QS[i];
      if (text && q._hay.indexOf(text) < 0) { continue; }
      if (f.split && q.split !== f.split) { continue; }
      if (f.operator && q.operator !== f.operator) { continue; }
      if (f.hops && String(q.hops) !== f.hops) { continue; }
      if (f.relation && q.relation !== f.relation) { continue; }
      if (f.cardinality && q.cardinality !== f.cardinality) { continue; }
      if (f.allen && q.allen !== f.allen) { continue; }
      if (f.ac && String(q.assumes_complete) !== f.ac) { continue; }
      if (!classOk(q, cf)) { continue; }
      if (vf.length === 3) {
        var v = verdict(q, +vf[1], vf[2]);
        if (v === null || v === undefined || (vf[0] === "wrong") !== (v === 0)) { continue; }
      }
      rows.push(i);
    }
    var key = $("cq-sort").value;
    if (key) {
      var desc = key.charAt(0) === "-", k = desc ? key.slice(1) : key;
      rows.sort(function (a, b) {
        var x = QS[a][k], y = QS[b][k];
        var c = x < y ? -1 : x > y ? 1 : a - b;
        return desc ? -c : c;
      });
    }
    state.rows = rows;
    state.page = 0;
    draw();
  }

  function cell(v) {
    if (v === null || v === undefined) { return '<td class="na">–</td>'; }
    return v ? '<td class="v-ok">✓</td>' : '<td class="v-bad">✗</td>';
  }
  function draw() {
    var rows = state.rows, n = rows.length, pages = Math.max(1, Math.ceil(n / PAGE));
    if (state.page >= pages) { state.page = pages - 1; }
    var start = state.page * PAGE, out = [];
    for (var j = start; j < Math.min(n, start + PAGE); j++) {
      var q = QS[rows[j]];
      var tds = ['<td><a href="#q=' + encodeURIComponent(q.id) + '">' + esc(q.id) + "</a></td>",
        '<td class="qtext">' + esc(q.text) + "</td>", "<td>" + esc(q.operator) + "</td>", "<td>" + esc(q.hops) + "</td>",
        "<td>" + esc(q.relation) + "</td>", "<td>" + esc(q.cardinality) + "</td>"];
      SYS.forEach(function (s, i) {
        if (s.control) { return; }
        var td = cell(verdict(q, i, s.metrics[0])), a = s.kind === "ans" ? q.ans[ANS.indexOf(i)] : null;
        // an answer system's cell names its outcome class (and the join hop) on hover
        if (a && a[4]) { td = td.replace("<td", '<td title="' + esc(a[4] + (a[5] === null ? "" : a[5] ? "; join hop named" : "; join hop not named")) + '"'); }
        tds.push(td);
      });
      out.push('<tr data-qid="' + attr(q.id) + '"' + (state.open === q.id ? ' class="sel"' : "") + ">" + tds.join("") + "</tr>");
    }
    $("cq-rows").innerHTML = out.join("");
    $("cq-count").textContent = n + " of " + QS.length + " questions";
    $("cq-page").textContent = "page " + (state.page + 1) + " / " + pages;
    $("cq-prev").disabled = state.page === 0;
    $("cq-next").disabled = state.page >= pages - 1;
    overflow($("cq-scroll"));
  }

  // ------------------------------------------------------------------ the question view and its timeline
  // label column as wide as the longest fact label needs (within bounds); retriever columns narrow, their
  // names written at a slant above them so that none is cut
  var CHAR_W = 6.3, NAME_MAX = 22, LABEL_MAX = 70;
  function clip(s, n) { return s.length > n ? s.slice(0, n - 1) + "…" : s; }
  function timeline(q) {
    var facts = q.facts, rowH = 22, plotW = 430, colW = 30;
    var ret = RET.filter(function (i) { return !SYS[i].control; }).concat(RET.filter(function (i) { return SYS[i].control; }));
    var labels = facts.map(function (f) { return SET_LABEL[SETS[f[0]]] + "  " + f[1]; });
    var longest = Math.max.apply(null, labels.map(function (l) { return Math.min(l.length, LABEL_MAX); }).concat([20]));
    var labelW = Math.round(longest * CHAR_W + 12);
    var nameLen = Math.max.apply(null, ret.map(function (i) { return Math.min(SYS[i].name.length, NAME_MAX); }).concat([0]));
    var days = [];
    facts.forEach(function (f) { if (f[2] !== null) { days.push(f[2]); } if (f[3] !== null) { days.push(f[3]); } });
    if (q.t_query) { days.push(q.t_query[0]); days.push(q.t_query[1]); }
    var lo = days.length ? Math.min.apply(null, days) : 0, hi = days.length ? Math.max.apply(null, days) : 1;
    var pad = Math.max(180, (hi - lo) * 0.08);
    lo -= pad; hi += pad;
    function x(d) { return labelW + (d - lo) / (hi - lo) * plotW; }
    var top = Math.max(34, Math.round(nameLen * CHAR_W * 0.64) + 16), colX = labelW + plotW + 16;
    var h = top + facts.length * rowH + 30, w = colX + colW * ret.length + Math.round(nameLen * CHAR_W * 0.77) + 8;
    var p = ['<svg id="cq-timeline" width="' + w + '" height="' + h + '" role="img" aria-label="timeline of the question facts">'];
    p.push('<defs><marker id="cq-arrow" viewBox="0 0 10 10" refX="2" refY="5" markerUnits="userSpaceOnUse" markerWidth="12" markerHeight="12" orient="auto">' +
      '<path d="M0,0L10,5L0,10z" fill="#555"/></marker></defs>');
    p.push('<rect x="' + labelW + '" y="' + (top - 6) + '" width="' + plotW + '" height="' + (facts.length * rowH + 8) + '" fill="#fafbfc" stroke="#e3e7ec"/>');
    ret.forEach(function (i, c) {
      var cx = colX + c * colW + colW / 2, ty = top - 10;
      p.push('<text x="' + cx + '" y="' + ty + '" font-size="10" transform="rotate(-40 ' + cx + " " + ty + ')" class="syscol"><title>' +
        esc(SYS[i].name) + "</title>" + esc(clip(SYS[i].name, NAME_MAX)) + "</text>");
    });
    if (q.t_query && q.t_query[0] !== null) {
      var x0 = x(q.t_query[0]), x1 = x(q.t_query[1]);
      p.push('<rect class="tq" x="' + x0.toFixed(1) + '" y="' + (top - 6) + '" width="' + Math.max(1.5, x1 - x0).toFixed(1) +
        '" height="' + (facts.length * rowH + 8) + '" fill="#d62728" fill-opacity=".25"/>');
      // near an edge of the plot the label grows inwards, so it stays over the plot and clear of the retriever names
      var anchor = x0 > labelW + plotW - 60 ? "end" : x0 < labelW + 60 ? "start" : "middle";
      p.push('<text x="' + (anchor === "end" ? x1 : x0).toFixed(1) + '" y="' + (top - 12) + '" font-size="10" fill="#d62728" text-anchor="' +
        anchor + '">t_query ' + esc(q.t_query[2]) + "</text>");
    }
    facts.forEach(function (f, r) {
      var set = SETS[f[0]], y = top + r * rowH, yc = y + rowH / 2 - 2;
      var lbl = labels[r];
      p.push('<text x="4" y="' + (yc + 4) + '" font-size="11" class="lbl-' + set + '"><title>' + esc(lbl) + "</title>" + esc(clip(lbl, LABEL_MAX)) + "</text>");
      var a = f[2] === null ? labelW : x(f[2]), b = f[3] === null ? labelW + plotW : x(f[3]);
      var cls = "fact fact-" + set + (f[2] === null ? " unknown-start" : "") + (f[3] === null ? " open-end" : "");
      p.push('<line class="' + cls + '" x1="' + a.toFixed(1) + '" y1="' + yc + '" x2="' + Math.max(a + 2, b).toFixed(1) + '" y2="' + yc +
        '" stroke-width="8"' + (f[2] === null ? ' stroke-dasharray="3 3"' : "") + (f[3] === null ? ' marker-end="url(#cq-arrow)"' : "") +
        '><title>' + esc((f[4] || "unknown start") + " – " + (f[5] || "open end")) + "</title></line>");
      if (f[2] === null) { p.push('<text x="' + (a + 2) + '" y="' + (yc - 6) + '" font-size="9" fill="#555">? start</text>'); }
      if (f[3] === null) { p.push('<text x="' + (b - 30) + '" y="' + (yc - 6) + '" font-size="9" fill="#555">open →</text>'); }
      ret.forEach(function (i, c) {
        var v = q.ret[RET.indexOf(i)], cx = colX + c * colW + colW / 2;
        if (!v) { return; }
        v[4].forEach(function (m) {
          if (m[0] !== r) { return; }
          p.push('<g class="mark" data-system="' + attr(SYS[i].name) + '"><circle cx="' + cx + '" cy="' + yc + '" r="8" fill="#3b6fb6"/>' +
            '<text x="' + cx + '" y="' + (yc + 3.5) + '" font-size="10" text-anchor="middle" fill="#fff">' + esc(m[1]) + "</text></g>");
        });
      });
    });
    var ticks = [];
    facts.forEach(function (f) { if (f[2] !== null) { ticks.push([f[2], f[4]]); } if (f[3] !== null) { ticks.push([f[3], f[5]]); } });
    ticks.sort(function (a, b) { return a[0] - b[0]; });
    // a tick label is drawn only where it clears the previous one (9 px text: about 5.4 px a character)
    var lastX = -1e9, lastW = 0, ya = top + facts.length * rowH + 16;
    ticks.forEach(function (t) {
      var tx = x(t[0]);
      var tw = String(t[1]).length * 5.4;
      if (tx - lastX < (lastW + tw) / 2 + 6) { return; }
      lastX = tx; lastW = tw;
      p.push('<line x1="' + tx.toFixed(1) + '" y1="' + (ya - 12) + '" x2="' + tx.toFixed(1) + '" y2="' + (ya - 8) + '" stroke="#7a848f"/>');
      p.push('<text x="' + tx.toFixed(1) + '" y="' + ya + '" font-size="9" text-anchor="middle" fill="#5b6570">' + esc(t[1]) + "</text>");
    });
    p.push("</svg>");
    return p.join("");
  }

  function openQuestion(id) {
    var i = byId[id];
    var view = $("cq-view");
    if (i === undefined) { view.innerHTML = '<p class="sub">No scored question ' + esc(id) + ".</p>"; return; }
    var q = QS[i];
    state.open = q.id;
    var p = ["<h3>" + esc(q.id) + ' <span class="sub">' + esc(q.split) + " · " + esc(q.operator) + " · " + esc(q.hops) + "-hop · " +
      esc(q.relation) + " · " + esc(q.cardinality) + (q.allen ? " · " + esc(q.allen) : "") + (q.assumes_complete ? " · assumes complete" : "") + "</span></h3>"];
    p.push('<p class="qbig">' + esc(q.text) + "</p>");
    p.push("<p><b>gold</b>: " + (q.gold.length ? q.gold.map(esc).join(" | ") : "<i>none</i>") +
      (q.t_query ? " · <b>t_query</b> " + esc(q.t_query[2]) : "") + ' · <span class="sub">template ' + esc(q.template) + "</span></p>");
    if (q.refs.length) { p.push('<p class="sub">dates an explanation must cite (T): ' + q.refs.map(esc).join(", ") + "</p>"); }
    p.push('<div class="scroll">' + timeline(q) + "</div>");
    p.push('<p class="sub legend"><span class="sw S_star"></span>S* <span class="sw S_dist"></span>S_dist <span class="sw S_stale"></span>S_stale ' +
      '<span class="sw S_anchor"></span>S_anchor · red band: t_query · dashed: unknown start · arrow: open end · blue dots: the rank at which each retriever returned the fact</p>');
    var rows = [];
    RET.forEach(function (si, k) {
      var v = q.ret[k];
      rows.push("<tr" + (SYS[si].control ? ' class="control"' : "") + "><td>" + esc(SYS[si].name) + "</td><td>retrieval</td>" +
        (v ? cell(v[0]) + "<td>–</td><td>" + esc(v[3]) + (v[3] === 1 ? " fact" : " facts") + " returned; " + (v[4].length ? "this question's facts at rank " + esc(v[4].map(function (m) { return m[1]; }).join(", ")) :
          "none of this question's facts") +
          (v[1] ? "; stale fact retrieved" : "") + (v[2] ? "; distractor retrieved" : "") + "</td>" : '<td class="na">–</td><td>–</td><td>not scored</td>') + "</tr>");
    });
    ANS.forEach(function (si, k) {
      var v = q.ans[k];
      rows.push("<tr" + (SYS[si].control ? ' class="control"' : "") + "><td>" + esc(SYS[si].name) + "</td><td>answer</td>" +
        (v ? cell(v[0]) + cell(v[1]) + "<td>" + esc(v[2]) + ": " + esc(v[3] === null ? "(no answer)" : v[3]) +
          (v[4] ? ' <span class="sub oclass">· class ' + esc(v[4]) + "</span>" : "") +
          (v[5] !== null ? ' <span class="sub hop">· join hop ' + (v[5] ? "named" : "not named") + "</span>" : "") +
          "</td>" : '<td class="na">–</td><td>–</td><td>not scored</td>') + "</tr>");
      (v ? v[6] : []).forEach(function (ph) {
        rows.push('<tr class="phrasing"><td></td><td>paraphrase</td>' + cell(ph[1]) + '<td class="na">–</td><td>' +
          esc(ph[0]) + " → " + esc(ph[2] === null ? "(no answer)" : ph[2]) + "</td></tr>");
      });
    });
    p.push('<table class="verdicts"><thead><tr><th>system</th><th>kind</th><th class="help" title="this question\'s main metric: CCR for a run (the whole gold chain returned, each fact valid at the time asked about), A for an answer folder (the answer names the gold)">A / CCR</th>' +
      '<th class="help" title="time accuracy: the explanation cites the dates the question turns on">T</th><th>answered / returned</th></tr></thead><tbody>' +
      rows.join("") + "</tbody></table>");
    view.innerHTML = p.join("");
    draw();
  }

  // a link elsewhere on the page (fails everywhere) or a row click opens the question: bring its view
  // into sight when it is not already, and flash its border so the eye finds it
  function route() {
    var m = /^#q=(.*)$/.exec(location.hash);
    if (!m) { return; }
    openQuestion(decodeURIComponent(m[1]));
    var view = $("cq-view"), r = view.getBoundingClientRect();
    if (r.top < 0 || r.top > window.innerHeight * 0.5) { view.scrollIntoView({ block: "start" }); }
    view.classList.add("flash");
    setTimeout(function () { view.classList.remove("flash"); }, 1200);
  }

  // tables wider than the page: a shadow on the side that hides columns, and for the question list a
  // line that says how many columns are out of sight and how to reach them
  function overflow(box) {
    var hidden = box.scrollWidth - box.clientWidth - box.scrollLeft > 2;
    box.classList.toggle("more", hidden);
    if (box.id !== "cq-scroll") { return; }
    var right = box.getBoundingClientRect().right, n = 0;
    Array.prototype.forEach.call(box.querySelectorAll("thead th"), function (th) {
      if (th.getBoundingClientRect().right > right + 2) { n++; }
    });
    var hint = $("cq-hint");
    hint.textContent = n ? "→ " + n + " more column" + (n > 1 ? "s" : "") + " to the right: scroll the table sideways " +
      "(Shift + mouse wheel, or the scroll bar under it)" : "";
    hint.classList.toggle("on", n > 0);
  }
  function watchOverflow() {
    Array.prototype.forEach.call(document.querySelectorAll(".scroll"), function (box) {
      box.addEventListener("scroll", function () { overflow(box); }, { passive: true });
      overflow(box);
    });
  }
  window.addEventListener("resize", function () {
    Array.prototype.forEach.call(document.querySelectorAll(".scroll"), overflow);
  });
  ["cq-search"].forEach(function (id) { $(id).addEventListener("input", apply); });
  ["f-split", "f-operator", "f-hops", "f-relation", "f-cardinality", "f-allen", "f-ac", "f-verdict", "f-class", "cq-sort"].forEach(function (id) {
    $(id).addEventListener("change", apply);
  });
  $("cq-size").addEventListener("change", function () { PAGE = +$("cq-size").value; state.page = 0; draw(); });
  $("cq-prev").addEventListener("click", function () { state.page--; draw(); });
  $("cq-next").addEventListener("click", function () { state.page++; draw(); });
  $("cq-rows").addEventListener("click", function (ev) {
    var tr = ev.target.closest("tr");
    if (tr && ev.target.tagName !== "A") { location.hash = "q=" + encodeURIComponent(tr.getAttribute("data-qid")); }
  });
  window.addEventListener("hashchange", route);
  // a second click on the link of the question already open changes no hash: bring its view back all the same
  document.addEventListener("click", function (ev) {
    var a = ev.target.closest ? ev.target.closest('a[href^="#q="]') : null;
    if (a && a.getAttribute("href") === location.hash) { ev.preventDefault(); route(); }
  });
  apply();
  watchOverflow();
  route();
  if (window.performance && performance.mark) { performance.mark("cq-ready"); }
  document.body.setAttribute("data-explorer", "ready");
})();
