/** @module The API group, its versions and the well-known label and annotation keys of machine-api. */

/** The API group every kind of machine-api lives in. */
export const API_GROUP = 'machine-api.dev'

/** The storage version and conversion hub. */
export const HUB_VERSION = 'v1beta1'

/** The legacy version, converted to and from the hub by the conversion webhook. */
export const SPOKE_VERSION = 'v1alpha1'

/** Every served version, newest (storage) first. */
export const API_VERSIONS = [HUB_VERSION, SPOKE_VERSION] as const

/** A served version name. */
export type ApiVersionName = (typeof API_VERSIONS)[number]

/** `apiVersion` strings of the two served versions. */
export const HUB_API_VERSION = `${API_GROUP}/${HUB_VERSION}`
/** `apiVersion` string of the legacy version. */
export const SPOKE_API_VERSION = `${API_GROUP}/${SPOKE_VERSION}`

/** Annotation keys owned by machine-api. */
export const ANNOTATIONS = {
  /** On v1alpha1 objects: JSON of the v1beta1 fields v1alpha1 cannot hold (restored on the way back). */
  conversionData: `${API_GROUP}/conversion-data`,
  /** cluster-autoscaler bounds (its clusterapi provider derives the key from the API group). */
  autoscalerMinSize: `${API_GROUP}/cluster-api-autoscaler-node-group-min-size`,
  autoscalerMaxSize: `${API_GROUP}/cluster-api-autoscaler-node-group-max-size`,
} as const

/** Label keys owned by machine-api. */
export const LABELS = {
  /** Ties a MachineSet's Machines to it when the user gave no selector. */
  setName: `${API_GROUP}/set-name`,
  /** Ties a MachineDeployment's MachineSets and Machines to it when the user gave no selector. */
  deploymentName: `${API_GROUP}/deployment-name`,
} as const
