import { describe, expect, it } from 'vitest'
import {
  guessPlural,
  remediationRequest,
  requestMarker,
  requestType,
} from '../../../../src/reconcile/machine-health-check/external'

const ref = {
  apiVersion: 'remediation.example.com/v1alpha1',
  kind: 'RebootRemediationTemplate',
  name: 'reboot',
}

describe('external remediation requests', () => {
  it.each([
    ['RebootRemediation', 'rebootremediations'],
    ['Box', 'boxes'],
    ['Policy', 'policies'],
    ['Gateway', 'gateways'],
  ])('plural of %s is %s', (kind, plural) => {
    expect(guessPlural(kind)).toBe(plural)
  })

  it('addresses requests of the template kind minus "Template"', () => {
    expect(requestType(ref)).toEqual({
      group: 'remediation.example.com',
      version: 'v1alpha1',
      kind: 'RebootRemediation',
      plural: 'rebootremediations',
      namespaced: true,
    })
  })

  it('names the request after the Machine, owned by it, with the template spec', () => {
    const template = { spec: { template: { spec: { strategy: 'hard' } } } }
    const machine = {
      name: 'm1',
      uid: 'u1',
      namespace: 'ns',
      apiVersion: 'machine-api.dev/v1beta1',
    }
    expect(remediationRequest(ref, template, machine)).toEqual({
      apiVersion: 'remediation.example.com/v1alpha1',
      kind: 'RebootRemediation',
      metadata: {
        name: 'm1',
        namespace: 'ns',
        ownerReferences: [
          { apiVersion: 'machine-api.dev/v1beta1', kind: 'Machine', name: 'm1', uid: 'u1' },
        ],
      },
      spec: { strategy: 'hard' },
    })
    expect(requestMarker(ref, 'm1')).toBe('RebootRemediation/m1')
  })
})
