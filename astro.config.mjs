// @ts-check
import { defineConfig } from 'astro/config';

/**
 * The catalog site. scripts/build.ts runs Astro programmatically after staging the registry, and
 * passes the registry location and settings through SKILLDEX_* environment variables; pages read
 * the registry from disk at build time (src/site/catalog/catalog.ts). It also passes `site` and
 * `base` (the path of `siteUrl`), which absolute URLs and sub-path hosting need.
 */
export default defineConfig({
  srcDir: './src/site',
  publicDir: './public',
  outDir: './dist',
  trailingSlash: 'always',
  build: {
    format: 'directory',
    // Scripts and styles are plain files in public/assets; should a component ever add a <style>,
    // it still ships as a file so the Content-Security-Policy can keep forbidding inline styles.
    inlineStylesheets: 'never',
  },
  devToolbar: { enabled: false },
});
