// Workers: live and lost workers with their handlers, concurrency and tasks in flight
// (GET /api/workers); per handler (GET /api/handlers) the dispatch state, concurrency, workers, in
// flight and lag; admins pause or resume a handler's dispatch and set its concurrency. Refreshes
// every 5 s while the tab is visible (not while a concurrency is being typed). Runs on the page's
// main thread.
import { ApiError } from '../api.js';
import { badge, button, card, errorBox, h, num, replace, table, time, toast } from '../ui.js';

const MAX_CONCURRENCY = 1000;

function workerTable(workers, empty) {
  return table(
    [
      { title: 'Worker', render: (w) => h('span', { class: 'mono' }, w.id) },
      { title: 'Host', render: (w) => [w.host, w.pid ? h('span', { class: 'muted' }, ` pid ${w.pid}`) : null] },
      { title: 'Version', render: (w) => w.version || '—' },
      { title: 'Started', render: (w) => time(w.startedAt) },
      { title: 'Last seen', render: (w) => time(w.lastSeenAt) },
      {
        title: 'Handlers (in flight / concurrency)',
        render: (w) =>
          h(
            'ul',
            { class: 'plain' },
            (w.handlers || []).map((x) => h('li', { 'data-handler': x.name }, x.name, ' ', h('span', { class: 'muted' }, `${num(x.inFlight)} / ${num(x.concurrency)}`))),
          ),
      },
    ],
    workers,
    empty,
  );
}

export default {
  id: 'workers',
  title: 'Workers',
  route: /^workers$/,
  async render(root, ctx) {
    const liveBox = card('Live workers');
    liveBox.id = 'live-workers';
    const lostBox = card('Lost workers');
    lostBox.id = 'lost-workers';
    const handlersBox = card('Handlers');
    handlersBox.id = 'handlers';
    const answer = h('div', { id: 'handler-answer' });
    root.append(h('h1', null, 'Workers'), liveBox, handlersBox, answer, lostBox);

    const change = async (fn, what) => {
      replace(answer);
      try {
        await fn();
        try {
          await load(true);
        } finally {
          toast(what, 'ok'); // after the rows show the change
        }
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 401)) replace(answer, errorBox(err));
      }
    };

    const handlerActions = (x) => {
      const path = `/api/handlers/${encodeURIComponent(x.name)}`;
      const input = h('input', { type: 'number', min: 1, max: MAX_CONCURRENCY, value: x.concurrency || '', class: 'narrow', 'aria-label': `Concurrency of ${x.name}`, name: 'concurrency' });
      return h(
        'div',
        { class: 'actions', 'data-handler-actions': x.name },
        x.paused
          ? button('Resume', () => change(() => ctx.api.post(`${path}/resume`), `${x.name}: dispatch resumed`), '', { 'data-action': 'resume' })
          : button('Pause', () => change(() => ctx.api.post(`${path}/pause`), `${x.name}: dispatch paused`), '', { 'data-action': 'pause' }),
        input,
        button('Set', () => change(() => ctx.api.post(`${path}/concurrency`, undefined, { value: input.value }), `${x.name}: concurrency ${input.value}`), '', { 'data-action': 'concurrency' }),
      );
    };

    let lastHandlers = null;
    const load = async (force) => {
      const [workers, handlers] = await Promise.all([ctx.api.get('/api/workers'), ctx.api.get('/api/handlers')]);
      const all = workers.workers || [];
      replace(liveBox, h('h2', null, 'Live workers'), workerTable(all.filter((w) => w.live), 'No live worker.'));
      replace(lostBox, h('h2', null, 'Lost workers'), workerTable(all.filter((w) => !w.live), 'No lost worker.'));
      if (!force && handlersBox.contains(document.activeElement) && document.activeElement.tagName === 'INPUT') return;
      const seen = JSON.stringify(handlers.handlers || []);
      if (!force && seen === lastHandlers) return; // unchanged: keep the rows (and their inputs)
      lastHandlers = seen;
      const columns = [
        { title: 'Handler', render: (x) => h('a', { href: `#/handlers/${encodeURIComponent(x.name)}`, 'data-handler': x.name }, x.name) },
        { title: 'Dispatch', render: (x) => badge(x.paused ? 'PAUSED' : 'ACTIVE') },
        { title: 'Concurrency', class: 'num', render: (x) => [num(x.concurrency), x.concurrencySet ? h('span', { class: 'muted' }, ' (set)') : null] },
        { title: 'Workers', class: 'num', render: (x) => num((x.workers || []).length) },
        { title: 'In flight', class: 'num', render: (x) => num(x.inFlight) },
        { title: 'Lag', class: 'num', render: (x) => num(x.lag) },
      ];
      if (ctx.can('admin')) columns.push({ title: 'Actions', render: handlerActions });
      replace(handlersBox, h('h2', null, 'Handlers'), table(columns, handlers.handlers || [], 'No handlers.'));
    };
    await load(true);
    ctx.refresh(() => load(false), 5000);
  },
};
