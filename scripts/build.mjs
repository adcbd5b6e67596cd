// Bundles every entry point in functions/ into dist/ as a self-contained ESM file for Node.
import { readdirSync, rmSync } from 'node:fs'
import { build } from 'esbuild'
import { plugins } from './build/plugins.mjs'

const entryPoints = readdirSync('functions')
  .filter((file) => file.endsWith('.ts'))
  .map((file) => `functions/${file}`)

if (entryPoints.length === 0) {
  console.error('no entry points in functions/')
  process.exit(1)
}

// Chunk names carry a content hash: without this, chunks of earlier builds pile up in dist/ (and
// in the image, which copies all of it).
rmSync('dist', { recursive: true, force: true })

await build({
  entryPoints,
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'esm',
  // Shared code goes to dist/chunks/, and what an entry point imports with import() stays out of
  // its start: each function loads only what serving its first request needs.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  // Less source to parse at every start; names kept for error types and stack traces.
  minify: true,
  keepNames: true,
  sourcemap: true,
  metafile: false,
  logLevel: 'info',
  plugins,
  // @kubernetes/client-node and some of its dependencies still call require(); an ESM bundle has
  // no require unless we create one.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
})
