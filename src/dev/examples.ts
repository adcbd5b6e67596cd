/**
 * @module The demo's example objects: a namespace, a MachineClass (aws on moto, or kwok), a
 * 3-replica MachineDeployment and a MachineHealthCheck for it.
 */

import { HUB_API_VERSION } from '../api/group'
import type { KubeObject } from '../kube/resource'

export const demoNamespace = 'demo'
const apiVersion = HUB_API_VERSION

/** The objects to create, in order, for `provider`. */
export function demoObjects(options: { provider: 'aws' | 'kwok'; amiId?: string }): KubeObject[] {
  const ns = demoNamespace
  const aws = options.provider === 'aws'
  const objects: KubeObject[] = [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }]
  if (aws) {
    objects.push({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { namespace: ns, name: 'aws-credentials' },
      // moto accepts any keys; a real install would hold an access key here (or use IRSA).
      stringData: { aws_access_key_id: 'AKIADEMO00000000', aws_secret_access_key: 'demo-secret' },
    })
  }
  objects.push({
    apiVersion,
    kind: 'MachineClass',
    metadata: { namespace: ns, name: 'small' },
    spec: aws
      ? {
          provider: 'aws',
          providerSpec: {
            region: 'eu-west-1',
            ami: { id: options.amiId },
            // t3.micro first, t3.small where EC2 has no t3.micro; one default subnet per zone,
            // which the MachineClass lists in status.zones for the set to balance over.
            instanceTypes: ['t3.micro', 't3.small'],
            // Spot first, as fleets run: `dev interrupt` then shows the interrupted offering in
            // the class's status.unavailableOfferings and its replacement running on-demand.
            capacityTypes: ['spot', 'on-demand'],
            spot: {},
            subnets: [{ filters: [{ name: 'default-for-az', values: ['true'] }] }],
            tags: { environment: 'demo' },
          },
          credentialsSecretRef: { name: 'aws-credentials' },
        }
      : { provider: 'kwok', providerSpec: {} },
  })
  objects.push({
    apiVersion,
    kind: 'MachineDeployment',
    metadata: { namespace: ns, name: 'workers' },
    spec: {
      replicas: 3,
      selector: { matchLabels: { pool: 'workers' } },
      template: {
        metadata: { labels: { pool: 'workers' } },
        spec: {
          classRef: { name: 'small' },
          metadata: { labels: { 'node-role.kubernetes.io/worker': '' } },
          nodeDrainTimeout: '2m',
        },
      },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
    },
  })
  objects.push({
    apiVersion,
    kind: 'MachineHealthCheck',
    metadata: { namespace: ns, name: 'workers' },
    spec: {
      selector: { matchLabels: { pool: 'workers' } },
      unhealthyConditions: [
        { type: 'Ready', status: 'False', timeout: '1m' },
        { type: 'Ready', status: 'Unknown', timeout: '1m' },
      ],
      nodeStartupTimeout: '5m',
      maxUnhealthy: '40%',
    },
  })
  return objects
}
