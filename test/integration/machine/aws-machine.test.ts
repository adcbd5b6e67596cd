/**
 * The Machine controller with the aws provider on a real moto EC2 server: a MachineClass-backed
 * Machine launches one instance and reaches Provisioned, then Running once a Node with its
 * providerID appears; concurrent reconciles and a reconcile that dies anywhere leave exactly one
 * instance; deletion terminates it; credentials and user data never reach logs, Events or status.
 * A Machine's deletion uses the access recorded with its instance (status.providerStatus.access:
 * the region and the credentials Secret's name) instead of reading its MachineClass: a class
 * deleted first no longer blocks it, and a rotated credentials Secret (the recorded one gone)
 * has the class read fresh once.
 */
import { CoreV1Api } from '@kubernetes/client-node'
import { beforeAll, describe, expect, it } from 'vitest'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { KubeClient } from '../../../src/kube/kube-client'
import { coreTypes } from '../../../src/kube/resource'
import { awsProviderSpecSchema } from '../../../src/providers/aws/spec'
import { createProviderRegistry } from '../../../src/providers/registry'
import type { MachineDeps } from '../../../src/reconcile/machine/machine-deps'
import { reconcileMachine } from '../../../src/reconcile/machine/reconcile'
import { capturingLogger } from '../../harness/capturing-logger'
import { kwokNodeAnnotation } from '../../harness/nodes'
import { region, useMoto } from '../providers/aws-fixture'
import { machineDeps, readMachine, useMachineTestApi } from './fixture'

const secretUserData = `#!/bin/sh\necho bootstrap-token-${Math.random().toString(36).slice(2)}`
const secretKey = `moto-secret-${Math.random().toString(36).slice(2)}`

const moto = useMoto()
const { api, namespace, kube } = useMachineTestApi('aws', { aws: awsProviderSpecSchema() })
const logs: string[] = []
function deps(client: KubeClient = kube()): MachineDeps {
  return {
    ...machineDeps(client, createProviderRegistry([moto().provider])),
    log: capturingLogger(logs),
    providerCallTimeoutMs: 2000,
  }
}

function machine(ns: string, name: string, className = 'standard') {
  return {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'Machine',
    metadata: { namespace: ns, name },
    spec: { classRef: { name: className }, nodeDeletionTimeout: '10s' },
  }
}

/** A client of the same apiserver that counts its MachineClass GETs in `classGets`. */
function countingClassGets(classGets: { count: number }): KubeClient {
  return new Proxy(kube(), {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver)
      if (prop !== 'get' || typeof value !== 'function') return value
      return (...args: unknown[]) => {
        if ((args[0] as { kind?: string }).kind === 'MachineClass') classGets.count++
        return value.apply(target, args)
      }
    },
  })
}

async function createSecret(name: string, data: Record<string, string>) {
  await kube().create(coreTypes.secret, {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { namespace: namespace(), name },
    stringData: data,
  })
}

const credentials = { aws_access_key_id: 'AKIAMOTO00000000', aws_secret_access_key: secretKey }

async function createClass(name: string, credentialsSecret: string) {
  const { credentialsSecret: _ignored, ...spec } = moto().baseSpec
  await kube().create(machineApiTypes.machineClass, {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineClass',
    metadata: { namespace: namespace(), name },
    spec: {
      provider: 'aws',
      providerSpec: spec,
      credentialsSecretRef: { name: credentialsSecret },
    },
  })
}

/** Creates a Machine of `className`, reconciled once: Provisioned; returns its UID. */
async function provisioned(name: string, className: string): Promise<string> {
  const ns = namespace()
  await kube().create(machineApiTypes.machine, machine(ns, name, className))
  await reconcileMachine(deps(), { kind: 'Machine', namespace: ns, name })
  const created = await readMachine(kube(), ns, name)
  expect(created?.status?.phase).toBe('Provisioned')
  return created?.metadata.uid ?? ''
}

/** Deletes the Machine and reconciles it until it is gone; returns the class GETs made. */
async function deleted(name: string): Promise<number> {
  const ns = namespace()
  const classGets = { count: 0 }
  await kube().delete(machineApiTypes.machine, { namespace: ns, name })
  for (let pass = 0; pass < 10 && (await readMachine(kube(), ns, name)); pass++) {
    await reconcileMachine(deps(countingClassGets(classGets)), {
      kind: 'Machine',
      namespace: ns,
      name,
    })
  }
  expect(await readMachine(kube(), ns, name)).toBeUndefined()
  return classGets.count
}

beforeAll(async () => {
  const ns = namespace()
  await createSecret('aws', credentials)
  await createSecret('bootstrap', { userData: secretUserData })
  await createSecret('aws-rotated', credentials)
  const { credentialsSecret: _ignored, ...spec } = moto().baseSpec as Record<string, unknown>
  await kube().create(machineApiTypes.machineClass, {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineClass',
    metadata: { namespace: ns, name: 'standard' },
    spec: {
      provider: 'aws',
      providerSpec: { ...spec, tags: { team: 'platform' } },
      credentialsSecretRef: { name: 'aws' },
      userDataSecretRef: { name: 'bootstrap' },
    },
  })
})

describe('Machine on the aws provider (moto)', () => {
  it('launches one instance, reaches Provisioned, and Running once its Node joins', async () => {
    const ns = namespace()
    await kube().create(machineApiTypes.machine, machine(ns, 'api-1'))
    const key = { kind: 'Machine', namespace: ns, name: 'api-1' }
    await reconcileMachine(deps(), key)
    const provisioned = await readMachine(kube(), ns, 'api-1')
    expect(provisioned?.status?.phase).toBe('Provisioned')
    expect(provisioned?.spec.providerID).toMatch(new RegExp(`^aws:///${region}[a-z]/i-[0-9a-f]+$`))
    expect(provisioned?.status?.addresses?.some((a) => a.type === 'InternalIP')).toBe(true)
    const uid = provisioned?.metadata.uid ?? ''
    const instances = await moto().tagged(uid)
    expect(instances).toHaveLength(1)
    expect(instances[0]?.Tags).toContainEqual({ Key: 'team', Value: 'platform' })

    // Play the kubelet: register a Node with the instance's providerID, kept alive by kwok, under
    // its private DNS name as the kubelet on EC2 does (the Node the Machine controller GETs).
    const nodeName = instances[0]?.PrivateDnsName ?? ''
    expect(nodeName).toMatch(/^ip-[0-9-]+\./)
    await api()
      .kc.makeApiClient(CoreV1Api)
      .createNode({
        body: {
          metadata: { name: nodeName, annotations: { [kwokNodeAnnotation]: 'fake' } },
          spec: { providerID: provisioned?.spec.providerID ?? '' },
        },
      })
    await reconcileMachine(deps(), key)
    const running = await readMachine(kube(), ns, 'api-1')
    expect(running?.status?.phase).toBe('Running')
    expect(running?.status?.nodeRef?.name).toBe(nodeName)

    await kube().delete(machineApiTypes.machine, { namespace: ns, name: 'api-1' })
    for (let pass = 0; pass < 10 && (await readMachine(kube(), ns, 'api-1')); pass++) {
      await reconcileMachine(deps(), key)
    }
    expect(await readMachine(kube(), ns, 'api-1')).toBeUndefined()
    // An EC2 Node object outlives its instance: the deletion sequence deletes it.
    expect(await kube().get(coreTypes.node, { name: nodeName })).toBeUndefined()
    expect(await moto().tagged(uid)).toHaveLength(0)
    expect(await moto().tagged(uid, ['shutting-down', 'terminated'])).toHaveLength(1)
  })

  it('8 concurrent reconciles of one new Machine launch exactly one instance', async () => {
    const ns = namespace()
    await kube().create(machineApiTypes.machine, machine(ns, 'race'))
    const key = { kind: 'Machine', namespace: ns, name: 'race' }
    await Promise.allSettled(Array.from({ length: 8 }, () => reconcileMachine(deps(), key)))
    // The losers of the create claim retry later, as the runtime would; they must adopt, not launch.
    for (let pass = 0; pass < 3; pass++) {
      await Promise.allSettled(Array.from({ length: 8 }, () => reconcileMachine(deps(), key)))
    }
    const m = await readMachine(kube(), ns, 'race')
    expect(m?.spec.providerID).toBeDefined()
    expect(await moto().tagged(m?.metadata.uid ?? '')).toHaveLength(1)
  })

  it('a reconcile that dies after RunInstances, before the status write, leaves one instance', async () => {
    const ns = namespace()
    await kube().create(machineApiTypes.machine, machine(ns, 'crash'))
    const key = { kind: 'Machine', namespace: ns, name: 'crash' }
    let calls = 0
    // Die on the first apiserver call after RunInstances: the providerID write.
    const dying = new Proxy(kube(), {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver)
        if (typeof value !== 'function' || prop !== 'mergePatch') return value
        return (...args: unknown[]) => {
          calls++
          const patch = JSON.stringify(args[2])
          if (patch.includes('providerID')) return Promise.reject(new Error('process died'))
          return value.apply(target, args)
        }
      },
    })
    await expect(reconcileMachine(deps(dying), key)).rejects.toThrow('process died')
    expect(calls).toBeGreaterThan(0)
    const uid = (await readMachine(kube(), ns, 'crash'))?.metadata.uid ?? ''
    expect(await moto().tagged(uid)).toHaveLength(1)
    for (let pass = 0; pass < 3; pass++) await reconcileMachine(deps(), key)
    const m = await readMachine(kube(), ns, 'crash')
    expect(m?.status?.phase).toBe('Provisioned')
    expect(await moto().tagged(uid)).toHaveLength(1)
  })

  it('records region and Secret name, and deletes without its MachineClass, even once the class is gone', async () => {
    await createClass('doomed', 'aws')
    const uid = await provisioned('orphaned', 'doomed')
    const machine = await readMachine(kube(), namespace(), 'orphaned')
    expect(machine?.status?.providerStatus?.access).toEqual({
      provider: 'aws',
      facts: { region, credentialsSecret: 'aws' },
    })
    expect(JSON.stringify(machine?.status)).not.toContain(secretKey)

    await kube().delete(machineApiTypes.machineClass, { namespace: namespace(), name: 'doomed' })
    expect(await deleted('orphaned')).toBe(0)
    expect(await moto().tagged(uid)).toHaveLength(0)
    expect(await moto().tagged(uid, ['shutting-down', 'terminated'])).toHaveLength(1)
  })

  it('reads the class fresh once when the recorded credentials Secret is gone (rotated)', async () => {
    await createSecret('aws-old', credentials)
    await createClass('rotating', 'aws-old')
    const uid = await provisioned('rotated', 'rotating')
    const ns = namespace()
    await kube().mergePatch(
      machineApiTypes.machineClass,
      { namespace: ns, name: 'rotating' },
      { spec: { credentialsSecretRef: { name: 'aws-rotated' } } },
    )
    await kube().delete(coreTypes.secret, { namespace: ns, name: 'aws-old' })
    const classGets = await deleted('rotated')
    expect(classGets).toBeGreaterThan(0)
    expect(await moto().tagged(uid)).toHaveLength(0)
    expect(await moto().tagged(uid, ['shutting-down', 'terminated'])).toHaveLength(1)
  })

  it('never writes credentials or user data to logs, Events or status', async () => {
    const ns = namespace()
    const events = await api().kc.makeApiClient(CoreV1Api).listNamespacedEvent({ namespace: ns })
    const machines = await kube().list(machineApiTypes.machine, { namespace: ns })
    const output = [
      ...logs,
      JSON.stringify(events.items),
      JSON.stringify(machines.items.map((x) => x.status)),
    ].join('\n')
    expect(output.length).toBeGreaterThan(1000)
    expect(output).not.toContain(secretKey)
    expect(output).not.toContain(secretUserData)
    expect(output).not.toContain(Buffer.from(secretUserData).toString('base64'))
  })
})
