// A placeholder for a page of the navigation that is not built yet.
import { h } from '../ui.js';

export function notYet(id, title, route) {
  return {
    id,
    title,
    route,
    render(root) {
      root.append(h('h1', null, title), h('p', { class: 'muted' }, `The ${title} page is not available yet.`));
    },
  };
}
