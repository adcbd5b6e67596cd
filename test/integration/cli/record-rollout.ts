/**
 * @module Records what the real MachineDeployment and MachineSet controllers do, pass by pass, as
 * plan entries: MachineSet creations, replica changes and deletions, Machine creations and
 * deletions. A pass that changes MachineSets starts a step; Machine changes join the current one.
 */
import { revisionOf } from '../../../src/reconcile/machine-deployment/machine-sets'
import { listMachines } from '../../../src/reconcile/machine-set/reconcile'
import { controllerOf } from '../../../src/reconcile/machine-set/types'
import type { ReconcileDeps } from '../../../src/reconcile/runtime/controller'
import { waitFor } from '../../harness/kube'
import { pass, readDeployment, rolledOut } from '../machine-deployment/drive'

/** The comparable part of a plan entry. */
export type RecordedEntry =
  | { type: 'create-set'; set: string; revision: number; replicas: number }
  | { type: 'scale-set'; set: string; from: number; to: number }
  | { type: 'delete-set'; set: string }
  | { type: 'create-machine' | 'delete-machine'; set: string; machine: string }

interface Snapshot {
  sets: Map<string, { revision: number; replicas: number }>
  machines: Map<string, string>
}

async function snapshot(deps: ReconcileDeps, namespace: string, name: string): Promise<Snapshot> {
  const { sets } = await readDeployment(deps, namespace, name)
  const machines = await listMachines(deps.kube, namespace)
  return {
    sets: new Map(
      sets.map((s) => [
        s.metadata.name,
        { revision: revisionOf(s), replicas: s.spec.replicas ?? 0 },
      ]),
    ),
    machines: new Map(machines.map((m) => [m.metadata.name, controllerOf(m)?.name ?? ''])),
  }
}

function diff(before: Snapshot, after: Snapshot): RecordedEntry[] {
  const entries: RecordedEntry[] = []
  for (const [set, now] of after.sets) {
    const was = before.sets.get(set)
    if (!was) entries.push({ type: 'create-set', set, ...now })
    else if (was.replicas !== now.replicas) {
      entries.push({ type: 'scale-set', set, from: was.replicas, to: now.replicas })
    }
  }
  for (const set of before.sets.keys()) {
    if (!after.sets.has(set)) entries.push({ type: 'delete-set', set })
  }
  for (const [machine, set] of after.machines) {
    if (!before.machines.has(machine)) entries.push({ type: 'create-machine', set, machine })
  }
  for (const [machine, set] of before.machines) {
    if (!after.machines.has(machine)) entries.push({ type: 'delete-machine', set, machine })
  }
  return entries
}

/**
 * Drives the deployment pass by pass (Machines marked ready after each, as the MD tests do) until
 * it is rolled out and a pass changes nothing; returns the steps and the sets that existed before.
 */
export async function recordRollout(
  deps: ReconcileDeps,
  namespace: string,
  name: string,
): Promise<{ steps: RecordedEntry[][]; setsBefore: Set<string> }> {
  let before = await snapshot(deps, namespace, name)
  const setsBefore = new Set(before.sets.keys())
  const steps: RecordedEntry[][] = []
  await waitFor(
    `MachineDeployment ${name} to roll out`,
    async () => {
      await pass(deps, namespace, name)
      const after = await snapshot(deps, namespace, name)
      const entries = diff(before, after)
      before = after
      const setLevel = entries.some((e) => !e.type.endsWith('-machine'))
      const last = steps.at(-1)
      if (setLevel || (!last && entries.length > 0)) steps.push(entries)
      else last?.push(...entries)
      const { md, sets } = await readDeployment(deps, namespace, name)
      const settled = sets.every((s) => (s.status?.replicas ?? 0) === (s.spec.replicas ?? 0))
      return entries.length === 0 && rolledOut(md) && settled
    },
    { intervalMs: 20, timeoutMs: 100_000 },
  )
  return { steps, setsBefore }
}
