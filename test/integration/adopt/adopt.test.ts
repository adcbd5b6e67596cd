/**
 * `machine-api adopt` on the real control plane and moto, with every controller running: a
 * 5-Machine Cluster API MachineDeployment, a 3-Machine OpenShift MachineSet and 4 tagged unmanaged
 * instances are taken over with no RunInstances and no TerminateInstances (counted at the proxy
 * every EC2 call goes through), each adopted Machine Running on its original Node and UpToDate,
 * the Pods on those Nodes untouched, the source objects released; the adopted deployment then
 * scales through the normal paths. Bad input is refused with the object and field, changing nothing.
 */
import { EC2Client } from '@aws-sdk/client-ec2'
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
import { playKubelet } from '../full-stack/aws-kubelet'
import { fullStackKube, startFullStack } from '../full-stack/fixture'
import { machinesOf } from '../full-stack/objects'
import { region, useFaultyMoto } from '../providers/aws-fixture'
import {
  createCapiFleet,
  createOpenShiftFleet,
  createUnmanagedInstances,
  installSourceCrds,
  type SourceFleet,
  uninstallSourceCrds,
} from './source-fleet'

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
    expect((await machinesOf(kube, ns())).length).toBe(0)
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
        const of = (await machinesOf(kube, ns())).filter(
          (m) => m.metadata.labels?.['machine-api.dev/deployment-name'] === 'workers',
        )
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
    for (const pod of [...capi.pods, ...openshift.pods, ...legacy.pods]) {
      await kube.delete(coreTypes.pod, { namespace: ns(), name: pod.name })
    }
    expect(moto().proxy.counts().TerminateInstances ?? 0).toBe(0)
  })
})
