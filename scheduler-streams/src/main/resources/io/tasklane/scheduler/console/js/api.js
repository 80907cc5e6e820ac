// The operator API, the console's only way to the scheduler's state. JSON in and out; the session
// cookie (HttpOnly, set by POST /api/session) rides along; every request other than GET carries
// the session's CSRF token in X-CSRF-Token. Runs on the page's main thread.

/** A refused or failed API call: the HTTP status, the API's error code and its message. */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || `HTTP ${status}`);
    this.status = status;
    this.code = code || null;
  }
}

let csrf = null;
let unauthorized = () => {};

/** Remembers the CSRF token of the signed-in session (null after sign-out). */
export function setCsrf(token) {
  csrf = token || null;
}

/** Registers what happens on a 401 (the session expired or was signed out): the sign-in screen. */
export function onUnauthorized(fn) {
  unauthorized = fn;
}

function url(path, query) {
  const u = new URL(path.startsWith('/') ? path : `/api/${path}`, window.location.origin);
  for (const [k, v] of Object.entries(query || {})) {
    if (v !== undefined && v !== null && v !== '') u.searchParams.set(k, String(v));
  }
  return u;
}

const inFlight = new Set();

/**
 * Aborts every request still in flight (at sign-out: a page's refresh that reached the server after
 * the session ended would come back 401 and show the sign-in screen a second time). An aborted
 * request rejects with an ApiError of status 0 and code 'aborted'.
 */
export function abortAll() {
  inFlight.forEach((c) => c.abort());
  inFlight.clear();
}

async function request(method, path, query, body) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && csrf) headers['X-CSRF-Token'] = csrf;
  const controller = new AbortController();
  inFlight.add(controller);
  let res;
  let text;
  try {
    res = await fetch(url(path, query), {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: controller.signal,
    });
    text = await res.text();
  } catch (err) {
    if (err && err.name === 'AbortError') throw new ApiError(0, 'aborted', 'request aborted');
    throw err;
  } finally {
    inFlight.delete(controller);
  }
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { message: text };
  }
  if (!res.ok) {
    const signIn = method === 'POST' && path === '/api/session';
    if (res.status === 401 && !signIn) unauthorized();
    throw new ApiError(res.status, data && data.error, data && data.message);
  }
  return data;
}

/** api.get(path, query), api.post(path, body, query), api.put(path, body, query), api.del(path). */
export const api = {
  get: (path, query) => request('GET', path, query),
  post: (path, body, query) => request('POST', path, query, body),
  put: (path, body, query) => request('PUT', path, query, body),
  del: (path, query) => request('DELETE', path, query),
};
