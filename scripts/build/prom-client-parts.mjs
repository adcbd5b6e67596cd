// Stands in for prom-client's index.js (see scripts/build/plugins.mjs): the parts machine-api
// uses, each from its own file. The default process metrics load on their first collection.

export { default as Counter } from 'prom-client/lib/counter.js'
export { default as Gauge } from 'prom-client/lib/gauge.js'
export { default as Histogram } from 'prom-client/lib/histogram.js'
export { default as Registry } from 'prom-client/lib/registry.js'

export function collectDefaultMetrics(config) {
  return require('prom-client/lib/defaultMetrics.js')(config)
}
