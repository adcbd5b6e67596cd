import { describe, expect, it } from 'vitest'
import { ANNOTATIONS, LABELS } from '../../../../src/api/group'
import { CAPI_REVISION_ANNOTATION } from '../../../../src/reconcile/machine-deployment/autoscaler-keys'
import {
  type DeploymentAction,
  planMachineDeployment,
} from '../../../../src/reconcile/machine-deployment/plan'
import type { MachineSetObject } from '../../../../src/reconcile/machine-set/types'
import { deployment, setFor } from './builders'

const cls = (s: MachineSetObject) => s.spec.template.spec.classRef?.name
/** The patch without the outdated mark old sets get (class-rollout.test.ts covers it). */
function withoutMark(patch: Record<string, unknown>): Record<string, unknown> | undefined {
  const meta = patch.metadata as { annotations?: Record<string, unknown> } | undefined
  if (!meta?.annotations || !(ANNOTATIONS.outdated in meta.annotations)) return patch
  const { [ANNOTATIONS.outdated]: _mark, ...annotations } = meta.annotations
  const metadata = { ...meta, annotations }
  if (Object.keys(annotations).length === 0)
    delete (metadata as { annotations?: unknown }).annotations
  const out = { ...patch, metadata }
  if (Object.keys(metadata).length === 0) delete (out as { metadata?: unknown }).metadata
  return Object.keys(out).length > 0 ? out : undefined
}

const summary = (actions: DeploymentAction[]) =>
  actions
    .map((a) => (a.type === 'patch-set' ? { ...a, patch: withoutMark(a.patch) } : a))
    .filter((a) => a.type !== 'patch-set' || a.patch !== undefined)
    .map((a) => {
      switch (a.type) {
        case 'create-set':
          return `create ${cls(a.set)}@${a.set.metadata.annotations?.[ANNOTATIONS.revision]}=${a.set.spec.replicas}`
        case 'scale-set':
          return `scale ${cls(a.set)}=${a.to}`
        case 'delete-set':
          return `delete ${cls(a.set)}`
        case 'patch-set':
          return `patch ${cls(a.set)} ${JSON.stringify(a.patch)}`
        case 'rollback':
          return `rollback ${a.revision} ${JSON.stringify(a.patch)}`
      }
      return ''
    })

describe('planMachineDeployment', () => {
  it.each<[string, ReturnType<typeof deployment>, MachineSetObject[], string[]]>([
    ['a new deployment creates its first set at full size', deployment(3), [], ['create a@1=3']],
    ['a settled deployment does nothing', deployment(3), [setFor('a', 1, 3)], []],
    [
      'a scale-up without a rollout grows the set',
      deployment(5),
      [setFor('a', 1, 3)],
      ['scale a=5'],
    ],
    [
      'a template change surges a new set within maxSurge',
      deployment(3, 'b'),
      [setFor('a', 1, 3)],
      ['create b@2=1'],
    ],
    [
      'old Machines go once new ones are available',
      deployment(3, 'b'),
      [setFor('a', 1, 3), setFor('b', 2, 1, 1, 1)],
      ['scale a=2'],
    ],
    [
      'paused: a template change creates nothing, but replicas still move',
      deployment(4, 'b', { paused: true }),
      [setFor('a', 1, 3)],
      ['scale a=4'],
    ],
    [
      'paused scale-down takes from the oldest set first',
      deployment(3, 'b', { paused: true }),
      [setFor('a', 1, 2), setFor('b', 2, 3)],
      ['scale a=0', 'scale b=3'].slice(0, 1),
    ],
    [
      'history beyond revisionHistoryLimit is deleted, oldest first',
      deployment(3, 'c'),
      [setFor('a', 1, 0), setFor('b', 2, 0), setFor('c', 3, 3)],
      ['delete a'],
    ],
    [
      'a revision that is not found only clears the request',
      deployment(3, 'a', { rollbackTo: { revision: 7 } }),
      [setFor('a', 1, 3)],
      ['rollback 7 undefined'],
    ],
  ])('%s', (_name, md, sets, expected) => {
    expect(summary(planMachineDeployment({ deployment: md, sets }).actions)).toEqual(expected)
  })

  it('rollbackTo 0 copies the previous template and clears the request', () => {
    const plan = planMachineDeployment({
      deployment: deployment(3, 'b', { rollbackTo: { revision: 0 } }),
      sets: [setFor('a', 1, 0), setFor('b', 2, 3)],
    })
    expect(plan.actions).toEqual([
      {
        type: 'rollback',
        revision: 1,
        patch: { spec: { template: { spec: { classRef: { name: 'a' } } }, rollbackTo: null } },
      },
    ])
  })

  it('an old template that becomes current again gets the next revision', () => {
    const plan = planMachineDeployment({
      deployment: deployment(3, 'a'),
      sets: [setFor('a', 1, 0, 0), setFor('b', 2, 3)],
    })
    expect(summary(plan.actions)).toEqual([
      `patch a {"metadata":{"annotations":{"${CAPI_REVISION_ANNOTATION}":"3","${ANNOTATIONS.revision}":"3"}}}`,
      'scale a=1',
    ])
  })

  it('OnDelete keeps old Machines, disables their re-creation and fills gaps with the new set', () => {
    const md = deployment(3, 'b', { strategy: { type: 'OnDelete' } })
    const first = planMachineDeployment({ deployment: md, sets: [setFor('a', 1, 3)] })
    expect(summary(first.actions)).toEqual([
      `patch a {"metadata":{"annotations":{"${ANNOTATIONS.disableMachineCreate}":"true"}}}`,
      'create b@2=0',
    ])
    const old = setFor('a', 1, 3, 2, 2)
    old.metadata.annotations = {
      ...old.metadata.annotations,
      [ANNOTATIONS.disableMachineCreate]: 'true',
    }
    const next = planMachineDeployment({ deployment: md, sets: [old, setFor('b', 2, 0)] })
    expect(summary(next.actions)).toEqual(['scale a=2', 'scale b=1'])
  })

  it('propagates template labels and deletePolicy to the current set without a new one', () => {
    const md = deployment(3, 'a')
    md.spec.template.metadata = { labels: { app: 'web', team: 'x' } }
    md.spec.strategy = { type: 'RollingUpdate', rollingUpdate: { deletePolicy: 'Oldest' } }
    const plan = planMachineDeployment({ deployment: md, sets: [setFor('a', 1, 3)] })
    expect(plan.actions).toEqual([
      expect.objectContaining({
        type: 'patch-set',
        patch: {
          spec: { deletePolicy: 'Oldest', template: { metadata: { labels: { team: 'x' } } } },
        },
      }),
    ])
  })

  it('copies the interruption policy to every set without a rollout, and drops it when removed', () => {
    const md = deployment(3, 'a', { interruption: { rebalanceRecommendation: 'Replace' } })
    const sets = [setFor('a', 1, 3)]
    const plan = planMachineDeployment({ deployment: md, sets })
    expect(summary(plan.actions)).toEqual([
      `patch a {"spec":{"interruption":{"rebalanceRecommendation":"Replace"}}}`,
    ])
    const replaced = { ...setFor('a', 1, 3) }
    replaced.spec = { ...replaced.spec, interruption: { rebalanceRecommendation: 'Replace' } }
    const removed = planMachineDeployment({ deployment: deployment(3, 'a'), sets: [replaced] })
    expect(summary(removed.actions)).toEqual([
      `patch a {"spec":{"interruption":{"rebalanceRecommendation":null}}}`,
    ])
    const [create] = planMachineDeployment({ deployment: md, sets: [] }).actions
    expect(create?.type === 'create-set' && create.set.spec.interruption).toEqual({
      rebalanceRecommendation: 'Replace',
    })
  })

  it('labels the new set and its template with the template hash', () => {
    const [create] = planMachineDeployment({ deployment: deployment(1), sets: [] }).actions
    if (create?.type !== 'create-set') throw new Error('expected a create')
    const hash = create.set.metadata.labels?.[LABELS.templateHash]
    expect(create.set.metadata.name).toBe(`web-${hash}`)
    expect(create.set.spec.selector.matchLabels).toEqual({
      app: 'web',
      [LABELS.templateHash]: hash,
    })
    expect(create.set.spec.template.metadata?.labels).toEqual({
      app: 'web',
      [LABELS.templateHash]: hash,
    })
    expect(create.set.metadata.ownerReferences?.[0]).toMatchObject({
      kind: 'MachineDeployment',
      uid: 'md-uid',
    })
  })
})
