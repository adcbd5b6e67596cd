/**
 * Benchmark "webhooks": latency and throughput of /validate, /mutate and /convert of the bundled
 * webhook (`node dist/webhook.js`, a child process over TLS) with real review bodies, against the
 * a bare node:https server answering a fixed JSON body (the limit), with the same load in the same
 * run; and the same fixed answers through the webhook's own Hono stack, so bare vs Hono is what
 * the framework costs per request, handlers aside.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { HUB_API_VERSION, SPOKE_API_VERSION } from '../../src/api/group'
import type { Bench, BenchEnv, BenchReport, Measurement } from './lib/bench'
import { type LoadResult, runLoad } from './lib/http-load'
import { postJson } from './lib/http-post'
import { measurement } from './lib/measurement'
import { processCpuMs } from './lib/process-cpu'
import { admissionReviews, conversionReview, conversionReviewDown } from './lib/review-bodies'
import {
  type Certificates,
  type HttpsChild,
  makeCertificates,
  repoRoot,
  startHttpsChild,
  startWebhookChild,
} from './lib/webhook-child'

/** Machines per ConversionReview: a typical page the apiserver converts at once. */
const CONVERSION_BATCH = 50
const CONNECTIONS = 10

interface Endpoint {
  name: string
  path: string
  bodies: string[]
  /** Where the constant server answers with the webhook's own answer (same bytes back). */
  sameSizePath?: string
}

export const webhooksBench: Bench = {
  id: 'webhooks',
  title: 'webhook /validate, /mutate, /convert vs the same HTTPS stack with a fixed answer',
  // Only the webhook processes are measured; the control plane just idles.
  controlPlane: { kcm: false, scheduler: false, kwok: false },
  async run(env) {
    const certs = makeCertificates()
    const started: HttpsChild[] = []
    try {
      const webhook = await startWebhookChild({
        certs,
        kubeconfigPath: env.controlPlane.kubeconfigPath,
      })
      started.push(webhook)
      const { endpoints, answers } = await buildEndpoints(webhook.url, certs.ca)
      const answersFile = join(certs.dir, 'fixed-answers.json')
      writeFileSync(answersFile, JSON.stringify(answers))
      const constant = await startConstantServer(certs, answersFile, 'bare')
      started.push(constant)
      const honoConstant = await startConstantServer(certs, answersFile, 'hono')
      started.push(honoConstant)
      return await measureAll(env, endpoints, { webhook, constant, honoConstant }, certs.ca)
    } finally {
      for (const child of started) await child.stop()
      certs.remove()
    }
  },
}

async function startConstantServer(
  certs: Certificates,
  answersFile: string,
  stack: 'bare' | 'hono',
): Promise<HttpsChild> {
  const script = join(repoRoot, 'test', 'bench', 'lib', 'http-constant-server.ts')
  return await startHttpsChild(script, {
    certs,
    nodeArgs: ['--import', 'tsx'],
    env: { FIXED_ANSWERS_FILE: answersFile, FIXED_ANSWER_STACK: stack },
  })
}

/** The servers under load: the webhook and the two fixed-answer servers. */
interface Servers {
  webhook: HttpsChild
  constant: HttpsChild
  honoConstant: HttpsChild
}

/**
 * The review bodies per endpoint, each checked once against the webhook (200, allowed/Success),
 * and the webhook's answers to the conversions by the URL the constant server serves them at.
 */
async function buildEndpoints(
  url: string,
  ca: Buffer,
): Promise<{ endpoints: Endpoint[]; answers: Record<string, string> }> {
  const admissions = admissionReviews().map((r) => JSON.stringify(r))
  for (const path of ['/validate', '/mutate']) {
    for (const body of admissions) {
      const answer = await postJson(`${url}${path}`, body, ca)
      const response = (answer.json as { response?: { allowed?: boolean } }).response
      if (answer.status !== 200 || response?.allowed !== true) {
        throw new Error(`${path} did not allow the benchmark body: ${JSON.stringify(answer.json)}`)
      }
    }
  }
  const down = JSON.stringify(conversionReviewDown(CONVERSION_BATCH))
  const downAnswer = await convertedObjects(url, down, ca)
  const up = JSON.stringify(conversionReview(HUB_API_VERSION, downAnswer.objects))
  const upAnswer = await convertedObjects(url, up, ca)
  const endpoints: Endpoint[] = [
    { name: '/validate', path: '/validate', bodies: admissions },
    { name: '/mutate', path: '/mutate', bodies: admissions },
    {
      name: `/convert ${CONVERSION_BATCH} to ${SPOKE_API_VERSION}`,
      path: '/convert',
      bodies: [down],
      sameSizePath: '/convert?same-size=down',
    },
    {
      name: `/convert ${CONVERSION_BATCH} to ${HUB_API_VERSION}`,
      path: '/convert',
      bodies: [up],
      sameSizePath: '/convert?same-size=up',
    },
  ]
  const answers = {
    '/convert?same-size=down': downAnswer.text,
    '/convert?same-size=up': upAnswer.text,
  }
  return { endpoints, answers }
}

async function convertedObjects(
  url: string,
  body: string,
  ca: Buffer,
): Promise<{ objects: unknown[]; text: string }> {
  const answer = await postJson(`${url}/convert`, body, ca)
  const response = (
    answer.json as { response?: { result?: { status?: string }; convertedObjects?: unknown[] } }
  ).response
  if (answer.status !== 200 || response?.result?.status !== 'Success') {
    throw new Error(
      `/convert failed on the benchmark body: ${JSON.stringify(answer.json).slice(0, 500)}`,
    )
  }
  return { objects: response.convertedObjects ?? [], text: JSON.stringify(answer.json) }
}

async function measureAll(
  env: BenchEnv,
  endpoints: Endpoint[],
  { webhook, constant, honoConstant }: Servers,
  ca: Buffer,
): Promise<BenchReport> {
  const durationSeconds = env.options.quick ? 2 : 5
  const load = async (server: HttpsChild, endpoint: Endpoint, seconds: number, path?: string) => {
    const pid = server.process.child.pid ?? 0
    const cpuBefore = processCpuMs(pid)
    const result = await runLoad({
      url: `${server.url}${path ?? endpoint.path}`,
      bodies: endpoint.bodies,
      ca,
      connections: CONNECTIONS,
      durationSeconds: seconds,
    })
    if (result.errors > 0) {
      throw new Error(`${endpoint.name}: ${result.errors} errors or non-2xx answers under load`)
    }
    return { ...result, cpuMsPerRequest: (processCpuMs(pid) - cpuBefore) / result.requests }
  }
  const measurements: Measurement[] = []
  const details: Record<string, unknown> = {
    connections: CONNECTIONS,
    durationSeconds,
    conversionBatch: CONVERSION_BATCH,
    bodyBytes: Object.fromEntries(endpoints.map((e) => [e.name, e.bodies.map((b) => b.length)])),
  }
  for (const endpoint of endpoints) {
    // Warm both (JIT, TLS session, lazy imports) so the first run is not an outlier.
    await load(webhook, endpoint, 1)
    await load(constant, endpoint, 1)
    await load(honoConstant, endpoint, 1)
    const real: MeasuredLoad[] = []
    const limit: MeasuredLoad[] = []
    const hono: MeasuredLoad[] = []
    const sameSize: MeasuredLoad[] = []
    for (let run = 0; run < env.options.runs; run++) {
      real.push(await load(webhook, endpoint, durationSeconds))
      limit.push(await load(constant, endpoint, durationSeconds))
      hono.push(await load(honoConstant, endpoint, durationSeconds))
      if (endpoint.sameSizePath !== undefined) {
        sameSize.push(await load(constant, endpoint, durationSeconds, endpoint.sameSizePath))
      }
      const last = real[real.length - 1]
      env.log(
        `${endpoint.name} run ${run + 1}: p50 ${last?.p50} ms, p99 ${last?.p99} ms, ${Math.round(last?.rps ?? 0)} req/s`,
      )
    }
    measurements.push(
      ...figures(endpoint.name, real, limit),
      honoFigure(endpoint.name, hono, limit),
    )
    if (sameSize.length > 0) {
      measurements.push(
        measurement(
          `${endpoint.name} throughput vs a fixed answer of the same size`,
          'req/s',
          real.map((r) => r.rps),
          {
            name: 'fixed answer, bare node:https, same bytes back',
            samples: sameSize.map((r) => r.rps),
          },
          'the constant server answers with the bytes the webhook answers: what is left is the handler',
        ),
        measurement(
          `${endpoint.name} CPU per request, same-size limit / webhook`,
          'ratio',
          real.map((r, i) => (sameSize[i]?.cpuMsPerRequest ?? 0) / r.cpuMsPerRequest),
        ),
      )
    }
    details[endpoint.name] = {
      webhook: real,
      constant: limit,
      honoConstant: hono,
      constantSameSize: sameSize,
    }
  }
  return { id: 'webhooks', title: webhooksBench.title, measurements, details }
}

const fixed = 'fixed answer, bare node:https'

/** The fixed answers through Hono against the bare fixed answers: the framework's share. */
function honoFigure(name: string, hono: MeasuredLoad[], limit: MeasuredLoad[]): Measurement {
  return measurement(
    `${name} throughput of the fixed answer through Hono`,
    'req/s',
    hono.map((r) => r.rps),
    { name: fixed, samples: limit.map((r) => r.rps) },
    'hono + @hono/node-server with the webhook server and body read, no handlers: 1 - ratio is what the framework costs',
  )
}

/** One load run and the server's CPU milliseconds per request during it. */
type MeasuredLoad = LoadResult & { cpuMsPerRequest: number }

function figures(name: string, real: MeasuredLoad[], limit: MeasuredLoad[]): Measurement[] {
  const pick = (list: MeasuredLoad[], key: keyof MeasuredLoad) => list.map((r) => r[key])
  const latency = (key: 'p50' | 'p99' | 'max') =>
    measurement(`${name} ${key} latency`, 'ms', pick(real, key), {
      name: fixed,
      samples: pick(limit, key),
    })
  return [
    latency('p50'),
    latency('p99'),
    latency('max'),
    measurement(
      `${name} throughput`,
      'req/s',
      pick(real, 'rps'),
      { name: fixed, samples: pick(limit, 'rps') },
      `${CONNECTIONS} connections; ratio < 1 means slower than the limit`,
    ),
    // Inverted (limit / webhook) so it reads like the throughput ratio, and holds on a loaded machine.
    measurement(
      `${name} CPU per request, limit / webhook`,
      'ratio',
      real.map((r, i) => (limit[i]?.cpuMsPerRequest ?? 0) / r.cpuMsPerRequest),
      undefined,
      'server CPU ms per request from /proc; what the throughput ratio would be with a core each',
    ),
  ]
}
