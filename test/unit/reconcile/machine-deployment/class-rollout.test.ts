/**
 * A MachineDeployment rolls to a new MachineSet when its MachineClass's content changes, when
 * spec.rolloutAfter passes (once), and never on an upgrade from sets hashed from the template alone
 * (on the pass that records their class on them, nor on any pass after it).
 */
import { describe, expect, it } from 'vitest'
import { ANNOTATIONS } from '../../../../src/api/group'
import { applyMergePatch } from '../../../../src/kube/merge-patch'
import { rolloutBudgetReason } from '../../../../src/reconcile/machine-deployment/disruption'
import { desiredMachineSet } from '../../../../src/reconcile/machine-deployment/machine-sets'
import {
  type DeploymentPlan,
  planMachineDeployment,
} from '../../../../src/reconcile/machine-deployment/plan'
import { newSetAnnotations } from '../../../../src/reconcile/machine-deployment/rollout-facts'
import {
  classCopyIsStale,
  rolloutTarget,
} from '../../../../src/reconcile/machine-deployment/rollout-target'
import { templateHash } from '../../../../src/reconcile/machine-deployment/template-hash'
import type { MachineSetObject } from '../../../../src/reconcile/machine-set/types'
import { classContentHash } from '../../../../src/reconcile/shared/class-content'
import { deployment, now, setFor } from './builders'

function machineClass(instanceType: string, generation = 1) {
  return {
    metadata: { name: 'a', generation },
    spec: { provider: 'aws', providerSpec: { instanceType, ami: { id: 'ami-1' } } },
  }
}

/** The set of deployment(replicas, 'a') built from `cls`, created at `created`. */
function classSet(
  cls: ReturnType<typeof machineClass> & { status?: { image: { id: string } } },
  options: { revision?: number; replicas?: number; created?: string; rolloutAfter?: string } = {},
): MachineSetObject {
  const replicas = options.replicas ?? 3
  const md = deployment(replicas)
  const hash = templateHash(md.spec.template, {
    classHash: classContentHash(cls),
    rolloutAfter: options.rolloutAfter,
  })
  const set = desiredMachineSet(md, hash, options.revision ?? 1, replicas)
  set.metadata.uid = `uid-${hash}`
  set.metadata.generation = 1
  set.status = {
    replicas,
    availableReplicas: replicas,
    readyReplicas: replicas,
    observedGeneration: 1,
  }
  set.metadata.annotations = { ...set.metadata.annotations, ...newSetAnnotations(cls, undefined) }
  set.metadata.creationTimestamp = options.created ?? '2026-11-01T00:00:00Z'
  return set
}

/** `set` with the patches `plan` makes to it applied, as the apiserver would return it. */
function afterPatches(set: MachineSetObject, plan: DeploymentPlan): MachineSetObject {
  const next = structuredClone(set)
  for (const action of plan.actions) {
    if (action.type === 'patch-set' && action.set === set) applyMergePatch(next, action.patch)
    if (action.type === 'scale-set' && action.set === set) next.spec.replicas = action.to
  }
  return next
}

describe('rolling a deployment to its MachineClass', () => {
  it('a newer image the class follows rolls with reason ImageChanged', () => {
    const withImage = (id: string) => ({ ...machineClass('t3.micro'), status: { image: { id } } })
    const plan = planMachineDeployment({
      deployment: deployment(3),
      sets: [classSet(withImage('ami-1'))],
      machineClass: withImage('ami-2'),
      now,
    })
    expect(plan.cause).toEqual({
      reason: 'ImageChanged',
      message: 'MachineClass a has a newer image (image ami-1 -> ami-2)',
    })
  })

  it('a class change makes a new set whose Event says what changed', () => {
    const old = classSet(machineClass('t3.micro'))
    const plan = planMachineDeployment({
      deployment: deployment(3),
      sets: [old],
      machineClass: machineClass('m5.xlarge', 2),
      now,
    })
    const create = plan.actions.find((a) => a.type === 'create-set')
    expect(create?.type === 'create-set' && create.rollout).toEqual({
      reason: 'ClassChanged',
      message: 'MachineClass a changed (instanceType t3.micro -> m5.xlarge)',
      outdated: 3,
      onDelete: false,
    })
    expect(create?.set.metadata.annotations?.[ANNOTATIONS.classGeneration]).toBe('2')
    expect(create?.set.spec.replicas).toBe(1)
    // The old set is marked, and copies the mark to its Machines (their UpToDate condition).
    const mark = plan.actions.find((a) => a.type === 'patch-set' && a.set === old)
    const annotations = (mark?.type === 'patch-set' && mark.patch.metadata) as {
      annotations?: Record<string, string>
    }
    expect(JSON.parse(annotations.annotations?.[ANNOTATIONS.outdated] ?? '{}')).toEqual({
      reason: 'ClassChanged',
      message: 'MachineClass a changed (instanceType t3.micro -> m5.xlarge)',
    })
    expect(plan.cause?.reason).toBe('ClassChanged')
    expect(rolloutBudgetReason(create?.set)).toBe('Drift')
  })

  it('an unchanged class (a credentials edit moves only its generation) rolls nothing', () => {
    const old = classSet(machineClass('t3.micro'))
    const plan = planMachineDeployment({
      deployment: deployment(3),
      sets: [old],
      machineClass: machineClass('t3.micro', 3),
      now,
    })
    expect(plan.actions.map((a) => a.type)).toEqual(['patch-set'])
  })

  it('a run not handed the class keeps the set its template was built from', () => {
    const old = classSet(machineClass('t3.micro'))
    const plan = planMachineDeployment({ deployment: deployment(3), sets: [old], now })
    expect(plan.actions.filter((a) => a.type !== 'patch-set')).toEqual([])
    expect(plan.current).toBe(old)
    expect(plan.classNeeded).toBeUndefined()
  })

  it('a set of an earlier version (template hash only) stays current: an upgrade rolls nothing', () => {
    const legacy = setFor('a', 1, 3)
    const plan = planMachineDeployment({
      deployment: deployment(3),
      sets: [legacy],
      machineClass: machineClass('t3.micro'),
      now,
    })
    expect(plan.actions.map((a) => a.type)).toEqual(['patch-set'])
    expect(plan.current).toBe(legacy)
  })

  it.each([
    ['no rolloutAfter', deployment(3)],
    ['a rolloutAfter still to come', deployment(3, 'a', { rolloutAfter: '2026-12-02T00:00:00Z' })],
  ])(
    'a set of an earlier version stays current on the passes after its class is recorded (%s)',
    (_, md) => {
      const legacy = setFor('a', 1, 3)
      const cls = machineClass('t3.micro')
      const first = planMachineDeployment({
        deployment: md,
        sets: [legacy],
        machineClass: cls,
        now,
      })
      expect(first.current).toBe(legacy)
      const adopted = afterPatches(legacy, first)
      expect(adopted.metadata.annotations?.[ANNOTATIONS.classHash]).toBe(classContentHash(cls))
      // The next passes: handed the class (its change, the sweep), or not (the deployment's own).
      for (const machineClass of [cls, undefined, null]) {
        const again = planMachineDeployment({ deployment: md, sets: [adopted], machineClass, now })
        expect(again.actions.map((a) => a.type)).not.toContain('create-set')
        expect(again.current).toBe(adopted)
        expect(again.classNeeded).toBeUndefined()
      }
    },
  )

  it('a set of an earlier version rolls on a later class change, once its class is recorded', () => {
    const legacy = setFor('a', 1, 3)
    const md = deployment(3)
    const first = planMachineDeployment({
      deployment: md,
      sets: [legacy],
      machineClass: machineClass('t3.micro'),
      now,
    })
    const adopted = afterPatches(legacy, first)
    const plan = planMachineDeployment({
      deployment: md,
      sets: [adopted],
      machineClass: machineClass('m5.xlarge', 2),
      now,
    })
    const create = plan.actions.find((a) => a.type === 'create-set')
    expect(create?.type === 'create-set' && create.rollout).toEqual({
      reason: 'ClassChanged',
      message: 'MachineClass a changed (instanceType t3.micro -> m5.xlarge)',
      outdated: 3,
      onDelete: false,
    })
  })

  it('a class that cannot be read (deleted for a while) rolls nothing', () => {
    const old = classSet(machineClass('t3.micro'))
    const plan = planMachineDeployment({
      deployment: deployment(3),
      sets: [old],
      machineClass: null,
      now,
    })
    expect(plan.actions.filter((a) => a.type !== 'patch-set')).toEqual([])
    expect(plan.current).toBe(old)
  })

  it('a copy of the class older than a set was built from is stale', () => {
    const old = classSet(machineClass('m5.xlarge', 4))
    expect(classCopyIsStale([old], machineClass('t3.micro', 3))).toBe(true)
    expect(classCopyIsStale([old], machineClass('m5.xlarge', 4))).toBe(false)
  })
})

describe('spec.rolloutAfter', () => {
  const cls = machineClass('t3.micro')
  const after = '2026-12-01T09:00:00Z'
  const md = deployment(3, 'a', { rolloutAfter: after })

  it('waits until the time, then rolls the sets created before it once', () => {
    const old = classSet(cls, { created: '2026-11-01T00:00:00Z' })
    const early = rolloutTarget(md, [old], {
      machineClass: cls,
      now: new Date('2026-12-01T08:00:00Z'),
    })
    expect(early).toMatchObject({ existing: old, wakeAfterMs: 3_600_000 })
    const due = rolloutTarget(md, [old], { machineClass: cls, now })
    expect(due.existing).toBeUndefined()
    expect(due.cause?.reason).toBe('RolloutAfter')
    const made = classSet(cls, { revision: 2, created: now.toISOString(), rolloutAfter: after })
    const later = rolloutTarget(md, [old, made], { machineClass: cls, now })
    expect(later.existing).toBe(made)
  })

  it('a set created after the time is not rolled', () => {
    const young = classSet(cls, { created: '2026-12-01T09:30:00Z' })
    const target = rolloutTarget(md, [young], { machineClass: cls, now })
    expect(target.existing).toBe(young)
    expect(target.cause).toBeUndefined()
  })
})
