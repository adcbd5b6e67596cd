/**
 * @module The sweep's status-check pass: for every Running Machine whose provider has the
 * `instanceStatus` capability, ask the provider page by page (it batches per account and region:
 * one DescribeInstanceStatus per 100 instances, never one per Machine) and record a change of the
 * failing checks on the Machine (status-checks.ts), with a resourceVersion precondition and an
 * Event. The Machine's watch then brings the record to its reconcile, which sets
 * StatusChecksPassed. Runs from the periodic sweep, beside the orphan sweep: the question is cheap
 * only when asked for many Machines at once, which no single reconcile can.
 */

import { instanceStatusChecksAnnotation } from '../../api/instance-status-checks'
import { machineApiTypes } from '../../api/resource-types'
import type { Machine } from '../../api/v1beta1/machine'
import type { MachineClass } from '../../api/v1beta1/machine-class'
import { errorMessage } from '../../errors'
import { hasKubeReason } from '../../kube/errors'
import type { KubeClient } from '../../kube/kube-client'
import { listPages } from '../../kube/paged-list'
import type { KubeObject } from '../../kube/resource'
import type { Logger } from '../../observability/logger'
import type { SecretReader } from '../../providers/actuator'
import type { InstanceStatus, InstanceStatusTarget } from '../../providers/instance-status'
import type { ProviderRegistry } from '../../providers/registry'
import { namespacedSecretReader } from '../../providers/secret-reader'
import { recordEvent } from '../shared/events'
import { resolveProvider } from './provider-resolution'
import { statusCheckRecordChange } from './status-checks'

/** What the pass needs. */
export interface StatusCheckSweepOptions {
  kube: KubeClient
  providers: ProviderRegistry
  log: Logger
  fieldManager: string
  now: () => Date
  namespace?: string | undefined
  pageSize?: number | undefined
  /** Bound on one page's provider calls (default 60 s). */
  timeoutMs?: number | undefined
}

/** What one pass did. */
export interface StatusCheckSweepReport {
  /** Running Machines whose provider was asked. */
  checked: number
  /** Machines whose record was written (a new failure) or removed (passing again). */
  recorded: number
  /** Machines whose checks fail now. */
  failing: number
  /** Machines (or groups of them) the provider or the apiserver could not answer for. */
  errors: number
}

type Candidate = { machine: Machine & KubeObject; provider: string; target: InstanceStatusTarget }

/** Runs the pass once; never throws (a failing page or group is counted and logged). */
export async function sweepStatusChecks(
  options: StatusCheckSweepOptions,
): Promise<StatusCheckSweepReport> {
  const report: StatusCheckSweepReport = { checked: 0, recorded: 0, failing: 0, errors: 0 }
  const capable = options.providers.names().filter((n) => options.providers.get(n)?.instanceStatus)
  if (capable.length === 0) return report
  const listOptions = {
    namespace: options.namespace,
    ...(options.pageSize ? { limit: options.pageSize } : {}),
  }
  try {
    const classes = await listClasses(options.kube, listOptions)
    const readers = new Map<string, SecretReader>()
    for await (const page of listPages<Machine & KubeObject>(
      options.kube,
      machineApiTypes.machine,
      listOptions,
    )) {
      const candidates = page.items.flatMap((machine) => {
        const candidate = toCandidate(machine, classes, (ns) => reader(options.kube, readers, ns))
        return candidate && capable.includes(candidate.provider) ? [candidate] : []
      })
      await checkPage(options, candidates, report)
    }
  } catch (error) {
    report.errors++
    options.log.warn({ err: errorMessage(error) }, 'status-check pass stopped: listing failed')
  }
  options.log.info({ ...report }, 'status-check pass done')
  return report
}

async function listClasses(
  kube: KubeClient,
  listOptions: { namespace?: string | undefined; limit?: number },
): Promise<Map<string, MachineClass>> {
  const classes = new Map<string, MachineClass>()
  for await (const page of listPages<MachineClass & KubeObject>(
    kube,
    machineApiTypes.machineClass,
    listOptions,
  )) {
    for (const c of page.items) classes.set(`${c.metadata.namespace}/${c.metadata.name}`, c)
  }
  return classes
}

function reader(kube: KubeClient, readers: Map<string, SecretReader>, namespace: string) {
  let found = readers.get(namespace)
  if (!found) {
    found = namespacedSecretReader(kube, namespace)
    readers.set(namespace, found)
  }
  return found
}

/** A Running, not deleting Machine with an instance and a resolvable provider. */
function toCandidate(
  machine: Machine & KubeObject,
  classes: ReadonlyMap<string, MachineClass>,
  secrets: (namespace: string) => SecretReader,
): Candidate | undefined {
  const providerID = machine.spec.providerID
  if (machine.status?.phase !== 'Running' || !providerID || machine.metadata.deletionTimestamp)
    return undefined
  const namespace = machine.metadata.namespace ?? ''
  const className = machine.spec.classRef?.name
  const resolved = resolveProvider(
    machine,
    className === undefined ? undefined : classes.get(`${namespace}/${className}`),
  )
  if (!resolved.ok) return undefined
  return {
    machine,
    provider: resolved.provider,
    target: {
      providerID,
      providerSpec: resolved.providerSpec,
      credentialsSecretRef: resolved.credentialsSecretRef,
      secrets: secrets(namespace),
    },
  }
}

async function checkPage(
  options: StatusCheckSweepOptions,
  candidates: Candidate[],
  report: StatusCheckSweepReport,
): Promise<void> {
  const byProvider = new Map<string, Candidate[]>()
  for (const c of candidates) {
    const list = byProvider.get(c.provider)
    if (list) list.push(c)
    else byProvider.set(c.provider, [c])
  }
  for (const [name, group] of byProvider) {
    const provider = options.providers.get(name)
    if (!provider?.instanceStatus) continue
    report.checked += group.length
    const answer = await provider.instanceStatus({
      targets: group.map((c) => c.target),
      signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
    })
    for (const failed of answer.errors) {
      report.errors++
      options.log.warn(
        { provider: name, targets: failed.targets, err: errorMessage(failed.error) },
        'status checks could not be read',
      )
    }
    const byProviderID = new Map(group.map((c) => [c.target.providerID, c.machine]))
    for (const status of answer.statuses) {
      const machine = byProviderID.get(status.providerID)
      if (!machine) continue
      if (status.verdict === 'failed') report.failing++
      try {
        if (await recordStatus(options, machine, status)) report.recorded++
      } catch (error) {
        report.errors++
        options.log.warn(
          {
            machine: `${machine.metadata.namespace}/${machine.metadata.name}`,
            err: errorMessage(error),
          },
          'status check not recorded; the next sweep tries again',
        )
      }
    }
  }
}

/** A bound on write conflicts in a row; past it the next sweep decides again. */
const maxAttempts = 3

/** Writes the record change `status` asks for; resolves whether it wrote one. */
async function recordStatus(
  options: StatusCheckSweepOptions,
  listed: Machine & KubeObject,
  status: InstanceStatus,
): Promise<boolean> {
  const ref = { namespace: listed.metadata.namespace ?? '', name: listed.metadata.name ?? '' }
  let machine: (Machine & KubeObject) | undefined = listed
  for (let attempt = 1; ; attempt++) {
    if (!machine || machine.metadata.uid !== listed.metadata.uid) return false
    const change = statusCheckRecordChange(machine, status, options.now())
    if (!change) return false
    try {
      const written = await options.kube.mergePatch<Machine & KubeObject>(
        machineApiTypes.machine,
        ref,
        {
          metadata: {
            resourceVersion: machine.metadata.resourceVersion,
            annotations: { [instanceStatusChecksAnnotation]: change.value },
          },
        },
      )
      await recordEvent(options, written, {
        type: change.failure ? 'Warning' : 'Normal',
        reason: change.failure
          ? change.failure.failed.includes('system')
            ? 'SystemCheckFailed'
            : 'InstanceCheckFailed'
          : 'StatusChecksPassed',
        message: change.failure
          ? `EC2 status checks fail for ${change.failure.instanceId}: ${change.failure.failed.join(' and ')}`
          : 'EC2 status checks pass again',
      })
      return true
    } catch (error) {
      if (!hasKubeReason(error, 'Conflict') || attempt >= maxAttempts) throw error
      machine = await options.kube.get<Machine & KubeObject>(machineApiTypes.machine, ref)
    }
  }
}
