// The module ./virtual-config.ts serves to the pages during `npm run build`.
declare module 'virtual:skilldex/config' {
  const config: import('./config.ts').SiteBuildConfig;
  export default config;
}
