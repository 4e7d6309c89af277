// The board's style sheet and script, written into every site (board_site.h). The script sorts
// and filters tables and keeps that state in the URL (#sort=KEY&dir=asc|desc&<filter>=VALUE,
// and click=ID,... to click elements after loading, which is how the browser test clicks).
#include "board_site.h"

namespace arena::score {

const char* const kBoardCss = R"CSS(body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; }
nav a { margin-right: 1em; font-weight: 600; }
table { border-collapse: collapse; margin: 0.6em 0 1.2em; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.5em; text-align: left; vertical-align: top; }
th { background: #f0f0f4; }
table.sortable th[data-key] { cursor: pointer; }
th[data-sorted="asc"]::after { content: " \25B2"; }
th[data-sorted="desc"]::after { content: " \25BC"; }
small { color: #666; }
.filters label { margin-right: 1em; }
td.ok, tr.ok td:first-child { background: #e3f6e3; }
td.bad { background: #fbe3e3; }
td.skip { background: #f4f4f4; }
pre { background: #f7f7f9; padding: 0.6em; overflow-x: auto; max-height: 40em; }
pre.diff .add { background: #e3f6e3; display: block; }
pre.diff .del { background: #fbe3e3; display: block; }
pre.diff .same { display: block; }
#js-errors { background: #fbe3e3; color: #900; }
svg.chart { background: #fafafa; border: 1px solid #ddd; }
svg.chart .axis { stroke: #888; }
svg.chart .ci { stroke: #7aa6d6; stroke-width: 3; }
svg.chart polyline { fill: none; stroke-width: 2; }
svg.chart polyline.speedup, .legend .speedup { stroke: #1f5fa8; color: #1f5fa8; }
svg.chart polyline.correct, .legend .correct { stroke: #2e8b3a; color: #2e8b3a; }
svg.chart text { font-size: 10px; fill: #444; }
svg.chart circle.speedup { fill: #1f5fa8; }
svg.chart circle.correct { fill: #2e8b3a; }
section { border-top: 1px solid #ddd; margin-top: 1em; }
.note { color: #666; }
)CSS";

const char* const kBoardJs = R"JS((function () {
  'use strict';
  function readHash() {
    var p = {};
    location.hash.replace(/^#/, '').split('&').forEach(function (kv) {
      if (!kv) return;
      var i = kv.indexOf('=');
      p[decodeURIComponent(i < 0 ? kv : kv.slice(0, i))] = i < 0 ? '' : decodeURIComponent(kv.slice(i + 1));
    });
    return p;
  }
  var state = readHash();
  function writeHash() {
    var parts = [];
    Object.keys(state).sort().forEach(function (k) {
      if (k !== 'click' && state[k] !== '' && state[k] !== undefined) parts.push(encodeURIComponent(k) + '=' + encodeURIComponent(state[k]));
    });
    document.body.setAttribute('data-state', parts.join('&'));
    try { history.replaceState(null, '', '#' + parts.join('&')); } catch (e) { /* some file:// setups refuse */ }
  }
  function isNumber(s) { return s !== '' && !isNaN(Number(s)); }
  function sortTable(table, key, dir) {
    var head = table.tHead.rows[0].cells, col = -1;
    for (var i = 0; i < head.length; i++) {
      head[i].removeAttribute('data-sorted');
      if (head[i].getAttribute('data-key') === key) col = i;
    }
    if (col < 0) return false;
    head[col].setAttribute('data-sorted', dir);
    var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
    var sign = dir === 'desc' ? -1 : 1;
    rows.sort(function (a, b) {
      var x = a.cells[col] ? a.cells[col].getAttribute('data-v') || '' : '';
      var y = b.cells[col] ? b.cells[col].getAttribute('data-v') || '' : '';
      if (x === '' || y === '') return (x === '') - (y === '');  // unknown values last either way
      if (isNumber(x) && isNumber(y)) return sign * (Number(x) - Number(y));
      return sign * x.localeCompare(y);
    });
    rows.forEach(function (r) { body.appendChild(r); });
    table.setAttribute('data-sort', key);
    table.setAttribute('data-dir', dir);
    return true;
  }
  function firstDir(table, key) {
    if (key === 'rank') return 'asc';
    var cells = table.querySelectorAll('tbody td:nth-child(' + (columnOf(table, key) + 1) + ')');
    for (var i = 0; i < cells.length; i++) {
      var v = cells[i].getAttribute('data-v') || '';
      if (v !== '') return isNumber(v) ? 'desc' : 'asc';
    }
    return 'asc';
  }
  function columnOf(table, key) {
    var head = table.tHead.rows[0].cells;
    for (var i = 0; i < head.length; i++) if (head[i].getAttribute('data-key') === key) return i;
    return -1;
  }
  function applyFilters() {
    var selects = document.querySelectorAll('select[data-filter]');
    document.querySelectorAll('table.filterable').forEach(function (table) {
      var shown = 0;
      Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
        var keep = true;
        selects.forEach(function (s) {
          var want = s.value, key = s.getAttribute('data-filter');
          if (want !== '' && row.hasAttribute('data-' + key) && row.getAttribute('data-' + key) !== want) keep = false;
        });
        row.hidden = !keep;
        shown += keep;
      });
      table.setAttribute('data-visible-rows', shown);
      var count = document.getElementById('row-count');
      if (count) count.textContent = shown + ' row(s) shown';
    });
  }
  var main = document.querySelector('table.sortable');
  document.querySelectorAll('select[data-filter]').forEach(function (s) {
    var key = s.getAttribute('data-filter');
    if (state[key] !== undefined) s.value = state[key];
    state[key] = s.value;
    s.addEventListener('change', function () { state[key] = s.value; applyFilters(); writeHash(); });
  });
  document.querySelectorAll('table.sortable').forEach(function (table) {
    table.tHead.addEventListener('click', function (ev) {
      var th = ev.target.closest('th[data-key]');
      if (!th) return;
      var key = th.getAttribute('data-key');
      var dir = table.getAttribute('data-sort') === key ? (table.getAttribute('data-dir') === 'asc' ? 'desc' : 'asc')
                                                        : firstDir(table, key);
      sortTable(table, key, dir);
      if (table === main) { state.sort = key; state.dir = dir; writeHash(); }
    });
  });
  if (main) {
    var key = state.sort || (columnOf(main, 'rank') >= 0 ? 'rank' : '');
    if (key) {
      var dir = state.dir === 'asc' || state.dir === 'desc' ? state.dir : firstDir(main, key);
      if (sortTable(main, key, dir)) { state.sort = key; state.dir = dir; }
    }
  }
  applyFilters();
  writeHash();
  (state.click || '').split(',').forEach(function (id) {
    var el = id && document.getElementById(id);
    if (el) el.click();
    else if (id) throw new Error('no element #' + id + ' to click');
  });
  document.body.setAttribute('data-ready', '1');
})();
)JS";

}  // namespace arena::score
