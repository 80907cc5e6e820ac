// Handler detail: dispatch state, concurrency, lanes setting (max per key, on dead), workers, in
// flight, lag and backlog (GET /api/handlers/{name}); its lanes (GET /api/handlers/{name}/lanes):
// how many are active, blocked and waiting, and the top lanes, blocked first, with their holders
// and the first waiting task as links (whole ids: ids made in one instant share their first
// characters). Admins set max per key and on dead (POST .../lanes).
// Refreshes every 5 s while the tab is visible (the form keeps what is being typed). Runs on the
// page's main thread.
import { ApiError } from '../api.js';
import { badge, button, card, errorBox, h, num, replace, table, taskLink, time, toast } from '../ui.js';

const MAX_PER_KEY = 100000;
const ON_DEAD = ['BLOCK', 'SKIP'];

function handlerPath(name, suffix = '') {
  return `/api/handlers/${encodeURIComponent(name)}${suffix}`;
}

function maxPerKeyText(v) {
  return v === null || v === undefined ? 'unlimited' : num(v);
}

function settings(x) {
  const row = (k, v, id) => [h('dt', null, k), h('dd', id ? { id } : null, v)];
  return h(
    'dl',
    { class: 'props', id: 'handler-settings' },
    row('Dispatch', badge(x.paused ? 'PAUSED' : 'ACTIVE')),
    row('Concurrency', [num(x.concurrency), x.concurrencySet ? h('span', { class: 'muted' }, ' (set)') : null]),
    row('Max per key', maxPerKeyText(x.maxPerKey), 'handler-max-per-key'),
    row('On dead', x.onDead || 'BLOCK', 'handler-on-dead'),
    row('Workers', (x.workers || []).length ? (x.workers || []).map((w, i) => [i ? ', ' : null, h('span', { class: 'mono' }, w)]) : '—'),
    row('In flight', num(x.inFlight)),
    row('Lag', num(x.lag)),
    row('Backlog', num(x.backlog)),
    row('Changed', x.updatedAt ? [time(x.updatedAt), x.updatedBy ? ` by ${x.updatedBy}` : null] : '—'),
  );
}

function holders(lane) {
  const entries = Object.entries(lane.holders || {});
  if (!entries.length) return h('span', { class: 'muted' }, '—');
  return h(
    'ul',
    { class: 'plain' },
    entries.map(([id, state]) => h('li', { 'data-holder': id }, taskLink(id, id, lane.key), ' ', badge(state))),
  );
}

function lanesTable(lanes) {
  return table(
    [
      { title: 'Key', render: (l) => h('span', { class: 'mono', 'data-lane': l.key }, l.key) },
      { title: 'Kind', render: (l) => l.kind },
      { title: 'Holders', render: holders },
      { title: 'Waiting', class: 'num', render: (l) => num(l.waiting) },
      { title: 'Next (first waiting)', render: (l) => (l.head ? h('span', { 'data-head': l.head }, taskLink(l.head, l.head, l.key)) : h('span', { class: 'muted' }, '—')) },
      { title: '', render: (l) => (l.blocked ? h('span', { 'data-blocked': 'true', title: 'A DEAD task holds this ordered lane: retry or discard it' }, badge('BLOCKED')) : null) },
    ],
    lanes.top || [],
    'No lane.',
  );
}

function stat(label, value, id) {
  return h('div', { class: 'stat', id }, h('div', { class: 'value' }, num(value)), h('div', { class: 'label' }, label));
}

export default {
  id: 'handler',
  title: 'Handler',
  nav: false,
  navId: 'workers',
  route: /^handlers\/([^/]+)$/,
  async render(root, ctx) {
    const name = ctx.match[1];
    const state = h('span', { id: 'handler-state' });
    const settingsBox = card('Settings');
    const lanesBox = card('Lanes');
    lanesBox.id = 'handler-lanes';
    const answer = h('div', { id: 'handler-lanes-answer' });

    const maxPerKey = h('input', { name: 'maxPerKey', class: 'narrow', maxlength: 7, placeholder: 'none', 'aria-label': `Max per key of ${name}` });
    const onDead = h('select', { name: 'onDead', 'aria-label': `On dead of ${name}` }, ON_DEAD.map((o) => h('option', { value: o }, o)));
    const save = button('Set', null, 'primary', { 'data-action': 'set-lanes', type: 'submit' });
    const onSubmit = (e) => {
      e.preventDefault();
      submit();
    };
    const form = h(
      'form',
      { id: 'handler-lanes-form', class: 'filters', onSubmit },
      h('label', null, `Max per key (1 to ${num(MAX_PER_KEY)}, none or default)`, maxPerKey),
      h('label', null, 'On dead', onDead),
      save,
    );
    root.append(
      h('div', { class: 'page-head' }, h('h1', null, 'Handler ', h('span', { class: 'mono' }, name), ' ', state)),
      h('div', { class: 'grid' }, settingsBox, ctx.can('admin') ? card('Lanes setting', form, answer) : null),
      lanesBox,
    );

    let filled = null; // the setting the form shows
    const fill = (x) => {
      filled = JSON.stringify([x.maxPerKey, x.onDead]);
      maxPerKey.value = x.maxPerKey === null || x.maxPerKey === undefined ? 'none' : String(x.maxPerKey);
      onDead.value = x.onDead || 'BLOCK';
    };

    let shownHandler = null;
    let shownLanes = null;
    const load = async (force) => {
      const [x, lanes] = await Promise.all([ctx.api.get(handlerPath(name)), ctx.api.get(handlerPath(name, '/lanes'), { limit: 50 })]);
      const seenHandler = JSON.stringify(x);
      if (force || seenHandler !== shownHandler) {
        shownHandler = seenHandler;
        replace(state, badge(x.paused ? 'PAUSED' : 'ACTIVE'));
        replace(settingsBox, h('h2', null, 'Settings'), settings(x));
        // a setting changed elsewhere shows in the form, but never under the typist
        const changed = filled !== JSON.stringify([x.maxPerKey, x.onDead]);
        if (force || (changed && !form.contains(document.activeElement))) fill(x);
      }
      const seenLanes = JSON.stringify(lanes);
      if (!force && seenLanes === shownLanes) return; // unchanged: keep the rows
      shownLanes = seenLanes;
      replace(
        lanesBox,
        h('h2', null, 'Lanes'),
        h(
          'div',
          { class: 'stats', id: 'lanes-summary' },
          stat('Lanes', lanes.lanes, 'lanes-count'),
          stat('Active', lanes.active, 'lanes-active'),
          stat('Blocked', lanes.blocked, 'lanes-blocked'),
          stat('Tasks waiting', lanes.waiting, 'lanes-waiting'),
        ),
        lanes.partial ? h('p', { class: 'notice', role: 'status' }, `Partial: no answer from ${(lanes.missing || []).join(', ') || 'an instance'}.`) : null,
        h('p', { class: 'muted' }, `Blocked lanes first, then those with the most tasks waiting (${num((lanes.top || []).length)} shown).`),
        lanesTable(lanes),
      );
    };

    const submit = async () => {
      replace(answer);
      save.disabled = true;
      const q = { maxPerKey: maxPerKey.value.trim() || 'none', onDead: onDead.value };
      try {
        const x = await ctx.api.post(handlerPath(name, '/lanes'), undefined, q);
        fill(x);
        await load(true);
        toast(`${name}: max per key ${maxPerKeyText(x.maxPerKey)}, on dead ${x.onDead}`, 'ok');
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 401)) replace(answer, errorBox(err));
      } finally {
        save.disabled = false;
      }
    };

    await load(true);
    ctx.refresh(() => load(false), 5000);
  },
};
