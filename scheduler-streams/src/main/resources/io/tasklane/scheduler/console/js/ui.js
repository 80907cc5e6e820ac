// DOM helpers. Every text goes in as a text node or an attribute value, never as HTML, so data
// from the API cannot inject markup (XSS-safe by construction). Runs on the page's main thread.

/**
 * Creates an element: h('a', {href: '#/tasks', class: 'x', onClick: fn}, 'text', child, [more]).
 * Attributes named on<Event> with a function become listeners; null, undefined and false are left
 * out; children may be nodes, strings, numbers or (nested) arrays of them.
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') {
      el.addEventListener(k.slice(2).toLowerCase(), v);
    } else if (k === 'class') {
      el.className = v;
    } else if (k === 'value') {
      el.value = v;
    } else if (k === 'dataset') {
      Object.assign(el.dataset, v);
    } else {
      el.setAttribute(k, v === true ? '' : String(v));
    }
  }
  append(el, children);
  return el;
}

/** Appends children (nodes, strings, numbers, arrays of them) as h() does. */
export function append(el, children) {
  for (const c of [children].flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** Removes every child of el and appends the new ones. */
export function replace(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

const STATE_KIND = {
  PENDING: 'neutral',
  WAITING: 'neutral',
  NO_HANDLER: 'warn',
  DISPATCHED: 'info',
  RETRYING: 'warn',
  SUCCEEDED: 'ok',
  DEAD: 'bad',
  CANCELLED: 'muted',
};

// Attempt outcomes, bulk job states and handler flags.
const OTHER_KIND = {
  FAILED: 'bad',
  PERMANENT_FAILURE: 'bad',
  TIMEOUT: 'warn',
  RETRY_LATER: 'warn',
  SLOT_MISSED: 'warn',
  RUNNING: 'info',
  DONE: 'ok',
  paused: 'warn',
  BLOCKED: 'bad',
  'RUN TIME': 'info',
  CONFIGURED: 'neutral',
};

/** The task states in lifecycle order. */
export const STATES = Object.keys(STATE_KIND);

/** A coloured badge for a task state (or any word: RUNNING, DONE, FAILED, paused...). */
export function badge(state) {
  const kind = STATE_KIND[state] || OTHER_KIND[state] || 'neutral';
  return h('span', { class: `badge badge-${kind}`, 'data-state': state }, state);
}

function pad(n) {
  return String(n).padStart(2, '0');
}

/** A local time (YYYY-MM-DD HH:MM:SS) in a <time> element with the ISO instant; '—' for none. */
export function time(epochMs) {
  if (!epochMs || epochMs <= 0) return h('span', { class: 'muted' }, '—');
  const d = new Date(epochMs);
  const text = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  return h('time', { datetime: d.toISOString(), title: d.toISOString() }, text);
}

/** A short duration: 840 ms, 3.2 s, 4 min, 2 h. */
export function duration(ms) {
  if (ms === null || ms === undefined || ms < 0) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}

/** A number with thousands separators. */
export function num(n) {
  return n === null || n === undefined ? '—' : Number(n).toLocaleString('en-US');
}

/**
 * A table: columns are {title, render(row) -> node|string, class?}; rows an array; empty the text
 * shown when there are no rows.
 */
export function table(columns, rows, empty = 'Nothing here.') {
  const head = h('thead', null, h('tr', null, columns.map((c) => h('th', { class: c.class }, c.title))));
  const body = h(
    'tbody',
    null,
    rows.length === 0
      ? h('tr', null, h('td', { colspan: columns.length, class: 'empty' }, empty))
      : rows.map((r) => h('tr', null, columns.map((c) => h('td', { class: c.class }, c.render(r))))),
  );
  return h('table', { class: 'table' }, head, body);
}

/** A titled card. */
export function card(title, ...children) {
  return h('section', { class: 'card' }, title ? h('h2', null, title) : null, children);
}

/** A button; kind is '', 'primary' or 'danger'. */
export function button(text, onClick, kind = '', attrs = {}) {
  return h('button', { type: 'button', class: `btn ${kind ? `btn-${kind}` : ''}`, onClick, ...attrs }, text);
}

/** A box saying what went wrong (the API's message). */
export function errorBox(err) {
  const status = err && err.status ? `${err.status} ${err.code || ''}: ` : '';
  return h('div', { class: 'error-box', role: 'alert' }, status + (err && err.message ? err.message : String(err)));
}

/** JSON pretty-printed in a <pre>. */
export function pre(value) {
  return h('pre', { class: 'code' }, JSON.stringify(value, null, 2));
}

/**
 * A modal asking to confirm text; resolves true when confirmed. Uses <dialog>, so focus and Escape
 * behave natively.
 */
export function confirmDialog(text, confirmLabel = 'Confirm', kind = 'primary') {
  return new Promise((resolve) => {
    const dialog = h('dialog', { class: 'dialog' });
    const done = (ok) => {
      dialog.close();
      dialog.remove();
      resolve(ok);
    };
    append(dialog, [
      h('p', { class: 'dialog-text' }, text),
      h(
        'div',
        { class: 'dialog-actions' },
        button('Cancel', () => done(false), '', { 'data-action': 'cancel' }),
        button(confirmLabel, () => done(true), kind, { 'data-action': 'confirm' }),
      ),
    ]);
    dialog.addEventListener('cancel', () => done(false));
    document.body.append(dialog);
    dialog.showModal();
  });
}

/** A short message in the corner for a few seconds; kind is 'ok', 'bad' or 'info'. */
export function toast(message, kind = 'info') {
  let box = document.getElementById('toasts');
  if (!box) {
    box = h('div', { id: 'toasts', 'aria-live': 'polite' });
    document.body.append(box);
  }
  const t = h('div', { class: `toast toast-${kind}` }, message);
  box.append(t);
  setTimeout(() => t.remove(), 5000);
}

/**
 * The hash link of a task's detail page; routingKey (a task's ordering or concurrency key, the key
 * its records live under) rides along when it is not the id.
 */
export function taskLink(id, text, routingKey) {
  const query = routingKey && routingKey !== id ? `?routingKey=${encodeURIComponent(routingKey)}` : '';
  return h('a', { href: `#/tasks/${encodeURIComponent(id)}${query}`, class: 'mono' }, text || id);
}

/** A datetime-local input value (local time) for epoch millis, or ''. */
export function toLocalInput(ms) {
  if (!ms) return '';
  const d = new Date(Number(ms));
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
