/**
 * The webhook under a flood (issue 33): `concurrency` ConversionReviews of about `mib` MiB each
 * sent at once to the bundled webhook (dist/webhook.js), while /healthz and small AdmissionReviews
 * are sent every 200 ms. Reports the webhook's peak RSS (VmHWM), how the big reviews were
 * answered, and the latency and failures of the probes. Standalone, not part of `npm run bench`:
 *
 *   npm run build && node --import tsx test/bench/webhook-flood.ts [concurrency=20] [mib=60] [heapMiB]
 *
 * `heapMiB` caps the webhook's old space (--max-old-space-size), as a container's memory limit
 * sizes V8's heap; without it V8 sizes the heap from this machine's memory and collects lazily.
 */
import { readFileSync } from 'node:fs'
import { request } from 'node:https'
import { Worker } from 'node:worker_threads'
import { HUB_API_VERSION } from '../../src/api/group'
import { machine } from './lib/review-bodies'
import { makeCertificates, startWebhookChild } from './lib/webhook-child'

const concurrency = Number(process.argv[2] ?? 20)
const mib = Number(process.argv[3] ?? 60)
const heapMiB = process.argv[4]

interface Reply {
  status: number
  ms: number
  bytes: number
  error?: string
}

function post(url: string, body: Buffer | string, ca: Buffer, timeoutMs: number): Promise<Reply> {
  const started = performance.now()
  return new Promise((resolve) => {
    const req = request(
      url,
      {
        method: 'POST',
        ca,
        agent: false,
        timeout: timeoutMs,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let bytes = 0
        res.on('data', (c: Buffer) => {
          bytes += c.length
        })
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, ms: performance.now() - started, bytes }),
        )
      },
    )
    req.on('timeout', () => req.destroy(new Error('timeout')))
    req.on('error', (error) =>
      resolve({ status: 0, ms: performance.now() - started, bytes: 0, error: error.message }),
    )
    req.end(body)
  })
}

// The flood's sender, plain JavaScript for a worker thread (which tsx does not load into).
const FLOOD_WORKER = `
const { request } = require('node:https')
const { parentPort, workerData } = require('node:worker_threads')
const { url, ca, body, concurrency } = workerData
const send = () => new Promise((resolve) => {
  const started = performance.now()
  const req = request(url, { method: 'POST', ca: Buffer.from(ca), agent: false, timeout: 60000,
    headers: { 'content-type': 'application/json', 'content-length': body.length } }, (res) => {
    let bytes = 0
    res.on('data', (c) => { bytes += c.length })
    res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - started, bytes }))
  })
  req.on('timeout', () => req.destroy(new Error('timeout')))
  req.on('error', (e) => resolve({ status: 0, ms: performance.now() - started, bytes: 0, error: e.message }))
  req.end(Buffer.from(body))
})
Promise.all(Array.from({ length: concurrency }, send)).then((r) => parentPort.postMessage(r))
`

function get(url: string, ca: Buffer, timeoutMs: number): Promise<Reply> {
  const started = performance.now()
  return new Promise((resolve) => {
    const req = request(url, { method: 'GET', ca, agent: false, timeout: timeoutMs }, (res) => {
      res.resume()
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, ms: performance.now() - started, bytes: 0 }),
      )
    })
    req.on('timeout', () => req.destroy(new Error('timeout')))
    req.on('error', (error) =>
      resolve({ status: 0, ms: performance.now() - started, bytes: 0, error: error.message }),
    )
    req.end()
  })
}

/** One ConversionReview of about `size` MiB of stored Machines, to v1alpha1. */
function conversionBody(size: number): Buffer {
  const one = JSON.stringify(machine('worker-0', 'team-a', true))
  const count = Math.max(1, Math.floor((size * 1024 * 1024) / (one.length + 1)))
  const objects = new Array<string>(count).fill(one).join(',')
  return Buffer.from(
    `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"flood","desiredAPIVersion":"machine-api.dev/v1alpha1","objects":[${objects}]}}`,
  )
}

function admissionBody(): string {
  return JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: 'probe',
      kind: { group: 'machine-api.dev', version: 'v1beta1', kind: 'Machine' },
      operation: 'CREATE',
      namespace: 'default',
      object: { ...machine('probe'), apiVersion: HUB_API_VERSION },
    },
  })
}

function peakRssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kib = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0)
  return Math.round(kib / 1024)
}

function summary(replies: Reply[]) {
  const ms = replies.map((r) => r.ms).sort((a, b) => a - b)
  const at = (q: number) => Math.round(ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] ?? 0)
  const statuses: Record<string, number> = {}
  for (const r of replies) {
    const key = r.error ? `error ${r.error}` : String(r.status)
    statuses[key] = (statuses[key] ?? 0) + 1
  }
  return { count: replies.length, statuses, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: at(1) }
}

async function main() {
  const certs = makeCertificates()
  const webhook = await startWebhookChild({
    certs,
    env: { LOG_LEVEL: 'warn', KUBECONFIG: '/nonexistent' },
    nodeArgs: heapMiB ? [`--max-old-space-size=${heapMiB}`] : [],
  })
  const pid = webhook.process.child.pid ?? 0
  try {
    const body = conversionBody(mib)
    const small = admissionBody()
    console.log(
      `webhook pid ${pid}, idle peak RSS ${peakRssMiB(pid)} MiB; ${concurrency} x ${(body.length / 1048576).toFixed(1)} MiB conversion reviews`,
    )
    const health: Reply[] = []
    const admissions: Reply[] = []
    let flooding = true
    const probes = (async () => {
      while (flooding) {
        const [h, a] = await Promise.all([
          get(`${webhook.url}/healthz`, certs.ca, 5000),
          post(`${webhook.url}/validate`, small, certs.ca, 5000),
        ])
        health.push(h)
        admissions.push(a)
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
    })()
    const started = performance.now()
    // The flood is sent from a worker thread: encrypting it would otherwise stall the probes here.
    const big = await new Promise<Reply[]>((resolve, reject) => {
      const worker = new Worker(FLOOD_WORKER, {
        eval: true,
        workerData: { url: `${webhook.url}/convert`, ca: certs.ca, body, concurrency },
      })
      worker.once('message', resolve)
      worker.once('error', reject)
    })
    const seconds = (performance.now() - started) / 1000
    flooding = false
    await probes
    console.log(
      JSON.stringify(
        {
          concurrency,
          heapMiB: heapMiB ?? 'default',
          bodyMiB: Number((body.length / 1048576).toFixed(1)),
          floodSeconds: Number(seconds.toFixed(1)),
          peakRssMiB: peakRssMiB(pid),
          webhookAlive: webhook.process.child.exitCode === null,
          conversions: summary(big),
          healthz: summary(health),
          smallAdmissions: summary(admissions),
        },
        null,
        2,
      ),
    )
  } finally {
    await webhook.stop()
    certs.remove()
  }
}

await main()
