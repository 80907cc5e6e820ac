// Tasks: the API's search (state, handler, key, id prefix, error type, payload field, time range),
// a page at a time through the API's cursor. The filter lives in the URL (#/tasks?state=DEAD&...),
// so a search is bookmarkable; the form only rewrites the URL.
import { badge, button, card, h, num, replace, STATES, table, taskLink, time, toLocalInput } from '../ui.js';

/** The search parameters the page passes on to GET /api/tasks. */
export const FILTER_KEYS = ['state', 'handler', 'key', 'idPrefix', 'errorType', 'payload', 'createdFrom', 'createdTo', 'sort', 'order', 'limit'];

function input(name, label, value, attrs = {}) {
  return h('label', null, label, h('input', { name, value: value || '', ...attrs }));
}

function select(name, label, value, options) {
  return h(
    'label',
    null,
    label,
    h('select', { name }, options.map(([v, text]) => h('option', { value: v, selected: v === (value || '') }, text))),
  );
}

function form(params, ctx, handlers) {
  const f = h(
    'form',
    { class: 'filters', id: 'task-filter' },
    select('state', 'State', params.get('state'), [['', 'any'], ...STATES.map((s) => [s, s])]),
    h('label', null, 'Handler', h('input', { name: 'handler', value: params.get('handler') || '', list: 'handler-names' })),
    h('datalist', { id: 'handler-names' }, handlers.map((x) => h('option', { value: x.name }))),
    input('key', 'Key', params.get('key')),
    input('idPrefix', 'Id prefix', params.get('idPrefix'), { size: 10 }),
    input('errorType', 'Error type', params.get('errorType')),
    input('payload', 'Payload field', params.get('payload'), { placeholder: '/customer=42' }),
    input('createdFrom', 'Created from', toLocalInput(params.get('createdFrom')), { type: 'datetime-local' }),
    input('createdTo', 'Created to', toLocalInput(params.get('createdTo')), { type: 'datetime-local' }),
    select('sort', 'Sort', params.get('sort'), [['', 'updated'], ['created', 'created'], ['due', 'due']]),
    select('order', 'Order', params.get('order'), [['', 'newest first'], ['asc', 'oldest first']]),
    h('button', { type: 'submit', class: 'btn btn-primary', id: 'search' }, 'Search'),
    button('Clear', () => ctx.navigate('#/tasks')),
  );
  f.addEventListener('submit', (e) => {
    e.preventDefault();
    const q = new URLSearchParams();
    for (const [k, v] of new FormData(f)) {
      if (!v) continue;
      q.set(k, k === 'createdFrom' || k === 'createdTo' ? String(new Date(v).getTime()) : v);
    }
    ctx.navigate(`#/tasks?${q}`);
  });
  return f;
}

/** The API query of the page's URL parameters (cursor included). */
export function searchQuery(params) {
  const q = {};
  for (const k of [...FILTER_KEYS, 'cursor', 'asOf']) {
    if (params.get(k)) q[k] = params.get(k);
  }
  return q;
}

export default {
  id: 'tasks',
  title: 'Tasks',
  route: /^tasks$/,
  async render(root, ctx) {
    const { params } = ctx;
    const [handlers, listing] = await Promise.all([
      ctx.api.get('/api/handlers').then((x) => x.handlers || []),
      ctx.api.get('/api/tasks', searchQuery(params)),
    ]);
    if (!listing.tasks && listing.task) {
      ctx.navigate(`#/tasks/${encodeURIComponent(listing.task.id)}`); // handler + key: the one task
      return;
    }
    const tasks = listing.tasks || [];
    const next = new URLSearchParams(params);
    next.set('cursor', listing.nextCursor || '');
    next.set('asOf', String(listing.asOf));
    const first = new URLSearchParams(params);
    first.delete('cursor');
    first.delete('asOf');
    const results = table(
      [
        { title: 'Task', render: (t) => taskLink(t.id, t.id.slice(0, 8), t.routingKey) },
        { title: 'State', render: (t) => badge(t.state) },
        { title: 'Handler', render: (t) => t.handler },
        { title: 'Key', render: (t) => (t.key ? h('span', { class: 'mono' }, t.key) : h('span', { class: 'muted' }, '—')) },
        { title: 'Attempt', class: 'num', render: (t) => num(t.attempt) },
        { title: 'Error', render: (t) => t.errorType || '' },
        { title: 'Created', render: (t) => time(t.createdAt) },
        { title: 'Updated', render: (t) => time(t.updatedAt) },
      ],
      tasks,
      'No task matches.',
    );
    results.id = 'task-results';
    const pager = h(
      'div',
      { class: 'actions' },
      h('span', { class: 'muted', id: 'result-count' }, `${num(tasks.length)} shown`, listing.partial ? ' (partial: an instance did not answer)' : '', ' · as of ', time(listing.asOf)),
      params.get('cursor') ? h('a', { class: 'btn', href: `#/tasks?${first}` }, 'First page') : null,
      listing.nextCursor ? h('a', { class: 'btn', href: `#/tasks?${next}`, id: 'next-page' }, 'Next page') : null,
      params.get('state') === 'DEAD' && ctx.can('operator')
        ? h('a', { class: 'btn', href: `#/dead?${new URLSearchParams(searchQuery(first))}` }, 'Act on these in Dead letters')
        : null,
    );
    replace(root, h('h1', null, 'Tasks'), card(null, form(params, ctx, handlers)), card(null, pager, results));
  },
};
