// Pieces shared by the schedule pages: links, fire outcomes, the next-fires preview. Runs on the
// page's main thread.
import { h, replace, time } from '../ui.js';

const OUTCOME_KIND = {
  RUNNING: 'info',
  QUEUED: 'neutral',
  SUCCEEDED: 'ok',
  FAILED: 'bad',
  DEAD: 'bad',
  CANCELLED: 'muted',
  SKIPPED: 'warn',
  MISFIRED: 'warn',
};

/** The hash link of a schedule's detail page. */
export function scheduleLink(name) {
  return h('a', { href: `#/schedules/${encodeURIComponent(name)}`, class: 'mono' }, name);
}

/** A fire's outcome as a badge, with the reason of a skipped or misfired fire. */
export function fireOutcome(f) {
  const kind = OUTCOME_KIND[f.outcome] || 'neutral';
  const b = h('span', { class: `badge badge-${kind}`, 'data-outcome': f.outcome }, f.outcome);
  return [b, f.reason ? h('span', { class: 'muted fire-reason' }, ` ${f.reason}`) : null];
}

/** The API path of a schedule. */
export function schedulePath(name, suffix = '') {
  return `/api/schedules/${encodeURIComponent(name)}${suffix}`;
}

/** The local date-time of an ISO offset date-time ("2027-03-28T03:00+02:00") for display. */
function local(text) {
  return text.replace('T', ' ');
}

/**
 * Fills box with the next fires of a trigger from GET /api/schedules/preview and its warnings (fires
 * that end early), or the error naming the bad field, as the API words it. Answers true when the
 * trigger is valid.
 */
export async function showPreview(api, box, query) {
  try {
    const p = await api.get('/api/schedules/preview', query);
    replace(
      box,
      h('div', { class: 'preview-ok', 'data-valid': 'true' }, `Valid; next ${p.nextFires.length} fires in ${p.zone}:`),
      h(
        'ol',
        { class: 'preview-fires', id: 'preview-fires' },
        p.nextFires.map((f) => h('li', null, h('span', { class: 'mono' }, local(f.local)), ' ', h('span', { class: 'muted' }, '(', time(f.at), ' here)'))),
      ),
      ...(p.warnings || []).map((w) => h('div', { class: 'preview-warn', role: 'status' }, w)),
    );
    return true;
  } catch (err) {
    if (err.status !== 400) throw err;
    replace(box, h('div', { class: 'error-box preview-bad', 'data-valid': 'false', role: 'alert' }, err.message));
    return false;
  }
}

/** epoch millis as YYYY-MM-DD HH:MM:SS in time zone zone (an IANA id), for fires in their zone. */
export function inZone(ms, zone) {
  try {
    return new Intl.DateTimeFormat('sv-SE', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }).format(new Date(ms));
  } catch {
    return new Date(ms).toISOString();
  }
}
