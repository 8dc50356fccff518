// @ts-check
import { defineConfig } from 'astro/config';

/**
 * The catalog site. scripts/build.ts runs Astro programmatically after staging the registry, and
 * passes the registry location and settings through SKILLDEX_* environment variables; pages read
 * the registry from disk at build time (src/site/lib/registry.ts).
 */
export default defineConfig({
  srcDir: './src/site',
  publicDir: './public',
  outDir: './dist',
  // Absolute URLs (canonical, OpenGraph, sitemap) need to know where the site is deployed.
  site: process.env.SKILLDEX_SITE_URL || undefined,
  trailingSlash: 'always',
  build: {
    format: 'directory',
    // Scripts and styles are plain files in public/assets; should a component ever add a <style>,
    // it still ships as a file so the Content-Security-Policy can keep forbidding inline styles.
    inlineStylesheets: 'never',
  },
  devToolbar: { enabled: false },
});
