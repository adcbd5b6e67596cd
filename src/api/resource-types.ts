/**
 * @module The machine-api resource types (storage version) by group/version/plural: what clients,
 * watches and sweeps address. Plain data, so every layer can name a resource without the schemas.
 */
import type { ResourceType } from '../kube/resource'
import { API_GROUP, HUB_VERSION } from './group'

function machineApi(kind: string, plural: string): ResourceType {
  return { group: API_GROUP, version: HUB_VERSION, kind, plural, namespaced: true }
}

/** The machine-api resource types (storage version). */
export const machineApiTypes = {
  machine: machineApi('Machine', 'machines'),
  machineSet: machineApi('MachineSet', 'machinesets'),
  machineDeployment: machineApi('MachineDeployment', 'machinedeployments'),
  machineHealthCheck: machineApi('MachineHealthCheck', 'machinehealthchecks'),
  machineClass: machineApi('MachineClass', 'machineclasses'),
} as const
