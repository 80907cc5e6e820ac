// Schedules: every schedule (the API's pages, followed to the end up to 1,000) with its handler,
// state, next fire and last fire's outcome; admins get "New schedule". Refreshes every 5 s while
// the tab is visible. Runs on the page's main thread.
import { badge, button, card, h, replace, table, time } from '../ui.js';
import { fireOutcome, scheduleLink } from './schedule-parts.js';

const MAX_PAGES = 20;

async function allSchedules(api) {
  const out = [];
  let cursor = null;
  let partial = false;
  for (let i = 0; i < MAX_PAGES; i++) {
    const page = await api.get('/api/schedules', { limit: 50, cursor });
    out.push(...(page.schedules || []));
    partial = partial || page.partial === true;
    cursor = page.nextCursor;
    if (!cursor) break;
  }
  return { schedules: out, partial };
}

export default {
  id: 'schedules',
  title: 'Schedules',
  route: /^schedules$/,
  async render(root, ctx) {
    const list = card(null);
    list.id = 'schedule-list';
    const note = h('div');
    root.append(
      h(
        'div',
        { class: 'page-head' },
        h('h1', null, 'Schedules'),
        ctx.can('admin') ? button('New schedule', () => ctx.navigate('#/new-schedule'), 'primary', { id: 'schedule-new' }) : null,
      ),
      note,
      list,
    );

    const load = async () => {
      const { schedules, partial } = await allSchedules(ctx.api);
      replace(note, partial ? h('div', { class: 'notice' }, 'Some scheduler instances did not answer: the list may be incomplete.') : null);
      replace(
        list,
        table(
          [
            { title: 'Name', render: (s) => scheduleLink(s.name) },
            { title: 'Handler', render: (s) => s.handler },
            { title: 'State', render: (s) => badge(s.paused ? 'PAUSED' : 'ACTIVE') },
            { title: 'Next fire', render: (s) => time(s.nextFireAt) },
            { title: 'Last fire', render: (s) => (s.lastFire ? time(s.lastFire.fireAt) : '—') },
            { title: 'Outcome', render: (s) => (s.lastFire ? fireOutcome(s.lastFire) : h('span', { class: 'muted' }, 'never fired')) },
            { title: 'Origin', render: (s) => h('span', { class: 'muted' }, s.origin || '—') },
          ],
          schedules,
          'No schedules.',
        ),
      );
    };
    await load();
    ctx.refresh(load, 5000);
  },
};
