import { defineRule } from './rule.ts';

/**
 * The most tags one skill may declare. Every distinct tag gets a page of the catalog (and its
 * listing pages), so one skill with 16,000 tags in its 64 KB of frontmatter made a site of
 * 33,000 pages and 450 MB that took two minutes to build: past what GitHub Pages publishes, so
 * the other skills' site was not deployed either. 32 is far more than a reader can scan on a card.
 */
export const MAX_TAGS = 32;

export const tagsTooMany = defineRule({
  id: 'tags/too-many',
  severity: 'error',
  scope: 'declaration',
  description: `A skill declares at most ${MAX_TAGS} tags; each distinct tag is a page of the catalog site.`,
  hint: `keep the ${MAX_TAGS} or fewer tags a reader would look the skill up by; the description and the body are searched too`,
  check({ data }, report) {
    if (Array.isArray(data.tags) && data.tags.length > MAX_TAGS) report(['tags'], `${data.tags.length} tags; at most ${MAX_TAGS} are allowed`);
  },
});
