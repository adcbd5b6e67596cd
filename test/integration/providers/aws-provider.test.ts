/**
 * The `aws` provider against a real moto EC2 server: every spec field reaches the instance, secrets
 * stay out of every output, errors are classified with the field to fix, and EC2 calls are bounded.
 */
import {
  CreateKeyPairCommand,
  DescribeInstanceAttributeCommand,
  DescribeVolumesCommand,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2'
import { describe, expect, it } from 'vitest'
import { TransientError } from '../../../src/errors'
import { clientTokenFor } from '../../../src/providers/aws/run-instances-input'
import { InvalidConfigurationError } from '../../../src/providers/errors'
import { useMoto } from './aws-fixture'
import { deleteUntilDone, newMachine, recorded } from './conformance'
import { rejection } from './context'

const moto = useMoto()

describe('aws provider on moto', () => {
  it('reflects every spec field in the launched instance', async () => {
    const f = moto()
    await f.ec2.send(new CreateKeyPairCommand({ KeyName: 'ops' }))
    const machine = newMachine('fields')
    const { ctx } = f.context({
      providerSpec: {
        ...f.baseSpec,
        ami: { filters: [{ name: 'image-id', values: [f.amiId] }], owners: ['amazon'] },
        instanceType: 'm5.large',
        securityGroups: [{ filters: [{ name: 'group-name', values: ['default'] }] }],
        keyName: 'ops',
        userDataSecret: { name: 'boot' },
        tags: { team: 'infra' },
        placement: { availabilityZone: 'eu-west-1b', tenancy: 'default' },
        rootVolume: { sizeGiB: 40, type: 'gp3' },
        blockDevices: [{ deviceName: '/dev/sdf', volume: { sizeGiB: 12, throughputMiBps: 250 } }],
        metadataOptions: { httpPutResponseHopLimit: 1 },
        publicIP: true,
        capacityReservation: { preference: 'none' },
      },
      secrets: {
        aws: { aws_access_key_id: 'AKIAX', aws_secret_access_key: 'y' },
        boot: { userData: '#cloud-config\nhostname: fields\n' },
      },
    })
    const result = await f.provider.actuator.create(ctx, machine)
    const [instance] = await f.tagged(machine.metadata.uid)
    expect(instance?.ImageId).toBe(f.amiId)
    expect(instance?.InstanceType).toBe('m5.large')
    expect(instance?.KeyName).toBe('ops')
    expect(instance?.Placement?.AvailabilityZone).toBe('eu-west-1b')
    // With a public IP choice the groups travel on the primary network interface.
    const eniGroups = instance?.NetworkInterfaces?.[0]?.Groups?.map((g) => g.GroupName)
    expect(eniGroups).toEqual(['default'])
    expect(instance?.MetadataOptions).toMatchObject({
      HttpTokens: 'required',
      HttpPutResponseHopLimit: 1,
      HttpEndpoint: 'enabled',
    })
    expect(instance?.PublicIpAddress).toBeTruthy()
    expect(instance?.ClientToken).toBe(
      clientTokenFor(machine.metadata.uid, {
        instanceType: 'm5.large',
        subnetId: instance?.SubnetId ?? '',
        zone: 'eu-west-1b',
        capacityType: 'on-demand',
      }),
    )
    const tags = Object.fromEntries((instance?.Tags ?? []).map((t) => [t.Key, t.Value]))
    expect(tags).toMatchObject({
      Name: machine.metadata.name,
      team: 'infra',
      'machine-api.dev/machine-uid': machine.metadata.uid,
      'machine-api.dev/machine-name': machine.metadata.name,
      'machine-api.dev/machine-namespace': 'conformance',
      'machine-api.dev/owner': 'conformance',
    })
    const userData = await f.ec2.send(
      new DescribeInstanceAttributeCommand({
        InstanceId: instance?.InstanceId,
        Attribute: 'userData',
      }),
    )
    expect(Buffer.from(userData.UserData?.Value ?? '', 'base64').toString()).toBe(
      '#cloud-config\nhostname: fields\n',
    )
    const volumeIds = (instance?.BlockDeviceMappings ?? []).map((b) => b.Ebs?.VolumeId ?? '')
    const volumes = await f.ec2.send(new DescribeVolumesCommand({ VolumeIds: volumeIds }))
    const sizes = (volumes.Volumes ?? []).map((v) => [v.Size, v.VolumeType, v.Encrypted])
    expect(sizes).toEqual(
      expect.arrayContaining([
        [40, 'gp3', true],
        [12, 'gp3', true],
      ]),
    )

    expect(result.providerID).toBe(`aws:///eu-west-1b/${instance?.InstanceId}`)
    expect(result.addresses.map((a) => a.type)).toEqual(
      expect.arrayContaining(['InternalIP', 'ExternalIP', 'InternalDNS', 'Hostname']),
    )
    expect(result.providerStatus).toMatchObject({
      instanceId: instance?.InstanceId,
      imageId: f.amiId,
      instanceType: 'm5.large',
      availabilityZone: 'eu-west-1b',
    })
    await deleteUntilDone({ actuator: f.provider.actuator, context: () => ctx }, machine)
  })

  it('launches a spot instance when asked', async () => {
    const f = moto()
    const machine = newMachine('spot')
    const { ctx } = f.context({ providerSpec: { ...f.baseSpec, spot: { maxPrice: '0.5' } } })
    const result = await f.provider.actuator.create(ctx, machine)
    const [instance] = await f.tagged(machine.metadata.uid)
    expect(instance?.InstanceLifecycle).toBe('spot')
    expect(result.providerStatus.spot).toBe(true)
    await deleteUntilDone({ actuator: f.provider.actuator, context: () => ctx }, machine)
  })

  it('keeps user data and credentials out of logs, Events, status and errors', async () => {
    const f = moto()
    const marker = `secret-${crypto.randomUUID()}`
    const keyMarker = `AKIA${crypto.randomUUID().replaceAll('-', '').slice(0, 16).toUpperCase()}`
    const secrets = {
      aws: { aws_access_key_id: keyMarker, aws_secret_access_key: `${marker}-key` },
      boot: { userData: `#!/bin/sh\necho ${marker}\n` },
    }
    const spec = { ...f.baseSpec, userDataSecret: { name: 'boot' } }
    const { ctx, recorded: out } = f.context({ providerSpec: spec, secrets })
    const machine = newMachine('secret')
    const created = await f.provider.actuator.create(ctx, machine)
    const stored = recorded(machine, created)
    const updated = await f.provider.actuator.update(ctx, stored)
    const bad = f.context({ providerSpec: { ...spec, subnet: { id: 'subnet-0000dead' } }, secrets })
    const error = await rejection(f.provider.actuator.create(bad.ctx, newMachine('secret')))
    await deleteUntilDone({ actuator: f.provider.actuator, context: () => ctx }, stored)

    const everything = JSON.stringify([
      out.logs,
      out.events,
      bad.recorded.logs,
      bad.recorded.events,
      created,
      updated,
      error.message,
      error.reason,
    ])
    expect(out.logs.length + out.events.length).toBeGreaterThan(0)
    for (const value of [
      marker,
      keyMarker,
      Buffer.from(secrets.boot.userData).toString('base64'),
    ]) {
      expect(everything).not.toContain(value)
    }
  })

  it('uses the MachineClass credentials and user data references when the spec has none', async () => {
    const f = moto()
    const { credentialsSecret: _, ...spec } = f.baseSpec
    const { ctx, recorded: out } = f.context({
      providerSpec: spec,
      credentialsSecretRef: { name: 'class-creds' },
      userDataSecretRef: { name: 'class-boot', key: 'value' },
      secrets: {
        'class-creds': { aws_access_key_id: 'AKIAC', aws_secret_access_key: 's' },
        'class-boot': { value: '#!/bin/sh\n' },
      },
    })
    const machine = newMachine('classrefs')
    await f.provider.actuator.create(ctx, machine)
    expect(out.secretReads).toEqual(
      expect.arrayContaining(['class-creds/aws_access_key_id', 'class-boot/value']),
    )
    await deleteUntilDone({ actuator: f.provider.actuator, context: () => ctx }, machine)
  })

  it('creates with 5 EC2 calls (subnet by filters) and finds a recorded instance with 1', async () => {
    const f = moto()
    const { ctx } = f.context()
    const machine = newMachine('calls')
    f.calls.length = 0
    const created = await f.provider.actuator.create(ctx, machine)
    // Adoption check, AMI, subnet filters, the zones offering the type, launch.
    expect(f.calls).toEqual([
      'DescribeInstancesCommand',
      'DescribeImagesCommand',
      'DescribeSubnetsCommand',
      'DescribeInstanceTypeOfferingsCommand',
      'RunInstancesCommand',
    ])
    f.calls.length = 0
    expect(await f.provider.actuator.exists(ctx, recorded(machine, created))).toBe(true)
    expect(f.calls).toEqual(['DescribeInstancesCommand'])
    await deleteUntilDone({ actuator: f.provider.actuator, context: () => ctx }, machine)
  })

  it('treats a recorded instance EC2 does not show yet as eventual consistency, then as gone', async () => {
    const f = moto()
    const launched = new Date('2026-06-01T00:00:00Z')
    const machine = {
      ...newMachine('ghost'),
      spec: { providerID: 'aws:///eu-west-1a/i-0123456789abcdef0' },
      status: { providerStatus: { launchTime: launched.toISOString() } },
    }
    const soon = f.context({ now: () => new Date(launched.getTime() + 30_000) }).ctx
    const error = await rejection(f.provider.actuator.exists(soon, machine))
    expect(error).toBeInstanceOf(TransientError)
    expect(error.reason).toBe('InstanceNotYetVisible')
    await expect(f.provider.actuator.delete(soon, machine)).rejects.toBeInstanceOf(TransientError)

    const later = f.context({ now: () => new Date(launched.getTime() + 600_000) }).ctx
    expect(await f.provider.actuator.exists(later, machine)).toBe(false)
    expect(await f.provider.actuator.delete(later, machine)).toEqual({ done: true })
  })

  it('never launches a second instance for a Machine whose instance was terminated', async () => {
    const f = moto()
    const { ctx } = f.context()
    const machine = newMachine('gone')
    const stored = recorded(machine, await f.provider.actuator.create(ctx, machine))
    // Out of band, as a person in the console would.
    const [instance] = await f.tagged(machine.metadata.uid)
    await f.ec2.send(new TerminateInstancesCommand({ InstanceIds: [instance?.InstanceId ?? ''] }))
    expect(await f.provider.actuator.exists(ctx, stored)).toBe(false)
    const error = await rejection(f.provider.actuator.create(ctx, stored))
    expect(error).toBeInstanceOf(InvalidConfigurationError)
    expect(error.reason).toBe('InstanceTerminated')
    expect(await f.tagged(machine.metadata.uid)).toEqual([])
    expect(await f.provider.actuator.delete(ctx, stored)).toEqual({ done: true })
  })

  it('terminates every instance tagged with the Machine UID, including duplicates', async () => {
    const f = moto()
    const machine = newMachine('dupes')
    const { ctx } = f.context()
    // Two Machines with one UID can only come from a bug elsewhere; delete must still leave none.
    const first = await f.provider.actuator.create(ctx, machine)
    const twin = { ...machine, metadata: { ...machine.metadata, uid: crypto.randomUUID() } }
    await f.provider.actuator.create(ctx, twin)
    const calls = await deleteUntilDone(
      { actuator: f.provider.actuator, context: () => ctx },
      recorded(machine, first),
    )
    expect(calls).toBeLessThanOrEqual(3)
    expect(await f.tagged(machine.metadata.uid)).toEqual([])
    expect((await f.tagged(twin.metadata.uid)).length).toBe(1)
    await deleteUntilDone({ actuator: f.provider.actuator, context: () => ctx }, twin)
  })
})
