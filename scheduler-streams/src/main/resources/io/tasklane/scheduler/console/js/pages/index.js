// The one list of the console's pages, in navigation order. A page module exports
//   { id, title, route: RegExp on the hash path (no leading '#/'), render(root, ctx), nav? }
// render fills root (an empty element), may be async and may return a cleanup function. ctx is
//   { api, role, params: URLSearchParams of the hash query, match: the route's match,
//     navigate(hash), can(role): signed-in role >= role,
//     refresh(fn, ms): live refresh, paused while the tab is hidden, cancelled on page change }.
// nav: false keeps a page (a detail page) out of the navigation bar; navId names the nav entry
// it highlights instead.
import overview from './overview.js';
import tasks from './tasks.js';
import task from './task.js';
import dead from './dead.js';
import schedules from './schedules.js';
import scheduleForm from './schedule-form.js';
import schedule from './schedule.js';
import workers from './workers.js';
import handler from './handler.js';
import limits from './limits.js';
import batches from './batches.js';
import reports from './reports.js';

export const pages = [
  overview,
  tasks,
  task,
  dead,
  schedules,
  scheduleForm,
  schedule,
  workers,
  handler,
  limits,
  batches,
  reports,
];
