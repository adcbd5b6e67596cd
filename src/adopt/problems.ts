/**
 * @module What stops an adoption: a field machine-api cannot translate, a missing instance, an
 * instance or Node another Machine owns. Each names the object and the field path, so the message
 * says what to fix; `--force <path>` (or `<object>:<path>`) accepts a field that only loses a
 * setting (never an ownership conflict or a missing instance).
 */

/** One reason not to adopt. */
export interface AdoptionProblem {
  /** The object, as `Kind.group/namespace/name` (or `instance i-...`). */
  object: string
  /** The field path within it, e.g. `spec.template.spec.ami.eksLookupType`. */
  path: string
  message: string
  /** True when `--force <path>` may accept it: dropping the field loses a setting, nothing else. */
  forcible: boolean
  /**
   * True when the adoption's own release makes it (a set whose Machines were released first, the
   * run then killed): moot once the unit's target, made from this source, exists.
   */
  leftByRelease?: true
}

/** A field that has no machine-api equivalent: forcible (it is dropped). */
export function untranslatable(object: string, path: string, message: string): AdoptionProblem {
  return { object, path, message, forcible: true }
}

/** A problem no flag accepts. */
export function blocking(object: string, path: string, message: string): AdoptionProblem {
  return { object, path, message, forcible: false }
}

/** The problems that still stop the adoption once `force` (field paths) accepted what it names. */
export function standingProblems(
  problems: readonly AdoptionProblem[],
  force: readonly string[],
): AdoptionProblem[] {
  return problems.filter(
    (p) => !(p.forcible && (force.includes(p.path) || force.includes(`${p.object}:${p.path}`))),
  )
}

/** One line per problem: `object: path: message`. */
export function formatProblem(problem: AdoptionProblem): string {
  const hint = problem.forcible
    ? ` (--force ${problem.object}:${problem.path} accepts dropping it)`
    : ''
  return `${problem.object}: ${problem.path}: ${problem.message}${hint}`
}
