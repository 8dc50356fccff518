// Catalog search on top of Pagefind's JavaScript API.
//
// Pagefind writes one index per page language (<html lang>) and a page normally searches only
// the index of its own language. Skill pages are tagged en, zh or ja so each language is segmented
// properly; this script then merges every other language's index into the one search, so a Chinese
// query typed on the English home page still finds the Chinese skill. Pagefind skips a mergeIndex
// whose path is a prefix of the primary bundle's path, so the same bundle is merged through its
// absolute URL with an explicit `language`.
//
// Results are rendered with DOM APIs only (textContent), never innerHTML: titles and excerpts
// come from skill authors.
//
// One search, one list: the query and any combination of filters (the selects, or the facet
// links of the sidebar, which then combine instead of navigating) narrow the one result list; the
// static listing steps aside while a search is active. The state lives in the address bar
// (?q=…&category=…), so a search can be shared and Back returns to the previous one. Once the
// reader uses a filter, Pagefind's filter index is loaded and every option shows how many skills
// it would leave; until then plain searches skip that cost.
//
// The site may live under a sub-path (https://user.github.io/repo/): the page names its base path
// on <html data-base>, and both the Pagefind bundle and the result URLs sit under it.

const BASE = document.documentElement.dataset.base || '/';
const BUNDLE = `${BASE}pagefind/`;
const root = document.getElementById('search');
const FIRST_SHOWN = 5;
const MAX_SHOWN = 20;
const input = document.getElementById('search-input');
const status = document.getElementById('search-status');
const list = document.getElementById('search-results');
const selects = [...document.querySelectorAll('select[data-filter]')];
// The page's static listing (All skills, paginated) and the section the results take its place in.
const listing = document.querySelector('.catalog > .results:not(.search-section)');
const section = document.getElementById('search-section');
const facetLinks = [...document.querySelectorAll('.facets a[data-facet]')];
let countsWanted = false;

let loading;
let latest = 0;

// One shared promise: the first keystroke and the first focus both ask for the index, and a
// search must not start before every language has been merged.
function load() {
  loading ??= (async () => {
    const pagefind = await import(`${BUNDLE}pagefind.js`);
    await pagefind.options({ basePath: BUNDLE, baseUrl: BASE, excerptLength: 24 });
    await pagefind.init();
    const entry = await (await fetch(`${BUNDLE}pagefind-entry.json`)).json();
    const primary = (document.documentElement.lang || 'unknown').toLowerCase();
    const absolute = new URL(BUNDLE, location.href).href;
    for (const language of Object.keys(entry.languages || {})) {
      if (language !== primary) await pagefind.mergeIndex(absolute, { language, basePath: BUNDLE, baseUrl: BASE });
    }
    return pagefind;
  })();
  return loading;
}

// The state as the address bar holds it: `q` and one parameter per filter.
function stateUrl() {
  const params = new URLSearchParams();
  const query = input.value.trim();
  if (query) params.set('q', query);
  for (const [key, value] of Object.entries(currentFilters())) params.set(key, value);
  const search = params.toString();
  return `${location.pathname}${search ? `?${search}` : ''}${location.hash}`;
}

function restoreFromUrl() {
  const params = new URLSearchParams(location.search);
  input.value = params.get('q') || '';
  for (const select of selects) {
    const wanted = params.get(select.dataset.filter) || '';
    select.value = [...select.options].some((o) => o.value === wanted) ? wanted : '';
  }
  if (Object.keys(currentFilters()).length > 0) countsWanted = true;
}

// Each option says how many skills it would leave with the current query and other filters.
function showCounts(counts) {
  for (const select of selects) {
    const byValue = counts[select.dataset.filter] || {};
    for (const option of select.options) {
      if (!option.value) continue;
      option.textContent = `${option.value} (${byValue[option.value] || 0})`;
    }
  }
  for (const link of facetLinks) {
    const value = link.querySelector('.facet-value');
    const count = link.querySelector('.count');
    if (value && count) count.textContent = String((counts[link.dataset.facet] || {})[value.textContent] || 0);
  }
}

function resetCounts() {
  for (const select of selects) for (const option of select.options) if (option.dataset.total) option.textContent = option.dataset.total;
  for (const link of facetLinks) {
    const count = link.querySelector('.count');
    if (count && count.dataset.total) count.textContent = count.dataset.total;
  }
}

function currentFilters() {
  const filters = {};
  for (const select of selects) if (select.value) filters[select.dataset.filter] = select.value;
  return filters;
}

// Pagefind excerpts are HTML with <mark> around hits. Parse them in an inert document and copy
// only text and <mark> across, so nothing else from a skill's text can become markup.
function excerptNodes(html) {
  const doc = new DOMParser().parseFromString(`<p>${html}</p>`, 'text/html');
  const nodes = [];
  for (const node of doc.body.firstChild ? doc.body.firstChild.childNodes : []) {
    if (node.nodeName === 'MARK') {
      const mark = document.createElement('mark');
      mark.textContent = node.textContent;
      nodes.push(mark);
    } else {
      nodes.push(document.createTextNode(node.textContent || ''));
    }
  }
  return nodes;
}

function sameOriginPath(url) {
  const parsed = new URL(url, location.href);
  return parsed.origin === location.origin ? parsed.pathname : BASE;
}

async function run() {
  const query = input.value.trim();
  const filters = currentFilters();
  const id = ++latest;
  for (const link of facetLinks) {
    const value = link.querySelector('.facet-value');
    if (value && filters[link.dataset.facet] === value.textContent) link.setAttribute('aria-current', 'true');
    else link.removeAttribute('aria-current');
  }
  if (!query && Object.keys(filters).length === 0) {
    list.replaceChildren();
    status.textContent = '';
    root.classList.remove('has-results');
    if (listing) listing.hidden = false;
    section.hidden = true;
    resetCounts();
    return;
  }
  const pf = await load();
  // Loading the filter index makes every later search count values over all its results.
  if (countsWanted) await pf.filters();
  const search = await pf.search(query || null, { filters });
  if (id !== latest) return;
  if (listing) listing.hidden = true;
  section.hidden = false;
  if (countsWanted) showCounts(search.filters || {});
  // The first few results are shown as soon as their fragments arrive; the rest follow. On a
  // common term over 10,000 skills, waiting for all 20 fragments cost a fifth of a second more.
  const first = await Promise.all(search.results.slice(0, FIRST_SHOWN).map((r) => r.data()));
  if (id !== latest) return;
  // Marks only a complete list: tests (and styles) tell fresh results from stale ones by it.
  delete list.dataset.query;
  delete list.dataset.filters;
  list.replaceChildren(...first.map(resultItem));
  root.classList.toggle('has-results', true);
  const n = search.results.length;
  status.textContent = n === 0 ? 'No skills match.' : `${n} ${n === 1 ? 'skill matches' : 'skills match'}${n > MAX_SHOWN ? `, showing the best ${MAX_SHOWN}` : ''}.`;
  const rest = await Promise.all(search.results.slice(FIRST_SHOWN, MAX_SHOWN).map((r) => r.data()));
  if (id !== latest) return;
  list.append(...rest.map(resultItem));
  list.dataset.query = query;
  list.dataset.filters = JSON.stringify(filters);
}

function resultItem(data) {
  const li = document.createElement('li');
  li.className = 'search-result';
  const h = document.createElement('h3');
  const a = document.createElement('a');
  a.href = sameOriginPath(data.url);
  a.textContent = (data.meta && data.meta.title) || data.url;
  h.append(a);
  const p = document.createElement('p');
  p.append(...excerptNodes(data.excerpt || ''));
  const facts = document.createElement('p');
  facts.className = 'search-facts';
  const filters = data.filters || {};
  facts.textContent = ['category', 'format', 'mode'].flatMap((key) => filters[key] || []).join(' · ');
  li.append(h, p, facts);
  return li;
}

let timer;
function schedule() {
  clearTimeout(timer);
  timer = setTimeout(() => run().catch(report), 150);
}

function report(error) {
  status.textContent = 'Search is unavailable right now.';
  console.warn('search failed', error);
}

// A filter change is a step Back can undo; typing only updates the current entry.
function filterChanged() {
  countsWanted = true;
  history.pushState(null, '', stateUrl());
  run().catch(report);
}

for (const select of selects) for (const option of select.options) option.dataset.total = option.textContent;
for (const link of facetLinks) {
  const count = link.querySelector('.count');
  if (count) count.dataset.total = count.textContent;
}

root.hidden = false;
root.querySelector('form').addEventListener('submit', (event) => {
  event.preventDefault();
  history.replaceState(null, '', stateUrl());
  run().catch(report);
});
input.addEventListener('input', () => {
  history.replaceState(null, '', stateUrl());
  schedule();
});
for (const select of selects) {
  select.addEventListener('change', filterChanged);
  select.addEventListener('focus', () => (countsWanted = true), { once: true });
}
// On this page the sidebar's facet links toggle a filter, so they combine with the query and
// with each other; a modified click (new tab) still opens the facet's own page.
for (const link of facetLinks) {
  link.addEventListener('click', (event) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const select = selects.find((s) => s.dataset.filter === link.dataset.facet);
    const value = link.querySelector('.facet-value')?.textContent;
    if (!select || !value || ![...select.options].some((o) => o.value === value)) return;
    event.preventDefault();
    select.value = select.value === value ? '' : value;
    filterChanged();
  });
}
window.addEventListener('popstate', () => {
  restoreFromUrl();
  run().catch(report);
});
// Load the index when the reader shows interest, not on every page view.
root.addEventListener('focusin', () => load().catch(report), { once: true });
restoreFromUrl();
if (location.search) run().catch(report);
