// Batches: without an id, the batches in id order (GET /api/batches, the first 1,000, narrowed by
// state with ?state=), refreshed every 5 s; with an id (GET /api/batches/{id}), the batch's state,
// progress, members by state, when it was sealed, completed and succeeded, and the callback tasks
// it made (links to their task pages), refreshed every 2 s while the tab is visible (a batch not
// there yet shows when its first part arrives; a COMPLETE one may still become SUCCEEDED). Runs on
// the page's main thread.
import { ApiError } from '../api.js';
import { badge, card, errorBox, h, num, replace, table, taskLink, time } from '../ui.js';

const ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
const STATES = ['OPEN', 'RUNNING', 'COMPLETE', 'SUCCEEDED'];
const PAGE = 500;
const MAX_PAGES = 2;

async function someBatches(api, state) {
  const out = [];
  let cursor = null;
  let partial = false;
  for (let i = 0; i < MAX_PAGES; i++) {
    const page = await api.get('/api/batches', { limit: PAGE, cursor, state: state || undefined });
    out.push(...(page.batches || []));
    partial = partial || page.partial === true;
    cursor = page.nextCursor;
    if (!cursor) break;
  }
  return { batches: out, partial, more: Boolean(cursor) };
}

function batchLink(id) {
  return h('a', { href: `#/batches/${encodeURIComponent(id)}`, class: 'mono', 'data-batch-row': id }, id);
}

async function renderList(view, ctx) {
  const state = STATES.includes(ctx.params.get('state')) ? ctx.params.get('state') : '';
  const select = h(
    'select',
    { id: 'batch-state', 'aria-label': 'State', onChange: (e) => ctx.navigate(e.target.value ? `#/batches?state=${e.target.value}` : '#/batches') },
    h('option', { value: '' }, 'any state'),
    ...STATES.map((s) => h('option', { value: s, selected: s === state ? true : undefined }, s)),
  );
  const note = h('div');
  const list = h('div', { id: 'batch-list' });
  replace(view, card('Batches', h('div', { class: 'filters' }, h('label', null, 'State', select)), note, list));
  const load = async () => {
    const { batches, partial, more } = await someBatches(ctx.api, state);
    replace(
      note,
      partial ? h('div', { class: 'notice' }, 'Some scheduler instances did not answer: the list may be incomplete.') : null,
      more ? h('div', { class: 'notice' }, `The first ${num(batches.length)} batches; \`tasklane batches list --all\` lists every one.`) : null,
    );
    replace(
      list,
      table(
        [
          { title: 'Batch', render: (b) => batchLink(b.id) },
          { title: 'State', render: (b) => badge(b.state) },
          { title: 'Progress', render: (b) => [h('progress', { max: 100, value: b.progress }), ` ${b.progress}%`] },
          { title: 'Members', class: 'num', render: (b) => num(b.total) },
          { title: 'Pending', class: 'num', render: (b) => num(b.pending) },
          { title: 'DEAD', class: 'num', render: (b) => num(b.dead) },
          { title: 'Created', render: (b) => time(b.createdAt) },
        ],
        batches,
        state ? `No ${state} batches.` : 'No batches.',
      ),
    );
  };
  await load();
  ctx.refresh(load, 5000);
}

function counts(b) {
  const rows = [
    ['Total', b.total],
    ['Pending', b.pending],
    ['SUCCEEDED', b.succeeded],
    ['DEAD', b.dead],
    ['CANCELLED', b.cancelled],
  ];
  return table(
    [
      { title: 'Members', render: (r) => (r[0] === 'Total' || r[0] === 'Pending' ? r[0] : badge(r[0])) },
      { title: 'Count', class: 'num', render: (r) => h('span', { 'data-count': r[0].toLowerCase() }, num(r[1])) },
    ],
    rows,
  );
}

function callback(handler, task, routingKey) {
  if (!handler) return h('span', { class: 'muted' }, 'none');
  return [h('span', { class: 'mono' }, handler), ' ', task ? ['→ ', taskLink(task, task, routingKey)] : h('span', { class: 'muted' }, '(not yet)')];
}

function details(b) {
  const dl = h('dl', { class: 'props' });
  const fact = (term, value) => dl.append(h('dt', null, term), h('dd', null, value));
  fact('Created', time(b.createdAt));
  fact('Sealed', time(b.sealedAt));
  fact('Completed', time(b.completedAt));
  fact('Succeeded', time(b.succeededAt));
  fact('onSuccess', callback(b.onSuccess, b.successTask, b.successTaskRoutingKey));
  fact('onComplete', callback(b.onComplete, b.completeTask, b.completeTaskRoutingKey));
  if (b.lateParts) fact('Late parts', `${num(b.lateParts)} (written after the seal; their tasks ran outside the batch)`);
  return dl;
}

export default {
  id: 'batches',
  title: 'Batches',
  route: /^batches(?:\/(.+))?$/,
  async render(root, ctx) {
    const id = ctx.match[1] ? decodeURIComponent(ctx.match[1]) : '';
    const input = h('input', { name: 'batch', maxlength: 128, placeholder: 'invoices-2026-11', 'aria-label': 'Batch id', value: id, required: true });
    const onSubmit = (e) => {
      e.preventDefault();
      const v = input.value.trim();
      if (v) ctx.navigate(`#/batches/${encodeURIComponent(v)}`);
    };
    const form = h('form', { id: 'batch-form', class: 'filters', onSubmit }, h('label', null, 'Batch id', input), h('button', { type: 'submit', class: 'btn btn-primary' }, 'Show'));
    const view = h('div', { id: 'batch' });
    root.append(
      h('h1', null, 'Batches'),
      h('p', { class: 'muted' }, 'A batch of tasks with callbacks: onComplete when every member is terminal, onSuccess when every member succeeded (docs/batches.md).'),
      card('Find a batch', form),
      view,
    );
    if (!id) {
      await renderList(view, ctx);
      return;
    }
    if (!ID.test(id)) {
      replace(view, errorBox(new Error(`not a batch id: ${ID.source}`)));
      return;
    }
    let shown = null;
    const load = async () => {
      let b;
      try {
        b = await ctx.api.get(`/api/batches/${encodeURIComponent(id)}`);
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) throw err;
        replace(view, errorBox(err));
        shown = null;
        return;
      }
      const seen = JSON.stringify(b);
      if (seen !== shown) {
        shown = seen;
        replace(
          view,
          card(
            null,
            h('h2', null, h('span', { class: 'mono', 'data-batch': b.id }, b.id), ' ', badge(b.state)),
            h('div', { class: 'progress-line' }, h('progress', { max: 100, value: b.progress, 'data-progress': b.progress }), ` ${b.progress}%`),
            counts(b),
            details(b),
          ),
        );
      }
    };
    await load();
    ctx.refresh(load, 2000);
  },
};
