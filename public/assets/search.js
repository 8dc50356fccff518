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
//
// Pagefind matches a query word by the indexed words it begins (`revi` finds `review`), and when no
// indexed word begins with it, by the longest indexed word it begins with: in the Japanese index,
// which holds `Re` (from "Re:") but no `review`, "review" finds the Japanese email skill, and the
// typo "reviw" finds `re-type` in the English one. Those guesses are dropped here (see
// dropGuesses), so a query either finds the word or finds nothing, and a query that finds nothing
// is corrected by one edit to a word of the catalog's names, titles, tags and categories
// (`search-words.json`, fetched only then): "reviw" shows the results for "review".

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
/** The languages of the indexes the search merges (Pagefind's entry file names them). */
let languages = [];

// One shared promise: the first keystroke and the first focus both ask for the index, and a
// search must not start before every language has been merged.
function load() {
  loading ??= (async () => {
    const pagefind = await import(`${BUNDLE}pagefind.js`);
    await pagefind.options({ basePath: BUNDLE, baseUrl: BASE, excerptLength: 24 });
    await pagefind.init();
    const entry = await (await fetch(`${BUNDLE}pagefind-entry.json`)).json();
    languages = Object.keys(entry.languages || {});
    const primary = (document.documentElement.lang || 'unknown').toLowerCase();
    const absolute = new URL(BUNDLE, location.href).href;
    for (const language of languages) {
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
// only text and <mark> across, so nothing else from a skill's text can become markup. Chinese and
// Japanese text is indexed word by word with nothing between the words, so one matched term can
// come as several marks in a row (校对 as 校 and 对): marks that touch become one.
function excerptNodes(html) {
  const doc = new DOMParser().parseFromString(`<p>${html}</p>`, 'text/html');
  const nodes = [];
  for (const node of doc.body.firstChild ? doc.body.firstChild.childNodes : []) {
    const text = node.textContent || '';
    const last = nodes.at(-1);
    if (node.nodeName === 'MARK' && last && last.nodeName === 'MARK') {
      last.textContent += text;
    } else if (node.nodeName === 'MARK') {
      const mark = document.createElement('mark');
      mark.textContent = text;
      nodes.push(mark);
    } else if (text) {
      nodes.push(document.createTextNode(text));
    }
  }
  return nodes;
}

function sameOriginPath(url) {
  const parsed = new URL(url, location.href);
  return parsed.origin === location.origin ? parsed.pathname : BASE;
}

// Words in scripts written without spaces are cut into words differently when indexed and when
// typed (校对 is typed as one word and indexed as 校 and 对); Pagefind's matching is left alone there.
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;
// Shorter words are not corrected: a four-letter word one edit from a catalog word is more often
// another real word than a typo (`node` is not `code`, `bash` is not `hash`).
const MIN_CORRECTED_LENGTH = 5;

/** Lower case without diacritics, as Pagefind compares words (`Café` → `cafe`). */
function fold(text) {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The query's words in scripts written with spaces, as Pagefind reads them (punctuation dropped). */
function spacedWords(query) {
  return fold(query)
    .split(/\s+/)
    .map((word) => word.replace(/[^\p{L}\p{N}_]/gu, ''))
    .filter((word) => word && !UNSPACED.test(word));
}

/**
 * The words Pagefind marked as hits in a result, each in the forms a query word may begin
 * (`re-type` → `retype`, `re`, `type`). Pagefind's locations count the page's words as its excerpts
 * do: split at zero-width spaces in Chinese and Japanese pages, at white space elsewhere.
 */
function markedForms(fragment) {
  const text = fragment.raw_content || '';
  const words = text.includes('\u200B') ? text.split('\u200B') : text.split(/[^\S\uFEFF]+/);
  return (fragment.locations || []).flatMap((at) => {
    const parts = fold(words[at] || '').split(/[^\p{L}\p{N}_]+/u).filter(Boolean);
    return [parts.join(''), ...parts];
  });
}

const fragments = new WeakMap();
/** A result's fragment (text, excerpt, filters), fetched once however often it is asked for. */
function fragmentOf(result) {
  if (!fragments.has(result)) fragments.set(result, result.data());
  return fragments.get(result);
}

/** The language of the index a result came from: Pagefind names each page by it (`ja_4f1c2d0`). */
function languageOf(result) {
  return String(result.id).split('_')[0];
}

/**
 * Drops the results of every language whose index only guessed at one of the query's words: its
 * best result has no marked word that begins with the query word, and its index does not hold
 * the word itself either (an exact search, which compares stems, so `reviews` still counts as
 * found where the page says `review`). One result per language is enough to ask: within one
 * index, Pagefind either finds a word or guesses it, for every page alike.
 */
async function dropGuesses(pf, search, query, filters) {
  const words = spacedWords(query);
  if (words.length === 0 || search.results.length === 0) return search;
  // Each language's best result is found by its id's prefix: a language without results means a
  // scan of the whole list (8,120 results for "every" over 10,000 skills), where splitting every
  // id made 16,000 strings and arrays on the page's thread (~5 ms in a trace, plus their garbage).
  const best = new Map();
  for (const language of languages) {
    const result = search.results.find((r) => r.id.startsWith(`${language}_`));
    if (result) best.set(language, result);
  }
  const unmarked = new Map();
  await Promise.all(
    [...best].map(async ([language, result]) => {
      const forms = markedForms(await fragmentOf(result));
      for (const word of words) {
        if (!forms.some((form) => form.startsWith(word))) unmarked.set(word, [...(unmarked.get(word) || []), language]);
      }
    }),
  );
  const guessed = new Set();
  for (const [word, languages] of unmarked) {
    const asked = languages.filter((language) => !guessed.has(language));
    if (asked.length === 0) continue;
    const exact = await pf.search(`"${word}"`, { filters: { lang: { any: asked } } });
    const holding = new Set(exact.results.map(languageOf));
    for (const language of asked) if (!holding.has(language)) guessed.add(language);
  }
  if (guessed.size === 0) return search;
  if (guessed.size === best.size) return { ...search, results: [], filters: {} };
  // The filter counts add up every index Pagefind searched; only a search without the dropped
  // ones counts right. Without counts on screen, leaving their results out is enough.
  if (countsWanted) return pf.search(query, { filters: { ...filters, lang: { none: [...guessed] } } });
  return { ...search, results: search.results.filter((result) => !guessed.has(languageOf(result))) };
}

async function searchPages(pf, query, filters) {
  const search = await pf.search(query || null, { filters });
  // The first results' fragments are needed to show them anyway: fetch them while the guesses
  // are checked, not after.
  search.results.slice(0, FIRST_SHOWN).forEach(fragmentOf);
  return dropGuesses(pf, search, query, filters);
}

let wordsLoading;
/** The catalog's own words (search-words.json) with how many skills use each, fetched on the first miss. */
function catalogWords() {
  wordsLoading ??= fetch(`${BASE}search-words.json`)
    .then((response) => (response.ok ? response.json() : { words: {} }))
    .then((file) => file.words || {})
    .catch(() => {
      wordsLoading = undefined;
      return {};
    });
  return wordsLoading;
}

/** Whether `b` is `a` with one letter added, dropped or changed, or two neighbouring letters swapped. */
function oneEditApart(a, b) {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    return a.slice(i + 1) === b.slice(i + 1) || (a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2));
  }
  const [shorter, longer] = a.length < b.length ? [a, b] : [b, a];
  return shorter.slice(i) === longer.slice(i + 1);
}

/**
 * A query that found nothing, with each word that finds nothing on its own and is not one of the
 * catalog's words replaced by the catalog's word one edit away that most skills use; undefined
 * when no word changes.
 */
async function correction(pf, query, filters) {
  const known = await catalogWords();
  let changed = false;
  const terms = [];
  for (const term of query.split(/\s+/)) {
    const word = fold(term);
    let best;
    if (word.length >= MIN_CORRECTED_LENGTH && !UNSPACED.test(word) && !Object.hasOwn(known, word)) {
      for (const candidate in known) if (oneEditApart(word, candidate) && (best === undefined || known[candidate] > known[best])) best = candidate;
    }
    if (best !== undefined && (await searchPages(pf, term, filters)).results.length === 0) {
      terms.push(best);
      changed = true;
    } else {
      terms.push(term);
    }
  }
  return changed ? terms.join(' ') : undefined;
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
  let search = await searchPages(pf, query, filters);
  let answered = query;
  if (search.results.length === 0 && query && id === latest) {
    const better = await correction(pf, query, filters);
    const retried = better === undefined ? undefined : await searchPages(pf, better, filters);
    if (retried && retried.results.length > 0) {
      search = retried;
      answered = better;
    }
  }
  if (id !== latest) return;
  if (listing) listing.hidden = true;
  section.hidden = false;
  if (countsWanted) showCounts(search.filters || {});
  // The first few results are shown as soon as their fragments arrive; the rest follow. On a
  // common term over 10,000 skills, waiting for all 20 fragments cost a fifth of a second more.
  const first = await Promise.all(search.results.slice(0, FIRST_SHOWN).map(fragmentOf));
  if (id !== latest) return;
  // Marks only a complete list: tests (and styles) tell fresh results from stale ones by it.
  delete list.dataset.query;
  delete list.dataset.answered;
  delete list.dataset.filters;
  list.replaceChildren(...first.map(resultItem));
  root.classList.toggle('has-results', true);
  const n = search.results.length;
  const matches = `${n} ${n === 1 ? 'skill matches' : 'skills match'}`;
  const showing = n > MAX_SHOWN ? `, showing the best ${MAX_SHOWN}` : '';
  if (n === 0) status.textContent = 'No skills match.';
  else if (answered !== query) status.textContent = `No skill matches “${query}”; ${matches} “${answered}”${showing}.`;
  else status.textContent = `${matches}${showing}.`;
  const rest = await Promise.all(search.results.slice(FIRST_SHOWN, MAX_SHOWN).map(fragmentOf));
  if (id !== latest) return;
  list.append(...rest.map(resultItem));
  list.dataset.query = query;
  list.dataset.answered = answered;
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

// A search starts as the reader types, with no pause to wait for the typing to stop: Pagefind
// cannot cancel a search, so at most one runs at a time, and whatever is typed meanwhile is
// searched as one query once it ends (a search already running stops as soon as its results are
// stale). On a common word over 10,000 skills this shows the first result ~150 ms sooner than
// waiting 150 ms for a pause did, and typing letter by letter is no slower.
let running;
let pending = false;
function search() {
  if (running) {
    pending = true;
    latest++;
    return;
  }
  running = run()
    .catch(report)
    .finally(() => {
      running = undefined;
      if (pending) {
        pending = false;
        search();
      }
    });
}

function typed() {
  // While a search runs, Pagefind already fetches and unpacks the index chunks the next query
  // needs (and sets up its word segmenters).
  const query = input.value.trim();
  if (query && loading) loading.then((pf) => pf.preload(query, { filters: currentFilters() })).catch(() => {});
  search();
}

function report(error) {
  status.textContent = 'Search is unavailable right now.';
  console.warn('search failed', error);
}

// A filter change is a step Back can undo; typing only updates the current entry.
function filterChanged() {
  countsWanted = true;
  history.pushState(null, '', stateUrl());
  search();
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
  search();
});
input.addEventListener('input', () => {
  history.replaceState(null, '', stateUrl());
  typed();
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
  search();
});
// Load the index when the reader shows interest, not on every page view.
root.addEventListener('focusin', () => load().catch(report), { once: true });
restoreFromUrl();
if (location.search) search();
