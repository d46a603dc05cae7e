/// <reference types="vite/client" />

/** package.json version, injected by web/vite.config.ts. */
declare const __APP_VERSION__: string;
