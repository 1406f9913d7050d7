import * as z from 'zod';

// The panel's CSP allows no eval, so zod's compiled parsers (`new Function`) are off here. Imported first by
// main.ts: zod probes for eval when the first object schema is built, and under a strict CSP even that
// caught probe is reported as a violation (a `securitypolicyviolation` and a console error).
z.config({ jitless: true });
