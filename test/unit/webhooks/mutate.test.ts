/** /mutate: zod defaults and cross-field defaults arrive as a JSON patch that only adds. */
import { describe, expect, it } from 'vitest'
import {
  admissionBody,
  admissionResponse,
  applyPatch,
  type Loose,
  machine,
  machineSet,
  post,
  testApp,
} from './reviews'

async function mutate(
  object: Record<string, unknown>,
  options: Parameters<typeof admissionBody>[1] = {},
) {
  const answer = await post(testApp(), '/mutate', admissionBody(object, options))
  expect(answer.status).toBe(200)
  const response = admissionResponse(answer.body)
  expect(response.allowed).toBe(true)
  return applyPatch(object, response.patch) as Loose
}

describe('/mutate', () => {
  it('applies zod defaults to a Machine and keeps unknown fields', async () => {
    const object = { ...machine(), extra: { kept: true } }
    const defaulted = await mutate(object)
    expect(defaulted?.spec?.nodeDeletionTimeout).toBe('10s')
    expect(defaulted?.extra).toEqual({ kept: true })
  })

  it('ties an unselective MachineSet to itself through a set-name label', async () => {
    const defaulted = await mutate(
      machineSet({ selector: {}, replicas: undefined, template: { spec: machine().spec } }),
    )
    expect(defaulted?.spec?.selector).toEqual({
      matchLabels: { 'machine-api.dev/set-name': 'web' },
    })
    expect(defaulted?.spec?.template?.metadata?.labels).toEqual({
      'machine-api.dev/set-name': 'web',
    })
    expect(defaulted?.spec?.replicas).toBe(1)
    expect(defaulted?.spec?.deletePolicy).toBe('Random')
  })

  it('copies selector labels missing from the template', async () => {
    const defaulted = await mutate(
      machineSet({ template: { metadata: { labels: { tier: 'x' } }, spec: machine().spec } }),
    )
    expect(defaulted?.spec?.template?.metadata?.labels).toEqual({ tier: 'x', app: 'web' })
  })

  it('defaults a RollingUpdate deployment to maxSurge 1, maxUnavailable 0', async () => {
    const defaulted = await mutate(machineSet({}, 'MachineDeployment'))
    expect(defaulted?.spec?.strategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxSurge: 1, maxUnavailable: 0 },
    })
    expect(defaulted?.spec?.progressDeadlineSeconds).toBe(600)
  })

  it.each([
    ['create within bounds starts at min', undefined, 3],
    ['update keeps old replicas inside bounds', 4, 4],
    ['update clamps old replicas above max', 9, 5],
    ['update raises old replicas below min', 1, 3],
  ])('autoscaler bounds: %s', async (_situation, oldReplicas, expected) => {
    const annotations = {
      'machine-api.dev/cluster-api-autoscaler-node-group-min-size': '3',
      'machine-api.dev/cluster-api-autoscaler-node-group-max-size': '5',
    }
    const object = machineSet({ replicas: undefined })
    ;(object.metadata as Record<string, unknown>).annotations = annotations
    const old = oldReplicas === undefined ? undefined : machineSet({ replicas: oldReplicas })
    const defaulted = await mutate(object, old ? { operation: 'UPDATE', oldObject: old } : {})
    expect(defaulted?.spec?.replicas).toBe(expected)
  })

  it('sends no patch when nothing needs defaulting', async () => {
    const answer = await post(
      testApp(),
      '/mutate',
      admissionBody(machine({ nodeDeletionTimeout: '1m' })),
    )
    expect(admissionResponse(answer.body).patch).toBeUndefined()
  })
})
