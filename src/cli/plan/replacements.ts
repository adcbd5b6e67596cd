/**
 * @module The replacement preview of `plan`: which Machines the controllers would replace now and
 * why (Drift, Expiry or Rollout), which of them start in this pass and which wait, for a
 * disruption budget (naming it and when its window changes) or for the strategy's bounds. Pure:
 * the same planners as the controllers, at the time given.
 */
import type { DisruptionReason } from '../../api/shared/disruption'
import { type ExpiryAllowance, readExpiryAllowance } from '../../reconcile/disruption/allowance'
import { describeBudget } from '../../reconcile/disruption/budgets'
import type { MachineDeploymentObject } from '../../reconcile/machine-deployment/machine-sets'
import { planMachineDeployment } from '../../reconcile/machine-deployment/plan'
import { pickVictims } from '../../reconcile/machine-set/delete-order'
import { planExpiry } from '../../reconcile/machine-set/expiry'
import {
  isControlledBy,
  isDeleting,
  type MachineObject,
  type MachineSetObject,
} from '../../reconcile/machine-set/types'

/** One Machine the controllers would replace. */
export interface ReplacementPreview {
  machine: string
  set: string
  reason: DisruptionReason
  /** Why, in a human's words. */
  detail: string
  /** Its replacement starts in the controllers' next pass. */
  now: boolean
  /** What holds it when not now: a budget (with until) or the strategy's bounds. */
  waitsFor?: string
}

const live = (machines: MachineObject[], set: MachineSetObject) =>
  machines.filter((m) => isControlledBy(m, set.metadata.uid) && !isDeleting(m))

/** The expired Machines of `set` under `allowance` at `now`. */
function expiryPreview(
  set: MachineSetObject,
  machines: MachineObject[],
  allowance: ExpiryAllowance,
  now: Date,
): ReplacementPreview[] {
  const plan = planExpiry({
    owned: machines.filter((m) => isControlledBy(m, set.metadata.uid)),
    replicas: set.spec.replicas ?? 0,
    expireAfter: set.spec.template.spec.expireAfter,
    minReadySeconds: set.spec.minReadySeconds ?? 0,
    now,
    allowance,
    leaving: new Set(),
  })
  const moving = plan.delete.length + plan.started
  const waitsFor =
    plan.held > 0
      ? `${allowance.budget ?? 'one at a time'} (allows ${allowance.allowed})${allowance.until ? ` until ${allowance.until}` : ''}`
      : 'its replacement to become available'
  return plan.expired.map((m, i) => ({
    machine: m.metadata.name,
    set: set.metadata.name,
    reason: 'Expiry' as const,
    detail: `created ${m.metadata.creationTimestamp}, older than expireAfter ${set.spec.template.spec.expireAfter}`,
    now: i < moving,
    ...(i < moving ? {} : { waitsFor }),
  }))
}

/** The preview for a MachineSet on its own (its expiry allowance from its annotation). */
export function previewSetReplacements(
  set: MachineSetObject,
  machines: MachineObject[],
  now: Date,
): ReplacementPreview[] {
  return expiryPreview(set, machines, readExpiryAllowance(set.metadata.annotations), now)
}

/** The preview for a MachineDeployment over its sets and Machines at `now`. */
export function previewDeploymentReplacements(
  md: MachineDeploymentObject,
  sets: MachineSetObject[],
  machines: MachineObject[],
  now: Date,
): ReplacementPreview[] {
  const plan = planMachineDeployment({ deployment: md, sets: structuredClone(sets), now })
  const current = plan.current
  if (!current) return []
  const out: ReplacementPreview[] = []
  const disruption = plan.disruption
  const reason = disruption?.rollout.reason ?? 'Rollout'
  // Each surge Machine or available old Machine scaled down this pass starts one replacement.
  let starting = 0
  for (const action of plan.actions) {
    if (action.type === 'scale-set')
      starting += Math.abs(action.to - (action.set.spec.replicas ?? 0))
    if (action.type === 'create-set') starting += action.set.spec.replicas ?? 0
  }
  const evaluation = disruption?.rollout.evaluation
  const budget = md.spec.disruption?.budgets?.[evaluation?.index ?? -1]
  const held =
    disruption?.rolloutHeld && budget && evaluation?.index !== undefined
      ? `${describeBudget(budget, evaluation.index)}${evaluation.changesAt ? ` until ${evaluation.changesAt.toISOString()}` : ''}`
      : 'maxSurge/maxUnavailable: replacements in flight to finish'
  const olds = sets.filter((s) => s.metadata.name !== current.metadata.name && !isDeleting(s))
  const policy = md.spec.strategy?.rollingUpdate?.deletePolicy ?? 'Random'
  for (const set of olds) {
    const mine = live(machines, set)
    for (const m of pickVictims(mine, mine.length, policy)) {
      const starts = starting > 0 && md.spec.strategy?.type !== 'OnDelete'
      if (starts) starting -= 1
      out.push({
        machine: m.metadata.name,
        set: set.metadata.name,
        reason,
        detail: `MachineSet ${set.metadata.name} is not the current template's (${current.metadata.name})`,
        now: starts,
        ...(starts
          ? {}
          : {
              waitsFor:
                md.spec.strategy?.type === 'OnDelete' ? 'OnDelete: someone to delete it' : held,
            }),
      })
    }
  }
  const currentSet = sets.find((s) => s.metadata.name === current.metadata.name)
  if (currentSet && disruption) {
    out.push(...expiryPreview(currentSet, machines, disruption.expiry, now))
  }
  return out
}

/** The preview as text lines (empty when nothing would be replaced). */
export function renderReplacements(previews: ReplacementPreview[]): string[] {
  if (previews.length === 0) return []
  const lines = ['Replacements (as of now):']
  for (const p of previews) {
    const when = p.now ? 'replaced now' : `waits for ${p.waitsFor}`
    lines.push(`  Machine ${p.machine} (MachineSet ${p.set}): ${p.reason}, ${p.detail}: ${when}`)
  }
  return lines
}
