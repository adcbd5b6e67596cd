/**
 * @module Source fleets as their controllers leave them, for adoption tests: the Cluster API,
 * CAPA and OpenShift CRDs (same group, version, kind and plural as upstream; open schemas), and a
 * fleet of each kind whose instances run on moto with the tags CAPA and OpenShift put on them,
 * status filled, finalizers set, a kwok Node per instance and a Pod on each Node.
 */
import { type EC2Client, RunInstancesCommand } from '@aws-sdk/client-ec2'
import { sourceTypes } from '../../src/adopt/source-types'
import { hasKubeReason } from '../../src/kube/errors'
import type { KubeClient } from '../../src/kube/kube-client'
import { coreTypes, type KubeObject, type ResourceType } from '../../src/kube/resource'
import { waitFor } from './kube'
import { kwokNodeAnnotation } from './nodes'

/** Installs the source CRDs (idempotent) and waits until each is served. */
export async function installSourceCrds(kube: KubeClient): Promise<void> {
  const open = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }
  for (const type of Object.values(sourceTypes)) {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `${type.plural}.${type.group}` },
      spec: {
        group: type.group,
        scope: 'Namespaced',
        names: { kind: type.kind, plural: type.plural, singular: type.kind.toLowerCase() },
        versions: [
          {
            name: type.version,
            served: true,
            storage: true,
            subresources: { status: {} },
            schema: {
              openAPIV3Schema: { type: 'object', properties: { spec: open, status: open } },
            },
          },
        ],
      },
    }
    await kube.create(coreTypes.customResourceDefinition, crd).catch((error: unknown) => {
      if (!hasKubeReason(error, 'AlreadyExists')) throw error
    })
  }
  for (const type of Object.values(sourceTypes)) {
    await waitFor(`${type.plural} served`, async () => {
      try {
        await kube.list(type, { namespace: 'default', limit: 1 })
        return true
      } catch {
        return false
      }
    })
  }
}

/**
 * Removes the source CRDs again: their plurals (machines, machinesets...) are machine-api's too,
 * so while they are installed a bare `kubectl get machines` may pick another group.
 */
export async function uninstallSourceCrds(kube: KubeClient): Promise<void> {
  for (const type of Object.values(sourceTypes)) {
    await kube.delete(coreTypes.customResourceDefinition, { name: `${type.plural}.${type.group}` })
  }
}

/**
 * Removes a fleet that was not adopted: its source objects in `namespace` (finalizers stripped, as
 * their controllers would), its Pods and its Nodes. Its instances stay as they are.
 */
export async function removeSourceFleet(
  kube: KubeClient,
  namespace: string,
  fleet: SourceFleet,
): Promise<void> {
  for (const type of Object.values(sourceTypes)) {
    for (const obj of (await kube.list<KubeObject>(type, { namespace })).items) {
      const ref = { namespace, name: obj.metadata?.name ?? '' }
      await kube.mergePatch(type, ref, { metadata: { finalizers: null } })
      await kube.delete(type, ref)
    }
  }
  for (const pod of fleet.pods) await kube.delete(coreTypes.pod, { namespace, name: pod.name })
  for (const name of fleet.nodeNames) await kube.delete(coreTypes.node, { name })
}

/** What a created fleet is made of. */
export interface SourceFleet {
  instanceIds: string[]
  nodeNames: string[]
  pods: { name: string; uid: string }[]
  machineNames: string[]
}

interface FleetOptions {
  kube: KubeClient
  ec2: EC2Client
  namespace: string
  name: string
  replicas: number
  amiId: string
  tags: (i: number) => Record<string, string>
}

const zones = ['eu-west-1a', 'eu-west-1b', 'eu-west-1c']

/** Launches the instances (spread over three zones) and registers a Node and a Pod for each. */
async function launch(
  options: FleetOptions,
): Promise<{ ids: string[]; zones: string[]; nodes: string[]; pods: SourceFleet['pods'] }> {
  const ids: string[] = []
  const where: string[] = []
  const nodes: string[] = []
  const pods: SourceFleet['pods'] = []
  for (let i = 0; i < options.replicas; i++) {
    const zone = zones[i % zones.length] as string
    const out = await options.ec2.send(
      new RunInstancesCommand({
        ImageId: options.amiId,
        InstanceType: 't3.micro',
        MinCount: 1,
        MaxCount: 1,
        Placement: { AvailabilityZone: zone },
        TagSpecifications: [
          {
            ResourceType: 'instance',
            Tags: Object.entries(options.tags(i)).map(([Key, Value]) => ({ Key, Value })),
          },
        ],
      }),
    )
    const instance = out.Instances?.[0]
    const id = instance?.InstanceId ?? ''
    // The kubelet on EC2 registers under the private DNS name, which the Machine controller reads.
    const node = instance?.PrivateDnsName ?? ''
    await options.kube.create(coreTypes.node, {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: node, annotations: { [kwokNodeAnnotation]: 'fake' } },
      spec: { providerID: `aws:///${zone}/${id}` },
    })
    const pod = await options.kube.create<KubeObject>(coreTypes.pod, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `work-${options.name}-${i}`, namespace: options.namespace },
      spec: { nodeName: node, containers: [{ name: 'app', image: 'app:1' }] },
    })
    ids.push(id)
    where.push(zone)
    nodes.push(node)
    pods.push({ name: pod.metadata?.name ?? '', uid: pod.metadata?.uid ?? '' })
  }
  return { ids, zones: where, nodes, pods }
}

async function withStatus(kube: KubeClient, type: ResourceType, obj: KubeObject, status: object) {
  const created = await kube.create<KubeObject>(type, obj)
  const ref = { namespace: created.metadata?.namespace ?? '', name: created.metadata?.name ?? '' }
  await kube.mergePatch(type, ref, { status }, { subresource: 'status' })
  return created
}

const owner = (obj: KubeObject) => ({
  apiVersion: obj.apiVersion ?? '',
  kind: obj.kind ?? '',
  name: obj.metadata?.name ?? '',
  uid: obj.metadata?.uid ?? '',
  controller: true,
  blockOwnerDeletion: true,
})

/** A CAPI MachineDeployment backed by CAPA with `replicas` running Machines. */
export async function createCapiFleet(options: Omit<FleetOptions, 'tags'>): Promise<SourceFleet> {
  const { kube, namespace: ns, name } = options
  const cluster = 'legacy'
  const machineNames = Array.from({ length: options.replicas }, (_, i) => `${name}-abcde-${i}`)
  const launched = await launch({
    ...options,
    tags: (i) => ({
      Name: machineNames[i] ?? '',
      [`sigs.k8s.io/cluster-api-provider-aws/cluster/${cluster}`]: 'owned',
      'sigs.k8s.io/cluster-api-provider-aws/role': 'node',
      [`kubernetes.io/cluster/${cluster}`]: 'owned',
    }),
  })
  const infraSpec = {
    instanceType: 't3.micro',
    ami: { id: options.amiId },
    sshKeyName: '',
  }
  await kube.create(sourceTypes.awsMachineTemplate, {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
    kind: 'AWSMachineTemplate',
    metadata: { name, namespace: ns },
    spec: { template: { spec: infraSpec } },
  })
  const labels = {
    'cluster.x-k8s.io/cluster-name': cluster,
    'cluster.x-k8s.io/deployment-name': name,
  }
  const templateSpec = {
    clusterName: cluster,
    version: 'v1.34.0',
    bootstrap: { dataSecretName: `${name}-bootstrap` },
    infrastructureRef: {
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
      kind: 'AWSMachineTemplate',
      name,
    },
  }
  const md = await withStatus(
    kube,
    sourceTypes.capiDeployment,
    {
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'MachineDeployment',
      metadata: { name, namespace: ns, finalizers: ['cluster.x-k8s.io/machinedeployment'] },
      spec: {
        clusterName: cluster,
        replicas: options.replicas,
        selector: { matchLabels: labels },
        template: { metadata: { labels }, spec: templateSpec },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      },
    },
    { replicas: options.replicas, readyReplicas: options.replicas, phase: 'Running' },
  )
  const ms = await withStatus(
    kube,
    sourceTypes.capiSet,
    {
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'MachineSet',
      metadata: {
        name: `${name}-abcde`,
        namespace: ns,
        labels: { ...labels, 'cluster.x-k8s.io/set-name': `${name}-abcde` },
        ownerReferences: [owner(md)],
        finalizers: ['cluster.x-k8s.io/machineset'],
      },
      spec: {
        clusterName: cluster,
        replicas: options.replicas,
        selector: { matchLabels: labels },
        template: { metadata: { labels }, spec: templateSpec },
      },
    },
    { replicas: options.replicas, readyReplicas: options.replicas },
  )
  for (const [i, machineName] of machineNames.entries()) {
    const providerID = `aws:///${launched.zones[i]}/${launched.ids[i]}`
    const machine = await withStatus(
      kube,
      sourceTypes.capiMachine,
      {
        apiVersion: 'cluster.x-k8s.io/v1beta1',
        kind: 'Machine',
        metadata: {
          name: machineName,
          namespace: ns,
          labels,
          ownerReferences: [owner(ms)],
          finalizers: ['machine.cluster.x-k8s.io'],
        },
        spec: {
          ...templateSpec,
          providerID,
          failureDomain: launched.zones[i],
          infrastructureRef: {
            ...templateSpec.infrastructureRef,
            kind: 'AWSMachine',
            name: machineName,
          },
        },
      },
      {
        phase: 'Running',
        nodeRef: { kind: 'Node', name: launched.nodes[i] },
        bootstrapReady: true,
        infrastructureReady: true,
      },
    )
    await withStatus(
      kube,
      sourceTypes.awsMachine,
      {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
        kind: 'AWSMachine',
        metadata: {
          name: machineName,
          namespace: ns,
          ownerReferences: [owner(machine)],
          finalizers: ['awsmachine.infrastructure.cluster.x-k8s.io'],
        },
        spec: { ...infraSpec, providerID, instanceID: launched.ids[i] },
      },
      { ready: true, instanceState: 'running' },
    )
  }
  return { instanceIds: launched.ids, nodeNames: launched.nodes, pods: launched.pods, machineNames }
}

/** An OpenShift MachineSet with the AWS providerSpec and `replicas` running Machines. */
export async function createOpenShiftFleet(
  options: Omit<FleetOptions, 'tags'> & { zone: string },
): Promise<SourceFleet> {
  const { kube, namespace: ns, name } = options
  const infraId = 'legacy-x7k2p'
  const machineNames = Array.from({ length: options.replicas }, (_, i) => `${name}-${i}`)
  const launched = await launch({
    ...options,
    tags: (i) => ({ Name: machineNames[i] ?? '', [`kubernetes.io/cluster/${infraId}`]: 'owned' }),
  })
  const value = {
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'AWSMachineProviderConfig',
    ami: { id: options.amiId },
    instanceType: 't3.micro',
    placement: { region: 'eu-west-1' },
    subnet: { filters: [{ name: 'default-for-az', values: ['true'] }] },
    credentialsSecret: { name: 'aws' },
    tags: [{ name: `kubernetes.io/cluster/${infraId}`, value: 'owned' }],
    deviceIndex: 0,
  }
  const labels = {
    'machine.openshift.io/cluster-api-cluster': infraId,
    'machine.openshift.io/cluster-api-machineset': name,
  }
  const set = await withStatus(
    kube,
    sourceTypes.openshiftSet,
    {
      apiVersion: 'machine.openshift.io/v1beta1',
      kind: 'MachineSet',
      metadata: { name, namespace: ns },
      spec: {
        replicas: options.replicas,
        selector: { matchLabels: labels },
        template: { metadata: { labels }, spec: { providerSpec: { value } } },
      },
    },
    { replicas: options.replicas, readyReplicas: options.replicas },
  )
  for (const [i, machineName] of machineNames.entries()) {
    await withStatus(
      kube,
      sourceTypes.openshiftMachine,
      {
        apiVersion: 'machine.openshift.io/v1beta1',
        kind: 'Machine',
        metadata: {
          name: machineName,
          namespace: ns,
          labels,
          ownerReferences: [owner(set)],
          finalizers: ['machine.machine.openshift.io'],
        },
        spec: {
          providerID: `aws:///${launched.zones[i]}/${launched.ids[i]}`,
          providerSpec: { value },
        },
      },
      {
        phase: 'Running',
        nodeRef: { kind: 'Node', name: launched.nodes[i] },
        providerStatus: {
          apiVersion: 'machine.openshift.io/v1beta1',
          kind: 'AWSMachineProviderStatus',
          instanceId: launched.ids[i],
          instanceState: 'running',
        },
      },
    )
  }
  return { instanceIds: launched.ids, nodeNames: launched.nodes, pods: launched.pods, machineNames }
}

/** Instances nobody manages (a self-made node group), with their Nodes and Pods. */
export async function createUnmanagedInstances(
  options: Omit<FleetOptions, 'tags'> & { tags: Record<string, string> },
): Promise<SourceFleet> {
  const launched = await launch({
    ...options,
    tags: (i) => ({ Name: `${options.name}-${i}`, ...options.tags }),
  })
  return {
    instanceIds: launched.ids,
    nodeNames: launched.nodes,
    pods: launched.pods,
    machineNames: [],
  }
}
