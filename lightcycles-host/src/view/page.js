'use strict';
// The LightCycles replay player. The replays are the JSON in #lc-data; every
// text from them (names, answer lines, file names) goes into the page through
// textContent only, never as markup.
(() => {
  const data = JSON.parse(document.getElementById('lc-data').textContent);
  const palette = data.palette;
  const $ = (id) => document.getElementById(id);
  const SPEEDS = [1, 2, 5, 10, 20, 50, 100, 200, 500];
  const DEFAULT_SPEED = 20;
  const FAULTS = { invalid: 'invalid line', timeout: 'timed out', crash: 'bot crashed' };

  /**
   * A replay prepared for drawing: heads in one typed array, and for every
   * cell the tick and the player that first reached it. A cell belongs to
   * its first visitor, so stepping forward paints only cells first reached
   * on the new tick, and stepping back erases only those.
   */
  class Game {
    constructor(r) {
      this.r = r;
      this.w = r.width;
      this.h = r.height;
      this.n = r.names.length;
      this.heads = Int32Array.from(r.heads);
      this.frames = this.heads.length / (3 * this.n);
      this.last = this.frames - 1;
      const cells = this.w * this.h;
      this.firstTick = new Int32Array(cells).fill(-1);
      this.firstOwner = new Int8Array(cells);
      this.trail = new Int32Array(this.frames * this.n);
      this.crashedOn = new Int32Array(this.n).fill(-1);
      const visited = new Uint8Array(cells);
      const counts = new Int32Array(this.n);
      for (let t = 0; t < this.frames; t++) {
        for (let i = 0; i < this.n; i++) {
          const c = this.cell(t, i);
          if (this.firstTick[c] < 0) {
            this.firstTick[c] = t;
            this.firstOwner[c] = i;
          }
          if ((visited[c] & (1 << i)) === 0) {
            visited[c] |= 1 << i;
            counts[i]++;
          }
          this.trail[t * this.n + i] = counts[i];
          if (!this.alive(t, i) && this.crashedOn[i] < 0) this.crashedOn[i] = t;
        }
      }
      // What the bots wrote, by tick: [player, lines, truncated].
      this.said = new Map();
      for (const [t, i, lines, cut] of r.said || []) {
        if (!this.said.has(t)) this.said.set(t, []);
        this.said.get(t).push([i, lines, cut]);
      }
      // Metrics by name: [{player, points: [[tick, value], …]}].
      this.metrics = new Map();
      for (const m of r.metrics || []) {
        if (!this.metrics.has(m.name)) this.metrics.set(m.name, []);
        const points = [];
        for (let k = 0; k + 1 < m.points.length; k += 2) points.push([m.points[k], m.points[k + 1]]);
        this.metrics.get(m.name).push({ player: m.player, points });
      }
      this.faults = new Map();
      for (const [t, i, kind] of r.faults) {
        if (!this.faults.has(t)) this.faults.set(t, []);
        this.faults.get(t).push([i, kind]);
      }
    }
    x(t, i) { return this.heads[(t * this.n + i) * 3]; }
    y(t, i) { return this.heads[(t * this.n + i) * 3 + 1]; }
    alive(t, i) { return this.heads[(t * this.n + i) * 3 + 2] === 1; }
    cell(t, i) { return this.y(t, i) * this.w + this.x(t, i); }
    command(t, i) { return t > 0 ? this.r.commands[t - 1][i] : null; }
    faultOf(t, i) {
      const list = this.faults.get(t);
      const hit = list && list.find(([p]) => p === i);
      return hit ? hit[1] : null;
    }
  }

  /**
   * Draws a game on two stacked canvases: #board holds rocks and trails and
   * changes a few cells per tick; #marks holds heads and crash marks, which
   * move every tick and may spill over neighbouring cells.
   */
  class BoardView {
    constructor(board, marks) {
      this.board = board;
      this.marks = marks;
      this.ctx = board.getContext('2d', { alpha: false });
      this.mctx = marks.getContext('2d');
      this.background = document.createElement('canvas');
      this.stats = { painted: 0, erased: 0, redraws: 0 };
    }

    setup(game, cs) {
      this.game = game;
      this.cs = cs;
      this.inset = cs >= 8 ? Math.max(1, Math.round(cs / 10)) : 0;
      for (const c of [this.board, this.marks, this.background]) {
        c.width = game.w * cs;
        c.height = game.h * cs;
      }
      this.drawBackground();
      this.shown = -1;
      this.markRects = [];
    }

    /** The board without trails: empty cells on a fine grid, and rocks. */
    drawBackground() {
      const { game, cs } = this;
      const g = this.background.getContext('2d', { alpha: false });
      const W = game.w * cs;
      const H = game.h * cs;
      g.fillStyle = palette.empty;
      g.fillRect(0, 0, W, H);
      if (cs >= 6) {
        g.fillStyle = palette.grid;
        for (let x = 0; x < game.w; x++) g.fillRect(x * cs, 0, 1, H);
        for (let y = 0; y < game.h; y++) g.fillRect(0, y * cs, W, 1);
      }
      g.fillStyle = palette.rock;
      const rocks = game.r.rocks;
      for (let k = 0; k < rocks.length; k += 2) g.fillRect(rocks[k] * cs, rocks[k + 1] * cs, cs, cs);
    }

    /** The square drawn for cell c: the whole cell, or inset on large
     * cells so that the gaps between the squares show the path. */
    square(c) {
      const { cs, inset, game } = this;
      return [(c % game.w) * cs + inset, Math.floor(c / game.w) * cs + inset, cs - 2 * inset, cs - 2 * inset];
    }

    /** The gap between the squares of side-by-side cells a and b, or null. */
    gap(a, b) {
      const { cs, inset, game } = this;
      if (inset === 0) return null;
      const ax = a % game.w;
      const ay = (a - ax) / game.w;
      const bx = b % game.w;
      const by = (b - bx) / game.w;
      if (ay === by && Math.abs(ax - bx) === 1) return [Math.max(ax, bx) * cs - inset, ay * cs + inset, 2 * inset, cs - 2 * inset];
      if (ax === bx && Math.abs(ay - by) === 1) return [ax * cs + inset, Math.max(ay, by) * cs - inset, cs - 2 * inset, 2 * inset];
      return null;
    }

    /** What player i adds on tick t: nothing, or the square of the cell it
     * reached first, joined to the cell it came from. */
    pieces(t, i) {
      const { game } = this;
      const c = game.cell(t, i);
      if (game.firstTick[c] !== t || game.firstOwner[c] !== i) return null;
      const rects = [this.square(c)];
      if (t > 0) {
        const from = game.cell(t - 1, i);
        const join = game.firstOwner[from] === i ? this.gap(from, c) : null;
        if (join) rects.push(join);
      }
      return rects;
    }

    /** One tick on: paint what each player added on it. */
    forward() {
      const { game, ctx } = this;
      const t = this.shown + 1;
      for (let i = 0; i < game.n; i++) {
        const rects = this.pieces(t, i);
        if (!rects) continue;
        ctx.fillStyle = palette.players[i];
        for (const [x, y, w, h] of rects) ctx.fillRect(x, y, w, h);
        this.stats.painted++;
      }
      this.shown = t;
    }

    /** One tick back: put the background back where the tick left added. */
    backward() {
      const { game, ctx } = this;
      const t = this.shown;
      for (let i = 0; i < game.n; i++) {
        const rects = this.pieces(t, i);
        if (!rects) continue;
        for (const [x, y, w, h] of rects) ctx.drawImage(this.background, x, y, w, h, x, y, w, h);
        this.stats.erased++;
      }
      this.shown = t - 1;
    }

    /** The board at tick t from nothing: one copy of the background, then
     * each player's pieces in one colour run. */
    redraw(t) {
      const { game, ctx } = this;
      ctx.drawImage(this.background, 0, 0);
      for (let i = 0; i < game.n; i++) {
        ctx.fillStyle = palette.players[i];
        for (let s = 0; s <= t; s++) {
          const rects = this.pieces(s, i);
          if (rects) for (const [x, y, w, h] of rects) ctx.fillRect(x, y, w, h);
        }
      }
      this.shown = t;
      this.stats.redraws++;
    }

    /** Shows tick t by the cheaper way: stepping from the tick shown (each
     * step touches at most one cell per player) or redrawing from nothing
     * (one cell per player per tick up to t). */
    show(t) {
      if (t !== this.shown) {
        const distance = Math.abs(t - this.shown);
        if (this.shown < 0 || distance > t + 1) {
          this.redraw(t);
        } else {
          while (this.shown < t) this.forward();
          while (this.shown > t) this.backward();
        }
      }
      this.drawMarks(t);
    }

    /** Heads and crash marks of tick t, after clearing those of the last. */
    drawMarks(t) {
      const { game, cs, mctx } = this;
      for (const [x, y, w, h] of this.markRects) mctx.clearRect(x, y, w, h);
      this.markRects = [];
      for (let i = 0; i < game.n; i++) {
        const x0 = game.x(t, i) * cs;
        const y0 = game.y(t, i) * cs;
        if (game.alive(t, i) && cs >= 8) {
          mctx.fillStyle = '#ffffff';
          mctx.fillRect(x0 - 1, y0 - 1, cs + 2, cs + 2);
          mctx.fillStyle = palette.players[i];
          mctx.fillRect(x0 + 1, y0 + 1, cs - 2, cs - 2);
          const core = Math.max(2, Math.round(cs / 3));
          mctx.fillStyle = '#ffffff';
          mctx.fillRect(x0 + (cs - core) / 2, y0 + (cs - core) / 2, core, core);
          this.markRects.push([x0 - 2, y0 - 2, cs + 4, cs + 4]);
        } else if (game.alive(t, i)) {
          // Small cells: a dot of the player's colour, ringed, larger than the cell.
          const r = 4;
          mctx.beginPath();
          mctx.arc(x0 + cs / 2, y0 + cs / 2, r, 0, 2 * Math.PI);
          mctx.fillStyle = palette.players[i];
          mctx.fill();
          mctx.lineWidth = 2;
          mctx.strokeStyle = '#ffffff';
          mctx.stroke();
          const m = r + 3;
          this.markRects.push([Math.floor(x0 + cs / 2 - m), Math.floor(y0 + cs / 2 - m), 2 * m + 1, 2 * m + 1]);
        } else {
          const r = Math.max(cs * 0.8, 5);
          const lw = Math.max(2, cs / 5);
          const cx = x0 + cs / 2;
          const cy = y0 + cs / 2;
          mctx.lineCap = 'round';
          for (const [style, width] of [['#0b0e14', lw + 3], ['#ffffff', lw]]) {
            mctx.strokeStyle = style;
            mctx.lineWidth = width;
            mctx.beginPath();
            mctx.moveTo(cx - r, cy - r);
            mctx.lineTo(cx + r, cy + r);
            mctx.moveTo(cx + r, cy - r);
            mctx.lineTo(cx - r, cy + r);
            mctx.stroke();
          }
          const m = Math.ceil(r + lw + 4);
          this.markRects.push([Math.floor(cx - m), Math.floor(cy - m), 2 * m, 2 * m]);
        }
      }
    }
  }

  /** Keeps the player table, the events and the tick read-out in step,
   * touching only the text that changed. */
  class Panel {
    constructor() {
      this.body = document.querySelector('#players tbody');
    }

    setup(game) {
      this.game = game;
      this.body.textContent = '';
      this.rows = [];
      for (let i = 0; i < game.n; i++) {
        const tr = document.createElement('tr');
        const cells = ['key', 'name', 'state', 'trail num', 'answer'].map((cls) => {
          const td = document.createElement('td');
          td.className = cls;
          tr.appendChild(td);
          return td;
        });
        const swatch = document.createElement('span');
        swatch.className = 'swatch';
        swatch.style.background = palette.players[i];
        cells[0].appendChild(swatch);
        cells[1].textContent = game.r.names[i];
        cells[1].title = game.r.names[i];
        this.body.appendChild(tr);
        this.rows.push({ tr, state: cells[2], trail: cells[3], answer: cells[4], last: {} });
      }
      $('scrub').max = String(game.last);
      this.shownResult = null;
    }

    // The result is hidden until the last tick has been shown once, or
    // the viewer asks for it: a replay is not spoiled at tick 0.
    showResult(revealed) {
      if (this.shownResult === revealed) return;
      this.shownResult = revealed;
      const { game } = this;
      const r = game.r;
      const name = (i) => r.names[i];
      $('reveal').textContent = revealed ? 'hide result' : 'show result';
      if (!revealed) {
        $('result').textContent = 'hidden until the last tick';
        $('placements').textContent = '';
        return;
      }
      if (r.winner !== null) {
        $('result').textContent = `${name(r.winner)} wins on tick ${r.ticks}`;
      } else {
        const firsts = r.placements.map((p, i) => (p === 1 ? name(i) : null)).filter((s) => s !== null);
        $('result').textContent = `Draw on tick ${r.ticks}` + (firsts.length ? ` between ${firsts.join(', ')}` : '');
      }
      const list = $('placements');
      list.textContent = '';
      const order = r.placements.map((p, i) => [p, i]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      for (const [p, i] of order) {
        const li = document.createElement('li');
        li.value = p;
        li.textContent = name(i);
        list.appendChild(li);
      }
    }

    set(td, cache, key, text) {
      if (cache[key] !== text) {
        cache[key] = text;
        td.textContent = text;
      }
    }

    show(t) {
      const { game } = this;
      $('tick').textContent = `${t} / ${game.last}`;
      $('scrub').value = String(t);
      for (let i = 0; i < game.n; i++) {
        const row = this.rows[i];
        const alive = game.alive(t, i);
        const crashedOn = game.crashedOn[i];
        this.set(row.state, row.last, 'state', alive ? 'riding' : `crashed · tick ${crashedOn}`);
        this.set(row.trail, row.last, 'trail', String(game.trail[t * game.n + i]));
        const command = game.command(t, i);
        const fault = game.faultOf(t, i);
        let answer = command === null ? (t > 0 ? '–' : '') : command;
        if (fault) answer = command === null ? fault : `${JSON.stringify(command)} ${fault}`;
        this.set(row.answer, row.last, 'answer', answer);
        row.tr.classList.toggle('dead', !alive);
        row.tr.classList.toggle('fault', fault !== null);
      }
      this.showEvents(t);
    }

    showEvents(t) {
      const { game } = this;
      const list = $('events');
      list.textContent = '';
      const add = (cls, text) => {
        const li = document.createElement('li');
        li.className = cls;
        li.textContent = text;
        list.appendChild(li);
      };
      for (let i = 0; i < game.n; i++) {
        const fault = game.faultOf(t, i);
        if (fault === 'invalid') {
          add('fault', `${game.r.names[i]}: ${FAULTS.invalid} ${JSON.stringify(game.command(t, i) ?? '')}`);
        } else if (fault) {
          add('fault', `${game.r.names[i]}: ${FAULTS[fault] || fault}`);
        }
      }
      for (let i = 0; i < game.n; i++) {
        if (t > 0 && game.alive(t - 1, i) && !game.alive(t, i)) {
          add('crash', `${game.r.names[i]} crashed at (${game.x(t, i)}, ${game.y(t, i)})`);
        }
      }
      if (t === 0) add('quiet', 'the start');
      else if (!list.firstChild) add('quiet', 'every bot answered, nobody crashed');
    }
  }

  /** What the bots wrote on the tick shown, and a chart of each metric
   * with the tick shown marked. */
  class Said {
    setup(game) {
      this.game = game;
      $('said-section').hidden = game.said.size === 0;
      $('metrics-section').hidden = game.metrics.size === 0;
      const charts = $('charts');
      charts.textContent = '';
      this.charts = [];
      for (const [name, series] of game.metrics) {
        const div = document.createElement('div');
        div.className = 'chart';
        div.dataset.metric = name;
        const label = document.createElement('div');
        label.className = 'label';
        label.textContent = name;
        const canvas = document.createElement('canvas');
        canvas.width = 320;
        canvas.height = 70;
        div.append(label, canvas);
        charts.appendChild(div);
        let lo = Infinity;
        let hi = -Infinity;
        for (const s of series) for (const [, v] of s.points) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
        if (lo === hi) { lo -= 1; hi += 1; }
        this.charts.push({ name, series, canvas, lo, hi });
      }
    }

    show(t) {
      const { game } = this;
      const box = $('said');
      box.textContent = '';
      box.dataset.tick = String(t);
      for (const [i, lines, cut] of game.said.get(t) || []) {
        const div = document.createElement('div');
        div.className = 'said-bot';
        div.dataset.player = String(i);
        const who = document.createElement('div');
        who.className = 'who';
        who.style.color = palette.players[i];
        who.textContent = game.r.names[i];
        const pre = document.createElement('pre');
        pre.textContent = lines.join('\n');
        div.append(who, pre);
        if (cut) {
          const note = document.createElement('div');
          note.className = 'cut';
          note.textContent = 'cut: the bot wrote more than is kept';
          div.appendChild(note);
        }
        box.appendChild(div);
      }
      if (!box.firstChild && game.said.size > 0) {
        const p = document.createElement('p');
        p.className = 'quiet';
        p.textContent = t === 0 ? 'nothing before the first tick' : 'nothing on this tick';
        box.appendChild(p);
      }
      for (const chart of this.charts) this.draw(chart, t);
    }

    draw(chart, t) {
      const { canvas, lo, hi } = chart;
      const g = canvas.getContext('2d');
      const W = canvas.width;
      const H = canvas.height;
      const last = Math.max(1, this.game.last);
      const px = (tick) => 4 + ((W - 8) * tick) / last;
      const py = (v) => H - 4 - ((H - 8) * (v - lo)) / (hi - lo);
      g.clearRect(0, 0, W, H);
      for (const s of chart.series) {
        g.strokeStyle = palette.players[s.player];
        g.fillStyle = palette.players[s.player];
        g.lineWidth = 1.5;
        g.beginPath();
        s.points.forEach(([tick, v], k) => (k ? g.lineTo(px(tick), py(v)) : g.moveTo(px(tick), py(v))));
        g.stroke();
        if (s.points.length === 1) g.fillRect(px(s.points[0][0]) - 1.5, py(s.points[0][1]) - 1.5, 3, 3);
        const here = s.points.find(([tick]) => tick === t);
        if (here) g.fillRect(px(here[0]) - 2, py(here[1]) - 2, 4, 4);
      }
      g.fillStyle = 'rgba(255, 255, 255, 0.55)';
      g.fillRect(Math.round(px(t)), 0, 1, H);
      canvas.dataset.tick = String(t);
      const values = chart.series
        .map((s) => [s.player, s.points.find(([tick]) => tick === t)])
        .filter(([, p]) => p)
        .map(([i, p]) => `${this.game.r.names[i]} ${p[1]}`);
      canvas.title = `tick ${t}` + (values.length ? `: ${values.join(', ')}` : '');
    }
  }

  const view = new BoardView($('board'), $('marks'));
  const panel = new Panel();
  const said = new Said();
  const games = new Map();
  const state = {
    index: -1, game: null, tick: 0, playing: false, speed: DEFAULT_SPEED, carry: 0, before: 0, pending: null,
    // Results shown: asked for (the toggle), or the replays whose last tick was shown.
    reveal: false, ended: new Set(),
  };

  function resultShown() {
    return state.reveal || state.ended.has(state.index);
  }

  function describe(r, i) {
    const shown = state.reveal || state.ended.has(i);
    const result = shown ? (r.winner !== null ? ` · ${r.names[r.winner]} wins` : ' · draw') : '';
    return `${r.width} × ${r.height} · ${r.ticks} ticks${result}`;
  }

  function describeList() {
    document.querySelectorAll('#replays button small').forEach((small, i) => {
      small.textContent = describe(data.replays[i], i);
    });
  }

  function cellSize(game) {
    const listWidth = data.replays.length > 1 ? 230 : 0;
    const room = Math.max(240, window.innerWidth - listWidth - 420 - 60);
    const height = Math.max(240, window.innerHeight - 130);
    return Math.max(2, Math.min(24, Math.floor(Math.min(room / game.w, height / game.h))));
  }

  function select(index) {
    if (index < 0 || index >= data.replays.length) return;
    pause();
    if (!games.has(index)) games.set(index, new Game(data.replays[index]));
    state.index = index;
    state.game = games.get(index);
    const r = state.game.r;
    $('label').textContent = r.label;
    const origin = r.seed !== null ? `seed ${r.seed}` : 'custom map';
    $('meta').textContent = `${r.width} × ${r.height} · ${origin} · max ${r.maxTicks} ticks · fault policy: ${r.faultPolicy}`;
    document.querySelectorAll('#replays button').forEach((b, i) => b.classList.toggle('current', i === index));
    view.setup(state.game, cellSize(state.game));
    panel.setup(state.game);
    said.setup(state.game);
    state.tick = 0;
    render();
  }

  function render() {
    view.show(state.tick);
    panel.show(state.tick);
    said.show(state.tick);
    if (state.tick >= state.game.last && !state.ended.has(state.index)) {
      state.ended.add(state.index);
      describeList();
    }
    panel.showResult(resultShown());
  }

  function toggleResult() {
    state.reveal = !resultShown();
    if (!state.reveal) state.ended.delete(state.index);
    describeList();
    panel.showResult(resultShown());
  }

  function seek(t) {
    const game = state.game;
    state.tick = Math.max(0, Math.min(game.last, Math.round(t)));
    render();
  }

  function step(delta) {
    pause();
    seek(state.tick + delta);
  }

  function play() {
    if (state.playing) return;
    if (state.tick >= state.game.last) seek(0);
    state.playing = true;
    state.carry = 0;
    state.before = performance.now();
    document.body.classList.add('playing');
    requestAnimationFrame(tickLoop);
  }

  function pause() {
    state.playing = false;
    document.body.classList.remove('playing');
  }

  function tickLoop(now) {
    if (!state.playing) return;
    const elapsed = Math.min(now - state.before, 250);
    state.before = now;
    state.carry += (elapsed * state.speed) / 1000;
    const ticks = Math.floor(state.carry);
    if (ticks > 0) {
      state.carry -= ticks;
      seek(state.tick + ticks);
      if (state.tick >= state.game.last) pause();
    }
    if (state.playing) requestAnimationFrame(tickLoop);
  }

  function setSpeed(speed) {
    state.speed = speed;
    $('speed').value = String(speed);
  }

  function changeSpeed(direction) {
    const at = SPEEDS.indexOf(state.speed);
    setSpeed(SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, at + direction))]);
  }

  function buildList() {
    if (data.replays.length < 2) {
      $('keys-list').hidden = true;
      return;
    }
    $('list').hidden = false;
    data.replays.forEach((r, i) => {
      const li = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      const file = document.createElement('span');
      file.className = 'file';
      file.textContent = r.label;
      const small = document.createElement('small');
      small.textContent = describe(r, i);
      button.append(file, small);
      button.addEventListener('click', () => select(i));
      li.appendChild(button);
      $('replays').appendChild(li);
    });
  }

  function onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const ten = e.shiftKey ? 10 : 1;
    const actions = {
      ' ': () => (state.playing ? pause() : play()),
      ArrowRight: () => step(ten),
      ArrowLeft: () => step(-ten),
      Home: () => step(-state.tick),
      End: () => step(state.game.last - state.tick),
      ArrowUp: () => changeSpeed(1),
      ArrowDown: () => changeSpeed(-1),
      '+': () => changeSpeed(1),
      '=': () => changeSpeed(1),
      '-': () => changeSpeed(-1),
      _: () => changeSpeed(-1),
      r: toggleResult,
      R: toggleResult,
      PageDown: () => select(state.index + 1),
      PageUp: () => select(state.index - 1),
    };
    const action = actions[e.key];
    if (action) {
      e.preventDefault();
      action();
    }
  }

  for (const s of SPEEDS) {
    const option = document.createElement('option');
    option.value = String(s);
    option.textContent = `${s} / s`;
    $('speed').appendChild(option);
  }
  setSpeed(DEFAULT_SPEED);
  $('speed').addEventListener('change', (e) => setSpeed(Number(e.target.value)));
  $('first').addEventListener('click', () => step(-state.tick));
  $('back').addEventListener('click', () => step(-1));
  $('play').addEventListener('click', () => (state.playing ? pause() : play()));
  $('forward').addEventListener('click', () => step(1));
  $('last').addEventListener('click', () => step(state.game.last - state.tick));
  $('reveal').addEventListener('click', toggleResult);
  // Dragging the scrub bar fires many events: draw once per animation frame.
  $('scrub').addEventListener('input', (e) => {
    pause();
    const first = state.pending === null;
    state.pending = Number(e.target.value);
    if (first) {
      requestAnimationFrame(() => {
        const t = state.pending;
        state.pending = null;
        seek(t);
      });
    }
  });
  window.addEventListener('keydown', onKey, true);
  let resizing = 0;
  window.addEventListener('resize', () => {
    clearTimeout(resizing);
    resizing = setTimeout(() => {
      const cs = cellSize(state.game);
      if (cs !== view.cs) {
        view.setup(state.game, cs);
        render();
      }
    }, 100);
  });

  buildList();
  // A link may name a replay after '#' (the tournament report page does): its
  // label, or the label's file name.
  function fromHash() {
    const wanted = decodeURIComponent(window.location.hash.slice(1));
    if (!wanted) return -1;
    return data.replays.findIndex((r) => r.label === wanted || r.label.endsWith('/' + wanted));
  }
  select(Math.max(0, fromHash()));
  window.addEventListener('hashchange', () => {
    const index = fromHash();
    if (index >= 0) select(index);
  });
  // The first replay plays as soon as the page is open.
  play();

  // A small read-only window for tests and curious people.
  window.lightcycles = {
    get replay() { return state.index; },
    get tick() { return state.tick; },
    get playing() { return state.playing; },
    get speed() { return state.speed; },
    get resultShown() { return resultShown(); },
    get cellSize() { return view.cs; },
    get stats() { return { ...view.stats }; },
    palette,
    seek: (t) => { pause(); seek(t); },
    select,
  };
})();
