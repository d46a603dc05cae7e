export const APP_NAME = 'Edge Tracker';
/** From package.json at build time (web/vite.config.ts). */
export const APP_VERSION: string = __APP_VERSION__;
