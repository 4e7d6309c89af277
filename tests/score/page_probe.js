// Appended to a copy of an index.html that arena-score wrote, run by headless Chromium after the
// page's own script: reads what the browser rendered (text, computed colours, layout) and writes
// it as JSON into the pre element #probe, for check_case.sh to assert on with score_json_check.
// It reports facts only; the expectations are in check_case.sh.
(function () {
  // The page's failure red and warning amber (index.html's style): a neutral line uses neither.
  var ALARM = ['rgb(180, 35, 24)', 'rgb(138, 109, 0)', 'rgb(255, 244, 214)', 'rgb(232, 195, 90)'];
  function text(el) { return el ? el.textContent.replace(/\s+/g, ' ').trim() : null; }
  function alarmed(el) {
    var s = getComputedStyle(el);
    return ALARM.indexOf(s.color) >= 0 || ALARM.indexOf(s.backgroundColor) >= 0;
  }
  // Texts of the elements under root (root included) drawn in an alarm colour, innermost first.
  function alarms(root) {
    var out = [];
    [root].concat(Array.prototype.slice.call(root.querySelectorAll('*'))).forEach(function (el) {
      if (alarmed(el) && text(el) && el.children.length === 0) out.push(text(el));
      else if (alarmed(el) && text(el) && !Array.prototype.some.call(el.children, alarmed)) out.push(text(el));
    });
    return out;
  }
  function section(title) {  // the elements after <h2>title</h2>, up to the next <h2>
    var h = Array.prototype.filter.call(document.querySelectorAll('h2'), function (x) {
      return text(x).indexOf(title) === 0;
    })[0];
    var out = [];
    for (var el = h && h.nextElementSibling; el && el.tagName !== 'H2'; el = el.nextElementSibling) out.push(el);
    return out;
  }
  var result = {tasks: [], metrics: {}, fast_p: {}, seen_unseen: []};

  var tasks = document.getElementById('tasks');
  var heads = Array.prototype.map.call(tasks.tHead.rows[0].cells, function (c) { return c.getAttribute('data-key'); });
  Array.prototype.forEach.call(tasks.tBodies[0].rows, function (row) {
    var t = {id: row.getAttribute('data-task'), cells: {}, alarms: alarms(row)};
    Array.prototype.forEach.call(row.cells, function (c, i) { t.cells[heads[i]] = text(c); });
    var last = row.cells[row.cells.length - 1];
    t.lines = Array.prototype.map.call(last.querySelectorAll('div'), text);
    // a line that is another line of the cell, or inside one
    t.repeated = t.lines.filter(function (l, i) {
      return t.lines.some(function (o, j) { return j !== i && o.indexOf(l.replace(/^[a-z_, ]+: /, '')) >= 0; });
    });
    // lines the cell does not show whole: cut by an ellipsis, or wider than the cell
    t.clipped = Array.prototype.filter.call(last.querySelectorAll('div'), function (d) {
      return /(\.\.\.|\u2026)$/.test(text(d)) || d.scrollWidth > d.clientWidth + 1;
    }).map(text);
    result.tasks.push(t);
  });

  section('Metrics').forEach(function (el) {
    if (el.tagName !== 'TABLE') return;
    var cols = Array.prototype.map.call(el.tHead.rows[0].cells, text);
    Array.prototype.forEach.call(el.tBodies[0].rows, function (r) {
      var m = result.metrics[text(r.cells[0])] = {};
      for (var i = 1; i < r.cells.length; i++) m[cols[i]] = text(r.cells[i]);
    });
  });

  // fast_p: each curve drawn (its legend and the highest share it reaches), and the words around it
  var svg = section('fast_p').filter(function (el) { return el.tagName === 'svg' || el.tagName === 'SVG'; })[0];
  result.fast_p.svg = !!svg;
  result.fast_p.curves = [];
  if (svg) {
    var legends = Array.prototype.filter.call(svg.querySelectorAll('text'), function (x) {
      return /\(\d+ tasks?[,)]/.test(text(x));
    });
    var axis = Array.prototype.filter.call(svg.querySelectorAll('text'), function (x) { return text(x) === '0%'; })[0];
    var top = Array.prototype.filter.call(svg.querySelectorAll('text'), function (x) { return text(x) === '100%'; })[0];
    var y0 = axis ? parseFloat(axis.getAttribute('y')) - 4 : 0, y1 = top ? parseFloat(top.getAttribute('y')) - 4 : 0;
    Array.prototype.forEach.call(svg.querySelectorAll('polyline'), function (p, i) {
      var ys = p.getAttribute('points').trim().split(/\s+/).map(function (xy) { return parseFloat(xy.split(',')[1]); });
      var best = Math.min.apply(null, ys);
      result.fast_p.curves.push({legend: legends[i] ? text(legends[i]) : null,
                                 max_share: Math.round((y0 - best) / (y0 - y1) * 1000) / 1000});
    });
  }
  result.fast_p.text = section('fast_p').filter(function (el) { return el.tagName === 'P'; }).map(text).join(' ');

  section('Seen vs unseen').forEach(function (el) {
    Array.prototype.forEach.call(el.tagName === 'TABLE' ? [el] : el.querySelectorAll('table'), function (tb) {
      var g = {id: tb.caption ? text(tb.caption) : '', cells: {}};
      var cols = Array.prototype.map.call(tb.rows[0].cells, text);
      for (var r = 1; r < tb.rows.length; r++)
        for (var c = 1; c < tb.rows[r].cells.length; c++) {
          var cell = tb.rows[r].cells[c], b = cell.querySelector('b');
          g.cells[text(tb.rows[r].cells[0]) + ' / ' + cols[c]] = b ? parseInt(text(b), 10) : null;
        }
      result.seen_unseen.push(g);
    });
  });

  var pre = document.createElement('pre');
  pre.id = 'probe';
  pre.textContent = JSON.stringify(result);
  document.body.appendChild(pre);
})();
