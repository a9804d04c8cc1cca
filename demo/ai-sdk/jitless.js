// Imported first by the page: zod 4 probes `new Function` once to choose its fast path, and the
// example's CSP (default-src 'self', no 'unsafe-eval') reports that probe as a violation even though
// zod catches it. Jitless, zod never probes (`ai` parses its stream parts with zod, through the same
// global config).
import { config } from 'zod/mini';

config({ jitless: true });
