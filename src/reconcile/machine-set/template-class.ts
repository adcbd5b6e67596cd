/**
 * @module What a MachineSet reads from the MachineClass its template names, and only when a
 * decision needs it: the class generation while Failed Machines wait (a changed class ends their
 * backoff), and the zones new Machines are balanced over while Machines are missing: the zones
 * that can host one now (shared/hostable-zones.ts), from the zones the class's provider offers.
 *
 * The set records the class's name and those zones in its status (`status.templateClass`) and
 * scales from that record without a GET. The record stays current the way the capacity
 * annotations do: a class's change (an offering found unavailable or expired included) wakes the
 * sets whose template names it and hands them the class, and so does every sweep; a copy older
 * than that only places a Machine in a zone its own launch then falls back from. The class is
 * read fresh when none was handed and the record names another class (a new set, a template
 * that now names another class), and while Machines are Failed.
 */
import { machineApiTypes } from '../../api/resource-types'
import type { MachineClass } from '../../api/v1beta1/machine-class'
import type { KubeClient } from '../../kube/kube-client'
import type { KubeObject } from '../../kube/resource'
import { hostableZones, zonesFrom } from '../shared/hostable-zones'
import { interruptionOf } from '../shared/interruption'
import { templateClassName } from '../shared/node-group-class'
import { isFailedMachine } from './replacement'
import { isControlledBy, isDeleting, type MachineObject, type MachineSetObject } from './types'

/** The record of the template's class in the set's status. */
export type TemplateClassRecord = NonNullable<
  NonNullable<MachineSetObject['status']>['templateClass']
>

/** The class facts the planner takes (see MachineSetObservation). */
export interface TemplateClassFacts {
  classGeneration?: number
  zones?: string[]
}

/** What the set learned of its template's class this run. */
export interface TemplateClassReading {
  facts: TemplateClassFacts
  /** The class when this run holds it (handed or read): the capacity sync uses it too. */
  machineClass?: MachineClass & KubeObject
  /** The record to write to status, when this run saw the class. */
  record?: TemplateClassRecord
  /** Whether this run looked the class up (handed or read), found or not. */
  looked: boolean
}

/** The record for `machineClass` at `now`: its name and the zones that can host a Machine. Pure. */
export function recordOf(machineClass: MachineClass & KubeObject, now: Date): TemplateClassRecord {
  const listed = zonesFrom(machineClass, undefined)
  const zones = listed && hostableZones(listed, machineClass, now)
  return { name: machineClass.metadata?.name ?? '', ...(zones ? { zones } : {}) }
}

/**
 * Where a run of a set takes its template's class from: the class it was handed, else the set's
 * record when that names the same class and no Machine is Failed (their backoff compares the
 * class's generation, which only a fresh copy tells), else a GET when a decision needs the class
 * (Machines missing or Failed, or the capacity annotations of a set that is a node group of its
 * own), else nowhere. Pure.
 */
export function templateClassSource(run: {
  handed: boolean
  failed: boolean
  missing: boolean
  nodeGroup: boolean
  className: string
  recorded: TemplateClassRecord | undefined
}): 'handed' | 'record' | 'read' | 'none' {
  if (run.handed) return 'handed'
  if (!run.failed && run.recorded?.name === run.className) return 'record'
  return run.failed || run.missing || run.nodeGroup ? 'read' : 'none'
}

/**
 * The template's class facts, from where templateClassSource says: the class the run was handed,
 * the set's record, a GET, or nowhere when no decision of this run needs the class.
 */
export async function readTemplateClass(
  kube: KubeClient,
  set: MachineSetObject,
  observed: {
    machines: MachineObject[]
    now: Date
    handed?: (MachineClass & KubeObject) | undefined
    /** Whether the set is a node group of its own (its capacity annotations follow the class). */
    nodeGroup: boolean
  },
): Promise<TemplateClassReading> {
  const { machines, now, handed, nodeGroup } = observed
  const spec = set.spec.template.spec
  const owned = machines.filter((m) => isControlledBy(m, set.metadata.uid) && !isDeleting(m))
  const failed = owned.some(isFailedMachine)
  // An interrupted Machine is leaving: its replacement needs a zone as a missing replica does.
  const rebalance = set.spec.interruption?.rebalanceRecommendation ?? 'Record'
  const serving = owned.filter((m) => !isFailedMachine(m) && !interruptionOf(m, rebalance, now))
  const missing = serving.length < (set.spec.replicas ?? 0)
  const className = templateClassName(set as KubeObject)
  if (!className) {
    const zones = zonesFrom(undefined, spec.providerSpec?.value)
    return { facts: zones ? { zones } : {}, looked: false }
  }
  const recorded = set.status?.templateClass
  const source = templateClassSource({
    handed: handed !== undefined,
    failed,
    missing,
    nodeGroup,
    className,
    recorded,
  })
  if (source === 'none') return { facts: {}, looked: false }
  // The zones go with every record, not only while replicas are missing: an expired Machine's
  // replacement surges above replicas and is balanced like any other create.
  if (source === 'record') {
    const zones = recorded?.zones
    return { facts: zones ? { zones } : {}, looked: false }
  }
  const ref = { namespace: set.metadata.namespace ?? '', name: className }
  const found =
    handed ?? (await kube.get<MachineClass & KubeObject>(machineApiTypes.machineClass, ref))
  if (!found) return { facts: {}, looked: true }
  // Recorded as it can host now, so later runs need not compute it again.
  const record = recordOf(found, now)
  const generation = found.metadata?.generation
  return {
    facts: {
      ...(failed && generation !== undefined ? { classGeneration: generation } : {}),
      ...(record.zones ? { zones: record.zones } : {}),
    },
    machineClass: found,
    record,
    looked: true,
  }
}
