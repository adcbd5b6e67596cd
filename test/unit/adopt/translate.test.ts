/**
 * The provider-spec translations adoption uses: CAPA's AWSMachineTemplate and OpenShift's
 * AWSMachineProviderConfig to the `aws` spec, networking from the instances, and every field
 * without an equivalent named by its path.
 */
import { describe, expect, it } from 'vitest'
import { specFromCapaTemplate } from '../../../src/adopt/capa-spec'
import type { InstanceFacts } from '../../../src/adopt/instances'
import { specFromOpenShift } from '../../../src/adopt/openshift-spec'
import { standingProblems } from '../../../src/adopt/problems'
import { specProblems } from '../../../src/adopt/targets'

function instance(id: string, zone: string, subnetId: string, groups = ['sg-1']): InstanceFacts {
  return {
    id,
    state: 'running',
    zone,
    region: 'eu-west-1',
    subnetId,
    securityGroupIds: groups,
    spot: false,
    imageId: 'ami-1',
    tags: {},
  }
}

describe('specFromCapaTemplate', () => {
  const instances = [
    instance('i-1', 'eu-west-1b', 'subnet-b'),
    instance('i-2', 'eu-west-1a', 'subnet-a'),
  ]

  it('keeps type, image, profile, key and volume, and takes the subnets per zone from the instances', () => {
    const { spec, problems } = specFromCapaTemplate(
      {
        instanceType: 'm7i.large',
        ami: { id: 'ami-0abc' },
        iamInstanceProfile: 'nodes.cluster-api-provider-aws.sigs.k8s.io',
        sshKeyName: 'ops',
        rootVolume: { size: 80, type: 'gp3', encrypted: true },
        cloudInit: { insecureSkipSecretsManager: true },
      },
      'AWSMachineTemplate/x',
      instances,
    )
    expect(problems).toEqual([])
    expect(spec).toEqual({
      region: 'eu-west-1',
      subnets: [{ id: 'subnet-a' }, { id: 'subnet-b' }],
      securityGroups: [{ id: 'sg-1' }],
      instanceType: 'm7i.large',
      ami: { id: 'ami-0abc' },
      iamInstanceProfile: { name: 'nodes.cluster-api-provider-aws.sigs.k8s.io' },
      keyName: 'ops',
      rootVolume: { sizeGiB: 80, type: 'gp3', encrypted: true },
    })
    expect(specProblems(spec, 'x', 'spec')).toEqual([])
  })

  it.each([
    {
      field: { ami: { eksLookupType: 'AmazonLinux' } },
      path: 'spec.template.spec.ami.eksLookupType',
    },
    { field: { networkInterfaces: ['eni-1'] }, path: 'spec.template.spec.networkInterfaces' },
    {
      field: { rootVolume: { size: 8, deviceName: '/dev/xvda' } },
      path: 'spec.template.spec.rootVolume.deviceName',
    },
  ])('names $path, which --force accepts', ({ field, path }) => {
    const { problems } = specFromCapaTemplate(
      { instanceType: 't3.micro', ...field },
      'obj',
      instances,
    )
    expect(problems.map((p) => p.path)).toEqual([path])
    expect(standingProblems(problems, [path])).toEqual([])
    expect(standingProblems(problems, [`obj:${path}`])).toEqual([])
  })

  it('refuses instances that disagree on security groups, even with --force', () => {
    const mixed = [
      instance('i-1', 'eu-west-1a', 's', ['sg-1']),
      instance('i-2', 'eu-west-1b', 't', ['sg-2']),
    ]
    const { problems } = specFromCapaTemplate({ instanceType: 't3.micro' }, 'obj', mixed)
    expect(problems[0]?.message).toContain('different security groups')
    expect(standingProblems(problems, ['securityGroups'])).toHaveLength(1)
  })
})

describe('specFromOpenShift', () => {
  it('maps the provider config and moves its Secrets to the class', () => {
    const { spec, problems, secrets } = specFromOpenShift(
      {
        apiVersion: 'machine.openshift.io/v1beta1',
        kind: 'AWSMachineProviderConfig',
        ami: { id: 'ami-1' },
        instanceType: 'm6i.xlarge',
        placement: { region: 'eu-west-1', availabilityZone: 'eu-west-1a' },
        subnet: { filters: [{ name: 'tag:Name', values: ['infra-a'] }] },
        securityGroups: [{ id: 'sg-1' }],
        iamInstanceProfile: { id: 'worker-profile' },
        credentialsSecret: { name: 'aws-cloud-credentials' },
        userDataSecret: { name: 'worker-user-data' },
        tags: [{ name: 'team', value: 'infra' }],
        blockDevices: [{ ebs: { volumeSize: 120, volumeType: 'gp3', encrypted: true } }],
        metadataServiceOptions: { authentication: 'Required' },
        deviceIndex: 0,
      },
      'MachineSet/x',
    )
    expect(problems).toEqual([])
    expect(secrets).toEqual({ credentials: 'aws-cloud-credentials', userData: 'worker-user-data' })
    expect(spec).toMatchObject({
      region: 'eu-west-1',
      placement: { availabilityZone: 'eu-west-1a' },
      subnet: { filters: [{ name: 'tag:Name', values: ['infra-a'] }] },
      iamInstanceProfile: { name: 'worker-profile' },
      tags: { team: 'infra' },
      rootVolume: { sizeGiB: 120, type: 'gp3', encrypted: true },
      metadataOptions: { httpTokens: 'required' },
    })
    expect(specProblems(spec, 'x', 'v')).toEqual([])
  })

  it('names a load balancer registration it cannot keep', () => {
    const { problems } = specFromOpenShift(
      { instanceType: 't3.micro', loadBalancers: [{ name: 'ingress', type: 'network' }] },
      'obj',
    )
    expect(problems.map((p) => p.path)).toEqual([
      'spec.template.spec.providerSpec.value.loadBalancers',
    ])
  })
})
