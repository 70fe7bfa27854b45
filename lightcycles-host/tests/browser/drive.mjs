// Drives a replay page in headless Chromium for the Rust test
// lightcycles-host/tests/browser.rs, which writes the plan and judges what
// this script reports. Usage: node drive.mjs PLAN.json
//
// The plan: { page, chromium, userDataDir, viewport: {width, height}, steps: [...] },
// and static: true for a page without a script (the tournament report).
// Steps, run in order; each one that reads the page adds a report:
//   {do: "key", key, times}           press a key (e.g. "ArrowRight", "Shift+ArrowRight")
//   {do: "scrub", tick}               drag the scrub bar to a tick (an input event)
//   {do: "click", selector}           click an element
//   {do: "probe"}                     the tick, the panel text, draw counters, and the
//                                     colour at the centre of every cell on both canvases
//                                     (row-major hex strings: "rrggbb" a cell on the board,
//                                     "aa" a cell for the alpha of the marks)
//   {do: "screenshot", path}          save a PNG of the whole page
//   {do: "cells", selector}           the text of every cell of every row matching selector
//   {do: "follow", selector}          click a link to a replay page, wait for its player,
//                                     and report which replay it shows
//   {do: "measure"}                   time the drawing: every tick stepped forward, and
//                                     the costliest jump backwards (figures, not checks)
// The report: { reports: [...], errors: [page errors and console errors], dialogs: [...] }.

import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const plan = JSON.parse(readFileSync(process.argv[2], 'utf8'));

const browser = await chromium.launchPersistentContext(plan.userDataDir, {
  executablePath: plan.chromium,
  headless: true,
  viewport: plan.viewport,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});

const errors = [];
const dialogs = [];
const requests = [];
const page = browser.pages()[0] ?? (await browser.newPage());
page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
page.on('console', (m) => {
  if (m.type() === 'error') errors.push(`console error: ${m.text()}`);
});
page.on('dialog', async (d) => {
  dialogs.push(d.message());
  await d.dismiss();
});
page.on('request', (r) => {
  if (!r.url().startsWith('file:')) requests.push(r.url());
});

const reports = [];
try {
  await page.goto(pathToFileURL(plan.page).href);
  if (!plan.static) await page.waitForFunction(() => window.lightcycles !== undefined);
  for (const step of plan.steps) {
    if (step.do === 'key') {
      for (let k = 0; k < (step.times ?? 1); k++) await page.keyboard.press(step.key);
    } else if (step.do === 'scrub') {
      await page.$eval(
        '#scrub',
        (el, tick) => {
          el.value = String(tick);
          el.dispatchEvent(new Event('input', { bubbles: true }));
        },
        step.tick,
      );
      await page.waitForFunction((tick) => window.lightcycles.tick === tick, step.tick);
    } else if (step.do === 'click') {
      await page.click(step.selector);
    } else if (step.do === 'probe') {
      reports.push(await page.evaluate(probe));
    } else if (step.do === 'screenshot') {
      await page.screenshot({ path: step.path, fullPage: true });
    } else if (step.do === 'cells') {
      reports.push(
        await page.$$eval(step.selector, (rows) =>
          rows.map((tr) => Array.from(tr.querySelectorAll('td, th'), (td) => td.textContent)),
        ),
      );
    } else if (step.do === 'follow') {
      await Promise.all([page.waitForEvent('load'), page.click(step.selector)]);
      await page.waitForFunction(() => window.lightcycles !== undefined);
      reports.push(
        await page.evaluate(() => ({
          replay: window.lightcycles.replay,
          label: document.getElementById('label').textContent,
          hash: window.location.hash,
        })),
      );
    } else if (step.do === 'measure') {
      reports.push(await page.evaluate(measure));
    } else {
      throw new Error(`unknown step ${JSON.stringify(step)}`);
    }
  }
} catch (e) {
  errors.push(`driver: ${e.stack || e}`);
}
await browser.close();
process.stdout.write(JSON.stringify({ reports, errors, dialogs, requests }));

/** Runs in the page: what it shows now. */
function probe() {
  const lc = window.lightcycles;
  const cs = lc.cellSize;
  const board = document.getElementById('board');
  const marks = document.getElementById('marks');
  const w = board.width / cs;
  const h = board.height / cs;
  const bp = board.getContext('2d').getImageData(0, 0, board.width, board.height).data;
  const mp = marks.getContext('2d').getImageData(0, 0, marks.width, marks.height).data;
  const hex = (v) => v.toString(16).padStart(2, '0');
  const colours = [];
  const alphas = [];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const o = ((y * cs + Math.floor(cs / 2)) * board.width + x * cs + Math.floor(cs / 2)) * 4;
      colours.push(hex(bp[o]) + hex(bp[o + 1]) + hex(bp[o + 2]));
      alphas.push(hex(mp[o + 3]));
    }
  }
  const text = (sel) => Array.from(document.querySelectorAll(sel), (e) => e.textContent);
  return {
    tick: lc.tick,
    replay: lc.replay,
    playing: lc.playing,
    speed: lc.speed,
    cellSize: cs,
    width: w,
    height: h,
    stats: lc.stats,
    tickText: document.getElementById('tick').textContent,
    scrub: Number(document.getElementById('scrub').value),
    label: document.getElementById('label').textContent,
    rows: Array.from(document.querySelectorAll('#players tbody tr'), (tr) =>
      Array.from(tr.querySelectorAll('td'), (td) => td.textContent).slice(1),
    ),
    events: text('#events li'),
    result: document.getElementById('result').textContent,
    resultShown: lc.resultShown,
    descriptions: text('#replays button small'),
    list: text('#replays button .file'),
    saidShown: !document.getElementById('said-section').hidden,
    said: Array.from(document.querySelectorAll('#said .said-bot'), (d) => [
      d.querySelector('.who').textContent,
      d.querySelector('pre').textContent,
      d.querySelector('.cut') !== null,
    ]),
    saidQuiet: text('#said .quiet'),
    charts: Array.from(document.querySelectorAll('#charts .chart'), (c) => {
      const canvas = c.querySelector('canvas');
      const px = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      let inked = 0;
      for (let k = 3; k < px.length; k += 4) if (px[k] > 0) inked++;
      return { metric: c.dataset.metric, tick: Number(canvas.dataset.tick), inked, title: canvas.title };
    }),
    board: colours.join(''),
    marks: alphas.join(''),
  };
}

/** Runs in the page: how long drawing takes, in milliseconds. */
function measure() {
  const lc = window.lightcycles;
  const flush = () => document.getElementById('board').getContext('2d').getImageData(0, 0, 1, 1);
  lc.seek(0);
  flush();
  const ticks = Number(document.getElementById('scrub').max);
  let start = performance.now();
  for (let t = 1; t <= ticks; t++) lc.seek(t);
  flush();
  const forward = performance.now() - start;
  // From the last tick, the farthest jump back that is still drawn from
  // nothing is to just under half way: the costliest redraw there is.
  const half = Math.floor(ticks / 2) - 1;
  const redrawsBefore = lc.stats.redraws;
  start = performance.now();
  lc.seek(half);
  flush();
  const jump = performance.now() - start;
  const redrawn = lc.stats.redraws - redrawsBefore;
  lc.seek(ticks);
  const navigation = performance.getEntriesByType('navigation')[0];
  return {
    ticks,
    forwardTotalMs: forward,
    forwardPerTickMs: forward / ticks,
    jumpBackMs: jump,
    jumpTo: half,
    redrawn,
    loadMs: navigation ? navigation.loadEventEnd : null,
  };
}
