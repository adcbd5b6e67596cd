/** @module The text form of a plan: one numbered step per MachineDeployment decision. */
import { renderReplacements } from './replacements'
import type { PlanEntry, PlanReport } from './steps'

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/** One entry as a line. */
export function describeEntry(entry: PlanEntry): string {
  switch (entry.type) {
    case 'rollback':
      return `roll back the template to revision ${entry.revision}`
    case 'create-set':
      return `create MachineSet ${entry.set} (revision ${entry.revision}) with ${plural(entry.replicas, 'replica')}`
    case 'scale-set':
      return `scale ${entry.to > entry.from ? 'up' : 'down'} MachineSet ${entry.set} from ${entry.from} to ${entry.to}`
    case 'update-set':
      return `update MachineSet ${entry.set} in place: ${entry.fields.join(', ')}`
    case 'delete-set':
      return `delete old MachineSet ${entry.set} (beyond revisionHistoryLimit)`
    case 'create-machine':
      return `create Machine ${entry.machine} (MachineSet ${entry.set})`
    case 'delete-machine':
      return `delete Machine ${entry.machine} (MachineSet ${entry.set}; ${entry.reason})`
    case 'update-machine':
      return `update Machine ${entry.machine} in place: ${entry.fields.join(', ')}`
    case 'adopt-machine':
      return `adopt Machine ${entry.machine} into MachineSet ${entry.set}`
    case 'release-machine':
      return `release Machine ${entry.machine} from MachineSet ${entry.set}`
    default: {
      const never: never = entry
      return JSON.stringify(never)
    }
  }
}

/** The whole plan as text, ending with a newline. */
export function renderPlan(report: PlanReport): string {
  const lines = [
    `${report.kind} ${report.namespace}/${report.name}${report.exists ? '' : ' (new)'}: ${plural(report.steps.length, 'step')}`,
  ]
  if (report.steps.length === 0) lines.push('  no changes: the controllers would do nothing')
  report.steps.forEach((step, i) => {
    lines.push(`Step ${i + 1}:`)
    for (const entry of step.entries) lines.push(`  ${describeEntry(entry)}`)
  })
  lines.push('Result:')
  for (const set of report.final) {
    lines.push(
      `  MachineSet ${set.set}: ${plural(set.replicas, 'replica')}, ${plural(set.machines, 'Machine')}`,
    )
  }
  if (!report.converged) {
    lines.push('  (stopped: the simulation did not converge; a disruption budget may hold it)')
  }
  lines.push(...renderReplacements(report.replacements ?? []))
  lines.push(
    '',
    'Assumes each created Machine becomes available and each deleted Machine is gone before the next step.',
    'Machines of a MachineSet that does not exist yet are shown as <new-N>: their names derive from its uid.',
    'Nothing was changed.',
  )
  return `${lines.join('\n')}\n`
}
