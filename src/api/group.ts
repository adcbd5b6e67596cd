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

/**
 * Every annotation key machine-api owns, whatever it is put on; the kind it goes on is named
 * first. Declared here once so that each key has one spelling.
 */
export const ANNOTATIONS = {
  /** On v1alpha1 objects: JSON of the v1beta1 fields v1alpha1 cannot hold (restored on the way back). */
  conversionData: `${API_GROUP}/conversion-data`,
  /** cluster-autoscaler bounds (its clusterapi provider derives the key from the API group). */
  autoscalerMinSize: `${API_GROUP}/cluster-api-autoscaler-node-group-min-size`,
  autoscalerMaxSize: `${API_GROUP}/cluster-api-autoscaler-node-group-max-size`,
  /**
   * On a Node: `namespace/name` of its Machine, the Node -> Machine back-reference (an annotation,
   * because `namespace/name` can exceed a label value's 63 characters and contains `/`).
   */
  machine: `${API_GROUP}/machine`,
  /** On a Node: what its Machine put there, so removals touch nothing else. */
  ownedLabels: `${API_GROUP}/owned-labels`,
  ownedAnnotations: `${API_GROUP}/owned-annotations`,
  ownedTaints: `${API_GROUP}/owned-taints`,
  /** On a Machine: the process that holds the right to create its infrastructure. */
  createClaim: `${API_GROUP}/create-claim`,
  /** On a Machine: skip draining its Node on deletion. */
  excludeNodeDraining: `${API_GROUP}/exclude-node-draining`,
  /** On a Machine: do not wait for its Node's volumes to detach on deletion. */
  excludeWaitForNodeVolumeDetach: `${API_GROUP}/exclude-wait-for-node-volume-detach`,
  /**
   * On a Machine: JSON of the most serious EC2 notice about its instance (spot interruption,
   * rebalance, scheduled maintenance, state change), written by the EC2 notice source.
   */
  instanceNotice: `${API_GROUP}/instance-notice`,
  /**
   * On a Machine without a controller (no MachineSet): `"true"` deletes it when EC2 announces its
   * interruption, stop, termination or maintenance (a set-owned Machine is replaced by its set).
   */
  deleteOnInterruption: `${API_GROUP}/delete-on-interruption`,
  /**
   * On a Machine: the EC2 status checks its instance fails, as the sweep found them (JSON,
   * src/api/instance-status-checks.ts); removed once they pass again.
   */
  instanceStatusChecks: `${API_GROUP}/instance-status-checks`,
  /** On a Machine: a human asks for remediation now (Cluster API's `remediate-machine`). */
  remediateMachine: `${API_GROUP}/remediate-machine`,
  /** On a Machine: never remediate it (it is still evaluated and reported). */
  skipRemediation: `${API_GROUP}/skip-remediation`,
  /**
   * On a Machine: handed to an external remediator; the value names what was handed over
   * (`annotation`, or `Kind/name` of the remediation request). While present the Machine is "in
   * flight"; the health check removes it once the Machine is healthy again.
   */
  externalRemediation: `${API_GROUP}/external-remediation`,
  /** On a MachineHealthCheck: `external` hands unhealthy Machines over by annotation only. */
  remediationStrategy: `${API_GROUP}/remediation-strategy`,
  /**
   * On a Machine: delete it first when its MachineSet scales down; cluster-autoscaler sets it when
   * run with CAPI_GROUP=machine-api.dev.
   */
  deleteMachine: `${API_GROUP}/delete-machine`,
  /**
   * On a MachineSet: create no Machines (it still deletes and adopts). A deployment puts it on its
   * old sets under OnDelete, so a deleted Machine is replaced from the new template.
   */
  disableMachineCreate: `${API_GROUP}/disable-machine-create`,
  /** On a MachineSet: the MachineDeployment revision its template belongs to. */
  revision: `${API_GROUP}/revision`,
  /**
   * On a MachineSet: JSON `{allowed, budget?, until?}` written by its MachineDeployment: how many
   * of the set's Machines may be in replacement for expiry at once under the deployment's
   * disruption budgets (src/reconcile/disruption/allowance.ts). Absent: 1.
   */
  expiryAllowance: `${API_GROUP}/expiry-allowance`,
  /**
   * On a MachineSet of a deployment: the content hash (and generation, and the content as JSON) of
   * the MachineClass its Machines are built from (src/reconcile/shared/class-content.ts), so a
   * class change is a new set and its Event can say what changed.
   */
  classHash: `${API_GROUP}/class-hash`,
  classGeneration: `${API_GROUP}/class-generation`,
  classContent: `${API_GROUP}/class-content`,
  /**
   * On a MachineSet of a deployment: JSON `{reason, message}` of why it was rolled out to
   * (TemplateChanged, ClassChanged, ImageChanged, RolloutAfter).
   */
  rolloutReason: `${API_GROUP}/rollout-reason`,
  /**
   * On an old MachineSet of a deployment, copied by the set to its Machines: JSON `{reason, message}`
   * of why its Machines are out of date (the current set's rollout reason); the Machine's UpToDate
   * condition reports it. Removed when the set is current again (a rollback).
   */
  outdated: `${API_GROUP}/outdated`,
  /**
   * On a MachineSet or MachineDeployment: JSON of the cluster-autoscaler capacity annotations its
   * controller copied from the MachineClass, so it never changes one someone else wrote.
   */
  classCapacity: `${API_GROUP}/class-capacity`,
  /**
   * On a Machine: its place in the launch its set batched it into, `<group>/<index>/<size>`
   * (src/api/launch-group.ts): the instances of one group come from one EC2 call.
   */
  launchGroup: `${API_GROUP}/launch-group`,
  /** On a MachineSet: `"false"` launches each of its Machines on its own (no launch groups). */
  launchGroups: `${API_GROUP}/launch-groups`,
} as const

/** Every label key machine-api owns. */
export const LABELS = {
  /** Ties a MachineSet's Machines to it when the user gave no selector. */
  setName: `${API_GROUP}/set-name`,
  /** Ties a MachineDeployment's MachineSets and Machines to it when the user gave no selector. */
  deploymentName: `${API_GROUP}/deployment-name`,
  /** On a MachineDeployment's MachineSets and their Machines: the hash of their template. */
  templateHash: `${API_GROUP}/template-hash`,
  /** On a Machine: a digest of its providerID, so a joining Node finds it with one filtered list. */
  providerIdHash: `${API_GROUP}/provider-id-hash`,
  /** On a Pod: `skip` leaves it on a drain, `wait-completed` waits for it to finish. */
  drain: `${API_GROUP}/drain`,
  /** On a Node: simulated by the kwok provider. */
  simulated: `${API_GROUP}/simulated`,
  /** On a Node: registered by the dev EC2 Node simulator, which deletes only what it marked. */
  simulatedBy: `${API_GROUP}/simulated-by`,
  /** On a Machine: the launch group it belongs to, so a group's instance finds its Machine. */
  launchGroup: `${API_GROUP}/launch-group`,
} as const

/** Every finalizer machine-api owns. A finalizer never shares its key with an annotation. */
export const FINALIZERS = {
  /** Holds a Machine until its instance and its Node are gone (Machine controller). */
  machineCleanup: `${API_GROUP}/machine-cleanup`,
  /**
   * The Machine finalizer of earlier versions, the same string as the Node annotation naming a
   * Node's Machine. Still honoured on Machines that carry it, and replaced on the next reconcile.
   */
  legacyMachine: `${API_GROUP}/machine`,
} as const

/**
 * Keys machine-api puts on the infrastructure behind a Machine (EC2 tags, labels of simulated
 * Nodes): how a provider finds what a crashed create launched and what the orphan sweep owns.
 */
export const INFRA_KEYS = {
  machineUid: `${API_GROUP}/machine-uid`,
  machineName: `${API_GROUP}/machine-name`,
  machineNamespace: `${API_GROUP}/machine-namespace`,
  /** Value: the deployment's owner id; the orphan sweep only considers its own. */
  owner: `${API_GROUP}/owner`,
  /** On the instances of a launch group: the group id (the Machines' label of the same key). */
  launchGroup: `${API_GROUP}/launch-group`,
} as const
