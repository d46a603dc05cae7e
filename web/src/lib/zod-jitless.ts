import { z } from 'zod';

// zod probes `new Function('')` to decide whether to compile fast parsers; under the page's
// Content-Security-Policy (script-src 'self', no 'unsafe-eval': docs/decisions/040) that probe
// is a reported violation. Jitless parsing is the same validation without the probe. Imported
// first by main.tsx, before any schema parses.
z.config({ jitless: true });
