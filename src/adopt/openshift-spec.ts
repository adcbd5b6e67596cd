/**
 * @module OpenShift's AWSMachineProviderConfig to the `aws` provider spec (docs/migration.md has
 * the table). Pure. The credentials and user-data Secret names move to the MachineClass; every
 * field without an equivalent is a problem at its path under `spec.template.spec.providerSpec.value`.
 */
import type { Translation } from './capa-spec'
import { type AdoptionProblem, untranslatable } from './problems'

type Json = Record<string, unknown>

/** Fields with no effect on what is launched (kind markers, defaults machine-api shares). */
const ignored = new Set([
  'apiVersion',
  'kind',
  'metadata',
  'deviceIndex',
  'credentialsSecret',
  'userDataSecret',
])

/** The OpenShift spec's Secrets, which machine-api names on the class. */
export interface OpenShiftSecrets {
  credentials?: string | undefined
  userData?: string | undefined
}

/** The `aws` spec for `value`, of `object`, and the Secrets it names. */
export function specFromOpenShift(
  value: Json,
  object: string,
  base = 'spec.template.spec.providerSpec.value',
): Translation & { secrets: OpenShiftSecrets } {
  const problems: AdoptionProblem[] = []
  const drop = (path: string, message = 'machine-api has no equivalent') =>
    problems.push(untranslatable(object, `${base}.${path}`, message))
  const spec: Json = {}
  for (const [key, field] of Object.entries(value)) {
    if (ignored.has(key)) continue
    switch (key) {
      case 'ami': {
        const ami = field as Json
        if (typeof ami.id === 'string') spec.ami = { id: ami.id }
        for (const k of Object.keys(ami))
          if (k !== 'id') drop(`ami.${k}`, 'only ami.id is translated')
        break
      }
      case 'instanceType':
        spec.instanceType = field
        break
      case 'placement': {
        const placement = field as Json
        const out: Json = {}
        if (typeof placement.region === 'string') spec.region = placement.region
        if (typeof placement.availabilityZone === 'string')
          out.availabilityZone = placement.availabilityZone
        if (typeof placement.tenancy === 'string') out.tenancy = placement.tenancy
        for (const k of Object.keys(placement)) {
          if (!['region', 'availabilityZone', 'tenancy'].includes(k)) drop(`placement.${k}`)
        }
        if (Object.keys(out).length > 0) spec.placement = out
        break
      }
      case 'subnet':
        spec.subnet = idOrFilters(field as Json)
        break
      case 'securityGroups':
        spec.securityGroups = (field as Json[]).map(idOrFilters)
        break
      case 'iamInstanceProfile': {
        const id = (field as Json).id
        if (typeof id === 'string') spec.iamInstanceProfile = { name: id }
        else drop('iamInstanceProfile', 'only iamInstanceProfile.id is translated')
        break
      }
      case 'keyName':
        if (typeof field === 'string' && field !== '') spec.keyName = field
        break
      case 'tags': {
        const tags = Object.fromEntries(
          (field as { name?: string; value?: string }[]).map((t) => [t.name ?? '', t.value ?? '']),
        )
        if (Object.keys(tags).length > 0) spec.tags = tags
        break
      }
      case 'blockDevices':
        blockDevicesOf(field as Json[], spec, drop)
        break
      case 'spotMarketOptions': {
        const maxPrice = (field as Json).maxPrice
        spec.capacityTypes = ['spot']
        spec.spot = typeof maxPrice === 'string' ? { maxPrice } : {}
        break
      }
      case 'metadataServiceOptions': {
        const auth = (field as Json).authentication
        if (auth === 'Required') spec.metadataOptions = { httpTokens: 'required' }
        else if (auth === 'Optional') spec.metadataOptions = { httpTokens: 'optional' }
        break
      }
      case 'publicIp':
        if (typeof field === 'boolean') spec.publicIP = field
        break
      case 'capacityReservationId':
        if (typeof field === 'string' && field !== '') spec.capacityReservation = { id: field }
        break
      case 'loadBalancers':
        if (Array.isArray(field) && field.length > 0)
          drop('loadBalancers', 'machine-api does not register instances with load balancers')
        break
      case 'networkInterfaceType':
        if (field !== 'ENA' && field !== '') drop('networkInterfaceType')
        break
      default:
        drop(key)
    }
  }
  const secretName = (field: unknown) => (field as { name?: string } | undefined)?.name
  return {
    spec,
    problems,
    secrets: {
      credentials: secretName(value.credentialsSecret),
      userData: secretName(value.userDataSecret),
    },
  }
}

/** An `{id}` or `{filters: [{name, values}]}` reference: the same shape in both APIs. */
function idOrFilters(ref: Json): Json {
  if (typeof ref.id === 'string') return { id: ref.id }
  const filters = (ref.filters ?? []) as { name?: string; values?: string[] }[]
  return { filters: filters.map((f) => ({ name: f.name ?? '', values: f.values ?? [] })) }
}

/** The root volume (the device without a name, or the only one) and the named extra ones. */
function blockDevicesOf(
  devices: Json[],
  spec: Json,
  drop: (path: string, message?: string) => void,
): void {
  const extra: Json[] = []
  devices.forEach((device, i) => {
    const ebs = (device.ebs ?? {}) as Json
    const volume: Json = {}
    for (const [key, value] of Object.entries(ebs)) {
      if (key === 'volumeSize') volume.sizeGiB = value
      else if (key === 'volumeType') volume.type = value
      else if (key === 'iops') volume.iops = value
      else if (key === 'encrypted') volume.encrypted = value
      else if (key === 'kmsKey') {
        const kms = value as Json
        const id = kms.arn ?? kms.id
        if (typeof id === 'string' && id !== '') volume.kmsKeyId = id
      } else drop(`blockDevices[${i}].ebs.${key}`)
    }
    if (typeof device.deviceName === 'string' && device.deviceName !== '') {
      extra.push({ deviceName: device.deviceName, volume })
    } else spec.rootVolume = volume
  })
  if (extra.length > 0) spec.blockDevices = extra
}
