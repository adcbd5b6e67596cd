/**
 * Benchmark "list-conversion": LIST of N Machines at v1alpha1 (converted by the conversion
 * webhook, the bundled dist/webhook.js) versus v1beta1 (the storage version) through the real
 * apiserver. The apiserver keeps what it converted: only the first read of an object version calls
 * the webhook, later LISTs serve the kept copy. So two figures: the first (uncached) LIST, paged
 * so one request stays within the apiserver's 60 s timeout on a busy machine, and repeated
 * unpaged LISTs. The limit of each is the same LIST at v1beta1.
 */
import { API_GROUP, HUB_VERSION, SPOKE_VERSION } from '../../src/api/group'
import { machineApiTypes } from '../../src/api/resource-types'
import type { KubeTransport } from '../../src/kube/http-transport'
import { coreTypes, type KubeObject } from '../../src/kube/resource'
import type { Bench, BenchEnv } from './lib/bench'
import { measurement } from './lib/measurement'
import { machine } from './lib/review-bodies'
import { type BenchApi, forEachConcurrently, installBenchApi } from './lib/webhook-api'
import { readConvertTotals } from './lib/webhook-metrics'

export const NAMESPACE = 'bench-list'
/** Creates in flight at once: enough to keep the apiserver busy on two cores. */
const CREATE_CONCURRENCY = 32
/** Page size of the first (uncached) LISTs. */
export const PAGE = 500

export const listConversionBench: Bench = {
  id: 'list-conversion',
  title: 'LIST of Machines at v1alpha1 (conversion webhook) vs v1beta1 (storage version)',
  controlPlane: { kcm: false, scheduler: false, kwok: false },
  async run(env) {
    const count = env.options.quick ? 1000 : 5000
    const api = await installBenchApi(env.controlPlane)
    try {
      const createSeconds = await seed(env, api, count)
      const list = (version: string, page?: number) =>
        withConvertTotals(api, () => timeList(api.transport, version, count, page))

      const hubFirst = await list(HUB_VERSION, PAGE)
      const spokeFirst = await list(SPOKE_VERSION, PAGE)
      env.log(
        `first LIST: ${HUB_VERSION} ${Math.round(hubFirst.ms)} ms, ${SPOKE_VERSION} ${Math.round(spokeFirst.ms)} ms (${spokeFirst.calls} /convert calls, ${Math.round(spokeFirst.webhookMs)} ms in the webhook)`,
      )
      const hub: number[] = []
      const spoke: number[] = []
      const calls: number[] = []
      for (let run = 0; run < Math.max(3, env.options.runs); run++) {
        hub.push((await list(HUB_VERSION)).ms)
        const converted = await list(SPOKE_VERSION)
        spoke.push(converted.ms)
        calls.push(converted.calls)
        env.log(
          `run ${run + 1}: ${HUB_VERSION} ${Math.round(hub[run] ?? 0)} ms, ${SPOKE_VERSION} ${Math.round(converted.ms)} ms (${converted.calls} /convert calls)`,
        )
      }
      const first = `first LIST of ${count} Machines (pages of ${PAGE})`
      return {
        id: 'list-conversion',
        title: listConversionBench.title,
        measurements: [
          measurement(
            `${first} at ${SPOKE_VERSION}`,
            'ms',
            [spokeFirst.ms],
            { name: `same at ${HUB_VERSION}`, value: hubFirst.ms },
            `${spokeFirst.calls} /convert calls; one sample: only the first read converts`,
          ),
          measurement(
            `${first} at ${SPOKE_VERSION}: time in the webhook`,
            'ms',
            [spokeFirst.webhookMs],
            undefined,
            `${Math.round((spokeFirst.webhookMs / Math.max(1, spokeFirst.calls)) * 100) / 100} ms per call, by the webhook's own metrics`,
          ),
          measurement(
            `LIST ${count} Machines at ${SPOKE_VERSION}, converted copies kept`,
            'ms',
            spoke,
            { name: `same LIST at ${HUB_VERSION}`, samples: hub },
            `${calls.reduce((a, b) => a + b, 0)} /convert calls in all these LISTs`,
          ),
          measurement(`create ${count} Machines (${CREATE_CONCURRENCY} at once)`, 's', [
            createSeconds,
          ]),
        ],
        details: {
          count,
          page: PAGE,
          createConcurrency: CREATE_CONCURRENCY,
          first: { hub: hubFirst, spoke: spokeFirst },
          hubMs: hub,
          spokeMs: spoke,
          convertCalls: calls,
        },
      }
    } finally {
      await api.close()
    }
  },
}

/** Creates `count` Machines at the hub version; resolves with the seconds it took. */
export async function seed(
  env: Pick<BenchEnv, 'log'>,
  api: BenchApi,
  count: number,
): Promise<number> {
  await api.kube.create(coreTypes.namespace, { metadata: { name: NAMESPACE } } as KubeObject)
  // Seeding is not what is measured: without admission webhooks the creates go several times
  // faster on a busy machine. The bodies are complete already, so defaulting would add little.
  await api.installed.uninstall()
  const started = performance.now()
  const names = Array.from({ length: count }, (_, i) => `m-${i}`)
  await forEachConcurrently(names, CREATE_CONCURRENCY, async (name) => {
    await api.kube.create(machineApiTypes.machine, machine(name, NAMESPACE) as KubeObject)
  })
  const seconds = (performance.now() - started) / 1000
  env.log(`created ${count} Machines in ${seconds.toFixed(1)} s`)
  return seconds
}

/** Runs `list` and reports the /convert calls and webhook time it caused. */
async function withConvertTotals(api: BenchApi, list: () => Promise<number>) {
  const before = await readConvertTotals(api.webhook.url, api.certs.ca)
  const ms = await list()
  const after = await readConvertTotals(api.webhook.url, api.certs.ca)
  return {
    ms,
    calls: after.calls - before.calls,
    webhookMs: (after.seconds - before.seconds) * 1000,
  }
}

/** Milliseconds for a whole LIST at `version` (in pages of `page`), answers parsed; checks the count. */
export async function timeList(
  transport: KubeTransport,
  version: string,
  count: number,
  page?: number,
): Promise<number> {
  const started = performance.now()
  let items = 0
  let token: string | undefined
  do {
    const query = new URLSearchParams()
    if (page !== undefined) query.set('limit', String(page))
    if (token) query.set('continue', token)
    const answer = await transport.request<{
      apiVersion: string
      items: unknown[]
      metadata?: { continue?: string }
    }>({
      method: 'GET',
      path: `/apis/${API_GROUP}/${version}/namespaces/${NAMESPACE}/machines?${query}`,
      verb: 'list',
      resource: 'machines',
    })
    if (answer.apiVersion !== `${API_GROUP}/${version}`) {
      throw new Error(`LIST at ${version} answered ${answer.apiVersion}`)
    }
    items += answer.items.length
    token = answer.metadata?.continue || undefined
  } while (token)
  const ms = performance.now() - started
  if (items !== count) throw new Error(`LIST at ${version} gave ${items} of ${count} Machines`)
  return ms
}
