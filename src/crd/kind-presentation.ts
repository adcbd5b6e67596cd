/** @module How kubectl presents each kind: printer columns and the scale subresource. */
import type { Kind } from '../api/kinds'

/** An additionalPrinterColumn of a CRD version. */
export interface PrinterColumn {
  name: string
  type: 'string' | 'integer' | 'date' | 'boolean' | 'number'
  jsonPath: string
  description: string
  priority?: number
}

const age: PrinterColumn = {
  name: 'Age',
  type: 'date',
  jsonPath: '.metadata.creationTimestamp',
  description: 'Time since creation.',
}

const replicaColumns: PrinterColumn[] = [
  {
    name: 'Desired',
    type: 'integer',
    jsonPath: '.spec.replicas',
    description: 'Desired Machines.',
  },
  {
    name: 'Current',
    type: 'integer',
    jsonPath: '.status.replicas',
    description: 'Existing Machines.',
  },
  {
    name: 'Ready',
    type: 'integer',
    jsonPath: '.status.readyReplicas',
    description: 'Machines with a Ready Node.',
  },
  {
    name: 'Available',
    type: 'integer',
    jsonPath: '.status.availableReplicas',
    description: 'Machines Ready for minReadySeconds.',
  },
]

/** Printer columns per kind (the same in both versions: the paths exist in both). */
export const PRINTER_COLUMNS: Record<Kind, PrinterColumn[]> = {
  Machine: [
    { name: 'Phase', type: 'string', jsonPath: '.status.phase', description: 'Lifecycle phase.' },
    {
      name: 'Node',
      type: 'string',
      jsonPath: '.status.nodeRef.name',
      description: 'The linked Node.',
    },
    {
      name: 'Zone',
      type: 'string',
      jsonPath: '.spec.failureDomain',
      description:
        'The zone (failure domain) of the instance; empty in v1alpha1, which keeps it in the conversion annotation.',
    },
    {
      name: 'ProviderID',
      type: 'string',
      jsonPath: '.spec.providerID',
      description: 'The provider ID.',
    },
    {
      name: 'UpToDate',
      type: 'string',
      jsonPath: '.status.conditions[?(@.type=="UpToDate")].status',
      description:
        'False when its MachineClass or template changed since it was built (UpToDate condition).',
    },
    age,
  ],
  MachineSet: [
    ...replicaColumns,
    age,
    {
      name: 'Zones',
      type: 'string',
      jsonPath: '.status.zoneSpread',
      description:
        'Machines per zone (-o wide); empty in v1alpha1, which keeps it in the conversion annotation.',
      priority: 1,
    },
  ],
  MachineDeployment: [
    ...replicaColumns.slice(0, 3),
    {
      name: 'Updated',
      type: 'integer',
      jsonPath: '.status.updatedReplicas',
      description: 'Machines of the current template.',
    },
    ...replicaColumns.slice(3),
    age,
  ],
  MachineHealthCheck: [
    {
      name: 'MaxUnhealthy',
      type: 'string',
      jsonPath: '.spec.maxUnhealthy',
      description: 'Remediation limit.',
    },
    {
      name: 'Expected',
      type: 'integer',
      jsonPath: '.status.expectedMachines',
      description: 'Machines checked.',
    },
    {
      name: 'Healthy',
      type: 'integer',
      jsonPath: '.status.currentHealthy',
      description: 'Healthy Machines.',
    },
    age,
  ],
  MachineClass: [
    { name: 'Provider', type: 'string', jsonPath: '.spec.provider', description: 'The provider.' },
    age,
  ],
}

/** Kinds with a scale subresource (so kubectl scale, HPA and cluster-autoscaler work). */
export const SCALABLE_KINDS: readonly Kind[] = ['MachineSet', 'MachineDeployment']

/** The scale subresource of a scalable kind. */
export const SCALE_SUBRESOURCE = {
  specReplicasPath: '.spec.replicas',
  statusReplicasPath: '.status.replicas',
  labelSelectorPath: '.status.selector',
} as const
