"""The self-contained, keyboard-driven annotation page (no server: judgments are downloaded as JSON).

Keys: ``1``-``5`` choose a judgment, ``y`` / ``n`` / ``u`` answer it (yes, no, unsure) and move to the
next, ``j`` or ``→`` next question, ``k`` or ``←`` previous, ``c`` writes a comment (``Esc`` leaves it),
``s`` saves (downloads ``judgments-<annotator>.json``). Work is also kept in the browser's local storage,
so a closed tab loses nothing. ``window.chronoqaJudgments()`` returns what ``s`` would save.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chronoqa.escape import html_text, js_show_invisible, script_json
from chronoqa.validate.protocol import JUDGMENTS, VALUES

__all__ = ["render_page"]

_STYLE = """
body{font:15px/1.45 system-ui,sans-serif;margin:0;background:#f6f6f4;color:#222}
header{background:#24323f;color:#fff;padding:8px 16px;display:flex;gap:16px;align-items:center}
header input{font:inherit;padding:2px 6px}
main{max-width:900px;margin:16px auto;background:#fff;padding:16px 24px;border-radius:6px}
.q{font-size:20px;margin:8px 0 12px}
.meta{color:#555;font-size:13px}
table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ddd;padding:3px 8px;font-size:13px}
.j{display:flex;gap:12px;align-items:center;padding:4px 8px;border-radius:4px}
.j.focus{background:#fff3c4;outline:2px solid #e0b400}
.v{min-width:60px;font-weight:600}.v.yes{color:#17702b}.v.no{color:#b3261e}.v.unsure{color:#7a5c00}
textarea{width:100%;height:48px;font:inherit}
.help{color:#555;font-size:12px;margin-top:12px}
"""

_SCRIPT = r"""
(function(){
SHOW_INVISIBLE
const META = JSON.parse(document.getElementById('meta').textContent);
const ITEMS = JSON.parse(document.getElementById('items').textContent);
const JUDG = JSON.parse(document.getElementById('judgments').textContent);
const VALUES = JSON.parse(document.getElementById('values').textContent);
const KEY = 'chronoqa-judgments:' + META.dataset + ':' + META.seed + ':' + META.n;
let state = {annotator: '', pos: 0, focus: 0, judgments: {}};
try { const s = JSON.parse(localStorage.getItem(KEY) || 'null'); if (s) state = s; } catch (e) {}
if (!(state.pos >= 0 && state.pos < ITEMS.length)) state.pos = 0;
const $ = (id) => document.getElementById(id);
function keep(){ try { localStorage.setItem(KEY, JSON.stringify(state)); } catch (e) {} }
function rec(id){ if (!state.judgments[id]) state.judgments[id] = {comment: ''}; return state.judgments[id]; }
function el(tag, text, cls){ const e = document.createElement(tag); if (text !== undefined) e.textContent = show(text);
  if (cls) e.className = cls; return e; }
function facts(title, list){
  const box = el('div'); if (!list.length) return box;
  box.appendChild(el('div', title, 'meta'));
  const t = el('table'); const h = el('tr');
  ['subject', 'relation', 'object', 'valid'].forEach(x => h.appendChild(el('th', x))); t.appendChild(h);
  list.forEach(f => { const r = el('tr'); [f.s, f.r, f.o, f.window].forEach(x => r.appendChild(el('td', x)));
    t.appendChild(r); });
  box.appendChild(t); return box;
}
function draw(){
  const it = ITEMS[state.pos]; const r = rec(it.id); const m = $('item'); m.textContent = '';
  m.appendChild(el('div', (state.pos + 1) + ' / ' + ITEMS.length + ' · ' + it.id + ' · cell ' + it.cell, 'meta'));
  m.appendChild(el('div', it.question, 'q'));
  m.appendChild(el('div', 'asked time: ' + (it.t_query || '(in the question)') + ' · data as of ' +
    (it.as_of || '?') + ' · cardinality ' + it.cardinality, 'meta'));
  m.appendChild(el('div', 'gold: ' + (it.answers.length ? it.answers.join('; ') : '(no answer)'), 'q'));
  m.appendChild(facts('gold chain S* (each fact valid over its window)', it.S_star));
  m.appendChild(facts('anchor facts (resolve the time only)', it.S_anchor));
  JUDG.forEach((j, i) => {
    const row = el('div', undefined, 'j' + (i === state.focus ? ' focus' : '')); row.id = 'j-' + j.name;
    row.appendChild(el('span', '[' + j.key + ']', 'meta'));
    row.appendChild(el('span', r[j.name] || '–', 'v ' + (r[j.name] || '')));
    row.appendChild(el('span', j.prompt)); m.appendChild(row);
  });
  const c = el('textarea'); c.id = 'comment'; c.placeholder = 'comment ([c] to write, Esc to leave)';
  c.value = r.comment || ''; c.addEventListener('input', () => { r.comment = c.value; keep(); });
  m.appendChild(c);
  const done = ITEMS.filter(x => state.judgments[x.id] && JUDG.every(j => state.judgments[x.id][j.name])).length;
  $('progress').textContent = done + ' of ' + ITEMS.length + ' complete';
}
function result(){
  return {format: META.format, annotator: state.annotator, dataset: META.dataset, seed: META.seed, n: META.n,
    judgments: ITEMS.map(it => { const r = state.judgments[it.id] || {}; const o = {id: it.id};
      JUDG.forEach(j => { o[j.name] = r[j.name] || null; }); o.comment = r.comment || ''; return o; })};
}
window.chronoqaJudgments = result;
function save(){
  if (!state.annotator) { alert('Type your name (annotator) first, then save.'); $('annotator').focus(); return; }
  const blob = new Blob([JSON.stringify(result(), null, 1)], {type: 'application/json'});
  const a = document.createElement('a'); a.href = URL.createObjectURL(blob);
  a.download = 'judgments-' + (state.annotator || 'anonymous') + '.json'; document.body.appendChild(a); a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 0);
}
const ANSWER = {y: 'yes', n: 'no', u: 'unsure'};
document.addEventListener('keydown', (ev) => {
  const t = ev.target;
  if (t && (t.tagName === 'TEXTAREA' || t.tagName === 'INPUT')) { if (ev.key === 'Escape') t.blur(); return; }
  const k = ev.key; const it = ITEMS[state.pos];
  if (k >= '1' && k <= String(JUDG.length)) state.focus = Number(k) - 1;
  else if (ANSWER[k] && VALUES.includes(ANSWER[k])) {
    rec(it.id)[JUDG[state.focus].name] = ANSWER[k]; state.focus = Math.min(state.focus + 1, JUDG.length - 1);
  } else if (k === 'j' || k === 'ArrowRight') {
    state.pos = Math.min(state.pos + 1, ITEMS.length - 1); state.focus = 0;
  }
  else if (k === 'k' || k === 'ArrowLeft') { state.pos = Math.max(state.pos - 1, 0); state.focus = 0; }
  else if (k === 'c') { ev.preventDefault(); $('comment').focus(); return; }
  else if (k === 's') { save(); return; }
  else return;
  ev.preventDefault(); keep(); draw();
});
const who = $('annotator'); who.value = state.annotator;
who.addEventListener('input', () => { state.annotator = who.value.trim(); keep(); });
$('save').addEventListener('click', save);
draw();
})();
""".replace("SHOW_INVISIBLE", js_show_invisible("show"))  # labels shown as chronoqa.escape shows them in HTML


def _data(id_: str, obj: Any) -> str:
    return f'<script type="application/json" id="{html_text(id_)}">{script_json(obj, sort_keys=True)}</script>'


def render_page(items: Sequence[Mapping[str, Any]], meta: Mapping[str, Any]) -> str:
    """The annotation page of ``items`` (from :func:`chronoqa.validate.sample.sample_item`)."""
    judgments = [{"name": j.name, "key": j.key, "prompt": j.prompt} for j in JUDGMENTS]
    help_text = (
        "Keys: 1-5 choose a judgment · y yes · n no · u unsure · j / → next · k / ← previous · "
        "c comment (Esc leaves) · s save (download the JSON file and send it back). "
        "Definitions: docs/annotation-protocol.md."
    )
    title = f"chronoqa validation: {meta.get('dataset', '')} ({len(items)} questions)"
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            f"<title>{_escape(title)}</title>",
            f"<style>{_STYLE}</style>",
            "</head><body>",
            f"<header><b>{_escape(title)}</b>",
            '<label>annotator <input id="annotator" placeholder="your name"></label>',
            '<span id="progress"></span><button id="save">save (s)</button></header>',
            '<main><div id="item"></div>',
            f'<div class="help">{_escape(help_text)}</div></main>',
            _data("meta", dict(meta)),
            _data("items", list(items)),
            _data("judgments", judgments),
            _data("values", list(VALUES)),
            f"<script>{_SCRIPT}</script>",
            "</body></html>",
            "",
        ]
    )


def _escape(text: str) -> str:
    return html_text(text)
