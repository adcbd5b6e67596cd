/**
 * `machine-api adopt` on the real control plane and moto, with every controller running: a
 * 5-Machine Cluster API MachineDeployment, a 3-Machine OpenShift MachineSet and 4 tagged unmanaged
 * instances are taken over with no RunInstances and no TerminateInstances (counted at the proxy
 * every EC2 call goes through), each adopted Machine Running on its original Node and UpToDate,
 * the Pods on those Nodes untouched, the source objects released. The adopted deployment then
 * scales 5 -> 7 -> 3 through the normal paths (launches, drained removals), and a MachineClass
 * edit rolls it. Bad input (a missing source or instance, a source of the wrong shape, a Node
 * naming no instance, instances and Nodes another Machine holds) is refused with the object and
 * field, changing nothing.
 */
import { EC2Client, TerminateInstancesCommand } from '@aws-sdk/client-ec2'
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest'
import { type AdoptRequest, runAdoption } from '../../../src/adopt/run'
import { sourceTypes } from '../../../src/adopt/source-types'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { KubeClient } from '../../../src/kube/kube-client'
import { coreTypes, type KubeObject } from '../../../src/kube/resource'
import { silentLogger } from '../../../src/observability/logger'
import { awsProviderSpecSchema } from '../../../src/providers/aws/spec'
import { tagKeys } from '../../../src/providers/aws/tags'
import { createProviderRegistry } from '../../../src/providers/registry'
import type { MachineObject } from '../../../src/reconcile/machine-set/types'
import { realTimers } from '../../../src/timers'
import { waitFor } from '../../harness/kube'
import { useFileNamespace, useMachineApi } from '../../harness/machine-api'
import {
  createCapiFleet,
  createOpenShiftFleet,
  createUnmanagedInstances,
  installSourceCrds,
  removeSourceFleet,
  type SourceFleet,
  uninstallSourceCrds,
} from '../../harness/source-fleet'
import { playKubelet } from '../full-stack/aws-kubelet'
import { fullStackKube, startFullStack } from '../full-stack/fixture'
import { machinesOf } from '../full-stack/objects'
import { region, useFaultyMoto } from '../providers/aws-fixture'

const moto = useFaultyMoto()
const api = useMachineApi({
  providerSchemas: (name) => (name === 'aws' ? awsProviderSpecSchema() : undefined),
})
const ns = useFileNamespace(() => api().kc, 'adopt')
let kube: KubeClient
let ec2: EC2Client
beforeAll(async () => {
  kube = fullStackKube(api().kc)
  ec2 = new EC2Client({
    region,
    endpoint: moto().proxy.endpoint,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  })
  await installSourceCrds(kube)
  await kube.create(coreTypes.secret, {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { namespace: ns(), name: 'aws' },
    stringData: { aws_access_key_id: 'AKIAMOTO00000000', aws_secret_access_key: 'x' },
  })
})
afterAll(async () => {
  await uninstallSourceCrds(kube)
  ec2.destroy()
  kube.close()
})

function adopt(source: AdoptRequest['source'], extra: Partial<AdoptRequest> = {}) {
  const controller = new AbortController()
  return runAdoption(
    {
      kube,
      ec2,
      ownerId: 'conformance',
      signal: controller.signal,
      log: silentLogger(),
      timers: realTimers(),
    },
    {
      source,
      target: { namespace: ns(), credentialsSecret: 'aws' },
      force: [],
      dryRun: false,
      rollback: false,
      waitMs: 45_000,
      pollMs: 500,
      ...extra,
    },
  )
}

async function machine(name: string): Promise<MachineObject | undefined> {
  return await kube.get<MachineObject>(machineApiTypes.machine, { namespace: ns(), name })
}

async function expectAdopted(fleet: SourceFleet, names: string[]) {
  for (const [i, name] of names.entries()) {
    const m = await machine(name)
    expect(m?.status?.phase).toBe('Running')
    expect(m?.status?.nodeRef?.name).toBe(fleet.nodeNames[i])
    expect(m?.spec?.providerID).toContain(fleet.instanceIds[i])
    expect(m?.status?.conditions?.find((c) => c.type === 'UpToDate')?.status).toBe('True')
  }
  for (const pod of fleet.pods) {
    const now = await kube.get<KubeObject>(coreTypes.pod, { namespace: ns(), name: pod.name })
    expect(now?.metadata?.uid).toBe(pod.uid)
    expect(now?.metadata?.deletionTimestamp).toBeUndefined()
  }
}

describe('machine-api adopt', () => {
  it('refuses bad input with the object and field, changing nothing', async () => {
    const missing = await adopt({ from: 'capi', namespace: ns(), name: 'nope' })
    expect(missing.exitCode).toBe(1)
    expect(missing.units[0]?.problems[0]).toContain('MachineDeployment.cluster.x-k8s.io/')
    expect(missing.units[0]?.problems[0]).toContain('metadata.name: does not exist')

    // A Node whose providerID names no instance EC2 knows.
    await kube.create(coreTypes.node, {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name: `ghost-${ns()}`,
        labels: { 'adopt-test/ghost': ns() },
        annotations: { 'kwok.x-k8s.io/node': 'fake' },
      },
      spec: { providerID: 'aws:///eu-west-1a/i-0123456789abcdef0' },
    })
    const ghost = await adopt({
      from: 'instances',
      tags: {},
      nodeSelector: `adopt-test/ghost=${ns()}`,
      namePrefix: 'ghost',
    })
    expect(ghost.exitCode).toBe(1)
    expect(ghost.units[0]?.problems.join('\n')).toContain(
      `Node/ghost-${ns()}: spec.providerID: aws:///eu-west-1a/i-0123456789abcdef0 names no instance`,
    )
    await kube.delete(coreTypes.node, { name: `ghost-${ns()}` })

    // A source of the wrong shape: replicas a string, an infrastructure template CAPA does not make.
    await kube.create(sourceTypes.capiDeployment, {
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'MachineDeployment',
      metadata: { namespace: ns(), name: 'odd' },
      spec: {
        clusterName: 'legacy',
        replicas: 'two',
        template: { spec: { infrastructureRef: { kind: 'DockerMachineTemplate', name: 'odd' } } },
      },
    })
    const odd = await adopt({ from: 'capi', namespace: ns(), name: 'odd' })
    expect(odd.exitCode).toBe(1)
    expect(odd.units[0]?.problems).toEqual(
      expect.arrayContaining([
        `MachineDeployment.cluster.x-k8s.io/${ns()}/odd: spec.template.spec.infrastructureRef.kind: is DockerMachineTemplate; only CAPA's AWSMachineTemplate is adopted`,
        `MachineDeployment.cluster.x-k8s.io/${ns()}/odd: spec.replicas: is "two"; must be a whole number`,
      ]),
    )
    await kube.delete(sourceTypes.capiDeployment, { namespace: ns(), name: 'odd' })

    // A source Machine whose instance is gone.
    const gone = await createCapiFleet({
      kube,
      ec2: moto().ec2,
      namespace: ns(),
      amiId: moto().amiId,
      name: 'gone',
      replicas: 1,
    })
    await moto().ec2.send(new TerminateInstancesCommand({ InstanceIds: gone.instanceIds }))
    const missingInstance = await adopt({ from: 'capi', namespace: ns(), name: 'gone' })
    expect(missingInstance.exitCode).toBe(1)
    expect(missingInstance.units[0]?.problems).toContain(
      `Machine.cluster.x-k8s.io/${ns()}/gone-abcde-0: spec.providerID: instance ${gone.instanceIds[0]} is terminated`,
    )
    const paused = await kube.get<KubeObject>(sourceTypes.capiDeployment, {
      namespace: ns(),
      name: 'gone',
    })
    expect(paused?.metadata?.annotations?.['cluster.x-k8s.io/paused']).toBeUndefined()
    await removeSourceFleet(kube, ns(), gone)
    expect((await machinesOf(kube, ns())).length).toBe(0)
    expect((await kube.list(machineApiTypes.machineClass, { namespace: ns() })).items).toEqual([])
  })

  it('takes over Cluster API, OpenShift and unmanaged fleets with no launch and no termination', {
    timeout: 400_000,
  }, async () => {
    const base = { kube, ec2: moto().ec2, namespace: ns(), amiId: moto().amiId }
    const capi = await createCapiFleet({ ...base, name: 'workers', replicas: 5 })
    const openshift = await createOpenShiftFleet({
      ...base,
      name: 'infra-a',
      replicas: 3,
      zone: 'eu-west-1a',
    })
    const legacy = await createUnmanagedInstances({
      ...base,
      name: 'legacy',
      replicas: 4,
      tags: { team: `legacy-${ns()}` },
    })
    await startFullStack(kube, ns(), createProviderRegistry([moto().provider]))
    moto().proxy.clear()

    const dry = await adopt({ from: 'capi', namespace: ns(), name: 'workers' }, { dryRun: true })
    expect(dry.exitCode).toBe(0)
    expect(dry.units[0]?.steps).toContain(
      `release Machine.cluster.x-k8s.io/${ns()}/workers-abcde-0`,
    )
    expect(
      await kube.get(machineApiTypes.machineClass, { namespace: ns(), name: 'workers' }),
    ).toBeUndefined()

    const results = [
      await adopt({ from: 'capi', namespace: ns(), name: 'workers' }),
      await adopt({ from: 'openshift', namespace: ns(), name: 'infra-a' }),
      await adopt({ from: 'instances', tags: { team: `legacy-${ns()}` }, namePrefix: 'legacy' }),
    ]
    expect(results.map((r) => [r.exitCode, r.units.map((u) => [u.outcome, u.problems])])).toEqual([
      [0, [['adopted', []]]],
      [0, [['adopted', []]]],
      [0, [['adopted', []]]],
    ])
    const counts = moto().proxy.counts()
    expect(counts.RunInstances ?? 0).toBe(0)
    expect(counts.TerminateInstances ?? 0).toBe(0)

    await expectAdopted(capi, capi.machineNames)
    await expectAdopted(openshift, openshift.machineNames)
    await expectAdopted(
      legacy,
      legacy.instanceIds.map((id) => `legacy-${id}`),
    )
    const tagged = await moto().tagged((await machine('workers-abcde-0'))?.metadata.uid ?? '')
    expect(tagged.map((i) => i.InstanceId)).toEqual([capi.instanceIds[0]])
    expect(tagged[0]?.Tags).toContainEqual({ Key: tagKeys.owner, Value: 'conformance' })
    for (const type of [
      sourceTypes.capiMachine,
      sourceTypes.awsMachine,
      sourceTypes.capiSet,
      sourceTypes.capiDeployment,
      sourceTypes.openshiftMachine,
      sourceTypes.openshiftSet,
    ]) {
      expect((await kube.list(type, { namespace: ns() })).items).toEqual([])
    }

    // The same command again finds the work done.
    expect(
      (await adopt({ from: 'capi', namespace: ns(), name: 'workers' })).units[0]?.outcome,
    ).toBe('adopted')

    // The unmanaged instances, selected again under another name prefix: another Machine holds
    // each instance and its Node, so nothing is made.
    const again = await adopt({
      from: 'instances',
      tags: { team: `legacy-${ns()}` },
      namePrefix: 'again',
    })
    const problems = again.units[0]?.problems.join('\n') ?? ''
    expect(again.exitCode, problems).toBe(1)
    expect(problems).toMatch(
      new RegExp(
        `instance i-[0-9a-f]+: tags\\.${tagKeys.machineUid.replaceAll('.', '\\.')}: is owned by machine-api Machine ${ns()}/legacy-i-`,
      ),
    )
    expect(problems).toMatch(
      new RegExp(
        `Node/\\S+: metadata\\.annotations: is linked to machine-api Machine ${ns()}/legacy-i-`,
      ),
    )
    expect(
      (await machinesOf(kube, ns())).filter((m) => m.metadata.name.startsWith('again-')),
    ).toEqual([])

    // From here the adopted deployment is an ordinary one: it scales through the normal paths.
    playKubelet(api().kc, kube, ns())
    let last = ''
    onTestFailed(() => console.log(last))
    await kube.mergePatch(
      machineApiTypes.machineDeployment,
      { namespace: ns(), name: 'workers' },
      { spec: { replicas: 7 } },
    )
    await waitFor(
      '7 Running Machines in the adopted deployment',
      async () => {
        const of = await workersOf()
        last = of
          .map(
            (m) =>
              `${m.metadata.name}:${m.status?.phase}:${m.status?.conditions?.find((c) => c.type === 'InfrastructureReady')?.message ?? ''}`,
          )
          .join(' | ')
        return of.length === 7 && of.every((m) => m.status?.phase === 'Running')
      },
      { intervalMs: 500, timeoutMs: 120_000 },
    )
    expect(moto().proxy.counts().RunInstances).toBe(2)

    // 7 -> 3: four Machines, adopted ones among them, go through the normal deletion and its drain.
    const seven = (await workersOf()).map((m) => m.metadata.name)
    const adoptedCapi = new Map(capi.machineNames.map((name, i) => [name, capi.pods[i]]))
    await kube.mergePatch(
      machineApiTypes.machineDeployment,
      { namespace: ns(), name: 'workers' },
      { spec: { replicas: 3 } },
    )
    const remaining = await waitFor(
      '3 Running Machines in the adopted deployment',
      async () => {
        const of = await workersOf()
        return of.length === 3 && of.every((m) => m.status?.phase === 'Running') && of
      },
      { intervalMs: 500, timeoutMs: 120_000 },
    )
    const removed = seven.filter((name) => !remaining.some((m) => m.metadata.name === name))
    expect(removed).toHaveLength(4)
    await waitFor('4 instances terminated', () => moto().proxy.terminated().length === 4)
    const drained = await machineEvents('NodeDrained')
    expect(removed.filter((name) => adoptedCapi.has(name)).length).toBeGreaterThanOrEqual(2)
    for (const name of removed) {
      expect(drained).toContain(name)
      const pod = adoptedCapi.get(name)
      if (!pod) continue
      const now = await kube.get<KubeObject>(coreTypes.pod, { namespace: ns(), name: pod.name })
      expect(now?.metadata?.uid === pod.uid && !now?.metadata?.deletionTimestamp).toBe(false)
    }
    expect(moto().proxy.counts().RunInstances).toBe(2)

    // A class edit rolls the adopted Machines that are left as it rolls any other.
    const before = new Set(remaining.map((m) => m.metadata.name))
    await kube.mergePatch(
      machineApiTypes.machineClass,
      { namespace: ns(), name: 'workers' },
      { spec: { providerSpec: { instanceType: 't3.small' } } },
    )
    await waitFor(
      'the deployment rolled onto the edited class',
      async () => {
        const of = await workersOf()
        return (
          of.length === 3 &&
          of.every(
            (m) =>
              !before.has(m.metadata.name) &&
              m.status?.phase === 'Running' &&
              m.status?.conditions?.find((c) => c.type === 'UpToDate')?.status === 'True',
          )
        )
      },
      { intervalMs: 500, timeoutMs: 180_000 },
    )
    await waitFor(
      'the 3 replaced instances terminated',
      () => moto().proxy.terminated().length === 7,
    )
    expect(moto().proxy.counts().RunInstances).toBe(5)
    for (const pod of [...openshift.pods, ...legacy.pods]) {
      await kube.delete(coreTypes.pod, { namespace: ns(), name: pod.name })
    }
  })
})

async function workersOf(): Promise<MachineObject[]> {
  return (await machinesOf(kube, ns())).filter(
    (m) => m.metadata.labels?.['machine-api.dev/deployment-name'] === 'workers',
  )
}

/** The Machines named by Events of `reason` in the test namespace. */
async function machineEvents(reason: string): Promise<string[]> {
  const events = await kube.list<
    KubeObject & { reason?: string; involvedObject?: { kind?: string; name?: string } }
  >(coreTypes.event, { namespace: ns() })
  return events.items
    .filter((e) => e.reason === reason && e.involvedObject?.kind === 'Machine')
    .map((e) => e.involvedObject?.name ?? '')
}
