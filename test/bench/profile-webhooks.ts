/**
 * Where the webhook's CPU goes under the webhooks benchmark's load: runs the webhook from source
 * (`functions/webhook.ts` through tsx, so names are readable) with `--cpu-prof`, loads each
 * endpoint for a few seconds the way the benchmark does, and prints the self time by area and the
 * top functions. `node --import tsx test/bench/profile-webhooks.ts [seconds] [path,path] [limit]`
 * (needs no cluster; the optional second argument loads only those endpoints, e.g. `/validate`;
 * `limit` profiles the benchmark's limit, the constant server, instead, to compare the two).
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runLoad } from './lib/http-load'
import { processCpuMs } from './lib/process-cpu'
import { admissionReviews, conversionReviewDown } from './lib/review-bodies'
import { makeCertificates, repoRoot, startHttpsChild } from './lib/webhook-child'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  hitCount?: number
}

const seconds = Number(process.argv[2] ?? 5)
const only = process.argv[3]?.split(',')
const server =
  process.argv[4] === 'limit'
    ? join(repoRoot, 'test', 'bench', 'lib', 'http-constant-server.ts')
    : join(repoRoot, 'functions', 'webhook.ts')
const certs = makeCertificates()
const profileDir = mkdtempSync(join(tmpdir(), 'machine-api-webhook-prof-'))
const webhook = await startHttpsChild(server, {
  certs,
  nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--import', 'tsx'],
})
const admissions = admissionReviews().map((r) => JSON.stringify(r))
const loads: Array<[string, string[]]> = [
  ['/validate', admissions],
  ['/mutate', admissions],
  ['/convert', [JSON.stringify(conversionReviewDown(50))]],
]
for (const [path, bodies] of loads) {
  if (only !== undefined && !only.includes(path)) continue
  const cpuBefore = processCpuMs(webhook.process.child.pid ?? 0)
  const result = await runLoad({
    url: `${webhook.url}${path}`,
    bodies,
    ca: certs.ca,
    connections: 10,
    durationSeconds: seconds,
  })
  const cpuUs =
    (1000 * (processCpuMs(webhook.process.child.pid ?? 0) - cpuBefore)) / result.requests
  console.log(
    `${path}: ${Math.round(result.rps)} req/s, ${Math.round(cpuUs)} us CPU per request (profiler included), ${result.errors} errors`,
  )
}
await webhook.stop()
certs.remove()

interface Profile {
  nodes: ProfileNode[]
  startTime: number
  endTime: number
}
const samples = (p: Profile) => p.nodes.reduce((sum, n) => sum + (n.hitCount ?? 0), 0)
// One profile per thread: tsx's module hooks run in a worker of their own, which idles. The
// server's thread is the one with the most busy samples.
const profiles = readdirSync(profileDir)
  .filter((f) => f.endsWith('.cpuprofile'))
  .map((f) => JSON.parse(readFileSync(join(profileDir, f), 'utf8')) as Profile)
const busy = (p: Profile) =>
  samples(p) -
  p.nodes
    .filter((n) => n.callFrame.functionName === '(idle)')
    .reduce((sum, n) => sum + (n.hitCount ?? 0), 0)
const profile = profiles.sort((a, b) => busy(b) - busy(a))[0]
if (!profile) throw new Error(`no profile written in ${profileDir}`)
const total = samples(profile)

/** A coarse owner of a function: what one would change to make it cheaper. */
function area(node: ProfileNode): string {
  const { functionName, url } = node.callFrame
  if (functionName === '(idle)') return 'idle (waiting for the client)'
  if (functionName === '(garbage collector)') return 'garbage collector'
  if (functionName === '(program)') return 'V8/native (program)'
  if (url.includes('/node_modules/zod/')) return 'zod'
  if (url.includes('/node_modules/hono/') || url.includes('/node_modules/@hono/'))
    return 'hono + @hono/node-server'
  if (url.includes('/node_modules/'))
    return `dependency ${url.split('/node_modules/')[1]?.split('/')[0]}`
  if (url.includes('/src/')) return `machine-api ${url.split('/src/')[1]?.split('/')[0]}`
  if (url.startsWith('node:') || url === '') {
    if (/^(writev|writeGeneric|writeUtf8String|_write|write)$/.test(functionName))
      return 'socket/TLS write'
    if (/parse|stringify/i.test(functionName)) return `JSON ${functionName}`
    return `node internals (${functionName || 'native'})`
  }
  return url
}

function table(rows: Map<string, number>, limit: number): void {
  for (const [name, hits] of [...rows.entries()].sort((a, b) => b[1] - a[1]).slice(0, limit)) {
    console.log(`${((100 * hits) / total).toFixed(1).padStart(5)}%  ${name}`)
  }
}

const byArea = new Map<string, number>()
const byFunction = new Map<string, number>()
for (const node of profile.nodes) {
  const hits = node.hitCount ?? 0
  if (hits === 0) continue
  byArea.set(area(node), (byArea.get(area(node)) ?? 0) + hits)
  const { functionName, url, lineNumber } = node.callFrame
  const where = url ? `${url.replace(/^.*\/(src|node_modules)\//, '$1/')}:${lineNumber + 1}` : ''
  const key = `${functionName || '(anonymous)'} ${where}`
  byFunction.set(key, (byFunction.get(key) ?? 0) + hits)
}
console.log(
  `\nself time by area (${total} samples over ${((profile.endTime - profile.startTime) / 1e6).toFixed(1)} s; start-up included):`,
)
table(byArea, 20)
console.log('\ntop functions by self time:')
table(byFunction, 25)
