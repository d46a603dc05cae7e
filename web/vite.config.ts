import { readFileSync } from 'node:fs';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/**
 * sonner injects its stylesheet as an inline <style> element, which the Content-Security-Policy
 * (style-src 'self', docs/decisions/040) refuses. Its injector is turned into a no-op here and
 * the same rules come from sonner/dist/styles.css, bundled into the app's stylesheet file.
 */
function sonnerStylesAsFile(): Plugin {
  return {
    name: 'sonner-styles-as-file',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]sonner[\\/]dist[\\/]index\.m?js$/.test(id)) return null;
      const patched = code.replace('function __insertCSS(code) {', 'function __insertCSS(code) {\n  return;');
      if (patched === code) throw new Error('sonner changed: its inline style injector was not found');
      return { code: patched, map: null };
    },
  };
}

/** version.json beside index.html: what the sidebar's upgrade check reads (spec 2 §2). */
function versionFile(): Plugin {
  return {
    name: 'version-file',
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: 'version.json',
        source: JSON.stringify({ version: pkg.version }),
      });
    },
  };
}

export default defineConfig({
  root: 'web',
  plugins: [sonnerStylesAsFile(), versionFile(), react()],
  define: { __APP_VERSION__: JSON.stringify(pkg.version) },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across releases.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router|cookie)[\\/]/ },
            { name: 'vendor', test: /node_modules[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    host: '127.0.0.1',
    proxy: { '/api': 'http://127.0.0.1:8787', '/sanctum': 'http://127.0.0.1:8787' },
  },
});
