/**
 * @module The ownership tag value (`machine-api.dev/owner`) this installation puts on its EC2
 * instances, read once when a command starts. Two installations in one AWS account must never
 * share it: the orphan sweep terminates only instances with its own value, so a shared value would
 * let each terminate the other's. It is `machine-api-<UID of the kube-system namespace>`, which
 * is fixed for a cluster's life and differs between clusters; `MACHINE_API_OWNER_ID` overrides
 * it (for example to keep the old value on an installation alone in its account). Releases before
 * used the constant `machine-api` for every installation: the sweep still lists it, re-tags those
 * instances whose Machine exists here and never terminates the others (providers/aws/orphans.ts).
 */
import type { KubeClient } from '../kube/kube-client'
import { coreTypes, type KubeObject } from '../kube/resource'
import type { Logger } from '../observability/logger'
import { defaultOwnerId } from '../providers/aws/tags'

/** The owner value of releases before the per-installation owner. */
export const legacyOwnerId = defaultOwnerId

/** The owner and where it came from (logged at start). */
export interface InstallationOwner {
  ownerId: string
  source: 'MACHINE_API_OWNER_ID' | 'kube-system namespace UID'
  /** Earlier owner values the orphan sweep adopts or leaves alone: none when overridden. */
  legacyOwnerIds: string[]
}

/**
 * This installation's owner. Throws when the kube-system namespace cannot be read (RBAC: the
 * `machine-api:installation-owner` ClusterRole): falling back to a shared value would bring back
 * the cross-installation termination it exists to prevent.
 */
export async function installationOwner(
  kube: KubeClient,
  env: NodeJS.ProcessEnv,
): Promise<InstallationOwner> {
  const override = env.MACHINE_API_OWNER_ID?.trim()
  if (override) return { ownerId: override, source: 'MACHINE_API_OWNER_ID', legacyOwnerIds: [] }
  const namespace = await kube.get<KubeObject>(coreTypes.namespace, { name: 'kube-system' })
  const uid = namespace?.metadata?.uid
  if (!uid) {
    throw new Error(
      'cannot derive the EC2 owner tag: the kube-system namespace has no UID; set MACHINE_API_OWNER_ID',
    )
  }
  return {
    ownerId: `${legacyOwnerId}-${uid}`,
    source: 'kube-system namespace UID',
    legacyOwnerIds: [legacyOwnerId],
  }
}

/** `installationOwner`, logged: the value an operator looks for in the instances' tags. */
export async function loggedInstallationOwner(
  deps: { kube: KubeClient; log: Logger },
  env: NodeJS.ProcessEnv,
): Promise<InstallationOwner> {
  const owner = await installationOwner(deps.kube, env)
  deps.log.info(
    { ownerId: owner.ownerId, source: owner.source },
    'EC2 owner tag of this installation',
  )
  return owner
}
