import { describe, expect, it } from 'vitest'
import { ANNOTATIONS } from '../../../../src/api/group'
import {
  CAPI_DEPLOYMENT_NAME_LABEL,
  CAPI_PAUSED_ANNOTATION,
  CAPI_REVISION_ANNOTATION,
  isPaused,
} from '../../../../src/reconcile/machine-deployment/autoscaler-keys'
import { planMachineDeployment } from '../../../../src/reconcile/machine-deployment/plan'
import { computeDeploymentStatus } from '../../../../src/reconcile/machine-deployment/status'
import { deployment, now, setFor } from './builders'

describe('the Cluster API keys cluster-autoscaler reads on MachineSets', () => {
  it('a new set carries the deployment name and both revision annotations', () => {
    const plan = planMachineDeployment({
      deployment: deployment(2, 'b'),
      sets: [setFor('a', 4, 2)],
    })
    const created = plan.actions.find((a) => a.type === 'create-set')?.set
    expect(created?.metadata.labels?.[CAPI_DEPLOYMENT_NAME_LABEL]).toBe('web')
    expect(created?.metadata.annotations?.[ANNOTATIONS.revision]).toBe('5')
    expect(created?.metadata.annotations?.[CAPI_REVISION_ANNOTATION]).toBe('5')
  })

  it('sets made before the keys existed get them by patch, and then no more patches', () => {
    const old = setFor('a', 1, 3)
    delete old.metadata.labels?.[CAPI_DEPLOYMENT_NAME_LABEL]
    delete old.metadata.annotations?.[CAPI_REVISION_ANNOTATION]
    const plan = planMachineDeployment({ deployment: deployment(3, 'a'), sets: [old] })
    expect(plan.actions).toEqual([
      {
        type: 'patch-set',
        set: old,
        patch: {
          metadata: {
            annotations: { [CAPI_REVISION_ANNOTATION]: '1' },
            labels: { [CAPI_DEPLOYMENT_NAME_LABEL]: 'web' },
          },
        },
      },
    ])
    const settled = planMachineDeployment({
      deployment: deployment(3, 'a'),
      sets: [setFor('a', 1, 3)],
    })
    expect(settled.actions).toEqual([])
  })

  it('a deployment name longer than a label value allows gets no label (and the rest still works)', () => {
    const md = deployment(1, 'a')
    md.metadata.name = 'w'.repeat(64)
    const plan = planMachineDeployment({ deployment: md, sets: [] })
    const created = plan.actions.find((a) => a.type === 'create-set')?.set
    expect(created?.metadata.labels?.[CAPI_DEPLOYMENT_NAME_LABEL]).toBeUndefined()
    expect(created?.metadata.annotations?.[CAPI_REVISION_ANNOTATION]).toBe('1')
  })
})

describe('the cluster.x-k8s.io/paused annotation', () => {
  const annotated = (value: string) => {
    const md = deployment(3, 'b')
    md.metadata.annotations = { [CAPI_PAUSED_ANNOTATION]: value }
    return md
  }

  it('pauses rollouts like spec.paused, whatever its value', () => {
    expect(isPaused(annotated(''))).toBe(true)
    expect(isPaused(annotated('false'))).toBe(true)
    expect(isPaused(deployment(3, 'b'))).toBe(false)
    const plan = planMachineDeployment({ deployment: annotated('true'), sets: [setFor('a', 1, 3)] })
    expect(plan.actions.some((a) => a.type === 'create-set')).toBe(false)
  })

  it('is named in the Paused condition', () => {
    const md = annotated('true')
    const sets = [setFor('a', 1, 3)]
    const plan = planMachineDeployment({ deployment: md, sets })
    const { status } = computeDeploymentStatus(md, sets, plan, now)
    const paused = status.conditions?.find((c) => c.type === 'Paused')
    expect(paused).toMatchObject({
      status: 'True',
      message: expect.stringContaining(CAPI_PAUSED_ANNOTATION),
    })
  })
})
