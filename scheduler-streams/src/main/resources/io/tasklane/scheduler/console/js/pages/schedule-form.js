// Create or edit a schedule (admin): name, handler, cron or fixed rate, zone, payload, overlap,
// misfire and attempts, with live validation and the next 5 fires in the chosen zone from
// GET /api/schedules/preview (the scheduler's own rules). Saving PUTs the definition; an edit keeps
// the fields the form does not show (routing, children, window, backoff). Runs on the page's main
// thread.
import { ApiError } from '../api.js';
import { button, card, errorBox, h, replace } from '../ui.js';
import { schedulePath, showPreview } from './schedule-parts.js';

const OVERLAPS = ['ALLOW', 'SKIP_IF_RUNNING', 'QUEUE', 'REPLACE'];
const NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/;

function field(label, input, hint) {
  return h('label', { class: 'form-field' }, h('span', null, label), input, hint ? h('small', { class: 'muted' }, hint) : null);
}

function zones() {
  const list = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return h('datalist', { id: 'zones' }, ['UTC', ...list].map((z) => h('option', { value: z })));
}

export default {
  id: 'schedule-form',
  title: 'Schedule',
  nav: false,
  navId: 'schedules',
  route: /^(?:new-schedule|schedules\/([^/]+)\/edit)$/,
  async render(root, ctx) {
    const editing = ctx.match[1] || null;
    if (!ctx.can('admin')) {
      root.append(h('h1', null, 'Schedule'), h('p', { class: 'notice' }, 'Only an admin may define schedules.'));
      return;
    }
    let base = {};
    if (editing) {
      const s = await ctx.api.get(schedulePath(editing));
      base = { ...(s.definition || {}) };
    }
    for (const k of ['type', 'v', 'name', 'version', 'origin']) delete base[k];

    const name = h('input', { name: 'name', required: true, maxlength: 200, value: editing || '', disabled: editing !== null, placeholder: 'reports.nightly' });
    const handler = h('input', { name: 'handler', required: true, maxlength: 200, value: base.handler || '', list: 'handler-names', placeholder: 'report.build' });
    const kind = h('select', { name: 'kind' }, h('option', { value: 'cron' }, 'cron'), h('option', { value: 'every' }, 'every (fixed rate)'));
    kind.value = base.every ? 'every' : 'cron';
    const expr = h('input', { name: 'expression', required: true, maxlength: 200, class: 'mono', value: base.every || base.cron || '', placeholder: '0 30 2 * * ?' });
    const zone = h('input', { name: 'zone', list: 'zones', value: base.zone || Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC' });
    const payload = h('textarea', { name: 'payload', rows: 4, class: 'mono' });
    payload.value = base.payload === undefined || base.payload === null ? '' : JSON.stringify(base.payload, null, 2);
    const overlap = h('select', { name: 'overlap' }, OVERLAPS.map((o) => h('option', { value: o }, o)));
    overlap.value = base.overlap || 'ALLOW';
    const misfire = h('input', { name: 'misfire', value: base.misfire || 'FIRE_ONCE_IF_LATE_BY_AT_MOST(5s)' });
    const attempts = h('input', { name: 'maxAttempts', type: 'number', min: 1, max: 100, value: base.maxAttempts || 1 });
    const preview = h('div', { id: 'schedule-preview', 'aria-live': 'polite' });
    const status = h('div', { id: 'schedule-save-status' });
    const handlers = h('datalist', { id: 'handler-names' });

    let seq = 0;
    let timer = null;
    const update = () => {
      clearTimeout(timer);
      timer = setTimeout(async () => {
        const mine = ++seq;
        const text = expr.value.trim();
        if (!text) {
          replace(preview, h('p', { class: 'muted' }, 'Type a cron expression or a rate to see its next fires.'));
          return;
        }
        const box = h('div');
        const q = { [kind.value]: text, zone: zone.value.trim() || 'UTC', count: 5 };
        try {
          await showPreview(ctx.api, box, q);
        } catch (err) {
          replace(box, errorBox(err));
        }
        if (mine === seq) replace(preview, box.childNodes.length ? [...box.childNodes] : null);
      }, 250);
    };
    [kind, expr, zone].forEach((el) => el.addEventListener('input', update));
    kind.addEventListener('change', update);

    const save = async (e) => {
      e.preventDefault();
      replace(status);
      const n = editing || name.value.trim();
      if (!NAME.test(n)) {
        replace(status, errorBox(new Error(`name: '${n}' must match [A-Za-z0-9][A-Za-z0-9._:-]{0,199}`)));
        return;
      }
      let body;
      try {
        body = { ...base, handler: handler.value.trim(), zone: zone.value.trim() || 'UTC', overlap: overlap.value, misfire: misfire.value.trim(), maxAttempts: Number(attempts.value) };
        body.payload = payload.value.trim() ? JSON.parse(payload.value) : null;
      } catch (err) {
        replace(status, errorBox(new Error(`payload: not JSON: ${err.message}`)));
        return;
      }
      delete body.cron;
      delete body.every;
      body[kind.value] = expr.value.trim();
      try {
        const a = await ctx.api.put(schedulePath(n), body);
        if (a.outcome === 'ignored') {
          replace(status, h('div', { class: 'notice' }, `Not saved: ${a.reason}`));
          return;
        }
        ctx.navigate(`#/schedules/${encodeURIComponent(n)}`);
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 401)) replace(status, errorBox(err));
      }
    };

    const form = h(
      'form',
      { id: 'schedule-form', class: 'form-grid', novalidate: true, onSubmit: save },
      field('Name', name, editing ? 'the name cannot change' : 'letters, digits and . _ : -'),
      field('Handler', handler),
      field('Trigger', kind),
      field('Expression', expr, 'cron: 5 fields, or 6–7 with seconds first (Quartz); every: 30s, 5m, 2h, 1d'),
      field('Zone', zone, 'time zone of the cron (IANA id)'),
      field('Overlap', overlap),
      field('Misfire', misfire),
      field('Max attempts', attempts),
      h('label', { class: 'form-field wide' }, h('span', null, 'Payload (JSON)'), payload),
      h('div', { class: 'actions wide' }, h('button', { type: 'submit', class: 'btn btn-primary', id: 'schedule-save' }, editing ? 'Save' : 'Create'), button('Cancel', () => ctx.navigate(editing ? `#/schedules/${encodeURIComponent(editing)}` : '#/schedules'))),
    );
    root.append(
      h('h1', null, editing ? `Edit schedule ${editing}` : 'New schedule'),
      h('div', { class: 'grid' }, card(null, form, status), card('Next fires', preview)),
      zones(),
      handlers,
    );
    update();
    ctx.api
      .get('/api/handlers')
      .then((r) => replace(handlers, (r.handlers || []).map((x) => h('option', { value: x.name }))))
      .catch((err) => console.warn('handler names unavailable', err));
    return () => clearTimeout(timer);
  },
};
