/**
 * @module Plays the kubelet (and the cloud node controller) of every EC2 instance machine-api
 * launched, for the demo: moto runs no VMs, so this registers a Node per running instance with
 * the instance's providerID and IP, annotated for kwok to keep it Ready, and deletes the Node of
 * an instance that is gone. Honest simulation: nothing here is used outside `npm run dev`.
 */
import { DescribeInstancesCommand, type EC2Client, type Instance } from '@aws-sdk/client-ec2'
import type { V1Node } from '@kubernetes/client-node'
import { LABELS } from '../api/group'
import { hasKubeReason } from '../kube/errors'
import type { KubeClient } from '../kube/kube-client'
import { listPages } from '../kube/paged-list'
import { coreTypes, type KubeObject } from '../kube/resource'
import type { Logger } from '../observability/logger'
import { mapConcurrently } from '../pool'
import { kubernetesArch } from '../providers/aws/capacity'
import { formatAwsProviderID } from '../providers/aws/provider-id'
import { tagKeys } from '../providers/aws/tags'

/**
 * The Node a running instance registers (named by its private DNS name), labelled as the
 * kubelet (hostname, os, arch) and the cloud node controller (instance type, zone, region) label
 * it, so Pods selecting those labels schedule as on EC2. `region` is the EC2 client's.
 */
export function nodeForInstance(instance: Instance, region?: string): V1Node | undefined {
  const id = instance.InstanceId
  const zone = instance.Placement?.AvailabilityZone
  const ip = instance.PrivateIpAddress
  if (!id || !zone || !ip) return undefined
  // The kubelet on EC2 registers under the private DNS name (what the Machine controller links by).
  const name = instance.PrivateDnsName || `ip-${ip.replaceAll('.', '-')}.ec2.internal`
  // The AMIs machine-api launches are Linux; EC2 reports no OS on the instance.
  const arch = kubernetesArch(instance.Architecture ?? '')
  return {
    metadata: {
      name,
      labels: {
        [LABELS.simulatedBy]: 'ec2-node-simulator',
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'beta.kubernetes.io/os': 'linux',
        ...(arch ? { 'kubernetes.io/arch': arch, 'beta.kubernetes.io/arch': arch } : {}),
        'node.kubernetes.io/instance-type': instance.InstanceType ?? 'unknown',
        'topology.kubernetes.io/zone': zone,
        ...(region ? { 'topology.kubernetes.io/region': region } : {}),
      },
      annotations: { 'kwok.x-k8s.io/node': 'fake' },
    },
    spec: { providerID: formatAwsProviderID(zone, id) },
    status: { addresses: [{ type: 'InternalIP', address: ip }] },
  }
}

/** One pass: a Node for every running instance, no Node for an instance that is gone. */
export async function syncSimulatedNodes(options: {
  ec2: EC2Client
  kube: KubeClient
  log: Logger
}): Promise<void> {
  const region = await options.ec2.config.region()
  const wanted = new Map<string, V1Node>()
  // Every page: EC2 (and moto) answer 100 reservations at a time, and an instance missed on a
  // later page would have its Node deleted as if it were gone.
  let token: string | undefined
  do {
    const out = await options.ec2.send(
      new DescribeInstancesCommand({
        Filters: [
          { Name: 'tag-key', Values: [tagKeys.machineUid] },
          { Name: 'instance-state-name', Values: ['running'] },
        ],
        // EC2's largest page: a fleet of 1,000 in one call instead of ten (moto filters the
        // whole fleet for each page).
        MaxResults: 1000,
        NextToken: token,
      }),
    )
    for (const instance of (out.Reservations ?? []).flatMap((r) => r.Instances ?? [])) {
      const node = nodeForInstance(instance, region)
      if (node?.metadata?.name) wanted.set(node.metadata.name, node)
    }
    token = out.NextToken
  } while (token)
  const existing = new Set<string>()
  for await (const page of listPages<V1Node & KubeObject>(options.kube, coreTypes.node, {
    labelSelector: LABELS.simulatedBy,
  })) {
    for (const node of page.items) {
      const name = node.metadata?.name ?? ''
      existing.add(name)
      if (!wanted.has(name)) {
        await options.kube.delete(coreTypes.node, { name })
        options.log.info({ node: name }, 'instance gone; simulated Node deleted')
      }
    }
  }
  const missing = [...wanted].filter(([name]) => !existing.has(name))
  // A few at once: a scale-up of hundreds registers in seconds, as kubelets would.
  await mapConcurrently(missing, 8, async ([name, node]) => {
    try {
      await options.kube.create(coreTypes.node, {
        apiVersion: 'v1',
        kind: 'Node',
        ...node,
      } as KubeObject)
      options.log.info(
        { node: name, providerID: node.spec?.providerID },
        'simulated Node registered',
      )
    } catch (error) {
      if (!hasKubeReason(error, 'AlreadyExists')) throw error
    }
  })
}

/** Runs `syncSimulatedNodes` every `periodMs` until the returned stop function is called. */
export function startEc2NodeSimulator(options: {
  ec2: EC2Client
  kube: KubeClient
  log: Logger
  periodMs?: number
}): () => void {
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  const tick = async () => {
    try {
      await syncSimulatedNodes(options)
    } catch (error) {
      options.log.warn({ err: String(error) }, 'node simulator pass failed')
    }
    if (!stopped) timer = setTimeout(tick, options.periodMs ?? 2000)
  }
  void tick()
  return () => {
    stopped = true
    if (timer) clearTimeout(timer)
  }
}
