/* tritonscope report: click-to-highlight across panes. Data: the JSON blob #ts-data
   (files, chains of [file, line, col] innermost first, srcFiles: the file indices of the shown source).
   Each pane's .body holds one <div> per text line; op lines (.op) carry data-c (their chain) and
   data-s (the user's source line); the later lines of a multi-line op are .op.cont, highlighted with it and
   not counted. The source pane holds the kernel's file (data-file="main") and, one
   shown at a time, the files helpers were written in (data-file: their index in files). */
(function () {
  'use strict';
  var D = JSON.parse(document.getElementById('ts-data').textContent);
  var panes = document.getElementById('panes');
  var status = document.getElementById('status');
  var MARKS = ['sel', 'hl', 'hw', 'chn'];

  function all(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }
  function base(p) { return String(p).split('/').pop(); }
  function clear() {
    MARKS.forEach(function (m) { all('.' + m).forEach(function (e) { e.classList.remove(m); }); });
    all('.files .hit').forEach(function (e) { e.classList.remove('hit'); });
  }
  function lineOf(stage, n) {
    // (the source pane: the kernel's own file only; a helper's file shown in its place has other lines)
    var body = document.querySelector('.pane[data-stage="' + stage + '"] .body' +
                                      (stage === 'python' ? '[data-file="main"]' : ''));
    return (body && body.children[n - 1]) || null;
  }
  function srcLine(n) { return lineOf('python', n); }
  function helperLine(fi, n) {
    var body = document.querySelector('.pane.src .body[data-file="' + fi + '"]');
    return (body && body.children[n - 1]) || null;
  }
  // helper lines on an op's chain: the innermost element (where the op was written) 'sel', the others 'chn'
  function markHelpers(ci, innermost) {
    (D.chains[ci] || []).forEach(function (f, i) {
      var x = helperLine(f[0], f[1]);
      if (!x) return;
      x.classList.add(i === 0 && innermost ? 'sel' : 'chn');
      var b = document.querySelector('.files .sf[data-file="' + f[0] + '"]');
      if (b) b.classList.add('hit');
    });
  }
  function showFile(key) {
    all('.pane.src > [data-file]').forEach(function (e) { e.classList.toggle('off', e.dataset.file !== String(key)); });
    all('.files .sf').forEach(function (b) { b.classList.toggle('on', b.dataset.file === String(key)); });
  }
  function lineNo(el) { return Array.prototype.indexOf.call(el.parentNode.children, el) + 1; }
  function describe(ci) {
    return (D.chains[ci] || []).map(function (f) { return base(D.files[f[0]]) + ':' + f[1] + ':' + f[2]; })
      .join('  @  ');
  }
  function chainSourceLines(ci) {
    return (D.chains[ci] || []).filter(function (f) { return D.srcFiles.indexOf(f[0]) >= 0; })
      .map(function (f) { return f[1]; });
  }
  // Bring a line into view in its pane: scrolled to the upper third unless comfortably visible already;
  // panes other than the one clicked also go back to column 0, where every line starts.
  function reveal(el, home) {
    var body = el && el.closest('.body');
    if (!body) return;
    if (home) body.scrollLeft = 0;
    var top = el.offsetTop, view = body.scrollTop;
    if (top < view + 8 || top > view + body.clientHeight * 0.7) body.scrollTop = Math.max(0, top - body.clientHeight / 3);
  }
  function firstPerPane(els) {
    var seen = {};
    els.forEach(function (e) {
      var p = e.closest('.pane');
      if (p && !seen[p.dataset.stage]) { seen[p.dataset.stage] = true; reveal(e, true); }
    });
  }
  function counts(els) {  // (a multi-line op's later lines, .cont, are its own: not counted again)
    var c = {};
    els.forEach(function (e) {
      if (e.classList.contains('cont')) return;
      var s = e.closest('.pane').dataset.stage; c[s] = (c[s] || 0) + 1;
    });
    return D.stages.filter(function (s) { return c[s]; }).map(function (s) { return s + ' ' + c[s]; }).join(' · ');
  }
  function setStatus(html) { if (status) status.innerHTML = html; }
  function text(s) { var d = document.createElement('span'); d.textContent = s; return d.innerHTML; }

  // the ops whose chain satisfies pred (tested once per distinct chain), and those `own` accepts outright
  function opsWhere(pred, own) {
    var memo = {};
    return all('.op', panes).filter(function (e) {
      if (own && own(e)) return true;
      var ci = e.dataset.c;
      if (ci === undefined) return false;
      if (!(ci in memo)) memo[ci] = pred(D.chains[ci] || []);
      return memo[ci];
    });
  }

  function selectSource(line) {
    clear();
    var s = srcLine(line);
    if (s) { s.classList.add('sel'); reveal(s); }
    // the line's own ops, and those a helper defined in this file wrote on it (an inner chain element)
    var ops = opsWhere(function (chain) {
      return chain.slice(0, -1).some(function (f) { return f[1] === line && D.srcFiles.indexOf(f[0]) >= 0; });
    }, function (e) { return e.dataset.s === String(line); });
    var chains = {};
    ops.forEach(function (e) {
      e.classList.add('hl');
      chains[e.dataset.c] = true;
      chainSourceLines(e.dataset.c).forEach(function (l) {
        var x = srcLine(l);
        if (l !== line && x) x.classList.add('chn');
      });
    });
    Object.keys(chains).forEach(function (ci) { markHelpers(ci, false); });
    firstPerPane(ops);
    setStatus('<b>line ' + line + '</b> → ' + (ops.length ? text(counts(ops)) : 'no ops map to this line'));
  }

  // a line of a helper's file: the ops whose chain passes through it, and the kernel lines that call it
  function selectHelper(fi, line) {
    clear();
    var h = helperLine(fi, line);
    if (h) { h.classList.add('sel'); reveal(h); }
    var ops = opsWhere(function (chain) {
      return chain.some(function (f) { return f[0] === fi && f[1] === line; });
    });
    ops.forEach(function (e) {
      e.classList.add('hl');
      chainSourceLines(e.dataset.c).forEach(function (l) { var x = srcLine(l); if (x) x.classList.add('chn'); });
    });
    firstPerPane(ops);
    setStatus('<b>' + text(base(D.files[fi]) + ':' + line) + '</b> → '
      + (ops.length ? text(counts(ops)) : 'no ops map to this line'));
  }

  // a loads row of a helper's access: the ops of that call's chain only (the helper's line alone selects
  // every call of it); `k` the row's chain, innermost first, as [file index, line] pairs
  function selectChain(k, label) {
    clear();
    var ops = opsWhere(function (chain) {
      if (chain.length < k.length) return false;
      var off = chain.length - k.length;
      return k.every(function (f, i) { return chain[off + i][0] === f[0] && chain[off + i][1] === f[1]; });
    });
    ops.forEach(function (e) {
      e.classList.add('hl');
      chainSourceLines(e.dataset.c).forEach(function (l) { var x = srcLine(l); if (x) x.classList.add('chn'); });
    });
    var s = srcLine(k[k.length - 1][1]);
    if (s && D.srcFiles.indexOf(k[k.length - 1][0]) >= 0) { s.classList.add('sel'); reveal(s); }
    firstPerPane(ops);
    setStatus('<b>' + text(label) + '</b> → ' + (ops.length ? text(counts(ops)) : 'no ops map to this access'));
  }

  function selectOp(el) {
    clear();
    var ci = el.dataset.c, line = el.dataset.s;
    if (line) all('.op[data-s="' + line + '"]', panes).forEach(function (e) { e.classList.add('hw'); });
    var same = all('.op[data-c="' + ci + '"]', panes);
    same.forEach(function (e) { e.classList.remove('hw'); e.classList.add('hl'); });
    chainSourceLines(ci).forEach(function (l) {
      var x = srcLine(l);
      if (x) x.classList.add(String(l) === line ? 'sel' : 'chn');
    });
    markHelpers(ci, true);
    el.classList.remove('hl');
    el.classList.add('sel');
    firstPerPane(same.filter(function (e) { return e.closest('.pane') !== el.closest('.pane'); }));
    if (line) reveal(srcLine(line), true);
    setStatus('<b>' + text(el.closest('.pane').dataset.stage + ':' + lineNo(el)) + '</b> ← '
      + text(describe(ci)) + '  |  same position: ' + text(counts(same)));
  }

  panes && panes.addEventListener('click', function (ev) {
    if (ev.target.closest('a')) return;
    var ln = ev.target.closest('.body > div');
    if (!ln) return;
    if (ln.closest('.src')) {
      if (!ln.classList.contains('has')) return;
      var fi = ln.parentNode.dataset.file;
      if (fi === 'main' || fi === undefined) selectSource(lineNo(ln));
      else if (fi !== '') selectHelper(+fi, lineNo(ln));
    }
    else if (ln.classList.contains('op')) selectOp(ln);
  });

  function showTab(key) {
    all('.tab').forEach(function (t) { t.classList.toggle('on', t.dataset.tab === key); });
    all('.panel').forEach(function (p) { p.classList.toggle('on', p.id === 'panel-' + key); });
  }
  all('.tab').forEach(function (t) { t.addEventListener('click', function () { showTab(t.dataset.tab); }); });
  all('.files .sf').forEach(function (b) { b.addEventListener('click', function () { showFile(b.dataset.file); }); });

  document.addEventListener('click', function (ev) {
    var a = ev.target.closest('a[href^="#"]');
    if (!a) return;
    var id = decodeURIComponent(a.getAttribute('href').slice(1));
    var at = /^(.+)-(\d+)$/.exec(id);
    var target = document.getElementById(id) || (at && lineOf(at[1] === 'src' ? 'python' : at[1], +at[2]));
    if (!target) return;
    ev.preventDefault();
    if (id.indexOf('layout-') === 0) {
      showTab('layouts');
      target.scrollIntoView({ block: 'nearest' });
      target.classList.add('flash');
      setTimeout(function () { target.classList.remove('flash'); }, 1200);
    } else if (target.parentNode.classList.contains('body')) {
      if (target.classList.contains('op')) selectOp(target);
      else { clear(); target.classList.add('sel'); reveal(target); }
    }
  });

  all('tr[data-s]').forEach(function (tr) {
    tr.addEventListener('click', function (ev) {
      if (ev.target.closest('a')) return;
      all('tr.sel').forEach(function (r) { r.classList.remove('sel'); });
      var k = null;
      try { k = tr.dataset.k ? JSON.parse(tr.dataset.k) : null; } catch (e) { k = null; }
      if (Array.isArray(k) && k.length && k.every(function (f) { return Array.isArray(f) && f.length >= 2; })) {
        selectChain(k, tr.title || '');
      } else selectSource(+tr.dataset.s);
      tr.classList.add('sel');
    });
  });

  document.addEventListener('keydown', function (ev) {
    if (ev.key === 'Escape') { clear(); setStatus('Click a source line or an instruction.'); }
  });

  var m = /^#L(\d+)$/.exec(location.hash);
  if (m && srcLine(m[1])) selectSource(+m[1]);
})();
