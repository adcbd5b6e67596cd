/**
 * @module `--controllers` selection: an operator runs only some layers (e.g. Machine and
 * MachineHealthCheck without MachineSets). Layers only read downwards, so any subset works.
 */
import { type Controller, controllerName, type ReconcileDeps } from './controller'

/**
 * The controllers named in `selection` (comma-separated lowercase kinds; empty or `*` = all).
 * Throws on an unknown name so a typo fails at start instead of silently reconciling nothing.
 */
export function selectControllers<D extends ReconcileDeps>(
  all: readonly Controller<D>[],
  selection: string | undefined,
): Controller<D>[] {
  const names = (selection ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== '')
  if (names.length === 0 || names.includes('*')) return [...all]
  const byName = new Map(all.map((c) => [controllerName(c), c]))
  const unknown = names.filter((n) => !byName.has(n))
  if (unknown.length > 0) {
    const known = [...byName.keys()].join(', ') || '(none registered)'
    throw new Error(`unknown controller(s) ${unknown.join(', ')}; known: ${known}`)
  }
  return [...new Set(names)].flatMap((n) => {
    const controller = byName.get(n)
    return controller ? [controller] : []
  })
}
