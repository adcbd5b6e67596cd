/**
 * @module Makes the real apiserver refuse some Nodes, the way it refuses a Node with an invalid
 * label or quantity: a ValidatingAdmissionPolicy on Node creation, matching only Nodes labelled
 * `refuseNodeLabel=<value>`, so nothing else in a shared control plane is touched.
 */
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node'
import type { KubeClient } from '../../src/kube/kube-client'
import type { ResourceType } from '../../src/kube/resource'
import { ignoreNotFound, waitFor } from './kube'
import { kwokNode } from './nodes'

/** The Node label a refusal policy matches on. */
export const refuseNodeLabel = 'machine-api-test/refuse'

const admission = (kind: string, plural: string): ResourceType => ({
  group: 'admissionregistration.k8s.io',
  version: 'v1',
  kind,
  plural,
  namespaced: false,
})
const policyType = admission('ValidatingAdmissionPolicy', 'validatingadmissionpolicies')
const bindingType = admission(
  'ValidatingAdmissionPolicyBinding',
  'validatingadmissionpolicybindings',
)

/**
 * Refuses every new Node labelled `refuseNodeLabel=<value>` with `reason` (Forbidden: 403,
 * Invalid: 422) and `message`; resolves once the apiserver does. The returned function lifts it.
 */
export async function refuseNodes(
  deps: { kube: KubeClient; kc: KubeConfig },
  value: string,
  reason: 'Forbidden' | 'Invalid',
  message: string,
): Promise<() => Promise<void>> {
  const name = `refuse-nodes-${value}`
  await deps.kube.create(policyType, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: {
        resourceRules: [
          { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['nodes'] },
        ],
      },
      matchConditions: [
        {
          name: 'marked',
          expression: `has(object.metadata.labels) && object.metadata.labels['${refuseNodeLabel}'] == '${value}'`,
        },
      ],
      validations: [{ expression: 'false', message, reason }],
    },
  })
  await deps.kube.create(bindingType, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name },
    spec: { policyName: name, validationActions: ['Deny'] },
  })
  // The apiserver loads a new policy within about a second.
  const core = deps.kc.makeApiClient(CoreV1Api)
  const probe = `probe-${value}`
  await waitFor('the policy to refuse Nodes', async () => {
    try {
      await core.createNode({ body: kwokNode(probe, { labels: { [refuseNodeLabel]: value } }) })
    } catch {
      return true
    }
    await core.deleteNode({ name: probe }).catch(ignoreNotFound)
    return false
  })
  return async () => {
    await deps.kube.delete(bindingType, { name }).catch(ignoreNotFound)
    await deps.kube.delete(policyType, { name }).catch(ignoreNotFound)
  }
}
