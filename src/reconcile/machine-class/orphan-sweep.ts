/**
 * @module The orphan sweep: for every MachineClass whose provider can list what it launched (the
 * optional `Provider.sweepOrphans` capability), report instances tagged as ours whose Machine no
 * longer exists, and terminate them when enabled. Runs from the periodic sweep, not from
 * reconciles: it needs every Machine UID in the cluster, and an instance is only an orphan if no
 * Machine anywhere claims it.
 */
import { machineApiTypes } from '../../api/resource-types'
import type { MachineClass } from '../../api/v1beta1/machine-class'
import type { KubeClient } from '../../kube/kube-client'
import { listPages } from '../../kube/paged-list'
import type { KubeObject } from '../../kube/resource'
import type { Logger } from '../../observability/logger'
import type { Orphan } from '../../providers/orphans'
import type { ProviderRegistry } from '../../providers/registry'
import { namespacedSecretReader } from '../../providers/secret-reader'
import { recordEvent } from '../shared/events'

export interface OrphanSweepOptions {
  kube: KubeClient
  providers: ProviderRegistry
  log: Logger
  fieldManager: string
  now: () => Date
  /** Terminate orphans (default: report only). */
  terminate: boolean
  /** Instances younger than this are never orphans (default 15 minutes). */
  graceMs?: number
}

/** An orphan and the MachineClass whose account it was found in. */
export interface ReportedOrphan extends Orphan {
  machineClass: string
}

/** Every Machine UID in the cluster; throws rather than return a partial set. */
async function allMachineUids(kube: KubeClient): Promise<ReadonlySet<string>> {
  const uids = new Set<string>()
  for await (const page of listPages(kube, machineApiTypes.machine)) {
    for (const m of page.items) if (m.metadata?.uid) uids.add(m.metadata.uid)
  }
  return uids
}

/** Sweeps every capable MachineClass once; an Event on the class names each orphan. */
export async function sweepOrphanInstances(options: OrphanSweepOptions): Promise<ReportedOrphan[]> {
  const { kube, log } = options
  let uids: Promise<ReadonlySet<string>> | undefined
  const machineUids = () => {
    uids ??= allMachineUids(kube)
    return uids
  }
  const reported: ReportedOrphan[] = []
  for await (const page of listPages<MachineClass & KubeObject>(
    kube,
    machineApiTypes.machineClass,
  )) {
    for (const machineClass of page.items) {
      const provider = options.providers.get(machineClass.spec.provider)
      if (!provider?.sweepOrphans) continue
      const namespace = machineClass.metadata.namespace ?? ''
      const name = `${namespace}/${machineClass.metadata.name}`
      try {
        const orphans = await provider.sweepOrphans({
          providerSpec: machineClass.spec.providerSpec,
          secrets: namespacedSecretReader(kube, namespace),
          credentialsSecretRef: machineClass.spec.credentialsSecretRef,
          signal: AbortSignal.timeout(120_000),
          machineUids,
          now: options.now,
          terminate: options.terminate,
          ...(options.graceMs === undefined ? {} : { graceMs: options.graceMs }),
        })
        for (const orphan of orphans) {
          reported.push({ ...orphan, machineClass: name })
          const message = `Instance ${orphan.instanceId} (Machine ${orphan.machineNamespace}/${orphan.machineName}, uid ${orphan.machineUid}) has no Machine; ${orphan.terminate ? 'terminated' : orphan.keptBecause ? `reported only: ${orphan.keptBecause}` : 'reported only (orphan termination is off)'}`
          log.warn({ machineClass: name, instanceId: orphan.instanceId }, message)
          await recordEvent(
            { kube, log, fieldManager: options.fieldManager },
            machineClass as KubeObject,
            {
              type: 'Warning',
              reason: orphan.terminate ? 'OrphanTerminated' : 'OrphanFound',
              message,
            },
          )
        }
      } catch (error) {
        // One class with bad credentials must not stop the others.
        log.warn({ machineClass: name, err: String(error) }, 'orphan sweep failed for this class')
      }
    }
  }
  return reported
}
