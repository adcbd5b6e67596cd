/**
 * @module The aws side of a scenario: a moto EC2 server (optionally behind the fault proxy), an
 * EC2 client for auditing, a namespace with a credentials Secret and an aws MachineClass, the
 * ec2-node-simulator playing each instance's kubelet, and the environment a worker process needs.
 *
 * `CHAOS_EC2_LAG_MS=<ms>` turns on the fault proxy's eventual-consistency mode for every aws
 * scenario (test/harness/moto/eventual-consistency.ts): a launched instance is missing from
 * tag-filtered DescribeInstances for that long, and unknown by id (and to other filters) for
 * `CHAOS_EC2_ID_LAG_MS` (default a quarter of it). The worker then talks to EC2 through the proxy
 * even in scenarios without faults; audits and the node simulator still see moto as it is.
 */
import { DescribeImagesCommand, EC2Client } from '@aws-sdk/client-ec2'
import type { KubeConfig } from '@kubernetes/client-node'
import { machineApiTypes } from '../../../src/api/resource-types'
import { startEc2NodeSimulator } from '../../../src/dev/ec2-node-simulator'
import { createKubeClient } from '../../../src/kube/dynamic-client'
import { createHttpTransport } from '../../../src/kube/http-transport'
import type { KubeClient } from '../../../src/kube/kube-client'
import { coreTypes, type KubeObject } from '../../../src/kube/resource'
import { silentLogger } from '../../../src/observability/logger'
import {
  type ConsistencyLag,
  type FaultProxy,
  startFaultProxy,
} from '../../harness/moto/fault-proxy'
import { type MotoServer, startMotoServer } from '../../harness/moto/moto-server'
import { groupLabel } from './machine-ledger'

export const chaosRegion = 'eu-west-1'
export const chaosClassName = 'standard'
/** Ownership tag value of the scenario's instances (the orphan audit looks only at these). */
export const chaosOwnerId = 'machine-api-chaos'

/** A MachineSet of `replicas` Machines of the `standard` class, grouped (audit) by its name. */
export function chaosMachineSet(
  namespace: string,
  name: string,
  replicas: number,
  zone?: string,
): KubeObject {
  const labels = { [groupLabel]: name }
  return {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineSet',
    metadata: { namespace, name },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          classRef: { name: chaosClassName },
          nodeDeletionTimeout: '10s',
          ...(zone ? { failureDomain: zone } : {}),
        },
      },
    },
  } as KubeObject
}

export interface AwsWorld {
  namespace: string
  kube: KubeClient
  moto: MotoServer
  /** Present when started with `faults: true` or a lag; the worker talks to EC2 through it. */
  proxy?: FaultProxy
  /** The eventual-consistency lag in force (CHAOS_EC2_LAG_MS), if any. */
  lag?: ConsistencyLag
  /** Talks to moto directly (never through the proxy): for audits. */
  ec2: EC2Client
  /** What a worker process needs on top of KUBECONFIG (EC2 endpoint, region, providers...). */
  workerEnv: Record<string, string>
  stop(): Promise<void>
}

/** The lag CHAOS_EC2_LAG_MS / CHAOS_EC2_ID_LAG_MS ask for, if any. */
export function chaosLag(env: NodeJS.ProcessEnv = process.env): ConsistencyLag | undefined {
  const tagMs = Number(env.CHAOS_EC2_LAG_MS ?? 0)
  if (!Number.isFinite(tagMs) || tagMs <= 0) return undefined
  const idMs = Number(env.CHAOS_EC2_ID_LAG_MS)
  return Number.isFinite(idMs) && idMs >= 0 ? { tagMs, idMs } : { tagMs }
}

export async function startAwsWorld(options: {
  kc: KubeConfig
  kubeconfigPath: string
  namespace: string
  faults?: boolean
  /** The simulator's pass period (default 500 ms); 0: no simulator (the audit self-test). */
  nodePeriodMs?: number
  /** instanceType of the MachineClass (default t3.micro). */
  instanceType?: string
}): Promise<AwsWorld> {
  const moto = await startMotoServer()
  try {
    return await populate(options, moto)
  } catch (error) {
    // A half-started world must not outlive the scenario (the short test shares its process).
    await moto.stop().catch(() => {})
    throw error
  }
}

async function populate(
  options: Parameters<typeof startAwsWorld>[0],
  moto: MotoServer,
): Promise<AwsWorld> {
  const lag = chaosLag()
  const proxy = options.faults || lag ? await startFaultProxy(moto.endpoint) : undefined
  if (lag) proxy?.lag(lag)
  const ec2 = new EC2Client({
    region: chaosRegion,
    endpoint: moto.endpoint,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  })
  const kube = createKubeClient(createHttpTransport(options.kc, () => {}))
  const images = await ec2.send(new DescribeImagesCommand({ Owners: ['amazon'] }))
  const amiId = images.Images?.find((i) => i.RootDeviceName)?.ImageId ?? ''
  const ns = options.namespace
  await kube.create(coreTypes.namespace, { metadata: { name: ns } })
  await kube.create(coreTypes.secret, {
    metadata: { namespace: ns, name: 'aws' },
    stringData: { aws_access_key_id: 'AKIAMOTOCHAOS000', aws_secret_access_key: 'chaos-secret' },
  })
  await kube.create(machineApiTypes.machineClass, {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineClass',
    metadata: { namespace: ns, name: chaosClassName },
    spec: {
      provider: 'aws',
      providerSpec: {
        region: chaosRegion,
        ami: { id: amiId },
        instanceType: options.instanceType ?? 't3.micro',
        subnet: { filters: [{ name: 'default-for-az', values: ['true'] }] },
      },
      credentialsSecretRef: { name: 'aws' },
    },
  })
  const stopSimulator =
    options.nodePeriodMs === 0
      ? () => {}
      : startEc2NodeSimulator({
          ec2,
          kube,
          log: silentLogger(),
          periodMs: options.nodePeriodMs ?? 500,
        })
  return {
    namespace: ns,
    kube,
    moto,
    proxy,
    ...(lag ? { lag } : {}),
    ec2,
    workerEnv: {
      KUBECONFIG: options.kubeconfigPath,
      WATCH_NAMESPACE: ns,
      MACHINE_API_PROVIDERS: 'aws',
      AWS_REGION: chaosRegion,
      AWS_EC2_ENDPOINT: proxy?.endpoint ?? moto.endpoint,
      MACHINE_API_OWNER_ID: chaosOwnerId,
    },
    async stop() {
      stopSimulator()
      ec2.destroy()
      await proxy?.stop()
      await moto.stop()
      await kube.delete(coreTypes.namespace, { name: ns }).catch(() => {})
      kube.close()
    },
  }
}
