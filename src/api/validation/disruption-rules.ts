/**
 * @module Rules of a MachineDeployment's disruption budgets beyond the schema: a schedule croner
 * parses and that fires at all, schedule and duration together, a window longer than 0, reasons
 * named once.
 */
import type { DisruptionBudget } from '../shared/disruption'
import { parseDurationMs } from '../shared/duration'
import { parseSchedule } from '../shared/schedule'
import { validateDuration } from './duration-rules'
import type { FieldError } from './field-errors'

/** Errors of `budgets` (spec.disruption.budgets) with their field paths. */
export function validateDisruptionBudgets(
  budgets: readonly DisruptionBudget[] | undefined,
  path = 'spec.disruption.budgets',
): FieldError[] {
  return (budgets ?? []).flatMap((budget, index) => budgetErrors(budget, `${path}[${index}]`))
}

function budgetErrors(budget: DisruptionBudget, path: string): FieldError[] {
  const errors: FieldError[] = []
  if (budget.schedule !== undefined && budget.duration === undefined) {
    errors.push({
      path: `${path}.duration`,
      message: 'Required value: a schedule needs a duration',
    })
  }
  if (budget.duration !== undefined && budget.schedule === undefined) {
    errors.push({
      path: `${path}.schedule`,
      message: 'Required value: a duration needs a schedule',
    })
  }
  if (budget.schedule !== undefined) errors.push(...scheduleErrors(budget.schedule, path))
  if (budget.duration !== undefined) {
    if (parseDurationMs(budget.duration) === 0) {
      errors.push({
        path: `${path}.duration`,
        message: `Invalid value: ${JSON.stringify(budget.duration)}: a window must last more than 0`,
      })
    }
    errors.push(...validateDuration(budget.duration, `${path}.duration`))
  }
  const seen = new Set<string>()
  budget.reasons?.forEach((reason, i) => {
    if (seen.has(reason)) {
      errors.push({
        path: `${path}.reasons[${i}]`,
        message: `Duplicate value: ${JSON.stringify(reason)}`,
      })
    }
    seen.add(reason)
  })
  return errors
}

function scheduleErrors(schedule: string, path: string): FieldError[] {
  const at = `${path}.schedule`
  const value = JSON.stringify(schedule)
  try {
    // A fixed reference keeps admission deterministic; "never fires" only depends on the pattern.
    if (parseSchedule(schedule).nextRun(new Date(0)) === null) {
      return [{ path: at, message: `Invalid value: ${value}: the schedule never fires` }]
    }
    return []
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^CronPattern: /, '') : ''
    return [
      {
        path: at,
        message: `Invalid value: ${value}: not a 5-field cron schedule in UTC (minute hour day-of-month month day-of-week, or @daily/@weekly/...): ${reason}`,
      },
    ]
  }
}
