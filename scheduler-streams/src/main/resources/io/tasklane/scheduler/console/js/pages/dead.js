// Dead letters: DEAD tasks grouped by handler and error type with counts; retry or discard one, a
// selection, or every task matching the filter through a bulk job pinned to the listing's asOf
// (tasks that die later are never touched), after a confirmation stating the count; the job's
// progress from /api/jobs/{job}.
import { ApiError } from '../api.js';
import { badge, button, card, confirmDialog, h, num, replace, table, taskLink, time, toast } from '../ui.js';

const PAGE = 500;
const MAX_PAGES = 4;

/** Every DEAD task of the filter (at most PAGE * MAX_PAGES), listed at one asOf. */
async function listDead(api, filter) {
  let asOf = null;
  let cursor = null;
  const tasks = [];
  for (let i = 0; i < MAX_PAGES; i++) {
    const page = await api.get('/api/tasks', { ...filter, state: 'DEAD', limit: PAGE, cursor, asOf });
    asOf = asOf || page.asOf;
    tasks.push(...(page.tasks || []));
    cursor = page.nextCursor;
    if (!cursor) return { tasks, asOf, more: false };
  }
  return { tasks, asOf, more: true };
}

function groups(tasks) {
  const by = new Map();
  for (const t of tasks) {
    const k = `${t.handler}\u0000${t.errorType || ''}`;
    if (!by.has(k)) by.set(k, { handler: t.handler, errorType: t.errorType || '', count: 0 });
    by.get(k).count++;
  }
  return [...by.values()].sort((a, b) => b.count - a.count);
}

function filterText(filter) {
  const parts = Object.entries(filter).map(([k, v]) => `${k}=${v}`);
  return parts.length ? parts.join(', ') : 'no filter';
}

function jobView(api, jobId, done) {
  const box = h('div', { class: 'notice', id: 'bulk-job', 'data-job': jobId });
  const draw = (j) => {
    const total = Math.max(1, j.matched || 0);
    const handled = (j.applied || 0) + (j.ignored || 0) + (j.failed || 0);
    replace(
      box,
      h('strong', null, `Bulk ${j.action} `),
      badge(j.state),
      ' ',
      h('progress', { max: total, value: Math.min(handled, total) }),
      ` matched ${num(j.matched)} · applied ${num(j.applied)} · ignored ${num(j.ignored)} · failed ${num(j.failed)}`,
    );
    box.dataset.state = j.state;
  };
  const poll = async () => {
    const j = await api.get(`/api/jobs/${encodeURIComponent(jobId)}`);
    draw(j);
    if (j.state === 'RUNNING') return false;
    done(j);
    return true;
  };
  return { box, poll };
}

export default {
  id: 'dead',
  title: 'Dead letters',
  route: /^dead$/,
  async render(root, ctx) {
    const filter = {};
    for (const k of ['handler', 'errorType']) if (ctx.params.get(k)) filter[k] = ctx.params.get(k);
    const { tasks, asOf, more } = await listDead(ctx.api, filter);
    const all = await (Object.keys(filter).length ? listDead(ctx.api, {}) : { tasks, more });
    const selected = new Set();
    const jobs = h('div', { id: 'jobs' });
    let poller = null;
    const plus = more ? '+' : '';

    const single = async (action, ids) => {
      let applied = 0;
      const problems = [];
      for (const id of ids) {
        try {
          const r = await ctx.api.post(`/api/tasks/${encodeURIComponent(id)}/${action}`, undefined, { wait: '5s' });
          if (r.outcome === 'applied' || r.outcome === 'pending') applied++;
          else problems.push(`${id.slice(0, 8)}: ${r.outcome} ${r.reason || ''}`);
        } catch (err) {
          problems.push(`${id.slice(0, 8)}: ${err instanceof ApiError ? err.message : err}`);
        }
      }
      toast(`${action}: ${applied} of ${ids.length} applied${problems.length ? `; ${problems.join('; ')}` : ''}`, problems.length ? 'bad' : 'ok');
      ctx.navigate(`#/dead?${new URLSearchParams(filter)}&t=${Date.now()}`);
    };

    const bulk = async (action, f, count) => {
      const verb = action === 'retry-dead' ? 'Retry' : 'Discard';
      const ok = await confirmDialog(
        `${verb} ${count} DEAD task${count === '1' ? '' : 's'} matching ${filterText(f)}? Tasks that die after ${new Date(asOf).toISOString()} are not touched.`,
        `${verb} ${count}`,
        action === 'discard' ? 'danger' : 'primary',
      );
      if (!ok) return;
      try {
        const r = await ctx.api.post(`/api/tasks/bulk/${action}`, { filter: { ...f, state: 'DEAD' }, asOf });
        const view = jobView(ctx.api, r.job, (j) => toast(`Bulk ${action} ${j.state}: ${j.applied} applied`, j.state === 'DONE' ? 'ok' : 'bad'));
        replace(jobs, view.box);
        poller = view.poll;
        await view.poll();
      } catch (err) {
        toast(err instanceof ApiError ? `${verb}: ${err.status} ${err.message}` : String(err), 'bad');
      }
    };
    ctx.refresh(async () => {
      if (poller && (await poller())) poller = null;
    }, 1000);

    const groupTable = table(
      [
        { title: 'Handler', render: (g) => g.handler },
        { title: 'Error type', render: (g) => g.errorType || h('span', { class: 'muted' }, '—') },
        { title: 'Dead', class: 'num', render: (g) => num(g.count) + plus },
        {
          title: '',
          render: (g) => {
            const f = { handler: g.handler, ...(g.errorType ? { errorType: g.errorType } : {}) };
            return h(
              'div',
              { class: 'actions' },
              h('a', { class: 'btn', href: `#/dead?${new URLSearchParams(f)}` }, 'Show'),
              ctx.can('admin') ? button('Retry all', () => bulk('retry-dead', f, String(g.count) + plus)) : null,
              ctx.can('admin') ? button('Discard all', () => bulk('discard', f, String(g.count) + plus), 'danger') : null,
            );
          },
        },
      ],
      groups(all.tasks),
      'No dead task.',
    );

    const shown = tasks.slice(0, 200);
    const selectionBar = h('span', { class: 'muted', id: 'selection' }, '0 selected');
    const onCheck = (id, el) => {
      if (el.checked) selected.add(id);
      else selected.delete(id);
      replace(selectionBar, `${selected.size} selected`);
    };
    const operator = ctx.can('operator');
    const list = table(
      [
        ...(operator
          ? [{ title: '', render: (t) => h('input', { type: 'checkbox', 'aria-label': `select ${t.id}`, 'data-id': t.id, onChange: (e) => onCheck(t.id, e.target) }) }]
          : []),
        { title: 'Task', render: (t) => taskLink(t.id, t.id.slice(0, 8), t.routingKey) },
        { title: 'Handler', render: (t) => t.handler },
        { title: 'Error type', render: (t) => t.errorType || '—' },
        { title: 'Attempts', class: 'num', render: (t) => num(t.attempt) },
        { title: 'Died', render: (t) => time(t.updatedAt) },
        ...(operator
          ? [
              {
                title: '',
                render: (t) =>
                  h('div', { class: 'actions' }, button('Retry', () => single('retry-dead', [t.id]), '', { 'data-retry': t.id }), button('Discard', () => single('discard', [t.id]), 'danger')),
              },
            ]
          : []),
      ],
      shown,
      'No dead task matches.',
    );
    list.id = 'dead-tasks';
    const count = String(tasks.length) + plus;
    const bar = h(
      'div',
      { class: 'actions' },
      h('strong', { id: 'dead-count' }, `${count} dead`),
      h('span', { class: 'muted' }, ` matching ${filterText(filter)} · as of `, time(asOf)),
      operator ? [selectionBar, button('Retry selected', () => single('retry-dead', [...selected])), button('Discard selected', () => single('discard', [...selected]), 'danger')] : null,
      ctx.can('admin') && tasks.length
        ? [
            button(`Retry all ${count}`, () => bulk('retry-dead', filter, count), 'primary', { id: 'retry-all' }),
            button(`Discard all ${count}`, () => bulk('discard', filter, count), 'danger', { id: 'discard-all' }),
          ]
        : null,
      Object.keys(filter).length ? h('a', { class: 'btn', href: '#/dead' }, 'All handlers') : null,
    );
    root.append(
      h('h1', null, 'Dead letters'),
      card('By handler and error type', groupTable),
      jobs,
      card(null, bar, shown.length < tasks.length ? h('p', { class: 'muted' }, `Showing the newest ${shown.length}.`) : null, list),
    );
  },
};
