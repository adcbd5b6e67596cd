// esbuild plugins that keep code the functions never run out of what they load at start. Each
// relies on a property of an exactly pinned package that test/unit/cli/build-plugins.test.ts
// checks against the installed source, so an upgrade that breaks it fails the unit tests.
import { fileURLToPath } from 'node:url'

const here = (file) => fileURLToPath(new URL(file, import.meta.url))

/**
 * client-node's dist/config.js (KubeConfig) imports `createConfiguration` and `ServerConfiguration`
 * from dist/gen/index.js, which also re-exports every generated model and API class (about 440
 * KiB, evaluated at start because the package does not declare itself side-effect free). Config
 * gets a module exporting just those two from their own files; esbuild fails the build if config.js
 * ever imports a name it does not export. Importers other than config.js (the package index, used
 * by the webhook's MachineClass lookup) still get the whole dist/gen/index.js.
 */
export const clientNodeConfigImports = {
  name: 'client-node-config-imports',
  setup(build) {
    build.onResolve({ filter: /^\.\/gen\/index\.js$/ }, (args) =>
      /[\\/]@kubernetes[\\/]client-node[\\/]dist[\\/]config\.js$/.test(args.importer)
        ? { path: here('./client-node-config-imports.mjs') }
        : undefined,
    )
  },
}

/**
 * prom-client's index.js requires every part of the package when it is evaluated: Summary with
 * tdigest and bintrees, the Pushgateway with http, https and zlib, the cluster aggregator and the
 * default process metrics (with @opentelemetry/api): about 6 ms of CPU more at each start than the
 * parts in use (docs/benchmarks.md, cold-start). machine-api imports Registry, Counter, Gauge,
 * Histogram and collectDefaultMetrics, so imports from our own source get a module exporting those
 * from their own files (esbuild fails the build if the source imports a name it lacks), and the
 * default metrics load when they are first collected.
 */
export const promClientParts = {
  name: 'prom-client-parts',
  setup(build) {
    build.onResolve({ filter: /^prom-client$/ }, (args) =>
      /[\\/]src[\\/]/.test(args.importer) && !/[\\/]node_modules[\\/]/.test(args.importer)
        ? { path: here('./prom-client-parts.mjs') }
        : undefined,
    )
  },
}

/**
 * An ESM import of a Node built-in goes through a module facade that reads every export once.
 * On Node 24, the images' runtime, node:http's exports include getters that load undici (the
 * fetch and WebSocket implementation), so `import ... from 'node:http'` costs about 45 ms of CPU
 * where `require('node:http')` costs 5 (node:util 4 ms against 0.1, node:process 7 against 0.2).
 * Imports of these built-ins, from our code and from bundled packages alike, get a module that
 * requires them (the bundles define `require` with createRequire).
 */
export const builtinsByRequire = {
  name: 'builtins-by-require',
  setup(build) {
    build.onResolve({ filter: /^(node:)?(http|util|process)$/ }, (args) =>
      // The substitute's own require resolves as usual: to the external built-in.
      args.namespace === 'builtin-by-require'
        ? undefined
        : { path: args.path.replace(/^node:/, ''), namespace: 'builtin-by-require' },
    )
    build.onLoad({ filter: /.*/, namespace: 'builtin-by-require' }, (args) => ({
      contents: `module.exports = require('node:${args.path}')`,
      loader: 'js',
    }))
  },
}

export const plugins = [clientNodeConfigImports, promClientParts, builtinsByRequire]
