import { describe, expect, it } from 'vitest'
import {
  apiVersionOf,
  collectionPath,
  coreTypes,
  objectPath,
  queryString,
  type ResourceType,
} from '../../../src/kube/resource'

const widget: ResourceType = {
  group: 'example.dev',
  version: 'v1',
  kind: 'Widget',
  plural: 'widgets',
  namespaced: true,
}

describe('resource paths', () => {
  it.each([
    [
      'a core namespaced list',
      collectionPath(coreTypes.configMap, 'ns'),
      '/api/v1/namespaces/ns/configmaps',
    ],
    ['a core list across namespaces', collectionPath(coreTypes.pod), '/api/v1/pods'],
    ['a cluster-scoped object', objectPath(coreTypes.node, { name: 'n1' }), '/api/v1/nodes/n1'],
    [
      'a custom object status',
      objectPath(widget, { namespace: 'ns', name: 'w' }, 'status'),
      '/apis/example.dev/v1/namespaces/ns/widgets/w/status',
    ],
  ])('builds %s', (_situation, actual, expected) => {
    expect(actual).toBe(expected)
  })

  it('refuses a namespaced object without a namespace', () => {
    expect(() => objectPath(widget, { name: 'w' })).toThrow(/namespace/)
  })

  it('names the apiVersion of core and grouped types', () => {
    expect(apiVersionOf(coreTypes.node)).toBe('v1')
    expect(apiVersionOf(widget)).toBe('example.dev/v1')
  })

  it('omits undefined and empty query values', () => {
    expect(queryString({ limit: 5, continue: undefined, labelSelector: '' })).toBe('?limit=5')
    expect(queryString({})).toBe('')
  })
})
