/** /convert: ConversionReview v1 in both directions, order and identity kept, failures reported. */
import { describe, expect, it } from 'vitest'
import { type Loose, machine, post, testApp } from './reviews'

function review(desiredAPIVersion: string, objects: unknown[]) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'ConversionReview',
    request: { uid: 'u-1', desiredAPIVersion, objects },
  }
}

describe('/convert', () => {
  it('converts v1beta1 to v1alpha1 and back, in order, keeping uids', async () => {
    const app = testApp()
    const objects = [
      machine({ nodeDrainTimeout: '5m' }, 'a'),
      machine({ providerSpec: undefined, classRef: { name: 'small' } }, 'b'),
    ].map((m, i) => ({ ...m, metadata: { ...(m.metadata as object), uid: `uid-${i}` } }))
    const down = await post(app, '/convert', review('machine-api.dev/v1alpha1', objects))
    const response = down.body.response as {
      uid: string
      result: { status: string }
      convertedObjects: Loose[]
    }
    expect(response.uid).toBe('u-1')
    expect(response.result.status).toBe('Success')
    expect(response.convertedObjects.map((o) => o.metadata?.uid)).toEqual(['uid-0', 'uid-1'])
    expect(response.convertedObjects[1]?.spec?.providerSpec).toEqual({
      valueFrom: { machineClass: { name: 'small' } },
    })
    expect(response.convertedObjects[0]?.spec?.versions).toEqual({ kubelet: '' })

    const up = await post(
      app,
      '/convert',
      review('machine-api.dev/v1beta1', response.convertedObjects),
    )
    expect((up.body.response as { convertedObjects: unknown[] }).convertedObjects).toEqual(objects)
  })

  it('fails the review, naming the object, when one cannot be converted', async () => {
    const answer = await post(
      testApp(),
      '/convert',
      review('machine-api.dev/v1alpha1', [machine(), { kind: 'Pod', apiVersion: 'v1' }]),
    )
    expect(answer.status).toBe(200)
    const response = answer.body.response as { result: { status: string; message: string } }
    expect(response.result).toEqual({
      status: 'Failure',
      message: expect.stringContaining('objects[1]: kind'),
    })
  })

  it('fails on an unknown desired version', async () => {
    const answer = await post(testApp(), '/convert', review('machine-api.dev/v9', [machine()]))
    expect((answer.body.response as { result: { status: string } }).result.status).toBe('Failure')
  })
})
