/**
 * @module Scenario 6, bad input: a seeded stream of invalid objects of every kind at both served
 * versions (a valid object with one mutation each) through REST and kubectl, against the BUNDLED
 * webhook as a child process. Every one must be refused with a 4xx naming the field, none stored
 * (listed afterwards; updated objects keep generation 1), and the webhook must stay the same
 * process with /readyz OK throughout. Then objects that admission lets through but no controller
 * can carry out are reconciled for a window, and no key may loop hot (lib/hot-loops.ts).
 */
import { KubeConfig } from '@kubernetes/client-node'
import { createHttpTransport, type KubeTransport } from '../../../src/kube/http-transport'
import { collectionPath } from '../../../src/kube/resource'
import { type ControlPlane, startControlPlane } from '../../harness/controlplane'
import { type InstalledApi, installApi } from '../../harness/install-api'
import { kubectlFor, uniqueName } from '../../harness/kube'
import { type CaseOutcome, hostileFamilySummary } from '../lib/hostile-mutations'
import { measureHotLoops } from '../lib/hot-loops'
import { baseName, generateCases, type InvalidCase, kindVersions } from '../lib/invalid-cases'
import { type Json, validObject } from '../lib/invalid-objects'
import { type SendResult, sendCase, typeOf } from '../lib/invalid-sender'
import { startWebhookChild, type WebhookChild } from '../lib/invalid-webhook'
import { seededRandom } from '../lib/random'
import type { Scenario, ScenarioOptions, ScenarioReport } from '../lib/scenario'

const sizes = {
  short: { objects: 60, kubectlEvery: 6, hotLoopWindowMs: 5_000 },
  full: { objects: 1000, kubectlEvery: 10, hotLoopWindowMs: 30_000 },
}
/** Requests in flight at once: enough to load the webhook, few enough for two cores. */
const parallel = 4

/** Whether a refusal names one of the case's field paths (followed by `:`, `.`, `[` or space). */
function namesField(message: string, paths: readonly string[]): boolean {
  return paths.some((p) => [':', '.', '[', ' '].some((next) => message.includes(`${p}${next}`)))
}

function isServerError(result: SendResult): boolean {
  if (result.code >= 500) return true
  return /InternalError|Internal error|ServiceUnavailable|failed calling webhook/i.test(
    result.message,
  )
}

function outcomeOf(result: SendResult, paths: readonly string[]): CaseOutcome {
  if (result.accepted) return 'admitted'
  if (isServerError(result)) return 'server-error'
  return namesField(result.message, paths) ? 'refused' : 'no-field-path'
}

async function createBases(transport: KubeTransport, namespace: string): Promise<void> {
  for (const [kind, version] of kindVersions()) {
    const type = typeOf({ kind, version })
    await transport.request({
      method: 'POST',
      path: `${collectionPath(type, namespace)}?fieldValidation=Strict`,
      body: validObject(kind, version, { namespace, name: baseName(kind, version) }),
      verb: 'create',
      resource: type.plural,
    })
  }
}

/** Names stored in `namespace` that are not bases, and bases whose spec changed (generation > 1). */
async function storedInvalid(transport: KubeTransport, namespace: string): Promise<string[]> {
  const found: string[] = []
  for (const [kind, version] of kindVersions().filter(([, v]) => v === 'v1beta1')) {
    const type = typeOf({ kind, version })
    const list = await transport.request<{ items: Json[] }>({
      method: 'GET',
      path: collectionPath(type, namespace),
      verb: 'list',
      resource: type.plural,
    })
    for (const item of list.items) {
      const meta = item.metadata as { name: string; generation?: number }
      const isBase = meta.name.startsWith('base-')
      if (!isBase || (meta.generation ?? 1) > 1) found.push(`${kind}/${meta.name}`)
    }
  }
  return found
}

/** Polls /readyz until stopped; counts probes and failures. */
function watchReadiness(webhook: WebhookChild) {
  let probes = 0
  let failures = 0
  let running = true
  const loop = (async () => {
    while (running) {
      probes += 1
      if (!(await webhook.ready())) failures += 1
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  })()
  return {
    async stop() {
      running = false
      await loop
      return { probes, failures }
    },
  }
}

async function runCases(
  deps: Parameters<typeof sendCase>[0],
  cases: readonly InvalidCase[],
  kubectlEvery: number,
): Promise<Array<{ c: InvalidCase; result: SendResult }>> {
  const results: Array<{ c: InvalidCase; result: SendResult }> = []
  let next = 0
  const lane = async () => {
    while (next < cases.length) {
      const c = cases[next++] as InvalidCase
      results.push({ c, result: await sendCase(deps, c, c.index % kubectlEvery === 0) })
    }
  }
  await Promise.all(Array.from({ length: parallel }, lane))
  return results
}

async function run(options: ScenarioOptions): Promise<ScenarioReport> {
  const size = sizes[options.size]
  const random = seededRandom(options.seed)
  const own: ControlPlane | undefined = options.shared ? undefined : await startControlPlane()
  const target = own ?? (options.shared as { kubeconfigPath: string; kubectlPath: string })
  const kc = new KubeConfig()
  kc.loadFromFile(target.kubeconfigPath)
  const kubectl = kubectlFor(target.kubectlPath, target.kubeconfigPath)
  const transport = createHttpTransport(kc, () => {})
  const namespace = uniqueName('chaos-bad-input')
  let webhook: WebhookChild | undefined
  let api: InstalledApi | undefined
  try {
    webhook = await startWebhookChild({ kubeconfigPath: target.kubeconfigPath })
    api = await installApi(kc, webhook)
    for (const name of [namespace, `${namespace}-loops`]) {
      await transport.request({
        method: 'POST',
        path: '/api/v1/namespaces',
        body: { metadata: { name } },
        verb: 'create',
        resource: 'namespaces',
      })
    }
    await createBases(transport, namespace)
    options.log(`webhook pid ${webhook.pid}; ${size.objects} invalid objects into ${namespace}`)

    const cases = generateCases(random, size.objects, namespace)
    const readiness = watchReadiness(webhook)
    const results = await runCases({ transport, kubectl }, cases, size.kubectlEvery)
    const ready = await readiness.stop()

    const byGroup: Record<string, number> = {}
    const problems: string[] = []
    let serverErrors = 0
    let withoutPath = 0
    let accepted = 0
    const outcomes: Array<{ family: string; outcome: CaseOutcome }> = []
    for (const { c, result } of results) {
      outcomes.push({ family: c.mutation, outcome: outcomeOf(result, c.paths) })
      const group = `${c.kind}/${c.version}/${c.mutation}`
      byGroup[group] = (byGroup[group] ?? 0) + 1
      const where = `#${c.index} ${group} (${c.operation}, ${result.via})`
      if (result.accepted) {
        accepted += 1
        problems.push(`${where}: accepted`)
      } else if (isServerError(result)) {
        serverErrors += 1
        problems.push(`${where}: server error ${result.code}: ${result.message}`)
      } else if (!namesField(result.message, c.paths)) {
        withoutPath += 1
        problems.push(`${where}: no ${c.paths.join('|')} in: ${result.message}`)
      }
    }
    const stored = await storedInvalid(transport, namespace)
    const restarted = webhook.alive() ? 0 : 1
    const loops = await measureHotLoops({
      kc,
      namespace: `${namespace}-loops`,
      windowMs: size.hotLoopWindowMs,
      log: options.log,
    })
    for (const key of loops.hot) problems.push(`${key}: hot loop, ${loops.perSecond[key]}/s`)
    for (const p of problems.slice(0, 20)) options.log(p)
    options.log(
      `accepted ${accepted}, stored ${stored.length}, 5xx ${serverErrors}, no field path ${withoutPath}, ` +
        `readyz failures ${ready.failures}/${ready.probes}, webhook restarted ${restarted}, ` +
        `hot loops ${loops.hot.length} (max ${Math.max(0, ...Object.values(loops.perSecond))}/s)`,
    )
    return {
      id: badInputScenario.id,
      title: badInputScenario.title,
      seed: options.seed,
      runs: cases.length,
      faultsInjected: cases.length,
      // The Machines created are only those no Node can be made for: none can be doubled or
      // orphaned, and they are meant to stay unprovisioned.
      duplicates: 'n/a',
      orphans: 'n/a',
      stuck: 'n/a',
      // Anything refused the wrong way counts: stored, 5xx, no field path, webhook down, and a
      // key reconciled more than hotPerSecond times a second.
      lost:
        accepted +
        stored.length +
        serverErrors +
        withoutPath +
        ready.failures +
        restarted +
        loops.hot.length,
      details: {
        byKindVersionMutation: byGroup,
        viaKubectl: results.filter((r) => r.result.via === 'kubectl').length,
        updates: cases.filter((c) => c.operation === 'update').length,
        accepted,
        stored,
        serverErrors,
        withoutPath,
        readyz: ready,
        webhookPid: webhook.pid,
        webhookRestarted: restarted,
        problems: problems.slice(0, 50),
        hotLoops: loops,
        // Issue 33's families: sent, and how they came back (admitted = admitted then stuck).
        hostileFamilies: hostileFamilySummary(outcomes),
      },
    }
  } finally {
    for (const name of [namespace, `${namespace}-loops`]) {
      await transport
        .request({
          method: 'DELETE',
          path: `/api/v1/namespaces/${name}`,
          verb: 'delete',
          resource: 'namespaces',
        })
        .catch(() => {})
    }
    transport.close()
    await api?.uninstall()
    await webhook?.stop()
    await own?.stop()
  }
}

export const badInputScenario: Scenario = {
  id: 'bad-input',
  title: 'bad input: invalid objects of every kind and version are refused with field paths',
  run,
}
