/** @module The machine-api wiring of event mapping: which change wakes which kind. */
import { machineApiTypes } from '../api/resource-types'
import { coreTypes, type KubeObject, type ResourceType } from '../kube/resource'
import { realTimers, type Timers } from '../timers'
import { classToFailedMachinesMapper } from './class-failed-machines-mapper'
import {
  type EventMapper,
  nodeToMachineMapper,
  ownerMapper,
  referenceMapper,
  selectorMapper,
  selfMapper,
  sharedListing,
  specSelector,
} from './event-mapping'
import { nodeToHealthCheckMapper } from './node-health-check-mapper'

/**
 * How long a listing of a namespace's MachineHealthChecks waits for more Machine and Node changes
 * to share it (default of machineApiMappers' `healthCheckGatherMs`). Every Machine change maps
 * to the health checks that select it, about 8 changes per Machine's life; gathered, a Machine
 * costs about a quarter of a list instead of 1.75 (benchmark api-cost), and a health check
 * hears of a change at most this much later, far below any timeout it judges.
 */
export const defaultHealthCheckGatherMs = 1000

/** True when the node group (MachineSet or MachineDeployment) `group`'s template names `name`. */
function templateNamesClass(group: KubeObject, name: string): boolean {
  const spec = group.spec as { template?: { spec?: { classRef?: { name?: unknown } } } } | undefined
  return spec?.template?.spec?.classRef?.name === name
}

/** Options of machineApiMappers. */
export interface MapperOptions {
  /** Timers for the health checks' shared listing (default: the event loop's). */
  timers?: Timers | undefined
  /** See defaultHealthCheckGatherMs; 0 lists at once. */
  healthCheckGatherMs?: number | undefined
}

/**
 * The mappers for the machine-api kinds in `kinds` (the selected controllers): each kind reacts to
 * itself; Node -> Machine; MachineClass -> the standalone Machines that failed on another
 * generation of it (class-failed-machines-mapper.ts); Machine -> owning MachineSet and selecting
 * MachineHealthChecks;
 * MachineSet -> owning MachineDeployment; MachineClass -> the MachineSets and MachineDeployments
 * whose template names it (a fixed class replaces the Failed Machines of its sets at once, past
 * their backoff; a class's change, its capacity included, is the only run that syncs the groups'
 * capacity annotations besides their own spec changes and the sweep: class-capacity-sync.ts). A mapper is included only when its target kind is
 * selected, so a Machine-only deployment never lists MachineHealthChecks.
 */
export function machineApiMappers(
  kinds: readonly string[],
  options: MapperOptions = {},
): EventMapper[] {
  const t = machineApiTypes
  const wanted = new Set(kinds)
  // One listing for both health-check mappers: a Machine's changes and its Node's share it.
  const checks = sharedListing(t.machineHealthCheck, {
    timers: options.timers ?? realTimers(),
    ms: options.healthCheckGatherMs ?? defaultHealthCheckGatherMs,
  })
  const candidates: Array<{ target: string; mapper: EventMapper }> = [
    ...kinds.map((kind) => ({ target: kind, mapper: selfMapper(kind) })),
    { target: t.machine.kind, mapper: nodeToMachineMapper(t.machine, coreTypes.node.kind) },
    { target: t.machine.kind, mapper: classToFailedMachinesMapper(t.machineClass.kind, t.machine) },
    { target: t.machineSet.kind, mapper: ownerMapper(t.machine.kind, t.machineSet.kind) },
    {
      target: t.machineSet.kind,
      mapper: referenceMapper(t.machineClass.kind, t.machineSet, templateNamesClass),
    },
    {
      target: t.machineHealthCheck.kind,
      mapper: selectorMapper(t.machine.kind, t.machineHealthCheck, specSelector, checks),
    },
    // Node conditions are what health checks judge; a Node turning NotReady changes no Machine.
    { target: t.machineHealthCheck.kind, mapper: nodeToHealthCheckMapper(t, checks) },
    {
      target: t.machineDeployment.kind,
      mapper: ownerMapper(t.machineSet.kind, t.machineDeployment.kind),
    },
    {
      target: t.machineDeployment.kind,
      mapper: referenceMapper(t.machineClass.kind, t.machineDeployment, templateNamesClass),
    },
  ]
  return candidates.filter((c) => wanted.has(c.target)).map((c) => c.mapper)
}

/**
 * The source types to watch for the selected kinds: each selected kind, plus Nodes and
 * MachineClasses for Machine, Machines and MachineClasses for MachineSet, Machines and Nodes for
 * MachineHealthCheck, MachineSets and MachineClasses for MachineDeployment.
 */
export function watchedTypes(
  controllers: ReadonlyArray<{ resource: ResourceType }>,
): ResourceType[] {
  const t = machineApiTypes
  const sources: Record<string, ResourceType[]> = {
    Machine: [coreTypes.node, t.machineClass],
    MachineSet: [t.machine, t.machineClass],
    MachineHealthCheck: [t.machine, coreTypes.node],
    MachineDeployment: [t.machineSet, t.machineClass],
  }
  const out = new Map<string, ResourceType>()
  for (const c of controllers) {
    for (const type of [c.resource, ...(sources[c.resource.kind] ?? [])]) out.set(type.kind, type)
  }
  return [...out.values()]
}
