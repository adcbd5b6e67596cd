/**
 * @module The event-loss scenario's drive for one phase: a MachineSet scaled 0 -> N (with a lone
 * Machine created alongside) -> M (the lone Machine deleted) -> 0, waiting at each checkpoint for
 * the fleet to match. Each request goes to the namespace's audit, and each checkpoint is one of its
 * looks, so a Machine created or launched twice shows even when it was cleaned up later.
 */
import { DescribeInstancesCommand, type EC2Client, type Instance } from '@aws-sdk/client-ec2'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { KubeClient } from '../../../src/kube/kube-client'
import type { KubeObject } from '../../../src/kube/resource'
import { tagKeys } from '../../../src/providers/aws/tags'
import { waitFor } from '../../harness/kube'
import type { RunAudit } from './audit'
import { chaosClassName, chaosMachineSet } from './aws-world'

type Machine = KubeObject & { status?: { phase?: string; nodeRef?: { name?: string } } }

/** What one checkpoint saw once converged (or at its bound). */
export interface Checkpoint {
  step: string
  /** Machines of the phase that exist. */
  machines: number
  /** Live (not terminated) instances of the phase. */
  liveInstances: number
  converged: boolean
  ms: number
}

/** One phase's record: what each checkpoint saw. */
export interface PhaseLedger {
  checkpoints: Checkpoint[]
}

function tag(instance: Instance, key: string): string | undefined {
  return instance.Tags?.find((t) => t.Key === key)?.Value
}

/** Every instance (any state) of Machines of `namespace` whose name starts with `prefix-`. */
async function phaseInstances(ec2: EC2Client, namespace: string, prefix: string) {
  const out = await ec2.send(
    new DescribeInstancesCommand({
      Filters: [{ Name: `tag:${tagKeys.machineNamespace}`, Values: [namespace] }],
    }),
  )
  return (out.Reservations ?? [])
    .flatMap((r) => r.Instances ?? [])
    .filter((i) => tag(i, tagKeys.machineName)?.startsWith(`${prefix}-`))
}

/**
 * Runs the phase's steps; each waits up to `boundMs` for its Machines to be exactly the wanted
 * ones, all Running with a Node, and for exactly that many live instances.
 */
export async function drivePhase(options: {
  kube: KubeClient
  ec2: EC2Client
  namespace: string
  prefix: string
  scale: { n: number; m: number }
  boundMs: number
  /** The namespace's audit: every request goes to its intents, every checkpoint is a look. */
  audit: RunAudit
  log: (message: string) => void
}): Promise<PhaseLedger> {
  const { kube, ec2, namespace, prefix } = options
  const { intents } = options.audit
  const lone = `machine/${prefix}-lone`
  const setRef = { namespace, name: prefix }
  const loneRef = { namespace, name: `${prefix}-lone` }
  const checkpoints: Checkpoint[] = []

  const observe = async () => {
    const machines = (
      await kube.list<Machine>(machineApiTypes.machine, { namespace })
    ).items.filter((m) => m.metadata?.name?.startsWith(`${prefix}-`))
    const live = (await phaseInstances(ec2, namespace, prefix)).filter(
      (i) => i.State?.Name !== 'terminated' && i.State?.Name !== 'shutting-down',
    )
    return { machines, live }
  }
  const checkpoint = async (step: string, wanted: number, lone: boolean) => {
    const started = performance.now()
    let seen = await observe()
    const matches = () =>
      seen.machines.length === wanted + (lone ? 1 : 0) &&
      seen.live.length === seen.machines.length &&
      seen.machines.every(
        (m) => !m.metadata?.deletionTimestamp && m.status?.phase === 'Running' && m.status.nodeRef,
      ) &&
      seen.machines.some((m) => m.metadata?.name === loneRef.name) === lone
    const converged = await waitFor(
      `${prefix}: ${step}`,
      async () => {
        seen = await observe()
        return matches()
      },
      { timeoutMs: options.boundMs, intervalMs: 250 },
    ).catch(() => false)
    const ms = Math.round(performance.now() - started)
    checkpoints.push({
      step,
      machines: seen.machines.length,
      liveInstances: seen.live.length,
      converged,
      ms,
    })
    options.log(`${prefix}: ${step} ${converged ? 'converged' : 'NOT converged'} in ${ms} ms`)
    await options.audit.checkpoint()
  }

  const { n, m } = options.scale
  await kube.create(machineApiTypes.machineSet, chaosMachineSet(namespace, prefix, 0))
  intents.want(prefix, n)
  await kube.mergePatch(machineApiTypes.machineSet, setRef, { spec: { replicas: n } })
  intents.want(lone, 1)
  await kube.create(machineApiTypes.machine, {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'Machine',
    metadata: loneRef,
    spec: { classRef: { name: chaosClassName }, nodeDeletionTimeout: '10s' },
  } as KubeObject)
  await checkpoint(`0 -> ${n} and a lone Machine`, n, true)
  intents.want(prefix, m)
  await kube.mergePatch(machineApiTypes.machineSet, setRef, { spec: { replicas: m } })
  intents.want(lone, 0)
  await kube.delete(machineApiTypes.machine, loneRef)
  await checkpoint(`${n} -> ${m}, lone Machine deleted`, m, false)
  intents.want(prefix, 0)
  await kube.mergePatch(machineApiTypes.machineSet, setRef, { spec: { replicas: 0 } })
  await checkpoint(`${m} -> 0`, 0, false)
  await kube.delete(machineApiTypes.machineSet, setRef)
  return { checkpoints }
}
