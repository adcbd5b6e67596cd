/**
 * @module The (Context, Machine) actuator port every provider implements. There is no cluster
 * anywhere: a provider sees one Machine, its resolved provider spec and a few injected services.
 */
import type { Clock } from '../clock'
import type { KubeClient } from '../kube/kube-client'
import type { Logger } from '../observability/logger'

/** A JSON value, as stored in `status.providerStatus`. */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | JsonValue[]
  | { [key: string]: JsonValue | undefined }

/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue | undefined }

/**
 * The Machine as a provider sees it: a structural subset of the Machine resource, so the full API
 * type (`src/api`) is assignable to it once name, namespace and uid are known to be set.
 */
export interface ActuatorMachine {
  metadata: {
    name: string
    namespace: string
    /** Stable for the Machine's lifetime; providers derive idempotency tokens and tags from it. */
    uid: string
    labels?: Record<string, string> | undefined
    annotations?: Record<string, string> | undefined
    /** Set once the Machine is being deleted: `exists` may then look for work a create left. */
    deletionTimestamp?: string | undefined
  }
  spec: {
    /** Set once, after the first successful create; may be missing after a crash. */
    providerID?: string | undefined
    /** The zone the Machine must run in (a MachineSet's balanced choice), when set. */
    failureDomain?: string | undefined
  }
  status?:
    | {
        providerStatus?: unknown
      }
    | undefined
}

/** A Kubernetes `NodeAddress` type. */
export type NodeAddressType =
  | 'Hostname'
  | 'InternalIP'
  | 'ExternalIP'
  | 'InternalDNS'
  | 'ExternalDNS'

/** A Kubernetes `NodeAddress`. */
export interface NodeAddress {
  type: NodeAddressType
  address: string
}

/** What `create` and `update` report about the infrastructure behind a Machine. */
export interface ProviderResult {
  /** The Node's `spec.providerID` once it joins, e.g. `aws:///eu-west-1a/i-0abc`. */
  providerID: string
  addresses: NodeAddress[]
  /** Provider-specific, secret-free observations for `status.providerStatus`. */
  providerStatus: JsonObject
  /**
   * The name the instance's Node has or will register under, when the provider knows it (kwok:
   * the Node it wrote; aws: the private DNS name). Node linking then GETs that one Node instead
   * of paging through all of them; a provider that cannot know it leaves it out.
   */
  nodeName?: string
  /**
   * The secret-free facts `exists` and `delete` need to reach this instance later without the
   * provider spec (aws: the region and the credentials Secret's name; kwok: none, `{}`). The
   * Machine controller records them with the instance and, while the Machine is deleted, calls
   * with them (`ActuatorContext.access`) instead of reading the MachineClass again. Left out, every
   * call gets the spec, read fresh.
   */
  access?: JsonObject
  /**
   * Set while the instance is still changing state (e.g. EC2 `pending`), so the caller polls
   * again after this delay instead of waiting for the next sweep.
   */
  requeueAfterMs?: number
}

/** What `delete` reports: done, or still going away (poll again after `requeueAfterMs`). */
export interface DeleteResult {
  /** True once the instance is gone (terminated or never existed). */
  done: boolean
  requeueAfterMs?: number
}

/**
 * Reads one key of a Secret in the Machine's namespace. The caller implements it against the
 * Kubernetes API; providers never see a client. Resolves undefined when the Secret or key is absent.
 */
export interface SecretReader {
  readSecret(name: string, key: string): Promise<Uint8Array | undefined>
}

/** Records a Kubernetes Event on the Machine. Messages must never contain secrets or user data. */
export interface EventRecorder {
  record(type: 'Normal' | 'Warning', reason: string, message: string): void
}

/** A reference to a Secret in the Machine's namespace (and optionally one key of it). */
export interface SecretRef {
  name: string
  key?: string | undefined
}

/** Where and how an instance runs: what a cloud may have no capacity for at a time. */
export interface Offering {
  instanceType: string
  zone: string
  /** e.g. `spot` or `on-demand`. */
  capacityType: string
}

/** An offering found without capacity, until when the finding holds, and the cloud's reason. */
export interface UnavailableOffering extends Offering {
  /** RFC 3339. */
  expiresAt: string
  /** The cloud's error code, e.g. `InsufficientInstanceCapacity`. */
  reason: string
}

/**
 * The memory of unavailable offerings shared by the Machines of one MachineClass (its status), so
 * a sibling, or another worker, skips an offering one launch found without capacity.
 */
export interface OfferingMemory {
  /** Offerings the class records as unavailable (expired ones may be included; skip them). */
  unavailable: readonly UnavailableOffering[]
  /**
   * Records what one launch found: misses (remembered for the class's TTL) and the offering that
   * launched (forgotten, capacity is back). Best effort: a failure is logged, never thrown.
   */
  record(outcome: {
    missed: readonly (Offering & { reason: string })[]
    launched?: Offering
  }): Promise<void>
}

/** Everything a provider call may use besides the Machine itself. */
export interface ActuatorContext {
  /**
   * The resolved provider spec: the Machine's inline `providerSpec.value`, or the referenced
   * MachineClass's `providerSpec`. Raw JSON: each provider parses it with its own schema.
   */
  providerSpec: unknown
  /**
   * Instead of the spec: the facts an earlier `create` or `update` reported in
   * `ProviderResult.access`. Set only for `exists` and `delete` of a Machine being deleted; the
   * spec and the class's Secret refs are then absent.
   */
  access?: JsonObject | undefined
  /** The MachineClass's `credentialsSecretRef`, when the spec came from a class. */
  credentialsSecretRef?: SecretRef | undefined
  /** The MachineClass's `userDataSecretRef`, when the spec came from a class. */
  userDataSecretRef?: SecretRef | undefined
  /**
   * The image the MachineClass published (`status.image.id`) when it follows the newest image
   * matching its filters: a provider launches it instead of resolving the filters per Machine.
   */
  image?: string | undefined
  secrets: SecretReader
  logger: Logger
  events: EventRecorder
  /** Aborted when the invocation runs out of time; providers pass it to every remote call. */
  signal: AbortSignal
  clock: Clock
  /**
   * The calling reconcile's Kubernetes client: for providers whose instances are Kubernetes
   * objects (kwok's Nodes), so their reads and writes are the reconcile's own, read once per run
   * and coherent with what the reconcile then reads (src/kube/read-once.ts). Cloud providers
   * (aws) ignore it.
   */
  kube: KubeClient
  /** The class's memory of unavailable offerings; absent for a Machine without a class. */
  offerings?: OfferingMemory | undefined
}

/**
 * The provider port. Every method is idempotent and may run concurrently with itself for the same
 * Machine; failures are thrown as the typed errors of `src/errors.ts` (kinds in `./errors`).
 */
export interface Actuator {
  /** Whether live infrastructure backs the Machine (found by providerID, else by Machine UID). */
  exists(ctx: ActuatorContext, machine: ActuatorMachine): Promise<boolean>
  /** Creates the infrastructure, or adopts what an earlier (crashed) attempt created. */
  create(ctx: ActuatorContext, machine: ActuatorMachine): Promise<ProviderResult>
  /** Observes (and where supported reconciles) existing infrastructure. */
  update(ctx: ActuatorContext, machine: ActuatorMachine): Promise<ProviderResult>
  /** Starts or continues removal; done when nothing is left. Missing infrastructure is success. */
  delete(ctx: ActuatorContext, machine: ActuatorMachine): Promise<DeleteResult>
}
