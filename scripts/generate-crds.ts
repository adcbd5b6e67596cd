// Writes the CRDs generated from src/api into infra/crds (run: npx tsx scripts/generate-crds.ts).
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { renderCrdFiles } from '../src/crd/render'

const directory = join(import.meta.dirname, '..', 'infra', 'crds')
mkdirSync(directory, { recursive: true })
const files = renderCrdFiles()
// Remove files of kinds that no longer exist, so the directory is exactly the generator's output.
for (const existing of readdirSync(directory)) {
  if (!files.has(existing)) rmSync(join(directory, existing))
}
for (const [name, content] of files) writeFileSync(join(directory, name), content)
console.log(`wrote ${files.size} files to ${directory}`)
