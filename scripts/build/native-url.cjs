// Stands in for whatwg-url in node-fetch 2.x (see scripts/build/plugins.mjs): node-fetch only
// reads `URL` from it, as a fallback for a Node without `url.URL`, which Node 20 always has.
exports.URL = require('node:url').URL
