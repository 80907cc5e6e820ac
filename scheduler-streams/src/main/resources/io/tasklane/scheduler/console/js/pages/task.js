// Task detail: the envelope with its payload (redacted by the API for viewers), the attempt
// timeline, the handler's log lines per attempt, dependency neighbours, the schedule and fire it
// came from, and the actions the role may take, each answered with the API's outcome.
import { ApiError } from '../api.js';
import { badge, button, card, duration, errorBox, h, num, pre, replace, taskLink, time, toast } from '../ui.js';

const ACTIONS = [
  { action: 'retry-dead', label: 'Retry', states: ['DEAD'], kind: 'primary' },
  { action: 'trigger', label: 'Run now', states: ['PENDING', 'RETRYING', 'WAITING', 'NO_HANDLER'] },
  { action: 'cancel', label: 'Cancel', states: ['PENDING', 'WAITING', 'NO_HANDLER', 'DISPATCHED', 'RETRYING'], kind: 'danger' },
  { action: 'discard', label: 'Discard', states: ['DEAD'], kind: 'danger' },
];

function props(pairs) {
  return h('dl', { class: 'props' }, pairs.filter(([, v]) => v !== undefined).map(([k, v]) => [h('dt', null, k), h('dd', null, v)]));
}

function timeline(view) {
  const items = (view.history || []).map((a) => {
    const kind = a.outcome === 'SUCCEEDED' ? 'ok' : a.outcome ? 'bad' : '';
    return h(
      'li',
      { class: kind, 'data-attempt': a.attempt },
      h('strong', null, `Attempt ${a.attempt}`),
      ' ',
      a.outcome ? badge(a.outcome) : badge('RUNNING'),
      h(
        'div',
        { class: 'muted' },
        'dispatched ',
        time(a.dispatchedAt),
        a.endedAt > 0 ? [' · ended ', time(a.endedAt), ` · ${duration(a.endedAt - a.dispatchedAt)}`] : null,
        a.worker ? [' · worker ', h('span', { class: 'mono' }, a.worker)] : null,
      ),
      a.error ? h('div', { class: 'mono' }, a.error) : null,
    );
  });
  return items.length ? h('ol', { class: 'timeline', id: 'attempts' }, items) : h('p', { class: 'muted' }, 'Not dispatched yet.');
}

function lastError(err) {
  if (!err) return null;
  return card(
    'Last error',
    h('div', null, h('strong', null, err.type || 'error'), ': ', err.message || ''),
    err.stack ? h('details', null, h('summary', null, 'Stack trace'), h('pre', { class: 'code' }, err.stack)) : null,
  );
}

function logs(lines, truncated) {
  if (!lines.length) return h('p', { class: 'muted', id: 'task-logs' }, 'No log lines.');
  const byAttempt = new Map();
  for (const l of lines) {
    if (!byAttempt.has(l.attempt)) byAttempt.set(l.attempt, []);
    byAttempt.get(l.attempt).push(l);
  }
  return h(
    'div',
    { id: 'task-logs' },
    [...byAttempt.entries()].map(([attempt, ls]) => [
      h('h3', null, `Attempt ${attempt}`),
      h('ul', { class: 'log' }, ls.map((l) => h('li', { class: `lvl-${l.level}` }, time(l.at), ` ${l.level} `, l.message))),
    ]),
    truncated ? h('p', { class: 'muted' }, 'Truncated: older lines were dropped.') : null,
  );
}

// The handler's latest progress update (TaskContext.progress), or nothing when none came.
function progress(p) {
  if (!p) return undefined;
  return h(
    'span',
    { id: 'task-progress', 'data-percent': p.percent },
    h('progress', { max: 100, value: p.percent }),
    ` ${p.percent}%`,
    p.message ? ` · ${p.message}` : null,
    h('span', { class: 'muted' }, ` (attempt ${p.attempt}, `, time(p.at), ')'),
  );
}

function origin(headers) {
  const schedule = headers['tasklane.schedule'];
  if (!schedule) return null;
  return props([
    ['Schedule', h('a', { href: `#/schedules/${encodeURIComponent(schedule)}` }, schedule)],
    ['Fire', h('span', { class: 'mono' }, headers['tasklane.fire-id'] || '—')],
    ['Fire time', time(Number(headers['tasklane.fire-time']))],
  ]);
}

function actions(view, ctx, rerender) {
  if (!ctx.can('operator')) return null;
  const id = view.task.id;
  const routingKey = view.task.orderingKey || (view.task.options && view.task.options.concurrencyKey) || undefined;
  const run = async (a) => {
    try {
      const r = await ctx.api.post(`/api/tasks/${encodeURIComponent(id)}/${a.action}`, undefined, { routingKey, wait: '5s' });
      toast(`${a.label}: ${r.outcome}${r.reason ? ` (${r.reason})` : ''}; state ${r.state || '?'}`, r.outcome === 'applied' ? 'ok' : 'info');
    } catch (err) {
      toast(err instanceof ApiError ? `${a.label}: ${err.status} ${err.message}` : String(err), 'bad');
    }
    await rerender();
  };
  return h(
    'div',
    { class: 'actions', id: 'task-actions' },
    ACTIONS.map((a) =>
      button(a.label, () => run(a), a.kind || '', {
        'data-action': a.action,
        disabled: !a.states.includes(view.state),
        title: a.states.includes(view.state) ? null : `not for a ${view.state} task`,
      }),
    ),
  );
}

export default {
  id: 'task',
  navId: 'tasks',
  nav: false,
  title: 'Task',
  route: /^tasks\/([0-9a-f-]{36})$/,
  async render(root, ctx) {
    const id = ctx.match[1];
    const routingKey = ctx.params.get('routingKey') || undefined; // a lane's task lives under its key
    let shown = null;
    const fetchBoth = () =>
      Promise.all([
        ctx.api.get(`/api/tasks/${encodeURIComponent(id)}`, { routingKey }),
        ctx.api.get(`/api/tasks/${encodeURIComponent(id)}/logs`).catch((e) => ({ lines: [], error: e })),
      ]);
    const signature = (view, log) => `${view.updatedAt}:${(log.lines || []).length}:${log.progress ? log.progress.at : ''}`;
    const draw = async (fetched) => {
      const [view, log] = fetched || (await fetchBoth());
      shown = signature(view, log);
      const t = view.task || {};
      const deps = t.dependsOn || [];
      const waiters = (view.waiters || []).map((w) => (typeof w === 'string' ? w : w.id)).filter(Boolean);
      replace(
        root,
        h('h1', null, 'Task ', h('span', { class: 'mono' }, id), ' ', h('span', { id: 'task-state' }, badge(view.state))),
        actions(view, ctx, () => draw()),
        h(
          'div',
          { class: 'grid' },
          card(
            'Envelope',
            props([
              ['Handler', h('a', { href: `#/tasks?handler=${encodeURIComponent(t.handler)}` }, t.handler)],
              ['Key', t.key || '—'],
              ['Ordering key', t.orderingKey || '—'],
              ['Concurrency key', (t.options && t.options.concurrencyKey) || undefined],
              ['Priority', t.options && t.options.priority !== undefined ? String(t.options.priority) : '5 (default)'],
              ['Unique until', (t.options && t.options.uniqueUntil) || undefined],
              ['Progress', progress(log.progress)],
              ['Attempt', `${num(view.attempt)} of ${num(t.maxAttempts)}`],
              ['Created', time(t.createdAt)],
              ['Due', time(view.dueAt || t.dueAt)],
              ['Updated', time(view.updatedAt)],
              ['Finished', time(view.finishedAt)],
              ['Timeout', duration(t.timeoutMs)],
              ['Reason', view.reason || undefined],
            ]),
          ),
          card('Payload', pre(t.payload)),
        ),
        lastError(view.lastError),
        card('Attempts', timeline(view)),
        card('Logs', log.error ? errorBox(log.error) : logs(log.lines || [], log.truncated)),
        deps.length || waiters.length
          ? card(
              'Dependencies',
              props([
                ['Depends on', deps.length ? deps.map((d) => [taskLink(d), ' ']) : '—'],
                ['Waiting on', (view.waitingOn || []).length ? view.waitingOn.map((d) => [taskLink(d), ' ']) : '—'],
                ['Needed by', waiters.length ? waiters.map((d) => [taskLink(d), ' ']) : '—'],
              ]),
            )
          : null,
        origin(t.headers || {}) ? card('Schedule', origin(t.headers || {})) : null,
      );
    };
    await draw();
    ctx.refresh(async () => {
      const fetched = await fetchBoth(); // redrawn only on a change: an open stack trace stays open
      if (signature(...fetched) !== shown) await draw(fetched);
    }, 3000);
  },
};
