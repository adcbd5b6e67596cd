/**
 * Benchmark "cold-start": time from process start to the first 200 of /readyz for each bundled
 * long-running function (webhook over TLS, worker and reconcile over HTTP, against the bench
 * control plane with the API installed), and to exit for the one-shots (sweep, `cli --help`);
 * plus every bundle's size. Limits: a bare `node -e` HTTP server's start to first answer, and
 * `node -e 0`'s start to exit, measured in the same runs, all on the bench's Node 24 (the images'
 * runtime too).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { freePort } from '../harness/controlplane/free-port'
import type { Bench, Measurement } from './lib/bench'
import { deployedEnv } from './lib/deployed-env'
import { measurement } from './lib/measurement'
import { threadsCpuMs } from './lib/process-cpu'
import { startProcess, timeToExit, waitUntilServing } from './lib/process-timer'
import { type BenchApi, installBenchApi } from './lib/webhook-api'
import { repoRoot, startWebhookChild } from './lib/webhook-child'

const dist = join(repoRoot, 'dist')
const bareServer =
  "require('node:http').createServer((q,s)=>s.end('ok')).listen(Number(process.env.PORT),'127.0.0.1')"
// The webhook serves over TLS: the same bare server with its certificate is its like-for-like limit.
const bareHttpsServer =
  "const f=require('node:fs');require('node:https').createServer({cert:f.readFileSync(process.env.CERT),key:f.readFileSync(process.env.KEY)},(q,s)=>s.end('ok')).listen(Number(process.env.PORT),'127.0.0.1')"

/** Wall and CPU milliseconds of one start. */
interface Sample {
  ms: number
  cpuMs: number
}

type Timer = (api: BenchApi, cpu: CpuProbe) => Promise<Sample>

/**
 * Node flags and environment that make a one-shot report its CPU time at exit, and the report's
 * reader (servers are read from /proc when they first answer, `cpuUntilNow`).
 */
interface CpuProbe {
  nodeArgs: string[]
  env: NodeJS.ProcessEnv
  read(): number
}

const cpuPreload = join(import.meta.dirname, 'lib', 'process-cpu-report.cjs')

function cpuProbe(dir: string, n: number): CpuProbe {
  const file = join(dir, `cpu-${n}`)
  return {
    nodeArgs: ['--require', cpuPreload],
    env: { BENCH_CPU_FILE: file },
    read: () => Number(readFileSync(file, 'utf8')),
  }
}

/**
 * A server's CPU from its start to now (its first 200), read from /proc, not at exit: what it
 * does after answering, such as the webhook loading its MachineClass lookup, is not its start.
 */
function cpuUntilNow(pid: number | undefined): number {
  if (pid === undefined) throw new Error('the server has no pid')
  return threadsCpuMs(pid)
}

/** Each server starts with the NODE_OPTIONS of its manifest (under infra/), as deployed. */
const manifests = {
  webhook: 'base/webhook-deployment.yaml',
  worker: 'overlays/plain/worker-deployment.yaml',
  reconcile: 'overlays/knative/reconcile-service.yaml',
}
const deployedNodeOptions = (name: keyof typeof manifests) => ({
  NODE_OPTIONS: deployedEnv(manifests[name], 'NODE_OPTIONS') ?? '',
})

/** Start of `node dist/<name>.js` to /readyz 200 on $PORT (plain HTTP). */
function httpFunction(name: 'worker' | 'reconcile', node = process.execPath): Timer {
  return async (api) => {
    const port = await freePort()
    const env = {
      ...process.env,
      KUBECONFIG: api.kubeconfigPath,
      PORT: String(port),
      MACHINE_API_PROVIDERS: 'kwok',
      ...deployedNodeOptions(name),
    }
    const startedAt = performance.now()
    const child = startProcess(node, [join(dist, `${name}.js`)], { env })
    try {
      const ms = await waitUntilServing(child, `http://127.0.0.1:${port}/readyz`, { startedAt })
      return { ms, cpuMs: cpuUntilNow(child.child.pid) }
    } finally {
      await child.stop()
    }
  }
}

/** Start of `node args` to exit 0. */
function oneShot(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Timer {
  return async (api, cpu) => {
    const env = { ...process.env, ...cpu.env, KUBECONFIG: api.kubeconfigPath, ...extraEnv }
    const result = await timeToExit(process.execPath, [...cpu.nodeArgs, ...args], {
      env,
      cwd: repoRoot,
    })
    if (result.code !== 0) {
      throw new Error(`node ${args.join(' ')} exited ${result.code}:\n${result.output}`)
    }
    return { ms: result.ms, cpuMs: cpu.read() }
  }
}

function webhookTimer(node = process.execPath): Timer {
  return async (api) => {
    const child = await startWebhookChild({
      certs: api.certs,
      kubeconfigPath: api.kubeconfigPath,
      node,
      env: deployedNodeOptions('webhook'),
    })
    try {
      return { ms: child.readyMs, cpuMs: cpuUntilNow(child.process.child.pid) }
    } finally {
      await child.stop()
    }
  }
}

const servers: Array<[string, Timer]> = [
  ['webhook.js to /readyz', webhookTimer()],
  ['worker.js to /readyz', httpFunction('worker')],
  ['reconcile.js to /readyz', httpFunction('reconcile')],
]

const oneShots: Array<[string, Timer]> = [
  [
    'sweep.js to exit',
    // Orphan sweep off and kwok only: the sweep's own work, not calls to a cloud that is not there.
    oneShot([join(dist, 'sweep.js')], { ORPHAN_SWEEP: 'off', MACHINE_API_PROVIDERS: 'kwok' }),
  ],
  ['cli.js --help to exit', oneShot([join(dist, 'cli.js'), '--help'])],
]

function bareTimer(tls: boolean, node = process.execPath): Timer {
  return async (api) => {
    const port = await freePort()
    const startedAt = performance.now()
    const child = startProcess(node, ['-e', tls ? bareHttpsServer : bareServer], {
      env: {
        ...process.env,
        PORT: String(port),
        CERT: api.certs.certFile,
        KEY: api.certs.keyFile,
      },
    })
    try {
      const url = `${tls ? 'https' : 'http'}://127.0.0.1:${port}/`
      const ms = await waitUntilServing(child, url, { startedAt, ca: api.certs.ca })
      return { ms, cpuMs: cpuUntilNow(child.child.pid) }
    } finally {
      await child.stop()
    }
  }
}
const bareExitTimer = oneShot(['-e', '0'])

export const coldStartBench: Bench = {
  id: 'cold-start',
  title: 'bundled functions: start to /readyz (servers) or to exit (one-shots); bundle sizes',
  controlPlane: { kcm: false, scheduler: false, kwok: false },
  async run(env) {
    const api = await installBenchApi(env.controlPlane)
    const runs = Math.max(env.options.runs, env.options.quick ? 2 : 5)
    const samples = new Map<string, Sample[]>()
    const cpuDir = mkdtempSync(join(tmpdir(), 'machine-api-bench-cpu-'))
    let n = 0
    const all: Array<[string, Timer]> = [
      ['bare node -e http server', bareTimer(false)],
      ['bare node -e https server', bareTimer(true)],
      ['bare node -e 0', bareExitTimer],
      ...servers,
      ...oneShots,
    ]
    try {
      // Interleaved, so a noisy moment on the shared machine hits every figure alike.
      for (let run = 0; run < runs; run++) {
        for (const [name, timer] of all) {
          const sample = await timer(api, cpuProbe(cpuDir, n++))
          samples.set(name, [...(samples.get(name) ?? []), sample])
        }
        env.log(`run ${run + 1}/${runs} done`)
      }
    } finally {
      await api.close()
      rmSync(cpuDir, { recursive: true, force: true })
    }
    const wall = (name: string) => (samples.get(name) ?? []).map((s) => s.ms)
    const cpu = (name: string) => (samples.get(name) ?? []).map((s) => s.cpuMs)
    const figures = (names: string[], limit: string) =>
      names.flatMap((name) => [
        measurement(name, 'ms', wall(name), { name: limit, samples: wall(limit) }),
        measurement(`${name} (CPU time)`, 'ms', cpu(name), { name: limit, samples: cpu(limit) }),
      ])
    const measurements: Measurement[] = [
      ...figures(
        servers.map(([name]) => name),
        'bare node -e http server',
      ),
      ...figures(['webhook.js to /readyz'], 'bare node -e https server'),
      ...figures(
        oneShots.map(([name]) => name),
        'bare node -e 0',
      ),
      ...bundleSizes(),
    ]
    return {
      id: 'cold-start',
      title: coldStartBench.title,
      measurements,
      details: { runs, samples: Object.fromEntries(samples) },
    }
  },
}

/**
 * Bytes and gzip bytes per function (every dist/*.js entry point): what it loads at start (the
 * chunks it imports statically, transitively) and in all (with what it loads later by import()).
 * No limit: reported for tracking.
 */
function bundleSizes(): Measurement[] {
  return readdirSync(dist)
    .filter((f) => f.endsWith('.js'))
    .sort()
    .flatMap((file) => {
      const entry = join(dist, file)
      const size = (files: Set<string>) => {
        const bytes = [...files].map((f) => readFileSync(f))
        const kib = bytes.reduce((sum, b) => sum + b.length, 0) / 1024
        const gzipKib = bytes.reduce((sum, b) => sum + gzipSync(b).length, 0) / 1024
        return { kib, gzipKib }
      }
      const atStart = size(importClosure(entry, false))
      const all = size(importClosure(entry, true))
      return [
        measurement(`dist/${file} loaded at start`, 'KiB', [atStart.kib]),
        measurement(`dist/${file} loaded at start, gzip`, 'KiB', [atStart.gzipKib]),
        measurement(`dist/${file} with its lazy chunks`, 'KiB', [all.kib]),
      ]
    })
}

// esbuild's output imports chunks as `from"./chunks/x.js"` / `import"./x.js"`, lazily as `import("./x.js")`.
const staticImport = /(?:from|import)\s*"(\.{1,2}\/[^"]+\.js)"/g
const dynamicImport = /import\("(\.{1,2}\/[^"]+\.js)"\)/g

function importClosure(entry: string, withDynamic: boolean): Set<string> {
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    const source = readFileSync(file, 'utf8')
    const patterns = withDynamic ? [staticImport, dynamicImport] : [staticImport]
    for (const pattern of patterns) {
      for (const match of source.matchAll(pattern)) visit(join(dirname(file), match[1] ?? ''))
    }
  }
  visit(entry)
  return seen
}
