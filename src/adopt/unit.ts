/**
 * @module One adoption unit: a source set (or a group of instances) and what machine-api makes of
 * it. Built by the source readers (sources/), planned by plan.ts, executed by execute.ts. Plain
 * data: the target objects are complete manifests, the source objects are refs.
 */
import { API_GROUP } from '../api/group'
import type { InstanceFacts } from './instances'
import type { AdoptionProblem } from './problems'
import type { SourceRef } from './source-types'

/** On every object adoption creates: the source it came from (`Kind.group/namespace/name`). */
export const ADOPTED_FROM = `${API_GROUP}/adopted-from`

/** One instance to take over, and the source objects that hold it today. */
export interface AdoptedMachine {
  /** The machine-api Machine's name. */
  name: string
  instance: InstanceFacts
  /** The Node the instance runs (its providerID names the instance). */
  nodeName: string
  /** The source Machine and its infrastructure object, released bottom-up once Running. */
  release: SourceRef[]
  /** An inline provider spec (unmanaged instances); set members use the class. */
  inlineSpec?: Record<string, unknown> | undefined
}

/** What one source becomes. */
export interface AdoptionUnit {
  /** The source as messages name it. */
  title: string
  /** Where the machine-api objects go. */
  namespace: string
  /** Source objects to pause before anything is written, top-down. */
  pause: SourceRef[]
  /** Source objects above the Machines, released last (bottom-up). */
  releaseAfter: SourceRef[]
  machineClass?: Record<string, unknown> | undefined
  /** A MachineDeployment to create (paused until its set holds the adopted Machines). */
  deployment?: Record<string, unknown> | undefined
  /** A standalone MachineSet to create once its Machines exist. */
  set?: Record<string, unknown> | undefined
  machines: AdoptedMachine[]
  problems: AdoptionProblem[]
  /** What the operator should know that does not stop the adoption. */
  notes: string[]
  /** The source named does not exist (perhaps adopted and released by an earlier run). */
  sourceMissing?: boolean
}
