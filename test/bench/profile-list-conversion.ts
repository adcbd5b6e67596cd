/**
 * Where the first LIST at v1alpha1 spends its time, per conversion call, on the apiserver's side
 * and ours: the list-conversion benchmark's setup (bundled webhook, N Machines created at v1beta1,
 * the first LIST at v1beta1 then at v1alpha1 in pages of 500), with the webhook child preloaded
 * with connection-probe.ts. Prints, for each LIST: wall time and the CPU the apiserver, etcd, the
 * webhook and this client used; for the v1alpha1 LIST: /convert calls, their body sizes (one
 * Machine is about 2.3 KB), connections and TLS handshakes by ALPN protocol, calls in flight, time in the
 * webhook's listener, and the apiserver's own conversion webhook latency.
 * `npm run build && node --import tsx test/bench/profile-list-conversion.ts [N] [--h2]
 *  [--pprof SECONDS] [--cpu-prof DIR]`: `--h2` serves the webhook over HTTP/2 (ALPN, HTTP/1.1
 * still accepted); `--pprof` writes a CPU profile of the apiserver during the v1alpha1 LIST to
 * /tmp/apiserver-list-conversion.pprof (`go tool pprof -top` reads it); `--cpu-prof` profiles
 * the webhook.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { HUB_VERSION, SPOKE_VERSION } from '../../src/api/group'
import { startControlPlane } from '../harness/controlplane'
import { scrapeMetricsText } from './lib/apiserver-metrics'
import { conversionCalls } from './lib/apiserver-metrics-text'
import type { ProbeReport } from './lib/connection-probe'
import { findPid, processCpuMs } from './lib/process-cpu'
import { installBenchApi } from './lib/webhook-api'
import { repoRoot } from './lib/webhook-child'
import { readConvertTotals } from './lib/webhook-metrics'
import { PAGE, seed, timeList } from './list-conversion'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    h2: { type: 'boolean', default: false },
    pprof: { type: 'string' },
    'cpu-prof': { type: 'string' },
  },
})
const count = Number(positionals[0] ?? 2000)
const pprofSeconds = values.pprof === undefined ? 0 : Number(values.pprof)
const probeOut = join(mkdtempSync(join(tmpdir(), 'machine-api-list-probe-')), 'probe.json')

const controlPlane = await startControlPlane({
  kcm: false,
  scheduler: false,
  kwok: false,
  profiling: pprofSeconds > 0,
})
const api = await installBenchApi(controlPlane, {
  nodeArgs: [
    '--import',
    'tsx',
    '--import',
    join(repoRoot, 'test', 'bench', 'lib', 'connection-probe.ts'),
    ...(values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${values['cpu-prof']}`] : []),
  ],
  env: { CONNECTION_PROBE_OUT: probeOut, CONNECTION_PROBE_H2: values.h2 ? '1' : '0' },
})
try {
  await seed({ log: console.log }, api, count)
  const pids: Record<string, number | undefined> = {
    apiserver: findPid('kube-apiserver', controlPlane.workDir),
    etcd: findPid('etcd', controlPlane.workDir),
    webhook: api.webhook.process.child.pid,
  }
  const cpu = () => {
    const own = process.cpuUsage()
    const out: Record<string, number> = { client: (own.user + own.system) / 1000 }
    for (const [name, pid] of Object.entries(pids)) out[name] = pid ? processCpuMs(pid) : Number.NaN
    return out
  }
  const phase = async (version: string, profile: number) => {
    const pprof = profile > 0 ? apiserverProfile(profile) : Promise.resolve()
    const [cpuBefore, convertBefore] = [
      cpu(),
      await readConvertTotals(api.webhook.url, api.certs.ca),
    ]
    const apiserverBefore = conversionCalls(await scrapeMetricsText(controlPlane))
    const started = performance.timeOrigin + performance.now()
    const ms = await timeList(api.transport, version, count, PAGE)
    const finished = performance.timeOrigin + performance.now()
    const cpuAfter = cpu()
    const convertAfter = await readConvertTotals(api.webhook.url, api.certs.ca)
    const apiserverAfter = conversionCalls(await scrapeMetricsText(controlPlane))
    await pprof
    const cpuMs = Object.fromEntries(
      Object.keys(cpuAfter).map((k) => [k, Math.round((cpuAfter[k] ?? 0) - (cpuBefore[k] ?? 0))]),
    )
    const calls = convertAfter.calls - convertBefore.calls
    const apiserverCalls = apiserverAfter.calls - apiserverBefore.calls
    console.log(
      `LIST ${count} at ${version}: ${Math.round(ms)} ms; CPU ms ${JSON.stringify(cpuMs)}; ` +
        `/convert ${calls} calls, ${Math.round((convertAfter.seconds - convertBefore.seconds) * 1000)} ms in the webhook's metric; ` +
        `the apiserver's conversion latency ${apiserverCalls} calls, mean ${round(((apiserverAfter.seconds - apiserverBefore.seconds) * 1000) / Math.max(1, apiserverCalls))} ms`,
    )
    return { ms, started, finished }
  }
  const hub = await phase(HUB_VERSION, 0)
  const spoke = await phase(SPOKE_VERSION, pprofSeconds)
  console.log(`ratio ${round(spoke.ms / hub.ms)}`)
  api.webhook.process.child.kill('SIGUSR2')
  await waitForFile(probeOut)
  describeCalls(JSON.parse(readFileSync(probeOut, 'utf8')) as ProbeReport, spoke)
} finally {
  await api.close()
  await controlPlane.stop()
}

/** Starts a CPU profile of the apiserver for `seconds`; resolves once it is written. */
function apiserverProfile(seconds: number): Promise<void> {
  const file = join(tmpdir(), 'apiserver-list-conversion.pprof')
  return new Promise((resolve) => {
    execFile(
      controlPlane.kubectlPath,
      [
        '--kubeconfig',
        controlPlane.kubeconfigPath,
        'get',
        '--raw',
        `/debug/pprof/profile?seconds=${seconds}`,
      ],
      { encoding: 'buffer', maxBuffer: 256 * 1024 * 1024 },
      (error, stdout) => {
        if (error) console.log(`apiserver profile failed: ${error.message}`)
        else {
          writeFileSync(file, stdout)
          console.log(`apiserver CPU profile: ${file}`)
        }
        resolve()
      },
    )
  })
}

/** The /convert calls answered within `window`, as the webhook saw them. */
function describeCalls(report: ProbeReport, window: { started: number; finished: number }) {
  const calls = report.requests.filter(
    (r) =>
      r.url.startsWith('/convert') && r.started >= window.started && r.finished <= window.finished,
  )
  const inFlight: Record<number, number> = {}
  const edges = calls
    .flatMap((r) => [
      [r.started, 1],
      [r.finished, -1],
    ])
    .sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0) || (a[1] ?? 0) - (b[1] ?? 0))
  let open = 0
  let busySince = 0
  let busyMs = 0
  for (const [at = 0, step = 0] of edges) {
    if (open === 0 && step > 0) busySince = at
    open += step
    if (step > 0) inFlight[open] = (inFlight[open] ?? 0) + 1
    if (open === 0) busyMs += at - busySince
  }
  const listenerMs = calls.reduce((sum, r) => sum + (r.finished - r.started), 0)
  console.log(
    JSON.stringify({
      convertCalls: calls.length,
      requestBytes: {
        min: Math.min(...calls.map((r) => r.bytes)),
        max: Math.max(...calls.map((r) => r.bytes)),
      },
      httpVersions: [...new Set(calls.map((r) => r.httpVersion))],
      connectionsUsed: new Set(calls.map((r) => r.connection)).size,
      connectionsWholeRun: report.connections,
      tlsHandshakesByAlpn: report.handshakes,
      http2Sessions: report.http2Sessions,
      callsInFlightOnArrival: inFlight,
      msWithACallInFlight: Math.round(busyMs),
      meanMsInListener: round(listenerMs / Math.max(1, calls.length)),
    }),
  )
}

async function waitForFile(path: string): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      readFileSync(path)
      return
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  throw new Error(`the probe wrote nothing to ${path}`)
}

function round(value: number): number {
  return Math.round(value * 100) / 100
}
