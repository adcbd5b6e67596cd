/**
 * @module The `aws` provider: its spec schema, its actuator, its orphan sweep, instance-type
 * capacity, instance status checks and the EC2 clients it owns.
 */
import type { Provider } from '../registry'
import { parseProviderSpec } from '../spec'
import { createAwsActuator } from './actuator'
import { describeCapacity } from './capacity'
import { type ClientPoolOptions, createClientPool } from './client-pool'
import { specFieldsOf } from './errors'
import { describeOfferedZones } from './offered-zones'
import { launchZones, zoneInstanceTypes } from './offerings'
import { sweepOrphans } from './orphans'
import { resolveImage, resolveSubnets } from './resolve'
import { readCredentials } from './secrets'
import { awsProviderSpecSchema, instanceTypesOf } from './spec'
import { describeInstanceStatuses } from './status-checks'
import { defaultOwnerId } from './tags'

/** Options of `createAwsProvider`; all optional, for production the defaults fit. */
export interface AwsProviderOptions extends ClientPoolOptions {
  /**
   * Value of the `machine-api.dev/owner` tag on every instance. Give each machine-api deployment
   * sharing an AWS account its own, so orphan sweeps never touch another's instances.
   */
  ownerId?: string | undefined
  /**
   * Owner values this installation used before (the old default `machine-api`): the orphan sweep
   * re-tags those instances whose Machine exists and never terminates the others (orphans.ts).
   */
  legacyOwnerIds?: readonly string[] | undefined
  /** How long after launch an invisible recorded instance counts as eventual consistency (2 min). */
  launchGraceMs?: number | undefined
}

/**
 * The `aws` provider, which can always list its orphans, tell an instance type's capacity and read
 * instance status checks.
 */
export type AwsProvider = Provider &
  Required<Pick<Provider, 'sweepOrphans' | 'capacity' | 'followedImage' | 'instanceStatus'>>

/**
 * The `aws` provider. Call `close()` (or the registry's) to release its clients.
 * @example createProviderRegistry([createAwsProvider({ ownerId: 'prod-eu' })])
 */
export function createAwsProvider(options: AwsProviderOptions = {}): AwsProvider {
  const clients = createClientPool(options)
  const ownerId = options.ownerId ?? defaultOwnerId
  return {
    name: 'aws',
    actuator: createAwsActuator({
      clients,
      ownerId,
      launchGraceMs: options.launchGraceMs ?? 120_000,
    }),
    async sweepOrphans(request) {
      const spec = parseProviderSpec(awsProviderSpecSchema(), request.providerSpec)
      const client = clients.get(spec.region, await readCredentials(request, spec))
      return await sweepOrphans({
        client,
        ownerId,
        ...(options.legacyOwnerIds ? { legacyOwnerIds: options.legacyOwnerIds } : {}),
        machineUids: request.machineUids,
        now: request.now,
        signal: request.signal,
        terminate: request.terminate ?? false,
        graceMs: request.graceMs ?? 15 * 60_000,
      })
    },
    async capacity(request) {
      const spec = parseProviderSpec(awsProviderSpecSchema(), request.providerSpec)
      const client = clients.get(spec.region, await readCredentials(request, spec))
      const types = instanceTypesOf(spec)
      // The preferred type: scale from zero plans with it (other types may differ in size).
      const preferred = {
        instanceType: types[0] ?? '',
        field: specFieldsOf(spec, types[0])('instanceType'),
      }
      const capacity = await describeCapacity(client, preferred, request.signal)
      const subnets = await resolveSubnets(client, spec, request.signal)
      const offered = await describeOfferedZones(client, types, request.signal)
      const zones = launchZones(subnets, types, offered)
      return {
        ...capacity,
        zones,
        ...(offered ? { zoneInstanceTypes: zoneInstanceTypes(zones, types, offered) } : {}),
      }
    },
    async followedImage(request) {
      const spec = parseProviderSpec(awsProviderSpecSchema(), request.providerSpec)
      if (!spec.ami.follow) return undefined
      const client = clients.get(spec.region, await readCredentials(request, spec))
      const image = await resolveImage(client, spec, request.signal)
      return { id: image.ImageId ?? '', name: image.Name, creationDate: image.CreationDate }
    },
    instanceStatus: (request) => describeInstanceStatuses(clients, request),
    close: () => clients.close(),
  }
}
