/**
 * @module The writes around a pass's name claim (name-claims.ts): the claim before any create,
 * the check of a list that may be older than a done claim, and the done mark after the creates.
 */
import { machineApiTypes } from '../../api/resource-types'
import { hasKubeReason } from '../../kube/errors'
import type { KubeClient } from '../../kube/kube-client'
import { writeStatus } from '../runtime/status-write'
import { listMayMissDoneCreates, type NameClaim, withClaimDone } from './name-claims'
import type { MachineSetAction, MachineSetPlan } from './plan'
import { isControlledBy, isDeleting, type MachineObject, type MachineSetObject } from './types'

type SetObject = MachineSetObject & { [k: string]: unknown }

/**
 * Records the names this pass hands out (`status.nextMachineIndex` and the claim) before any
 * Machine is created, conditional on the set as read: a concurrent pass that planned the same
 * names, or a pass whose set changed since it was read, gets Conflict here and creates nothing
 * (the runner retries it at once). A crash after the record only skips those names. Returns the
 * set as written.
 */
export async function claimMachineNames(
  kube: KubeClient,
  set: SetObject,
  names: MachineSetPlan['names'],
): Promise<SetObject> {
  if (!names) return set
  return await writeStatus(kube, machineApiTypes.machineSet, {
    observed: set,
    status: names.status,
  })
}

/**
 * The actions without one create per Machine of the set that a list taken now shows and the
 * pass's first list (`listed`) did not. The Machines are listed before the set is read, so a
 * concurrent pass may have created Machines and marked its claim done in between: its Machines
 * are then neither listed nor pending. Only a live done claim makes that possible, so only then
 * is the namespace listed again.
 */
export async function withoutCreatesSeenSince(
  relist: () => Promise<MachineObject[]>,
  set: SetObject,
  listed: readonly MachineObject[],
  actions: MachineSetAction[],
  now: Date,
): Promise<MachineSetAction[]> {
  if (!actions.some((a) => a.type === 'create')) return actions
  if (!listMayMissDoneCreates(set.status?.nameClaims, now)) return actions
  const before = new Set(listed.map((m) => m.metadata.uid))
  const since = (await relist()).filter(
    (m) => !before.has(m.metadata.uid) && isControlledBy(m, set.metadata.uid) && !isDeleting(m),
  ).length
  let drop = since
  const kept: MachineSetAction[] = []
  for (const action of [...actions].reverse()) {
    if (action.type === 'create' && drop > 0) drop -= 1
    else kept.push(action)
  }
  return kept.reverse()
}

const doneMarkAttempts = 5

/**
 * Marks `claim` done on the set once its creates ran, reading the set again when the write loses
 * to another (a few times; past that the claim expires on its own). Without the mark, a name
 * whose Machine failed to be created or was deleted at once would count as a Machine being
 * created until the claim expired, holding its replacement back.
 */
export async function markClaimDone(
  kube: KubeClient,
  set: SetObject,
  claim: NameClaim,
): Promise<void> {
  let observed: SetObject | undefined = set
  for (let attempt = 1; observed; attempt++) {
    const nameClaims = withClaimDone(observed.status?.nameClaims, claim)
    if (!nameClaims) return
    try {
      await writeStatus(kube, machineApiTypes.machineSet, { observed, status: { nameClaims } })
      return
    } catch (error) {
      if (attempt >= doneMarkAttempts || !hasKubeReason(error, 'Conflict')) throw error
    }
    observed = await kube.get<SetObject>(machineApiTypes.machineSet, {
      namespace: set.metadata.namespace,
      name: set.metadata.name,
    })
  }
}
