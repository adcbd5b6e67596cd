/**
 * @module A real moto EC2 server for one test file, an `aws` provider pointed at it that counts
 * its EC2 calls, and a separate EC2 client for looking at what the provider did.
 */
import {
  DescribeImagesCommand,
  DescribeInstancesCommand,
  EC2Client,
  type Instance,
} from '@aws-sdk/client-ec2'
import { afterAll, beforeAll, beforeEach } from 'vitest'
import { type AwsProvider, createAwsProvider } from '../../../src/providers/aws/provider'
import { tagKeys } from '../../../src/providers/aws/tags'
import { type FaultProxy, startFaultProxy } from '../../harness/moto/fault-proxy'
import { type MotoServer, startMotoServer } from '../../harness/moto/moto-server'
import { type TestContextOptions, testContext } from './context'

export const region = 'eu-west-1'
/** moto accepts any keys; these travel through a Secret like real ones would. */
export const credentialsSecret = {
  aws: { aws_access_key_id: 'AKIAMOTOTEST0000', aws_secret_access_key: 'moto-secret-key' },
}

/** The Secret `aws` in `namespace` a MachineClass's credentialsSecretRef names (moto takes any keys). */
export function awsCredentialsSecret(namespace: string) {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { namespace, name: 'aws' },
    stringData: { aws_access_key_id: 'AKIAMOTO00000000', aws_secret_access_key: 'x' },
  }
}

/** What `useMoto` makes available once beforeAll has run. */
export interface AwsFixture {
  moto: MotoServer
  provider: AwsProvider
  /** For assertions only; the provider has its own clients. */
  ec2: EC2Client
  /** EC2 commands the provider sent, in order; tests may clear it. */
  calls: string[]
  /** A moto-provided AMI id. */
  amiId: string
  /** A minimal valid spec. */
  baseSpec: Record<string, unknown>
  /** A context with the base spec (or `spec`) and the credentials Secret. */
  context(options?: Partial<TestContextOptions>): ReturnType<typeof testContext>
  /** Instances carrying the Machine UID tag, in the given states (default: live ones). */
  tagged(uid: string, states?: string[]): Promise<Instance[]>
}

/** Starts moto in beforeAll and stops it in afterAll; returns a getter for the fixture. */
export function useMoto(): () => AwsFixture {
  return useMotoFixture(false)
}

/**
 * `useMoto` with the provider's calls going through a fault proxy in front of moto (the assertion
 * client still talks to moto directly); the proxy's faults and counts are cleared before each test.
 */
export function useFaultyMoto(): () => AwsFixture & { proxy: FaultProxy } {
  const fixture = useMotoFixture(true)
  beforeEach(() => fixture().proxy.clear())
  return fixture
}

function useMotoFixture<Faulty extends boolean>(
  faulty: Faulty,
): () => AwsFixture & (Faulty extends true ? { proxy: FaultProxy } : object) {
  let fixture: (AwsFixture & { proxy?: FaultProxy }) | undefined
  beforeAll(async () => {
    const moto = await startMotoServer()
    const proxy = faulty ? await startFaultProxy(moto.endpoint) : undefined
    const calls: string[] = []
    const provider = createAwsProvider({
      endpoint: proxy?.endpoint ?? moto.endpoint,
      defaultRegion: region,
      ownerId: 'conformance',
      callsPerSecond: 100,
      describeCallsPerSecond: 100,
      onCall: (command) => calls.push(command),
    })
    const ec2 = new EC2Client({
      region,
      endpoint: moto.endpoint,
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    })
    const images = await ec2.send(new DescribeImagesCommand({ Owners: ['amazon'] }))
    const amiId = images.Images?.find((i) => i.RootDeviceName)?.ImageId ?? ''
    const baseSpec = {
      region,
      credentialsSecret: { name: 'aws' },
      ami: { id: amiId },
      instanceType: 't3.micro',
      subnet: { filters: [{ name: 'default-for-az', values: ['true'] }] },
    }
    fixture = {
      moto,
      ...(proxy ? { proxy } : {}),
      provider,
      ec2,
      calls,
      amiId,
      baseSpec,
      context: (options = {}) =>
        testContext({ providerSpec: baseSpec, secrets: credentialsSecret, ...options }),
      async tagged(uid, states = ['pending', 'running', 'stopping', 'stopped']) {
        const out = await ec2.send(
          new DescribeInstancesCommand({
            Filters: [
              { Name: `tag:${tagKeys.machineUid}`, Values: [uid] },
              { Name: 'instance-state-name', Values: states },
            ],
          }),
        )
        return (out.Reservations ?? []).flatMap((r) => r.Instances ?? [])
      },
    }
  })
  afterAll(async () => {
    await fixture?.provider.close?.()
    fixture?.ec2.destroy()
    await fixture?.proxy?.stop()
    await fixture?.moto.stop()
  })
  return () => {
    if (!fixture) throw new Error('moto fixture used before beforeAll')
    return fixture as AwsFixture & (Faulty extends true ? { proxy: FaultProxy } : object)
  }
}
