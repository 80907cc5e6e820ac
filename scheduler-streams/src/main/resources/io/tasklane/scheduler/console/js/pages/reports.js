// Reports: for one handler, per day or hour over the last 30 days (GET /api/reports), succeeded,
// failed and dead counts (bars) and run-time percentiles p50, p99 and max (lines), drawn with
// uPlot, and the totals of the span. Handler and bucket are in the URL; refreshes every 60 s while
// the tab is visible. Runs on the page's main thread.
import { card, duration, h, num, replace } from '../ui.js';

const DAY = 86_400_000;
const SPAN = 30 * DAY;

function colors() {
  const css = getComputedStyle(document.documentElement);
  const c = (name) => css.getPropertyValue(name).trim();
  const axis = { stroke: c('--muted'), grid: { stroke: c('--border'), width: 1 }, ticks: { stroke: c('--border') } };
  return { c, axis };
}

function countsOptions(width, span) {
  const { c, axis } = colors();
  const bars = window.uPlot.paths && window.uPlot.paths.bars ? window.uPlot.paths.bars({ size: [0.8, 40] }) : undefined;
  const s = (label, color) => ({ label, stroke: color, fill: color, width: 1, paths: bars, points: { show: !bars } });
  return {
    width,
    height: 240,
    cursor: { drag: { x: false, y: false } },
    // the x axis always spans the 30 days asked for, also with one point (uPlot would pad it)
    scales: { x: { time: true, range: () => span } },
    axes: [axis, { ...axis, size: 50 }],
    series: [{}, s('Succeeded', c('--ok')), s('Failed', c('--warn')), s('Dead', c('--bad'))],
  };
}

function runTimeOptions(width, span) {
  const { c, axis } = colors();
  const ms = (u, vals) => vals.map((v) => (v === null ? '' : duration(v)));
  const s = (label, color, dash) => ({ label, stroke: color, width: 2, dash, spanGaps: true, value: (u, v) => (v === null ? '—' : duration(v)) });
  return {
    width,
    height: 240,
    cursor: { drag: { x: false, y: false } },
    // the x axis always spans the 30 days asked for, also with one point (uPlot would pad it)
    scales: { x: { time: true, range: () => span } },
    axes: [axis, { ...axis, size: 70, values: ms }],
    series: [{}, s('p50', c('--ok')), s('p99', c('--warn')), s('max', c('--bad'), [4, 4])],
  };
}

function data(points) {
  const pick = (f) => points.map(f);
  const pct = (p, k) => (p.runTimeMs && p.runTimeMs[k] !== undefined && p.runTimeMs[k] !== null ? p.runTimeMs[k] : null);
  const xs = pick((p) => p.start / 1000);
  return {
    counts: [xs, pick((p) => p.succeeded), pick((p) => p.failed), pick((p) => p.dead)],
    runTimes: [xs, pick((p) => pct(p, 'p50')), pick((p) => pct(p, 'p99')), pick((p) => pct(p, 'max'))],
  };
}

export default {
  id: 'reports',
  title: 'Reports',
  route: /^reports$/,
  async render(root, ctx) {
    const handlers = ((await ctx.api.get('/api/handlers')).handlers || []).map((x) => x.name).sort();
    const handler = ctx.params.get('handler') || handlers[0] || '';
    const bucket = ctx.params.get('bucket') === 'hour' ? 'hour' : 'day';
    const pickHandler = h('select', { name: 'handler', id: 'report-handler' }, handlers.map((n) => h('option', { value: n }, n)));
    pickHandler.value = handler;
    const pickBucket = h('select', { name: 'bucket', id: 'report-bucket' }, h('option', { value: 'day' }, 'per day'), h('option', { value: 'hour' }, 'per hour'));
    pickBucket.value = bucket;
    const go = () => ctx.navigate(`#/reports?handler=${encodeURIComponent(pickHandler.value)}&bucket=${pickBucket.value}`);
    pickHandler.addEventListener('change', go);
    pickBucket.addEventListener('change', go);
    root.append(
      h('h1', null, 'Reports'),
      h('div', { class: 'filters', id: 'report-filter' }, h('label', null, 'Handler', pickHandler), h('label', null, 'Bucket', pickBucket)),
    );
    if (!handler) {
      root.append(h('p', { class: 'muted' }, 'No handler yet: reports appear once tasks ran.'));
      return undefined;
    }
    const totals = h('div', { class: 'stats', id: 'report-totals' });
    const countsBox = h('div', { class: 'chart', id: 'report-counts' });
    const runBox = h('div', { class: 'chart', id: 'report-runtimes' });
    root.append(
      totals,
      card(`Outcomes of ${handler}, last 30 days (per ${bucket})`, countsBox),
      card(`Run time of ${handler}, last 30 days (per ${bucket})`, runBox),
    );
    let plots = [];
    let last = null;
    let span = null;
    const draw = () => {
      plots.forEach((p) => p.destroy());
      const d = data(last.points || []);
      plots = [
        new window.uPlot(countsOptions(countsBox.clientWidth || 800, span), d.counts, countsBox),
        new window.uPlot(runTimeOptions(runBox.clientWidth || 800, span), d.runTimes, runBox),
      ];
    };
    const load = async () => {
      const now = Date.now();
      span = [(now - SPAN) / 1000, now / 1000];
      last = await ctx.api.get('/api/reports', { handler, bucket, since: now - SPAN, until: now });
      const pts = last.points || [];
      const sum = (k) => pts.reduce((a, p) => a + (p[k] || 0), 0);
      const stat = (label, value) => h('div', { class: 'stat' }, h('div', { class: 'value' }, value), h('div', { class: 'label' }, label));
      const maxP99 = pts.reduce((a, p) => Math.max(a, (p.runTimeMs && p.runTimeMs.p99) || 0), 0);
      replace(
        totals,
        stat('Succeeded, 30 days', num(sum('succeeded'))),
        stat('Failed, 30 days', num(sum('failed'))),
        stat('Dead, 30 days', num(sum('dead'))),
        stat(`Worst p99 run time per ${bucket}`, pts.length ? duration(maxP99) : '—'),
      );
      draw();
    };
    await load();
    ctx.refresh(load, 60_000);
    window.addEventListener('tasklane-theme', draw);
    window.addEventListener('resize', draw);
    return () => {
      window.removeEventListener('tasklane-theme', draw);
      window.removeEventListener('resize', draw);
      plots.forEach((p) => p.destroy());
    };
  },
};
