/**
 * The desired object of `plan`: read from YAML (one MachineDeployment/MachineSet among other
 * documents, v1alpha1 converted), defaulted as the webhook would (replicas left out keep the live
 * value), validated with every field error listed, and carrying the live object's identity.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { desiredObject, readManifest } from '../../../../src/cli/plan/desired'

function file(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'machine-api-plan-')), 'm.yaml')
  writeFileSync(path, text)
  return path
}

const deployment = `apiVersion: machine-api.dev/v1beta1
kind: MachineDeployment
metadata: {name: workers}
spec:
  selector: {matchLabels: {md: workers}}
  template:
    metadata: {labels: {md: workers}}
    spec: {classRef: {name: small}}
`

describe('readManifest', () => {
  it('picks the one MachineDeployment among other documents', () => {
    const path = file(`apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n---\n${deployment}`)
    const { kind, object } = readManifest(path)
    expect(kind).toBe('MachineDeployment')
    expect((object.metadata as { name: string }).name).toBe('workers')
  })

  it.each([
    { text: `${deployment}---\n${deployment}`, message: 'found 2' },
    { text: 'kind: [', message: 'm.yaml:' },
  ])('rejects $message', ({ text, message }) => {
    expect(() => readManifest(file(text))).toThrow(message)
  })
})

describe('desiredObject', () => {
  const manifest = () => readManifest(file(deployment)).object

  it('defaults a new object as the webhook would and gives it a planned uid', () => {
    const object = desiredObject('MachineDeployment', manifest(), {
      live: undefined,
      namespace: 'team-a',
    })
    expect(object).toMatchObject({
      metadata: { name: 'workers', namespace: 'team-a', uid: 'planned-workers', generation: 1 },
      spec: {
        replicas: 1,
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      },
    })
  })

  it('keeps the live replicas when the manifest leaves them out, and the live uid', () => {
    const live = {
      ...manifest(),
      metadata: { name: 'workers', namespace: 'team-a', uid: 'u-1', generation: 7 },
      spec: { ...(manifest().spec as object), replicas: 5 },
    }
    const object = desiredObject('MachineDeployment', manifest(), { live, namespace: 'team-a' })
    expect(object).toMatchObject({ metadata: { uid: 'u-1', generation: 7 }, spec: { replicas: 5 } })
  })

  it('reads YAML as kubectl does (1.1: a bare y is a boolean) and reports the result', () => {
    const { object } = readManifest(file(deployment.replace('name: small', 'name: y')))
    expect(() =>
      desiredObject('MachineDeployment', object, { live: undefined, namespace: 'ns' }),
    ).toThrow('spec.template.spec.classRef.name')
  })

  it('lists what the admission webhook would reject', () => {
    const bad = manifest()
    ;(bad.spec as { template: { metadata: object } }).template.metadata = {
      labels: { md: 'other' },
    }
    expect(() =>
      desiredObject('MachineDeployment', bad, { live: undefined, namespace: 'ns' }),
    ).toThrow(/would reject this MachineDeployment:\n {2}spec\./)
  })
})
