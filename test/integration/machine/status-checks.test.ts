/**
 * EC2 instance status checks against moto's real EC2 and the real control plane: the sweep's
 * status-check pass asks DescribeInstanceStatus once for all Running aws Machines of a class,
 * records a failing system check on the Machine it belongs to (and nothing on the healthy one),
 * the Machine reconcile turns that into StatusChecksPassed False, passing checks turn it True
 * again, and a MachineHealthCheck selecting on the condition (`unhealthyMachineConditions`)
 * remediates the Machine. moto always reports `ok`; the fault proxy rewrites its real answer so
 * the chosen instance's system check reads `impaired` (test/harness/moto/impaired-status.ts).
 */
import { CreateSubnetCommand, CreateVpcCommand } from '@aws-sdk/client-ec2'
import { CoreV1Api } from '@kubernetes/client-node'
import { beforeAll, describe, expect, it } from 'vitest'
import { instanceStatusChecksAnnotation } from '../../../src/api/instance-status-checks'
import { machineApiTypes } from '../../../src/api/resource-types'
import { systemClock } from '../../../src/clock'
import { coreTypes, type KubeObject } from '../../../src/kube/resource'
import { silentLogger } from '../../../src/observability/logger'
import { parseAwsProviderID } from '../../../src/providers/aws/provider-id'
import { awsProviderSpecSchema } from '../../../src/providers/aws/spec'
import { createProviderRegistry } from '../../../src/providers/registry'
import { reconcileMachine } from '../../../src/reconcile/machine/reconcile'
import { sweepStatusChecks } from '../../../src/reconcile/machine/status-check-sweep'
import { machineHealthCheckController } from '../../../src/reconcile/machine-health-check/reconcile'
import { waitFor } from '../../harness/kube'
import { impairedStatusChecks } from '../../harness/moto/impaired-status'
import { kwokNodeAnnotation } from '../../harness/nodes'
import { awsCredentialsSecret, useFaultyMoto } from '../providers/aws-fixture'
import { machineCondition, machineDeps, readMachine, useMachineTestApi } from './fixture'

const moto = useFaultyMoto()
const { api, namespace, kube } = useMachineTestApi('aws', { aws: awsProviderSpecSchema() })
const setLabels = { 'machine-api.dev/set-name': 'workers' }
let setUid = ''
const nodes: string[] = []

function deps() {
  return {
    ...machineDeps(kube(), createProviderRegistry([moto().provider])),
    providerCallTimeoutMs: 5000,
  }
}

function sweep() {
  return sweepStatusChecks({
    kube: kube(),
    providers: createProviderRegistry([moto().provider]),
    log: silentLogger(),
    fieldManager: 'machine-api-test',
    now: () => new Date(),
    namespace: namespace(),
  })
}

beforeAll(async () => {
  const ns = namespace()
  // A VPC of its own: its instances' private DNS names (the Node names) are this file's alone.
  const vpc = await moto().ec2.send(new CreateVpcCommand({ CidrBlock: '10.79.0.0/16' }))
  await moto().ec2.send(
    new CreateSubnetCommand({
      VpcId: vpc.Vpc?.VpcId,
      CidrBlock: '10.79.1.0/24',
      AvailabilityZone: 'eu-west-1a',
      TagSpecifications: [
        { ResourceType: 'subnet', Tags: [{ Key: 'tier', Value: 'status-checks' }] },
      ],
    }),
  )
  await kube().create(coreTypes.secret, awsCredentialsSecret(ns))
  const { credentialsSecret: _c, subnet: _s, ...spec } = moto().baseSpec
  await kube().create(machineApiTypes.machineClass, {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineClass',
    metadata: { namespace: ns, name: 'standard' },
    spec: {
      provider: 'aws',
      providerSpec: {
        ...spec,
        subnet: { filters: [{ name: 'tag:tier', values: ['status-checks'] }] },
      },
      credentialsSecretRef: { name: 'aws' },
    },
  })
  // The set the Machines belong to: remediation deletes only set-owned Machines.
  const set = await kube().create<KubeObject>(machineApiTypes.machineSet, {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineSet',
    metadata: { namespace: ns, name: 'workers' },
    spec: {
      replicas: 0,
      selector: { matchLabels: setLabels },
      template: { metadata: { labels: setLabels }, spec: { classRef: { name: 'standard' } } },
    },
  })
  setUid = set.metadata?.uid ?? ''
  return async () => {
    const core = api().kc.makeApiClient(CoreV1Api)
    for (const name of nodes) await core.deleteNode({ name }).catch(() => {})
  }
})

/** A set-owned Machine of the class, launched and linked to a Node: Running. */
async function runningMachine(name: string) {
  const ns = namespace()
  await kube().create(machineApiTypes.machine, {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'Machine',
    metadata: {
      namespace: ns,
      name,
      labels: setLabels,
      ownerReferences: [
        {
          apiVersion: 'machine-api.dev/v1beta1',
          kind: 'MachineSet',
          name: 'workers',
          uid: setUid,
          controller: true,
        },
      ],
    },
    spec: { classRef: { name: 'standard' } },
  })
  const key = { kind: 'Machine', namespace: ns, name }
  await reconcileMachine(deps(), key)
  const provisioned = await readMachine(kube(), ns, name)
  const providerID = provisioned?.spec.providerID ?? ''
  const instanceId = parseAwsProviderID(providerID) ?? ''
  const [instance] = await moto().tagged(provisioned?.metadata.uid ?? '')
  const nodeName = instance?.PrivateDnsName ?? ''
  // Play the kubelet: a Node with the instance's providerID under its private DNS name.
  await api()
    .kc.makeApiClient(CoreV1Api)
    .createNode({
      body: {
        metadata: { name: nodeName, annotations: { [kwokNodeAnnotation]: 'fake' } },
        spec: { providerID },
      },
    })
  nodes.push(nodeName)
  await reconcileMachine(deps(), key)
  expect((await readMachine(kube(), ns, name))?.status?.phase).toBe('Running')
  return { key, instanceId }
}

describe('EC2 status checks', () => {
  it('a failing system check becomes StatusChecksPassed False on its Machine, one call for both, and clears when it passes', async () => {
    const ns = namespace()
    const sick = await runningMachine('sick')
    const well = await runningMachine('well')
    moto().proxy.clear()
    moto().proxy.rewrite(
      impairedStatusChecks([sick.instanceId], 'systemStatus', new Date('2026-12-04T10:00:00Z')),
    )

    const report = await sweep()
    expect(report).toMatchObject({ checked: 2, failing: 1, recorded: 1, errors: 0 })
    expect(moto().proxy.counts().DescribeInstanceStatus).toBe(1)
    const recorded = await readMachine(kube(), ns, 'sick')
    expect(recorded?.metadata.annotations?.[instanceStatusChecksAnnotation]).toBeDefined()
    expect(
      (await readMachine(kube(), ns, 'well'))?.metadata.annotations?.[
        instanceStatusChecksAnnotation
      ],
    ).toBeUndefined()
    // A second sweep with the same answer writes nothing.
    expect(await sweep()).toMatchObject({ failing: 1, recorded: 0 })

    await reconcileMachine(deps(), sick.key)
    const failed = machineCondition(await readMachine(kube(), ns, 'sick'), 'StatusChecksPassed')
    expect(failed).toMatchObject({ status: 'False', reason: 'SystemCheckFailed' })
    expect(failed?.message).toContain('2026-12-04T10:00:00.000Z')
    await reconcileMachine(deps(), well.key)
    expect(
      machineCondition(await readMachine(kube(), ns, 'well'), 'StatusChecksPassed'),
    ).toBeUndefined()

    moto().proxy.clearFaults()
    expect(await sweep()).toMatchObject({ failing: 0, recorded: 1 })
    await reconcileMachine(deps(), sick.key)
    const passed = await readMachine(kube(), ns, 'sick')
    expect(passed?.metadata.annotations?.[instanceStatusChecksAnnotation]).toBeUndefined()
    expect(machineCondition(passed, 'StatusChecksPassed')).toMatchObject({
      status: 'True',
      reason: 'ChecksPassed',
    })
  })

  it('a MachineHealthCheck on StatusChecksPassed=False remediates the Machine', async () => {
    const ns = namespace()
    const sick = await runningMachine('impaired')
    moto().proxy.rewrite(impairedStatusChecks([sick.instanceId], 'instanceStatus', new Date()))
    expect(await sweep()).toMatchObject({ recorded: 1 })
    await reconcileMachine(deps(), sick.key)
    await kube().create(machineApiTypes.machineHealthCheck, {
      apiVersion: 'machine-api.dev/v1beta1',
      kind: 'MachineHealthCheck',
      metadata: { namespace: ns, name: 'status-checks' },
      spec: {
        selector: { matchLabels: setLabels },
        unhealthyMachineConditions: [
          { type: 'StatusChecksPassed', status: 'False', timeout: '1s' },
        ],
      },
    })
    const check = machineHealthCheckController()
    const checkDeps = {
      kube: kube(),
      clock: systemClock,
      log: silentLogger(),
      fieldManager: 'machine-api-test',
    }
    const deleting = await waitFor('the health check deletes the Machine', async () => {
      await check.reconcile(checkDeps, {
        kind: 'MachineHealthCheck',
        namespace: ns,
        name: 'status-checks',
      })
      const m = await readMachine(kube(), ns, 'impaired')
      return m?.metadata.deletionTimestamp ? m : undefined
    })
    expect(machineCondition(deleting, 'HealthCheckSucceeded')).toMatchObject({
      status: 'False',
      reason: 'UnhealthyMachineCondition',
    })
    // The other Machines' checks pass: not touched.
    expect((await readMachine(kube(), ns, 'well'))?.metadata.deletionTimestamp).toBeUndefined()
  })
})
