/**
 * @module The Cluster API keys cluster-autoscaler reads on a deployment's MachineSets and on the
 * deployment itself. Unlike its other keys these do not follow `CAPI_GROUP`, so they are written
 * under Cluster API's own names: without them the autoscaler cannot tell that a deployment is mid
 * rollout and removes its Nodes (its `IsMachineDeploymentAndRollingOut` lists the sets by the
 * deployment-name label and compares their revision annotations).
 */
import type { MachineSetObject } from '../machine-set/types'

/** What these keys need of a MachineDeployment (structural, so machine-sets.ts can import this). */
interface Deployment {
  metadata: { name: string; annotations?: Record<string, string> | undefined }
  spec: { paused?: boolean | undefined }
}

/** Label on each MachineSet: the name of the MachineDeployment that owns it. */
export const CAPI_DEPLOYMENT_NAME_LABEL = 'cluster.x-k8s.io/deployment-name'
/** Annotation on each MachineSet: the same number as `machine-api.dev/revision`. */
export const CAPI_REVISION_ANNOTATION = 'machinedeployment.clusters.x-k8s.io/revision'
/** Annotation (any value) that pauses a deployment, as `spec.paused: true` does. */
export const CAPI_PAUSED_ANNOTATION = 'cluster.x-k8s.io/paused'

/** Longest label value Kubernetes accepts. */
const maxLabelValue = 63

/**
 * The deployment-name label a set of `md` carries, or undefined when the name cannot be a label
 * value (over 63 characters): the autoscaler matches the exact name, so a shortened value would
 * not help it, and a rejected label would block every other change of the same patch.
 */
export function deploymentNameLabel(md: Deployment): Record<string, string> {
  const name = md.metadata.name
  return name.length <= maxLabelValue ? { [CAPI_DEPLOYMENT_NAME_LABEL]: name } : {}
}

/** True when rollouts of `md` are paused: `spec.paused` or the Cluster API paused annotation. */
export function isPaused(md: Deployment): boolean {
  return md.spec.paused === true || md.metadata.annotations?.[CAPI_PAUSED_ANNOTATION] !== undefined
}

/**
 * The label and annotation changes that bring `set` in line with `md` and `revision` (the set's
 * revision after this pass), as merge-patch maps; empty maps when nothing differs.
 */
export function autoscalerKeyPatch(
  md: Deployment,
  set: MachineSetObject,
  revision: number,
): { labels: Record<string, string>; annotations: Record<string, string> } {
  const labels: Record<string, string> = {}
  for (const [key, value] of Object.entries(deploymentNameLabel(md))) {
    if (set.metadata.labels?.[key] !== value) labels[key] = value
  }
  const annotations: Record<string, string> = {}
  if (revision > 0 && set.metadata.annotations?.[CAPI_REVISION_ANNOTATION] !== String(revision)) {
    annotations[CAPI_REVISION_ANNOTATION] = String(revision)
  }
  return { labels, annotations }
}
