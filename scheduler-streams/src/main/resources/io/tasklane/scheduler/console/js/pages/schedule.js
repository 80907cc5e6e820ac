// Schedule detail: state, definition, the next 5 fires (in the schedule's zone and here) and the
// last 50 fires (instant, kind, tasks, lateness, outcome with the reason of a skipped or misfired
// fire). Operators trigger a fire now; admins pause, resume, edit and delete. Refreshes every 3 s
// while the tab is visible. Runs on the page's main thread.
import { ApiError } from '../api.js';
import { badge, button, card, confirmDialog, duration, errorBox, h, pre, replace, table, taskLink, time, toast } from '../ui.js';
import { fireOutcome, inZone, schedulePath } from './schedule-parts.js';

function definitionProps(s) {
  const d = s.definition || {};
  const row = (k, v) => [h('dt', null, k), h('dd', null, v === undefined || v === null || v === '' ? '—' : v)];
  return h(
    'dl',
    { class: 'props', id: 'schedule-definition' },
    row('Handler', d.handler),
    d.cron ? row('Cron', h('span', { class: 'mono' }, d.cron)) : row('Every', d.every),
    row('Zone', d.zone),
    row('Misfire', d.misfire),
    row('Overlap', d.overlap),
    row('Routing', d.routing === 'BROADCAST' ? `BROADCAST × ${d.shards}` : d.routing),
    d.children && d.children.length ? row('Children', d.children.join(', ')) : null,
    row('Attempts', d.maxAttempts),
    row('Timeout', duration(d.timeoutMs)),
    d.startAt ? row('Starts', time(d.startAt)) : null,
    d.endAt ? row('Ends', time(d.endAt)) : null,
    row('Version', s.version),
    row('Origin', d.origin),
  );
}

function history(fires) {
  return table(
    [
      { title: 'Fire', render: (f) => time(f.fireAt) },
      { title: 'Kind', render: (f) => f.kind },
      { title: 'Tasks', render: (f) => (f.tasks || []).map((t, i) => [i ? ' ' : null, taskLink(t.id, t.id.slice(0, 8))]) },
      { title: 'Lateness', class: 'num', render: (f) => (f.latenessMs === undefined ? '—' : duration(f.latenessMs)) },
      { title: 'Outcome', render: (f) => fireOutcome(f) },
    ],
    fires,
    'No fire yet.',
  );
}

async function act(ctx, name, action) {
  const a = await ctx.api.post(schedulePath(name, `/${action}`));
  toast(a.outcome === 'applied' ? `${action}: applied` : `${action}: ${a.outcome}${a.reason ? ` (${a.reason})` : ''}`, a.outcome === 'applied' ? 'ok' : 'info');
}

export default {
  id: 'schedule',
  title: 'Schedule',
  nav: false,
  navId: 'schedules',
  route: /^schedules\/([^/]+)$/,
  async render(root, ctx) {
    const name = ctx.match[1];
    const state = h('span', { id: 'schedule-state' });
    const actions = h('div', { class: 'actions', id: 'schedule-actions' });
    const answer = h('div', { id: 'schedule-answer' });
    const defBox = card('Definition');
    const nextBox = card('Next fires');
    const historyBox = card('Fire history (newest first, last 50)');
    historyBox.id = 'fire-history';
    root.append(
      h('div', { class: 'page-head' }, h('h1', null, 'Schedule ', h('span', { class: 'mono' }, name), ' ', state)),
      ctx.can('operator') ? actions : null,
      answer,
      h('div', { class: 'grid' }, defBox, nextBox),
      historyBox,
    );
    let current = null;

    const run = (fn) => async () => {
      replace(answer);
      actions.querySelectorAll('button').forEach((b) => (b.disabled = true));
      try {
        await fn();
        await load();
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 401)) replace(answer, errorBox(err));
      } finally {
        actions.querySelectorAll('button').forEach((b) => (b.disabled = false));
      }
    };

    const drawActions = (s) => {
      replace(
        actions,
        ctx.can('operator')
          ? button('Trigger now', run(async () => {
              const t = await ctx.api.post(schedulePath(name, '/trigger'));
              toast(`Fired: ${t.fireId}`, 'ok');
            }), 'primary', { 'data-action': 'trigger' })
          : null,
        ctx.can('admin')
          ? [
              s.paused
                ? button('Resume', run(() => act(ctx, name, 'resume')), '', { 'data-action': 'resume' })
                : button('Pause', run(() => act(ctx, name, 'pause')), '', { 'data-action': 'pause' }),
              button('Edit', () => ctx.navigate(`#/schedules/${encodeURIComponent(name)}/edit`), '', { 'data-action': 'edit' }),
              button('Delete', run(async () => {
                if (!(await confirmDialog(`Delete schedule ${name}? Tasks of its earlier fires stay.`, 'Delete', 'danger'))) return;
                await ctx.api.del(schedulePath(name));
                toast(`Deleted ${name}`, 'ok');
                ctx.navigate('#/schedules');
              }), 'danger', { 'data-action': 'delete' }),
            ]
          : null,
      );
    };

    const load = async () => {
      const s = await ctx.api.get(schedulePath(name));
      const zone = (s.definition && s.definition.zone) || 'UTC';
      replace(state, s.deleted ? badge('DELETED') : badge(s.paused ? 'PAUSED' : 'ACTIVE'));
      state.dataset.state = s.deleted ? 'DELETED' : s.paused ? 'PAUSED' : 'ACTIVE';
      if (!current || current.paused !== s.paused || current.deleted !== s.deleted) drawActions(s);
      const unchanged = current && JSON.stringify(current) === JSON.stringify(s);
      current = s;
      if (unchanged) return; // nothing moved: keep the DOM (and the reader's selection) as it is
      replace(defBox, h('h2', null, 'Definition'), definitionProps(s), s.definition ? [h('h3', null, 'Payload'), pre(s.definition.payload)] : null);
      const next = (s.nextFires || []).map((iso) => Date.parse(iso));
      replace(
        nextBox,
        h('h2', null, `Next fires (${zone})`),
        next.length === 0
          ? h('p', { class: 'muted', id: 'next-fires' }, s.paused ? 'Paused: no fire is coming.' : 'No fire is coming.')
          : h('ol', { id: 'next-fires', class: 'preview-fires' }, next.map((ms) => h('li', null, h('span', { class: 'mono' }, inZone(ms, zone)), ' ', h('span', { class: 'muted' }, '(', time(ms), ' here)')))),
        s.waiting ? h('p', { class: 'muted' }, `A fire waits: ${s.waiting}`) : null,
      );
      replace(historyBox, h('h2', null, 'Fire history (newest first, last 50)'), history(s.fires || []));
    };
    await load();
    ctx.refresh(load, 3000);
  },
};
