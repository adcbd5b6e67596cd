/**
 * @module CAPA's AWSMachineTemplate spec to the `aws` provider spec. Pure. The networking (subnets,
 * security groups) comes from the instances themselves: CAPA takes what the template leaves out
 * from its AWSCluster, which adoption does not read, and the running instances are the truth.
 * Every field without an equivalent is a problem at its path; a field CAPA uses only to deliver
 * its own bootstrap data is dropped, since the class's user-data Secret replaces it.
 */
import type { InstanceFacts } from './instances'
import { networkingOf } from './networking'
import { type AdoptionProblem, untranslatable } from './problems'

type Json = Record<string, unknown>

/** Fields that only carry CAPA's bootstrap data or per-instance identity: nothing to keep. */
const dropped = new Set([
  'providerID',
  'instanceID',
  'cloudInit',
  'uncompressedUserData',
  'ignition',
])

/** Fields read by the mapping below (their own sub-fields are checked there). */
const mapped = new Set([
  'instanceType',
  'ami',
  'iamInstanceProfile',
  'sshKeyName',
  'subnet',
  'additionalSecurityGroups',
  'additionalTags',
  'rootVolume',
  'spotMarketOptions',
  'publicIP',
  'instanceMetadataOptions',
  'placementGroupName',
  'tenancy',
  'capacityReservationId',
])

/** What the translation gives: the spec and what it could not carry over. */
export interface Translation {
  spec: Json
  problems: AdoptionProblem[]
}

/**
 * The `aws` spec for `template` (AWSMachineTemplate spec.template.spec) of `object`, the
 * instances it launched giving region, subnets and security groups.
 */
export function specFromCapaTemplate(
  template: Json,
  object: string,
  instances: readonly InstanceFacts[],
): Translation {
  const base = 'spec.template.spec'
  const problems: AdoptionProblem[] = []
  const drop = (path: string, message: string) =>
    problems.push(untranslatable(object, `${base}.${path}`, message))
  for (const key of Object.keys(template)) {
    if (!mapped.has(key) && !dropped.has(key)) drop(key, 'machine-api has no equivalent')
  }
  const net = networkingOf(object, instances)
  problems.push(...net.problems)
  const spec: Json = { ...net.spec }
  if (typeof template.instanceType === 'string') spec.instanceType = template.instanceType
  const ami = (template.ami ?? {}) as Json
  for (const key of Object.keys(ami)) {
    if (key !== 'id') drop(`ami.${key}`, 'only ami.id is translated; name the image by id')
  }
  const imageId = typeof ami.id === 'string' ? ami.id : instances[0]?.imageId
  if (imageId) spec.ami = { id: imageId }
  if (typeof template.iamInstanceProfile === 'string') {
    spec.iamInstanceProfile = { name: template.iamInstanceProfile }
  }
  if (typeof template.sshKeyName === 'string' && template.sshKeyName !== '') {
    spec.keyName = template.sshKeyName
  }
  const tags = template.additionalTags as Record<string, string> | undefined
  if (tags && Object.keys(tags).length > 0) spec.tags = { ...tags }
  const root = template.rootVolume as Json | undefined
  if (root) spec.rootVolume = volumeOf(root, `${base}.rootVolume`, object, problems)
  const spotOptions = template.spotMarketOptions as Json | undefined
  if (spotOptions) {
    spec.capacityTypes = ['spot']
    spec.spot = typeof spotOptions.maxPrice === 'string' ? { maxPrice: spotOptions.maxPrice } : {}
  }
  if (typeof template.publicIP === 'boolean') spec.publicIP = template.publicIP
  const metadata = template.instanceMetadataOptions as Json | undefined
  if (metadata) spec.metadataOptions = metadataOptionsOf(metadata)
  const placement: Json = {}
  if (typeof template.placementGroupName === 'string')
    placement.groupName = template.placementGroupName
  if (typeof template.tenancy === 'string') placement.tenancy = template.tenancy
  if (Object.keys(placement).length > 0) spec.placement = placement
  if (typeof template.capacityReservationId === 'string') {
    spec.capacityReservation = { id: template.capacityReservationId }
  }
  return { spec, problems }
}

/** CAPA's Volume (size, type, iops, throughput, encrypted, encryptionKey). */
function volumeOf(volume: Json, path: string, object: string, problems: AdoptionProblem[]): Json {
  const out: Json = {}
  for (const [key, value] of Object.entries(volume)) {
    if (key === 'size') out.sizeGiB = value
    else if (key === 'type') out.type = value
    else if (key === 'iops') out.iops = value
    else if (key === 'throughput') out.throughputMiBps = value
    else if (key === 'encrypted') out.encrypted = value
    else if (key === 'encryptionKey') out.kmsKeyId = value
    else problems.push(untranslatable(object, `${path}.${key}`, 'machine-api has no equivalent'))
  }
  return out
}

/** CAPA's InstanceMetadataOptions: the same four settings, lower-cased values. */
function metadataOptionsOf(options: Json): Json {
  const out: Json = {}
  for (const key of ['httpTokens', 'httpEndpoint', 'instanceMetadataTags'] as const) {
    if (typeof options[key] === 'string') out[key] = (options[key] as string).toLowerCase()
  }
  if (typeof options.httpPutResponseHopLimit === 'number') {
    out.httpPutResponseHopLimit = options.httpPutResponseHopLimit
  }
  return out
}
