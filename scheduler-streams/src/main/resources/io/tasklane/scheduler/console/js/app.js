// The console's shell: sign-in, navigation, themes and the hash router that renders one page at a
// time (page contract: js/pages/index.js). Runs on the page's main thread.
import { abortAll, api, ApiError, onUnauthorized, setCsrf } from './api.js';
import { button, errorBox, h, replace } from './ui.js';
import { pages } from './pages/index.js';

const ROLES = ['viewer', 'operator', 'admin'];
const THEME_KEY = 'tasklane.theme';
const app = document.getElementById('app');

let session = null; // {name, role, csrf}
let current = null; // {cleanup, timers, generation}
let generation = 0;

// ---- themes: prefers-color-scheme unless the toggle chose one (kept in localStorage) ----
function applyTheme() {
  const chosen = localStorage.getItem(THEME_KEY);
  const dark = chosen ? chosen === 'dark' : window.matchMedia('(prefers-color-scheme: dark)').matches;
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}

function toggleTheme() {
  const next = document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark';
  localStorage.setItem(THEME_KEY, next);
  applyTheme();
  window.dispatchEvent(new Event('tasklane-theme'));
}

// ---- sign-in and sign-out ----
function signInScreen(message) {
  stopPage();
  session = null;
  setCsrf(null);
  const input = h('input', {
    id: 'token',
    type: 'password',
    name: 'token',
    autocomplete: 'current-password',
    placeholder: 'API token',
    required: true,
    maxlength: 1000,
  });
  const status = h('div', { class: 'signin-status', role: 'status' }, message || '');
  const form = h(
    'form',
    { class: 'signin card', id: 'signin' },
    h('h1', null, 'Tasklane'),
    h('p', { class: 'muted' }, 'Sign in with an API token (tasklane.scheduler.api.tokens).'),
    h('label', { for: 'token' }, 'Token'),
    input,
    h('button', { type: 'submit', class: 'btn btn-primary', id: 'signin-submit' }, 'Sign in'),
    status,
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    replace(status);
    try {
      const s = await api.post('/api/session', { token: input.value });
      input.value = '';
      start(s);
    } catch (err) {
      replace(status, errorBox(err));
    }
  });
  replace(app, h('main', { class: 'signin-page' }, form));
  input.focus();
}

async function signOut() {
  stopPage();
  generation++;
  abortAll();
  try {
    await api.del('/api/session');
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 401)) throw err;
  }
  window.location.hash = '';
  signInScreen('Signed out.');
}

// ---- the shell ----
function can(role) {
  return session !== null && ROLES.indexOf(session.role) >= ROLES.indexOf(role);
}

function shell() {
  const nav = h(
    'nav',
    { class: 'nav', 'aria-label': 'Pages' },
    pages.filter((p) => p.nav !== false).map((p) => h('a', { href: `#/${p.id}`, 'data-page': p.id }, p.title)),
  );
  const header = h(
    'header',
    { class: 'topbar' },
    h('a', { class: 'brand', href: '#/overview' }, 'Tasklane'),
    nav,
    h('span', { class: 'spacer' }),
    h('span', { class: 'who', id: 'who' }, session.name, ' ', h('span', { class: 'role' }, session.role)),
    button('Theme', toggleTheme, '', { id: 'theme-toggle', title: 'Switch light/dark theme' }),
    button('Sign out', () => signOut().catch((e) => showError(e)), '', { id: 'signout' }),
  );
  replace(app, header, h('main', { id: 'page', class: 'page' }));
}

function showError(err) {
  const page = document.getElementById('page');
  if (page) replace(page, errorBox(err));
}

function start(s) {
  session = { name: s.name, role: s.role };
  setCsrf(s.csrf);
  shell();
  route();
}

// ---- the router ----
function stopPage() {
  if (!current) return;
  current.timers.forEach((t) => t.cancel());
  if (typeof current.cleanup === 'function') {
    try {
      current.cleanup();
    } catch (e) {
      console.warn('page cleanup failed', e);
    }
  }
  current = null;
}

/** A live refresh: fn every ms while the tab is visible; cancelled on page change. */
function liveRefresh(fn, ms, gen) {
  let busy = false;
  const tick = async () => {
    if (busy || document.visibilityState !== 'visible' || gen !== generation) return;
    busy = true;
    try {
      await fn();
    } catch (err) {
      const quiet = err instanceof ApiError && (err.status === 401 || err.code === 'aborted');
      if (!quiet) console.warn('refresh failed', err);
    } finally {
      busy = false;
    }
  };
  const id = setInterval(tick, ms);
  const onVisible = () => document.visibilityState === 'visible' && tick();
  document.addEventListener('visibilitychange', onVisible);
  return {
    cancel() {
      clearInterval(id);
      document.removeEventListener('visibilitychange', onVisible);
    },
  };
}

function parseHash() {
  const raw = window.location.hash.replace(/^#\/?/, '');
  const q = raw.indexOf('?');
  const path = decodeURI(q < 0 ? raw : raw.slice(0, q));
  return { path, params: new URLSearchParams(q < 0 ? '' : raw.slice(q + 1)) };
}

async function route() {
  if (!session) return;
  const { path, params } = parseHash();
  if (path === '') {
    window.location.replace('#/overview');
    return;
  }
  stopPage();
  const gen = ++generation;
  const page = pages.find((p) => p.route.test(path));
  const main = document.getElementById('page');
  document.querySelectorAll('.nav a').forEach((a) => {
    a.classList.toggle('active', page !== undefined && a.dataset.page === (page.navId || page.id));
  });
  const root = h('div', { class: 'page-root', 'data-page': page ? page.id : 'none' });
  replace(main, root);
  current = { cleanup: null, timers: [] };
  if (!page) {
    replace(root, h('h1', null, 'Not found'), h('p', null, `No page for #/${path}.`));
    root.dataset.ready = 'true';
    return;
  }
  document.title = `${page.title} · Tasklane`;
  const ctx = {
    api,
    role: session.role,
    params,
    match: path.match(page.route),
    navigate: (hash) => {
      window.location.hash = hash.startsWith('#') ? hash : `#${hash}`;
    },
    can,
    refresh: (fn, ms) => {
      if (gen === generation && current) current.timers.push(liveRefresh(fn, ms, gen));
    },
  };
  try {
    const cleanup = await page.render(root, ctx);
    if (gen !== generation) {
      if (typeof cleanup === 'function') cleanup();
      return;
    }
    current.cleanup = cleanup;
    root.dataset.ready = 'true';
    performance.mark(`tasklane:ready:${page.id}`);
  } catch (err) {
    if (gen !== generation) return;
    if (err instanceof ApiError && err.status === 401) return; // the sign-in screen is up
    root.append(errorBox(err));
    root.dataset.ready = 'true';
  }
}

// ---- boot ----
applyTheme();
window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', applyTheme);
onUnauthorized(() => signInScreen(session ? 'Your session ended; sign in again.' : ''));
window.addEventListener('hashchange', route);

api
  .get('/api/session')
  .then(start)
  .catch((err) => {
    if (!(err instanceof ApiError && err.status === 401)) signInScreen(err.message);
  });
