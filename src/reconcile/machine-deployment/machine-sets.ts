/**
 * @module A deployment's MachineSets: the one to create for a template, what to propagate in place
 * to existing ones, and revisions. Each set carries `machine-api.dev/revision`; the set of the
 * current template has the highest revision, and a rollback to an older template gives that
 * template's set the next revision again (as apps/v1 Deployments do).
 */
import { ANNOTATIONS, HUB_API_VERSION, LABELS } from '../../api/group'
import type { MachineDeployment } from '../../api/v1beta1/machine-deployment'
import { IN_PLACE_SPEC_FIELDS } from '../machine-set/machine-template'
import { controllerReference, type MachineSetObject, type ServerMeta } from '../machine-set/types'
import { CAPI_REVISION_ANNOTATION, deploymentNameLabel } from './autoscaler-keys'
import { mergePatchFor } from './merge-diff'
import { machineSetNameFor } from './template-hash'

/** A MachineDeployment as read (defaults already applied by the webhook). */
export interface MachineDeploymentObject {
  apiVersion?: string
  kind?: string
  metadata: ServerMeta
  spec: MachineDeployment['spec']
  status?: MachineDeployment['status']
  [field: string]: unknown
}

/** The revision of a set (0 when it has none). */
export function revisionOf(set: MachineSetObject): number {
  const value = Number(set.metadata.annotations?.[ANNOTATIONS.revision])
  return Number.isInteger(value) && value > 0 ? value : 0
}

/** The delete policy the deployment asks of its sets. */
export function deletePolicyOf(
  md: MachineDeploymentObject,
): MachineSetObject['spec']['deletePolicy'] {
  return md.spec.strategy?.rollingUpdate?.deletePolicy ?? 'Random'
}

/** The deployment's template as its set for `hash` holds it: plus the hash label. */
function setTemplate(
  md: MachineDeploymentObject,
  hash: string,
): MachineSetObject['spec']['template'] {
  const meta = md.spec.template.metadata ?? {}
  return {
    metadata: { ...meta, labels: { ...meta.labels, [LABELS.templateHash]: hash } },
    spec: structuredClone(md.spec.template.spec),
  }
}

/** The MachineSet for the deployment's current template. */
export function desiredMachineSet(
  md: MachineDeploymentObject,
  hash: string,
  revision: number,
  replicas: number,
): MachineSetObject {
  return {
    apiVersion: HUB_API_VERSION,
    kind: 'MachineSet',
    metadata: {
      name: machineSetNameFor(md.metadata.name, hash),
      namespace: md.metadata.namespace ?? '',
      labels: {
        ...md.spec.template.metadata?.labels,
        ...deploymentNameLabel(md),
        [LABELS.templateHash]: hash,
      },
      annotations: {
        [ANNOTATIONS.revision]: String(revision),
        [CAPI_REVISION_ANNOTATION]: String(revision),
      },
      ownerReferences: [controllerReference({ ...md, kind: 'MachineDeployment' })],
    },
    spec: {
      replicas,
      selector: {
        ...md.spec.selector,
        matchLabels: { ...md.spec.selector.matchLabels, [LABELS.templateHash]: hash },
      },
      template: setTemplate(md, hash),
      deletePolicy: deletePolicyOf(md),
      minReadySeconds: md.spec.minReadySeconds ?? 0,
      ...(md.spec.interruption ? { interruption: structuredClone(md.spec.interruption) } : {}),
    },
  }
}

/**
 * The merge patch that brings `set` up to date without a rollout: deletePolicy,
 * minReadySeconds and the interruption policy for every set; for the current one also template labels, annotations and the
 * in-place Machine fields (which its MachineSet then propagates to the Machines).
 */
export function inPlaceSetPatch(
  md: MachineDeploymentObject,
  set: MachineSetObject,
  current: boolean,
): Record<string, unknown> | undefined {
  const spec: Record<string, unknown> = {}
  if (set.spec.deletePolicy !== deletePolicyOf(md)) spec.deletePolicy = deletePolicyOf(md)
  const minReady = md.spec.minReadySeconds ?? 0
  if ((set.spec.minReadySeconds ?? 0) !== minReady) spec.minReadySeconds = minReady
  const interruption = mergePatchFor(set.spec.interruption ?? {}, md.spec.interruption ?? {})
  if (interruption !== undefined) spec.interruption = interruption
  if (current) {
    const hash = set.metadata.labels?.[LABELS.templateHash] ?? ''
    const want = setTemplate(md, hash)
    const have = set.spec.template as unknown as Record<string, unknown>
    const wantSpec = want.spec as Record<string, unknown>
    const haveSpec = (have.spec ?? {}) as Record<string, unknown>
    const pick = (s: Record<string, unknown>) =>
      Object.fromEntries(IN_PLACE_SPEC_FIELDS.map((f) => [f, s[f]]))
    const metadata = mergePatchFor(have.metadata ?? {}, want.metadata)
    const inPlace = mergePatchFor(pick(haveSpec), pick(wantSpec))
    const template: Record<string, unknown> = {}
    if (metadata !== undefined) template.metadata = metadata
    if (inPlace !== undefined) template.spec = inPlace
    if (Object.keys(template).length > 0) spec.template = template
  }
  return Object.keys(spec).length > 0 ? { spec } : undefined
}

/** The deployment template a set was stamped from (the hash label removed), for rollback. */
export function deploymentTemplateOf(set: MachineSetObject): MachineSetObject['spec']['template'] {
  const template = structuredClone(set.spec.template)
  const labels = { ...template.metadata?.labels }
  delete labels[LABELS.templateHash]
  return { ...template, metadata: { ...template.metadata, labels } }
}
