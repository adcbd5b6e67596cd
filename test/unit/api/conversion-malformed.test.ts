/**
 * Admission converts objects before the apiserver's schema checks them (matchPolicy Equivalent),
 * so conversion must not crash on a malformed object: it passes the broken part through and the
 * schema then refuses it with a 422 naming the field. Found by the bad-input chaos scenario: a
 * v1alpha1 MachineSet without spec.template made /convert throw, and the apiserver answered 500.
 */
import { describe, expect, it } from 'vitest'
import { convertObject } from '../../../src/api/conversion/convert'
import { HUB_API_VERSION, SPOKE_API_VERSION } from '../../../src/api/group'

function setWith(kind: string, apiVersion: string, spec: Record<string, unknown>) {
  return { apiVersion, kind, metadata: { name: 'x', namespace: 'default' }, spec }
}

const selector = { matchLabels: { app: 'a' } }

describe('conversion of sets with a malformed template', () => {
  it.each([
    ['MachineSet', SPOKE_API_VERSION, HUB_API_VERSION],
    ['MachineSet', HUB_API_VERSION, SPOKE_API_VERSION],
    ['MachineDeployment', SPOKE_API_VERSION, HUB_API_VERSION],
    ['MachineDeployment', HUB_API_VERSION, SPOKE_API_VERSION],
  ])('%s %s -> %s without template keeps it absent', (kind, from, to) => {
    const converted = convertObject(setWith(kind, from, { replicas: 1, selector }), to)
    expect(converted.apiVersion).toBe(to)
    expect(converted.spec).not.toHaveProperty('template')
    expect(converted.spec).toMatchObject({ replicas: 1, selector })
  })

  it.each([
    ['MachineSet', SPOKE_API_VERSION, HUB_API_VERSION],
    ['MachineDeployment', HUB_API_VERSION, SPOKE_API_VERSION],
  ])('%s %s -> %s with a template without spec passes it through', (kind, from, to) => {
    const template = { metadata: { labels: { app: 'a' } } }
    const converted = convertObject(setWith(kind, from, { selector, template }), to)
    expect((converted.spec as { template: unknown }).template).toEqual(template)
  })

  it('a template that is not an object passes through for the schema to refuse', () => {
    const converted = convertObject(
      setWith('MachineSet', SPOKE_API_VERSION, { selector, template: 'none' }),
      HUB_API_VERSION,
    )
    expect((converted.spec as { template: unknown }).template).toBe('none')
  })
})
