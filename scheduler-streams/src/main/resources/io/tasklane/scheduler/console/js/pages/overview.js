// Overview: counts by state per handler, completions and failures over the last hour (uPlot),
// backlog and lag per handler, live workers, the relay's status and admission lag, recent DEAD tasks. Refreshes every 5 s while visible.
import { badge, button, card, confirmDialog, h, num, replace, STATES, table, taskLink, time, toast } from '../ui.js';

const HOUR = 3_600_000;
const BACKLOG = ['PENDING', 'WAITING', 'NO_HANDLER', 'DISPATCHED', 'RETRYING'];

function countsTable(counts) {
  const byHandler = new Map();
  for (const c of counts) {
    if (!byHandler.has(c.handler)) byHandler.set(c.handler, {});
    byHandler.get(c.handler)[c.state] = (byHandler.get(c.handler)[c.state] || 0) + c.count;
  }
  const states = STATES.filter((s) => counts.some((c) => c.state === s));
  const rows = [...byHandler.entries()].sort((a, b) => a[0].localeCompare(b[0]));
  return table(
    [
      { title: 'Handler', render: ([handler]) => h('a', { href: `#/tasks?handler=${encodeURIComponent(handler)}` }, handler) },
      ...states.map((s) => ({
        title: badge(s),
        class: 'num',
        render: ([handler, byState]) =>
          byState[s]
            ? h('a', { href: `#/tasks?handler=${encodeURIComponent(handler)}&state=${s}` }, num(byState[s]))
            : h('span', { class: 'muted' }, '0'),
      })),
    ],
    rows,
    'No tasks yet.',
  );
}

function handlersTable(handlers, counts, ctx, reload) {
  const toggle = async (x) => {
    const verb = x.paused ? 'resume' : 'pause';
    const ok = await confirmDialog(
      x.paused ? `Resume dispatching ${x.name}?` : `Pause ${x.name}? Its due tasks wait until it is resumed.`,
      x.paused ? 'Resume' : 'Pause',
      x.paused ? 'primary' : 'danger',
    );
    if (!ok) return;
    try {
      await ctx.api.post(`/api/handlers/${encodeURIComponent(x.name)}/${verb}`);
      toast(`${x.name}: ${verb}d`, 'ok');
    } catch (err) {
      toast(`${verb} ${x.name}: ${err.message}`, 'bad');
    }
    await reload();
  };
  const backlog = (name) =>
    counts.filter((c) => c.handler === name && BACKLOG.includes(c.state)).reduce((a, c) => a + c.count, 0);
  return table(
    [
      { title: 'Handler', render: (x) => [h('a', { href: `#/handlers/${encodeURIComponent(x.name)}` }, x.name), x.paused ? [' ', badge('paused')] : null] },
      { title: 'Backlog', class: 'num', render: (x) => num(backlog(x.name)) },
      { title: 'Lag', class: 'num', render: (x) => num(x.lag) },
      { title: 'In flight', class: 'num', render: (x) => num(x.inFlight) },
      { title: 'Workers', class: 'num', render: (x) => num((x.workers || []).length) },
      ...(ctx.can('admin')
        ? [{ title: '', render: (x) => button(x.paused ? 'Resume' : 'Pause', () => toggle(x), '', { 'data-handler': x.name }) }]
        : []),
    ],
    handlers,
    'No handlers.',
  );
}

function chartOptions(width) {
  const css = getComputedStyle(document.documentElement);
  const color = (name) => css.getPropertyValue(name).trim();
  const axis = { stroke: color('--muted'), grid: { stroke: color('--border'), width: 1 }, ticks: { stroke: color('--border') } };
  return {
    width,
    height: 220,
    legend: { live: false },
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: true } },
    axes: [axis, { ...axis, size: 50 }],
    series: [
      {},
      { label: 'Succeeded', stroke: color('--ok'), width: 2, points: { show: false } },
      { label: 'Failed', stroke: color('--warn'), width: 2, points: { show: false } },
      { label: 'Dead', stroke: color('--bad'), width: 2, points: { show: false } },
    ],
  };
}

function chartData(points) {
  const xs = [];
  const ok = [];
  const failed = [];
  const dead = [];
  for (const p of points) {
    xs.push(p.start / 1000);
    ok.push(p.succeeded);
    failed.push(p.failed);
    dead.push(p.dead);
  }
  return [xs, ok, failed, dead];
}

/** The per-minute report of every handler over the last hour, summed per minute. */
async function lastHour(api, handlers, now) {
  const reports = await Promise.all(
    handlers.map((x) => api.get('/api/reports', { handler: x.name, bucket: 'minute', since: now - HOUR, until: now })),
  );
  // one point per minute of the hour, zero where nothing ended, so the axis always spans the hour
  const MINUTE = 60_000;
  const first = Math.floor((now - HOUR) / MINUTE) * MINUTE;
  const byStart = new Map();
  for (let t = first; t <= now; t += MINUTE) byStart.set(t, { start: t, succeeded: 0, failed: 0, dead: 0 });
  for (const r of reports) {
    for (const p of r.points || []) {
      const sum = byStart.get(Math.floor(p.start / MINUTE) * MINUTE);
      if (!sum) continue;
      sum.succeeded += p.succeeded || 0;
      sum.failed += p.failed || 0;
      sum.dead += p.dead || 0;
    }
  }
  return [...byStart.values()].sort((a, b) => a.start - b.start);
}

/** The relay as the schedulers see it: flowing/idle and the admission lag p99 of the last 30-60 s. */
function relayStat(relay) {
  const r = relay.recent || {};
  const lag = r.lagP99Ms == null ? 'no task admitted in the last 30 s' : `admission lag p99 ${num(r.lagP99Ms)} ms`;
  return h(
    'div',
    { class: 'stat', id: 'relay-stat', title: `last task admitted ${relay.lastAdmittedAtIso || 'never'}` },
    h('div', { class: 'value' }, relay.status),
    h('div', { class: 'label' }, `Relay: ${lag}`),
  );
}

export default {
  id: 'overview',
  title: 'Overview',
  route: /^overview$/,
  async render(root, ctx) {
    const stats = h('div', { class: 'stats', id: 'overview-stats' });
    const countsBox = card('Tasks by state');
    const chartBox = h('div', { class: 'chart', id: 'throughput-chart' });
    const handlersBox = card('Handlers: backlog and lag');
    const workersBox = card('Live workers');
    const deadBox = card('Recent dead tasks');
    root.append(
      h('h1', null, 'Overview'),
      stats,
      card('Completions and failures, last hour (per minute)', chartBox),
      countsBox,
      h('div', { class: 'grid' }, handlersBox, workersBox),
      deadBox,
    );
    let plot = null;

    const load = async () => {
      const now = Date.now();
      const [counts, handlers, workers, dead, relay] = await Promise.all([
        ctx.api.get('/api/tasks/counts'),
        ctx.api.get('/api/handlers'),
        ctx.api.get('/api/workers'),
        ctx.api.get('/api/tasks', { state: 'DEAD', sort: 'updated', order: 'desc', limit: 10 }),
        ctx.api.get('/api/relay'),
      ]);
      const report = { points: await lastHour(ctx.api, handlers.handlers || [], now) };
      const c = counts.counts || [];
      const total = (state) => c.filter((x) => x.state === state).reduce((a, x) => a + x.count, 0);
      const live = (workers.workers || []).filter((w) => w.live);
      const hour = (report.points || []).reduce((a, p) => ({ ok: a.ok + p.succeeded, bad: a.bad + p.failed + p.dead }), { ok: 0, bad: 0 });
      const stat = (label, value, href) =>
        h('a', { class: 'stat', href }, h('div', { class: 'value' }, num(value)), h('div', { class: 'label' }, label));
      replace(
        stats,
        stat('Backlog', BACKLOG.reduce((a, s) => a + total(s), 0), '#/tasks?state=PENDING'),
        stat('Retrying', total('RETRYING'), '#/tasks?state=RETRYING'),
        stat('Dead', total('DEAD'), '#/dead'),
        stat('Succeeded, last hour', hour.ok, '#/tasks?state=SUCCEEDED'),
        stat('Failures, last hour', hour.bad, '#/dead'),
        stat('Live workers', live.length, '#/workers'),
        relayStat(relay),
      );
      replace(countsBox, h('h2', null, 'Tasks by state'), countsTable(c));
      replace(handlersBox, h('h2', null, 'Handlers: backlog and lag'), handlersTable(handlers.handlers || [], c, ctx, load));
      replace(
        workersBox,
        h('h2', null, 'Live workers'),
        table(
          [
            { title: 'Worker', render: (w) => h('span', { class: 'mono' }, w.id) },
            { title: 'Host', render: (w) => w.host },
            { title: 'Handlers', render: (w) => (w.handlers || []).map((x) => x.name).join(', ') },
            { title: 'Last seen', render: (w) => time(w.lastSeenAt) },
          ],
          live,
          'No live worker.',
        ),
      );
      replace(
        deadBox,
        h('h2', null, 'Recent dead tasks'),
        table(
          [
            { title: 'Task', render: (t) => taskLink(t.id, t.id.slice(0, 8)) },
            { title: 'Handler', render: (t) => t.handler },
            { title: 'Error', render: (t) => t.errorType || '—' },
            { title: 'Attempts', class: 'num', render: (t) => num(t.attempt) },
            { title: 'Died', render: (t) => time(t.updatedAt) },
          ],
          dead.tasks || [],
          'No dead task.',
        ),
      );
      const data = chartData(report.points || []);
      if (plot) {
        plot.setData(data);
      } else {
        plot = new window.uPlot(chartOptions(chartBox.clientWidth || 800), data, chartBox);
      }
    };

    await load();
    ctx.refresh(load, 5000);
    const rebuild = () => {
      if (!plot) return;
      const data = plot.data;
      plot.destroy();
      plot = new window.uPlot(chartOptions(chartBox.clientWidth || 800), data, chartBox);
    };
    window.addEventListener('tasklane-theme', rebuild);
    window.addEventListener('resize', rebuild);
    return () => {
      window.removeEventListener('tasklane-theme', rebuild);
      window.removeEventListener('resize', rebuild);
      if (plot) plot.destroy();
    };
  },
};
