/** The registry's config file, at its root (loaded by ./config.ts). */
export const CONFIG_FILE = 'skilldex.config.json';
