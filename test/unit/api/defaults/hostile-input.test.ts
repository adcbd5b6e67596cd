/**
 * Defaulting fills what is absent and never replaces what is there with the wrong type (issue 33:
 * a string selector was silently replaced by the default, and the object admitted), nor derives a
 * selector value Kubernetes would refuse from a name longer than 63 characters.
 */
import { describe, expect, it } from 'vitest'
import { defaultObject } from '../../../../src/api/defaults/default-object'
import { HUB_API_VERSION } from '../../../../src/api/group'
import { validateObject } from '../../../../src/api/validation/validate'
import { builtInProviderSpecSchemas } from '../../../../src/providers/schemas'

type Obj = Record<string, unknown>
const spec = { providerSpec: { provider: 'kwok', value: {} } }

function set(kind: 'MachineSet' | 'MachineDeployment', name: string, extra: Obj): Obj {
  return {
    apiVersion: HUB_API_VERSION,
    kind,
    metadata: { name, namespace: 'ns' },
    spec: { replicas: 1, template: { spec }, ...extra },
  }
}

const specOf = (object: Obj) => object.spec as Obj

describe('defaulting of hostile input', () => {
  it.each([
    ['MachineSet', 'a string selector', { selector: 'app=web' }, 'selector', 'app=web'],
    ['MachineSet', 'a list selector', { selector: [] }, 'selector', []],
    [
      'MachineDeployment',
      'a string strategy',
      { selector: {}, strategy: 'fast' },
      'strategy',
      'fast',
    ],
  ] as const)(
    '%s: leaves %s as it is, and validation refuses it',
    (kind, _, extra, field, value) => {
      const defaulted = defaultObject(kind, set(kind, 'web', extra), undefined)
      expect(specOf(defaulted)[field]).toEqual(value)
      const errors = validateObject(kind, defaulted, undefined, {
        providerSchemas: builtInProviderSpecSchemas,
      })
      expect(errors.map((e) => e.path)).toContain(`spec.${field}`)
    },
  )

  it('leaves template labels that are not a map as they are', () => {
    const object = set('MachineSet', 'web', {
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: 'app=web' }, spec },
    })
    const defaulted = defaultObject('MachineSet', object, undefined)
    expect((specOf(defaulted).template as Obj).metadata).toEqual({ labels: 'app=web' })
  })

  it.each([
    ['MachineSet', 'machine-api.dev/set-name'],
    ['MachineDeployment', 'machine-api.dev/deployment-name'],
  ] as const)('%s named with 63 characters gets a selector of its name', (kind, key) => {
    const name = 'a'.repeat(63)
    const defaulted = defaultObject(kind, set(kind, name, { selector: {} }), undefined)
    expect(specOf(defaulted).selector).toEqual({ matchLabels: { [key]: name } })
  })

  it.each(['MachineSet', 'MachineDeployment'] as const)(
    '%s named with 64 characters gets no selector, and validation asks for one',
    (kind) => {
      const defaulted = defaultObject(kind, set(kind, 'a'.repeat(64), { selector: {} }), undefined)
      expect(specOf(defaulted).selector).toEqual({})
      const errors = validateObject(kind, defaulted, undefined, {
        providerSchemas: builtInProviderSpecSchemas,
      })
      expect(errors).toContainEqual({
        path: 'spec.selector',
        message: 'Required value: the selector must not be empty',
      })
    },
  )
})
