/**
 * When /validate looks a MachineClass up for its "does not exist (yet)" warning: once where a user
 * writes the reference, not again for an update that keeps it nor for a MachineSet's own
 * Machines; and a bad provider spec is denied with its field path all the same.
 */
import { describe, expect, it } from 'vitest'
import { HUB_API_VERSION } from '../../../../src/api/group'
import { validate } from '../../../../src/webhooks/admission/validate'
import type { AdmissionRequest } from '../../../../src/webhooks/review'
import { machine, machineSet, testProviderSchemas } from '../reviews'

type Obj = Record<string, unknown>

const withClass = machine({ providerSpec: undefined, classRef: { name: 'small' } })

const setOwner = {
  apiVersion: HUB_API_VERSION,
  kind: 'MachineSet',
  name: 'web',
  uid: '6c3f0e52-1d5e-4b7e-9a43-6f0c3a1d2b10',
  controller: true,
}

function withOwners(object: Obj, ownerReferences: Obj[]): Obj {
  return { ...object, metadata: { ...(object.metadata as Obj), ownerReferences } }
}

function request(
  object: Obj,
  options: { operation?: 'CREATE' | 'UPDATE'; old?: Obj } = {},
): AdmissionRequest {
  return {
    uid: 'r1',
    kind: { group: 'machine-api.dev', version: 'v1beta1', kind: String(object.kind) },
    operation: options.operation ?? 'CREATE',
    namespace: 'default',
    object,
    ...(options.old ? { oldObject: options.old } : {}),
  }
}

/** Validates `req` with a lookup that finds no class; returns the lookups and the warnings. */
async function lookups(req: AdmissionRequest) {
  const asked: string[] = []
  const response = await validate(req, {
    providerSchemas: testProviderSchemas,
    machineClassExists: async (namespace, name) => {
      asked.push(`${namespace}/${name}`)
      return false
    },
  })
  return { asked, warnings: response.warnings ?? [], allowed: response.allowed }
}

describe('/validate MachineClass lookups', () => {
  it.each([
    ['a Machine a user creates', request(withClass)],
    [
      'a Machine whose owner is a set but not its controller',
      request(withOwners(withClass, [{ ...setOwner, controller: false }])),
    ],
    [
      'an update that changes the class',
      request(withClass, {
        operation: 'UPDATE',
        old: machine({ providerSpec: undefined, classRef: { name: 'large' } }),
      }),
    ],
    [
      'an update that moves from an inline spec to a class',
      request(withClass, { operation: 'UPDATE', old: machine() }),
    ],
    [
      'a MachineSet a user creates',
      request(
        machineSet({
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { classRef: { name: 'small' } },
          },
        }),
      ),
    ],
  ])('looks the class up once for %s', async (_, req) => {
    const { asked, warnings, allowed } = await lookups(req)
    expect(allowed).toBe(true)
    expect(asked).toEqual(['default/small'])
    expect(warnings[0]).toContain('MachineClass "small" does not exist')
  })

  it.each([
    ['a Machine its MachineSet creates', request(withOwners(withClass, [setOwner]))],
    [
      'an update that keeps the class (the providerID recorded)',
      request(
        machine({
          providerSpec: undefined,
          classRef: { name: 'small' },
          providerID: 'kwok://default.m1',
        }),
        { operation: 'UPDATE', old: withClass },
      ),
    ],
  ])('does not look the class up for %s', async (_, req) => {
    const { asked, allowed } = await lookups(req)
    expect(allowed).toBe(true)
    expect(asked).toEqual([])
  })

  it("still denies a set's Machine with a bad inline provider spec, with its field path", async () => {
    const bad = machine({ providerSpec: { provider: 'test', value: { instanceType: '' } } })
    const { allowed, asked } = await lookups(request(withOwners(bad, [setOwner])))
    expect(allowed).toBe(false)
    expect(asked).toEqual([])
    const response = await validate(request(withOwners(bad, [setOwner])), {
      providerSchemas: testProviderSchemas,
    })
    expect(response.status?.message).toContain('spec.providerSpec.value.instanceType')
  })
})
