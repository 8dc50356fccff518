// @ts-check
import { defineConfig } from 'astro/config';

/**
 * The catalog site's fixed settings. scripts/build.ts runs Astro programmatically after building
 * the registry and adds the site integration (src/site/integration/), which sets `site` and `base`
 * from the registry's `siteUrl` (sub-path hosting) and hands the pages the registry folder and
 * settings as the `virtual:skilldex/config` module; pages read the registry from disk at build
 * time (src/site/catalog/catalog.ts).
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
