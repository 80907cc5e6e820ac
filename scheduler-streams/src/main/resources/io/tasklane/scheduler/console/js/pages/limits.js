// Rate limits (GET /api/limits): every named limit and handler's own rate, the rate and burst that
// apply, where they come from (configuration or set at run time through the API), the configured
// rate beside one set at run time, and who changed it. Admins set a limit (POST /api/limits/{name},
// or POST /api/handlers/{name}/rate for a handler's own rate) and remove one set at run time
// (DELETE, after a confirmation): the configured one applies again. Refreshes every 5 s while the
// tab is visible (the form keeps what is being typed). Runs on the page's main thread.
import { ApiError } from '../api.js';
import { badge, button, card, confirmDialog, errorBox, h, num, replace, table, time, toast } from '../ui.js';

const MAX_BURST = 100000;

function limitPath(l) {
  return l.handler
    ? `/api/handlers/${encodeURIComponent(l.handler)}/rate`
    : `/api/limits/${encodeURIComponent(l.name)}`;
}

function configured(l) {
  if (!l.configuredRate) return h('span', { class: 'muted' }, '—');
  return `${l.configuredRate}, burst ${num(l.configuredBurst)}`;
}

function nameCell(l) {
  return l.handler
    ? [h('a', { href: `#/handlers/${encodeURIComponent(l.handler)}`, 'data-limit': l.name }, l.handler), h('span', { class: 'muted' }, ' (handler)')]
    : h('span', { class: 'mono', 'data-limit': l.name }, l.name);
}

export default {
  id: 'limits',
  title: 'Limits',
  route: /^limits$/,
  async render(root, ctx) {
    const listBox = card('Rate limits');
    listBox.id = 'limits';
    const answer = h('div', { id: 'limits-answer' });

    const name = h('input', { name: 'name', maxlength: 100, placeholder: 'partner-api', 'aria-label': 'Limit or handler name', required: true });
    const rate = h('input', { name: 'rate', class: 'narrow', maxlength: 20, placeholder: '50/s', 'aria-label': 'Rate', required: true });
    const burst = h('input', { name: 'burst', class: 'narrow', type: 'number', min: 1, max: MAX_BURST, placeholder: '1', 'aria-label': 'Burst' });
    const handler = h('input', { name: 'handler', type: 'checkbox', 'aria-label': "The name is a handler: set its own rate" });
    const save = button('Set', null, 'primary', { 'data-action': 'set-limit', type: 'submit' });
    const onSubmit = (e) => {
      e.preventDefault();
      submit();
    };
    const form = h(
      'form',
      { id: 'limit-form', class: 'filters', onSubmit },
      h('label', null, 'Name', name),
      h('label', null, 'Rate (50/s, 600/min, 1000/h)', rate),
      h('label', null, `Burst (1 to ${num(MAX_BURST)})`, burst),
      h('label', { class: 'check' }, handler, " a handler's own rate"),
      save,
    );
    root.append(
      h('h1', null, 'Rate limits'),
      h(
        'p',
        { class: 'muted' },
        'Starts a second, minute or hour across every scheduler instance. A limit set here replaces the configured one on every instance until it is removed.',
      ),
      ctx.can('admin') ? card('Set a limit', form, answer) : null,
      listBox,
    );

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

    const remove = async (l) => {
      const ok = await confirmDialog(
        `Remove the rate set at run time for ${l.name}? ${l.configuredRate ? `The configured ${l.configuredRate} applies again.` : 'The limit is then undefined: its tasks wait until it is set again.'}`,
        'Remove',
        'danger',
      );
      if (ok) await change(() => ctx.api.del(limitPath(l)), `${l.name}: run-time rate removed`);
    };

    const submit = async () => {
      save.disabled = true;
      const l = handler.checked ? { name: `handler/${name.value.trim()}`, handler: name.value.trim() } : { name: name.value.trim() };
      const q = { rate: rate.value.trim(), burst: burst.value.trim() };
      try {
        await change(() => ctx.api.post(limitPath(l), undefined, q), `${l.name}: ${q.rate}, burst ${q.burst || 1}`);
      } finally {
        save.disabled = false;
      }
    };

    let shown = null;
    const load = async (force) => {
      const x = await ctx.api.get('/api/limits');
      const seen = JSON.stringify(x.limits || []);
      if (!force && seen === shown) return; // unchanged: keep the rows
      shown = seen;
      const columns = [
        { title: 'Name', render: nameCell },
        { title: 'Rate', render: (l) => h('span', { 'data-rate': l.name }, l.rate) },
        { title: 'Burst', class: 'num', render: (l) => num(l.burst) },
        { title: 'Source', render: (l) => h('span', { 'data-source': l.source }, badge(l.source === 'api' ? 'RUN TIME' : 'CONFIGURED')) },
        { title: 'Configured', render: configured },
        { title: 'Changed', render: (l) => (l.updatedAt ? [time(l.updatedAt), l.updatedBy ? ` by ${l.updatedBy}` : null] : '—') },
      ];
      if (ctx.can('admin')) {
        columns.push({
          title: '',
          render: (l) => (l.source === 'api' ? button('Remove', () => remove(l), 'danger', { 'data-action': 'remove-limit', 'data-for': l.name }) : null),
        });
      }
      replace(listBox, h('h2', null, 'Rate limits'), table(columns, x.limits || [], 'No rate limit is configured or set.'));
    };

    await load(true);
    ctx.refresh(() => load(false), 5000);
  },
};
