#!/usr/bin/env node
// `node typescript/bin/omnimessage.mjs` in a checkout: the command line, written in TypeScript
// (src/cli/) and built into dist/cli/ by `npm run build`; the package's `bin` is dist/cli/main.js.
import "../dist/cli/main.js";
